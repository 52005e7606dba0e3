// What the events cache remembers so no view has to: a failure (read by the
// tree model, VisibleLoads and the serial statuses), misses of the stored copy
// (answered from memory, the store asked once), and refused credentials
// (reported once per refused request, from the cache alone).

import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Emitter } from '../../../src/core/common/emitter';
import { cancelledError } from '../../../src/core/client/errors';
import { ApiError } from '../../../src/core/client/errors';
import type { EventsResult, GetEventsOptions } from '../../../src/core/client/model';
import { DEFAULT_EVENT_STATE_RULES } from '../../../src/core/domain/events/eventState';
import type { SessionState } from '../../../src/core/domain/session/sessionState';
import { SerialStatuses } from '../../../src/extension/editor/serialStatuses';
import { serialStatusOf } from '../../../src/extension/editor/statusText';
import { EventsCache, type ResultStore } from '../../../src/core/eventsCache/eventsCache';
import { FileResultStore } from '../../../src/core/eventsCache/fileResultStore';
import { MachineLists } from '../../../src/extension/machines/machineLists';
import { MachinesModel } from '../../../src/extension/machines/machinesModel';
import { SeenTracker } from '../../../src/extension/machines/seenTracker';
import type { ApiSession } from '../../../src/extension/workbench/contracts/apiSession';
import type { Log } from '../../../src/extension/workbench/log';
import type { SettingsChange, SettingsReader } from '../../../src/extension/workbench/settings';
import { event, loaded, MemoryStore, result, SERIAL } from '../machines/fixtures';

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** The session, signed in, as the serial statuses see it. */
function signedInSession(): ApiSession {
  const state: SessionState = {
    kind: 'signed-in',
    environment: { id: 'env', name: 'Test', apiBaseUrl: 'https://api.test', authUrl: 'https://auth.test', clientId: 'c', username: 'u' },
  };
  return {
    state,
    onDidChangeState: new Emitter<SessionState>().event,
    client: () => undefined,
    reportCredentialsRejected: () => undefined,
    environments: () => [state.environment],
    onDidChangeEnvironments: new Emitter<void>().event,
    dispose: () => undefined,
  };
}

describe('Events cache memory', () => {
  it('a failure is remembered once, and the tree model, VisibleLoads and the serial statuses read it from the cache', async () => {
    let requests = 0;
    const cache = new EventsCache({
      source: () => ({
        getEvents: () => {
          requests++;
          return Promise.reject(new ApiError('not-found', { kind: 'invalid-input', text: () => 'No machine with this serial number.' }));
        },
      }),
      freshForMs: () => 60_000,
    });
    const store = new MemoryStore();
    const lists = new MachineLists({ pinnedStore: () => store, recentStore: store });
    await lists.pin(SERIAL);
    const model = new MachinesModel({
      events: cache,
      lists,
      seen: new SeenTracker(store, () => 'env'),
      settings: () => ({
        maxEvents: 5,
        concurrency: 2,
        timestampUnit: 'auto',
        workspaceScanEnabled: false,
        hasWorkspace: false,
        eventStates: DEFAULT_EVENT_STATE_RULES,
      }),
      signedIn: () => true,
    });
    const settingsReader = {
      value: { cacheSeconds: 60, eventStates: DEFAULT_EVENT_STATE_RULES },
      onDidChange: new Emitter<SettingsChange>().event,
    } as unknown as SettingsReader;
    const log = { warn: () => undefined } as unknown as Log;
    const statuses = new SerialStatuses({ session: signedInSession(), events: cache, settings: settingsReader, log });
    try {
      assert.equal(statuses.stateOf(SERIAL), undefined, 'nothing known yet');

      await model.load(SERIAL, false);
      assert.equal(requests, 1);
      assert.equal(cache.failure(SERIAL)?.error.message, 'No machine with this serial number.');

      // The tree: an error row, and no new request on render.
      assert.equal(model.failureOf(SERIAL), cache.failure(SERIAL));
      assert.equal(model.summary(SERIAL).state, 'error');
      model.ensureLoaded(SERIAL);
      // The inline status: VisibleLoads does not ask again within the period, and the state shows the failure.
      statuses.show([SERIAL]);
      await settle();
      assert.equal(requests, 1, 'the inline status sent no request of its own');
      const expected = serialStatusOf(undefined, 'not-found', DEFAULT_EVENT_STATE_RULES);
      assert.ok(expected !== undefined);
      assert.deepEqual(statuses.stateOf(SERIAL), expected);
      await loaded(model);
      assert.equal(requests, 1, 'one request, one failure, read three ways');
    } finally {
      statuses.dispose();
      model.dispose();
    }
  });

  it('the shared request is aborted when the last waiter leaves, not before', async () => {
    const signals: AbortSignal[] = [];
    const cache = new EventsCache({
      source: () => ({
        getEvents: (_serial: string, { signal }: GetEventsOptions = {}) =>
          new Promise<EventsResult>((_resolve, reject) => {
            if (signal === undefined) throw new Error('the cache always sends a signal');
            signals.push(signal);
            signal.addEventListener(
              'abort',
              () => {
                reject(cancelledError());
              },
              { once: true },
            );
          }),
      }),
      freshForMs: () => 60_000,
    });
    const callers = [new AbortController(), new AbortController(), new AbortController()];
    const waits = callers.map((caller) => cache.get(SERIAL, { signal: caller.signal }).catch((error: unknown) => error));
    assert.equal(signals.length, 1, 'one request for three callers');
    const [request] = signals;
    assert.ok(request);
    callers[0]?.abort();
    callers[1]?.abort();
    await settle();
    assert.equal(request.aborted, false, 'one caller still waits');
    assert.equal(cache.loading(SERIAL), true);
    callers[2]?.abort();
    await Promise.all(waits);
    assert.equal(request.aborted, true, 'nobody waits: the request is aborted');
    assert.equal(cache.loading(SERIAL), false);
    assert.equal(cache.failure(SERIAL), undefined, 'an abandoned request is no failure');
  });

  it('peek never waits for the disk: a miss is answered from memory and the store is asked once per serial number', async () => {
    const asked: string[] = [];
    let answer: (stored: EventsResult | undefined) => void = () => undefined;
    const store: ResultStore = {
      load: (serialNumber) => {
        asked.push(serialNumber);
        return new Promise((resolve) => (answer = resolve));
      },
      save: () => undefined,
    };
    const cache = new EventsCache({ source: () => undefined, freshForMs: () => 60_000, store });
    const updated: string[] = [];
    cache.onDidUpdate((serial) => updated.push(serial));
    for (let i = 0; i < 5; i++) assert.equal(cache.peek(SERIAL), undefined);
    assert.deepEqual(asked, [SERIAL], 'one read through the store seam, however often it is peeked');
    answer(result([event({ minute: 0 })]));
    await settle();
    assert.deepEqual(updated, [SERIAL], 'the stored copy arrives as an update');
    assert.equal(cache.peek(SERIAL)?.stale, true);
    assert.deepEqual(asked, [SERIAL]);
  });

  it('the file store answers a serial number it does not list from memory, without opening a file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'oe-index-'));
    const writer = new FileResultStore({ directory: dir, scope: () => 'env-1' });
    writer.save(result([event({ minute: 0 })]));
    await writer.flush();
    let reported = 0;
    const store = new FileResultStore({ directory: dir, scope: () => 'env-1', onError: () => reported++ });
    assert.equal((await store.load(SERIAL))?.events.length, 1, 'a listed file is read');
    // A damaged file where OTHER-1's copy would be, written behind the listing's back: never opened.
    const damaged = join(
      dirname(join(dir, await firstFile(dir))),
      `${createHash('sha256').update('serial:OTHER-1').digest('hex').slice(0, 32)}.json`,
    );
    writeFileSync(damaged, '{ not json');
    assert.equal(await store.load('OTHER-1'), undefined);
    assert.equal(reported, 0, 'a miss is answered from the listing');
    const listingAfresh = new FileResultStore({ directory: dir, scope: () => 'env-1', onError: () => reported++ });
    assert.equal(await listingAfresh.load('OTHER-1'), undefined);
    assert.equal(reported, 1, 'listed, the damaged file is opened (and reported)');
  });

  it('reports refused credentials from the cache, once per refused request, and not for a replaced sign-in', async () => {
    let reports = 0;
    let fail: (error: Error) => void = () => undefined;
    const source = {
      getEvents: () =>
        new Promise<EventsResult>((_resolve, reject) => {
          fail = reject;
        }),
      fetchLink: () =>
        Promise.reject(new ApiError('invalid-credentials', { kind: 'invalid-input', text: () => 'The API rejected the credentials.' })),
    };
    const cache = new EventsCache({ source: () => source, freshForMs: () => 60_000, onCredentialsRejected: () => reports++ });
    const refused = (): ApiError =>
      new ApiError('invalid-credentials', { kind: 'invalid-input', text: () => 'The API rejected the credentials.' });

    const joined = [cache.get(SERIAL), cache.get(SERIAL)].map((call) => call.catch(() => undefined));
    fail(refused());
    await Promise.all(joined);
    assert.equal(reports, 1, 'one refused request, however many callers waited for it');

    await assert.rejects(cache.fetchLink('https://api.test/machines/1'));
    assert.equal(reports, 2, "details' fetch is reported by the cache too");

    const late = cache.get(SERIAL).catch(() => undefined);
    cache.clear();
    fail(refused());
    await late;
    assert.equal(reports, 2, 'an answer to a request of the previous sign-in reports nothing');
  });
});

async function firstFile(dir: string): Promise<string> {
  const { readdir } = await import('node:fs/promises');
  const names = await readdir(dir, { recursive: true, encoding: 'utf8' });
  const name = names.find((entry) => entry.endsWith('.json'));
  assert.ok(name !== undefined);
  return name.replace(/\\/g, '/');
}
