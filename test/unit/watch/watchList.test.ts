import * as assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiError } from '../../../src/core/client/errors';
import type { EventsResult, OnboardingEvent } from '../../../src/core/client/model';
import { DEFAULT_EVENT_STATE_RULES } from '../../../src/core/domain/events/eventState';
import { DEFAULT_WATCH_TIMING, MAX_WATCHES } from '../../../src/core/domain/watch/watchRules';
import { EventsCache } from '../../../src/core/eventsCache/eventsCache';
import { FileClaims } from '../../../src/core/common/claims';
import { WatchList, WATCHES_KEY, type WatchEnded, type WatchListOptions, type WatchStore } from '../../../src/extension/watch/watchList';
import { LineHistory } from '../../../src/core/domain/progress/lineHistory';
import { machineProgress } from '../../../src/core/domain/progress/machineProgress';
import { drain, FakeClock } from '../../support/watch/fakeClock';
import { event, MINUTE, T0 } from '../machines/fixtures';

const SERIAL = 'MX-4711-A0023';
const OTHER = 'KRP-0815-B0001';

/** What the lists asked of what this test gave them (a request, a store write, a claim on disk) and is not done yet. */
const inFlight = new Set<Promise<unknown>>();

function tracked<T>(work: Promise<T>): Promise<T> {
  inFlight.add(work);
  const done = (): void => void inFlight.delete(work);
  work.then(done, done);
  return work;
}

/** Resolves once every poll has finished: nothing it asked for is pending and its continuations have run. */
async function settled(): Promise<void> {
  for (;;) {
    await drain();
    if (inFlight.size === 0) return;
    await Promise.allSettled([...inFlight]);
  }
}

class MemoryStore implements WatchStore {
  readonly values = new Map<string, unknown>();
  /**
   * Updates still to be undone before they resolve, as VS Code's globalState
   * does when the echo of an earlier write replaces its copy before this
   * update is sent (microsoft/vscode#137132).
   */
  dropping = 0;
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the shape of vscode.Memento.get
  get<T>(key: string): T | undefined {
    return structuredClone(this.values.get(key)) as T | undefined;
  }
  update(key: string, value: unknown): Thenable<void> {
    return tracked(this.write(key, value));
  }
  private write(key: string, value: unknown): Promise<void> {
    const before = this.values.get(key);
    this.values.set(key, structuredClone(value));
    if (this.dropping === 0) return Promise.resolve();
    this.dropping--;
    return Promise.resolve().then(() => {
      this.values.set(key, before);
    });
  }
}

/** The API as the cache sees it: events per serial number, requests counted, a failure on demand. */
class FakeSource {
  readonly events = new Map<string, OnboardingEvent[]>();
  requests: string[] = [];
  failWith: Error | undefined;
  hold: Promise<void> | undefined;
  constructor(private readonly clock: FakeClock) {}
  getEvents(serialNumber: string): Promise<EventsResult> {
    return tracked(this.answer(serialNumber));
  }
  private async answer(serialNumber: string): Promise<EventsResult> {
    this.requests.push(serialNumber);
    if (this.hold) await this.hold;
    if (this.failWith) throw this.failWith;
    const events = [...(this.events.get(serialNumber) ?? [])].sort((a, b) => b.time.epochMs - a.time.epochMs);
    return { serialNumber, events, invalid: [], fetchedAt: this.clock.now(), truncated: false };
  }
  add(serial: string, minute: number, type: string, message = `${type} at ${minute}`): void {
    this.events.set(serial, [...(this.events.get(serial) ?? []), event({ minute, type, message }, serial)]);
  }
}

interface Window {
  readonly list: WatchList;
  readonly cache: EventsCache;
  readonly ended: WatchEnded[];
  readonly unreachable: number[];
  /** Stalls this window was told to tell: "serial at N min". */
  readonly stalls: string[];
}

describe('WatchList', () => {
  let folder: string;
  let clock: FakeClock;
  let source: FakeSource;
  let store: MemoryStore;
  let environment: string | undefined;
  let focused: boolean;
  const windows: Window[] = [];
  /** Moves the fake clock, letting each due poll finish (its store write and its claim on disk) before the next. */
  const advance = (ms: number): Promise<void> => clock.advance(ms, settled);

  function openWindow(claimsFolder = join(folder, 'claims'), progress?: WatchListOptions['progress']): Window {
    const cache = new EventsCache({
      source: () => (environment === undefined ? undefined : source),
      freshForMs: () => 60_000,
      now: () => clock.now(),
    });
    const claims = new FileClaims(claimsFolder);
    const list = new WatchList({
      events: cache,
      store,
      claims: { claim: (key) => tracked(claims.claim(key)) },
      environment: () => environment,
      rules: () => DEFAULT_EVENT_STATE_RULES,
      timing: () => DEFAULT_WATCH_TIMING,
      focused: () => focused,
      clock,
      ...(progress === undefined ? {} : { progress }),
    });
    const window: Window = { list, cache, ended: [], unreachable: [], stalls: [] };
    list.onDidStall(({ watch, progress: stalled }) =>
      window.stalls.push(`${watch.serialNumber} at ${Math.floor(stalled.atStepMs / MINUTE)} min`),
    );
    list.onDidEnd((ended) => window.ended.push(ended));
    list.onDidGoUnreachable(({ watching }) => window.unreachable.push(watching));
    windows.push(window);
    return window;
  }

  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'watch-'));
    clock = new FakeClock(T0);
    source = new FakeSource(clock);
    store = new MemoryStore();
    environment = 'env-a';
    focused = true;
  });

  afterEach(async () => {
    for (const window of windows.splice(0)) window.list.dispose();
    await rm(folder, { recursive: true, force: true });
  });

  it('polls a machine through its steps at 15 s, backing off while nothing changes, until it onboards; then the watch ends and polling stops', async () => {
    source.add(SERIAL, 0, 'ONBOARDING_STARTED');
    const { list, ended } = openWindow();
    const started = await list.start(SERIAL);
    assert.equal(started.kind, 'started');
    assert.equal(source.requests.length, 1, 'the start reads the machine once');
    assert.deepEqual(clock.pending(), [15_000]);

    await advance(15_000);
    assert.equal(source.requests.length, 2);
    assert.deepEqual(clock.pending(), [22_500], 'nothing new: the next poll waits longer');

    source.add(SERIAL, 1, 'DEVICE_REGISTERED');
    await advance(22_500);
    assert.equal(list.get(SERIAL)?.step?.type, 'DEVICE_REGISTERED');
    assert.deepEqual(clock.pending(), [15_000], 'a new event: back to the first interval');

    source.add(SERIAL, 46, 'ONBOARDING_COMPLETED', 'Machine onboarded');
    await advance(15_000);
    assert.equal(ended.length, 1);
    const [end] = ended;
    assert.equal(end?.tellUser, true);
    assert.equal(end.watch.outcome.state, 'onboarded');
    assert.equal(end.watch.outcome.tookMs, 46 * MINUTE);
    assert.equal(list.get(SERIAL)?.status, 'onboarded');
    assert.equal(list.unseenOutcomes(), 1);
    const requests = source.requests.length;
    await advance(60 * MINUTE);
    assert.equal(source.requests.length, requests, 'an ended watch sends nothing');
    list.lookedAt(SERIAL);
    await drain();
    assert.equal(list.unseenOutcomes(), 0);
  });

  it('writes an outcome again when global state drops it for an older copy, so the list, its status and the badge keep it', async () => {
    source.add(SERIAL, 0, 'ONBOARDING_STARTED');
    const { list, ended } = openWindow();
    await list.start(SERIAL);
    const counted: number[] = [];
    list.onDidChange(() => counted.push(list.unseenOutcomes()));
    source.add(SERIAL, 46, 'ONBOARDING_COMPLETED', 'Machine onboarded');
    store.dropping = 1;
    await advance(15_000);
    assert.equal(ended.length, 1);
    assert.equal(list.get(SERIAL)?.status, 'onboarded', 'the outcome is stored');
    assert.deepEqual(counted, [1, 1], 'counted at every change the list tells of');
    // Dropped every time: written a bounded number of times, not forever.
    const { list: other } = openWindow();
    store.dropping = 10;
    const looked = new Promise<void>((resolve) => {
      other.onDidChange(() => {
        resolve();
      });
    });
    other.lookedAt(SERIAL);
    await looked;
    assert.equal(store.dropping, 7);
  });

  it('two windows over the same global state and storage: only one tells the user of an outcome', async () => {
    source.add(SERIAL, 0, 'ONBOARDING_STARTED');
    const first = openWindow();
    const second = openWindow();
    await first.list.start(SERIAL);
    second.list.resume();
    source.add(SERIAL, 9, 'ONBOARDING_FAILED', 'Certificate rejected');
    // Both windows' polls are in flight at once, so both see the outcome: the race a read-then-write would lose.
    let release = (): void => undefined;
    source.hold = new Promise((resolve) => (release = resolve));
    await clock.advance(15_000);
    assert.equal(source.requests.length, 3, 'each window polled');
    release();
    await settled();
    const all = [...first.ended, ...second.ended];
    assert.equal(all.length, 2, 'both windows saw the outcome');
    assert.equal(all.filter((ended) => ended.tellUser).length, 1, 'exactly one window tells the user');
    assert.equal(all[0]?.watch.outcome.message, 'Certificate rejected');
  });

  it('survives a reload: a new list over the same global state goes on polling', async () => {
    source.add(SERIAL, 0, 'ONBOARDING_STARTED');
    const before = openWindow();
    await before.list.start(SERIAL);
    before.list.dispose();
    assert.deepEqual(clock.pending(), []);
    const after = openWindow();
    assert.equal(after.list.get(SERIAL)?.status, 'watching');
    source.add(SERIAL, 46, 'ONBOARDING_COMPLETED');
    await advance(15_000);
    assert.equal(after.ended.length, 1);
  });

  it('belongs to its environment: a switch or a sign-out pauses it, and no request is made in another environment', async () => {
    source.add(SERIAL, 0, 'ONBOARDING_STARTED');
    const { list } = openWindow();
    await list.start(SERIAL);
    const requests = source.requests.length;
    environment = 'env-b';
    list.resume();
    assert.equal(list.list()[0]?.status, 'paused');
    await advance(30 * MINUTE);
    assert.equal(source.requests.length, requests, 'nothing sent while env-b is signed in');
    environment = undefined;
    list.resume();
    await advance(30 * MINUTE);
    assert.equal(source.requests.length, requests, 'nothing sent while signed out');
    environment = 'env-a';
    list.resume();
    await advance(15_000);
    assert.equal(source.requests.length, requests + 1);
  });

  it('an answer that arrives after an environment switch is dropped', async () => {
    source.add(SERIAL, 0, 'ONBOARDING_STARTED');
    const { list, ended } = openWindow();
    await list.start(SERIAL);
    let release = (): void => undefined;
    source.hold = new Promise((resolve) => (release = resolve));
    source.add(SERIAL, 9, 'ONBOARDING_FAILED');
    await clock.advance(15_000);
    environment = 'env-b';
    list.resume();
    release();
    await settled();
    assert.equal(ended.length, 0);
    assert.equal(list.list()[0]?.outcome, undefined);
  });

  it('a poll joins the request in flight for the same machine instead of sending another', async () => {
    source.add(SERIAL, 0, 'ONBOARDING_STARTED');
    const { list, cache } = openWindow();
    await list.start(SERIAL);
    let release = (): void => undefined;
    source.hold = new Promise((resolve) => (release = resolve));
    await advance(14_000);
    const hover = cache.get(SERIAL, { force: true });
    const before = source.requests.length;
    const poll = clock.advance(1_000);
    await drain();
    release();
    await Promise.all([hover, poll]);
    assert.equal(source.requests.length, before, 'the poll waited for the hover’s request');
  });

  it('keeps the newest 50 ended watches, so the stored list stays bounded however many end', async () => {
    const ended = Array.from({ length: 60 }, (_, i) => ({
      serialNumber: `MX-4711-E${String(i).padStart(4, '0')}`,
      environmentId: 'env-a',
      startedAt: T0,
      outcome: { state: 'onboarded', type: 'ONBOARDING_COMPLETED', at: T0 + i, message: '', tookMs: i },
    }));
    await store.update(WATCHES_KEY, ended);
    source.add(SERIAL, 0, 'ONBOARDING_STARTED');
    const { list } = openWindow();
    await list.start(SERIAL);
    const kept = list.list();
    assert.equal(kept.length, 51);
    assert.equal(kept.filter((watch) => watch.status === 'watching').length, 1);
    assert.ok(!kept.some((watch) => watch.serialNumber === 'MX-4711-E0009'), 'the oldest outcomes went');
    assert.ok(kept.some((watch) => watch.serialNumber === 'MX-4711-E0059'));
  });

  it('starts at most 50 watches and says so beyond', async () => {
    for (let i = 0; i < MAX_WATCHES; i++) source.add(`MX-4711-B${String(i).padStart(4, '0')}`, 0, 'ONBOARDING_STARTED');
    const { list } = openWindow();
    for (let i = 0; i < MAX_WATCHES; i++) assert.equal((await list.start(`MX-4711-B${String(i).padStart(4, '0')}`)).kind, 'started');
    assert.deepEqual(await list.start(OTHER), { kind: 'limit', max: MAX_WATCHES });
  });

  it('has nothing to watch on a machine already onboarded; one that failed is watched for its retry', async () => {
    source.add(SERIAL, 46, 'ONBOARDING_COMPLETED');
    source.add(OTHER, 9, 'ONBOARDING_FAILED');
    const { list, ended } = openWindow();
    assert.equal((await list.start(SERIAL)).kind, 'already-onboarded');
    assert.equal((await list.start(OTHER)).kind, 'started');
    await advance(15_000);
    assert.equal(ended.length, 0, 'the failure seen at the start is not news');
    source.add(OTHER, 30, 'ONBOARDING_COMPLETED');
    await advance(22_500);
    assert.equal(ended[0]?.watch.outcome.state, 'onboarded');
  });

  it('backs off on errors and says once, after 15 minutes of failures, that it cannot poll', async () => {
    source.add(SERIAL, 0, 'ONBOARDING_STARTED');
    const { list, unreachable } = openWindow();
    await list.start(SERIAL);
    source.failWith = new ApiError('network', { kind: 'invalid-input', text: () => 'The API could not be reached.' });
    await advance(15_000);
    assert.deepEqual(clock.pending(), [30_000]);
    await advance(14 * MINUTE);
    assert.deepEqual(unreachable, []);
    await advance(10 * MINUTE);
    assert.deepEqual(unreachable, [1]);
    await advance(30 * MINUTE);
    assert.deepEqual(unreachable, [1], 'said once');
    assert.ok((clock.pending()[0] ?? Number.POSITIVE_INFINITY) <= 300_000, 'the error back-off stops at 5 min');
  });

  it('waits out a Retry-After longer than its own back-off', async () => {
    source.add(SERIAL, 0, 'ONBOARDING_STARTED');
    const { list } = openWindow();
    await list.start(SERIAL);
    source.failWith = new ApiError(
      'rate-limited',
      { kind: 'invalid-input', text: () => 'Too many requests.' },
      { status: 429, retryAfterMs: 120_000 },
    );
    await advance(15_000);
    assert.deepEqual(clock.pending(), [120_000]);
  });

  it('a machine the API does not know yet is waited for, not a failure', async () => {
    const { list, unreachable } = openWindow();
    await list.start(SERIAL);
    source.failWith = new ApiError('not-found', { kind: 'invalid-input', text: () => 'No machine.' });
    await advance(30 * MINUTE);
    assert.deepEqual(unreachable, []);
    source.failWith = undefined;
    source.add(SERIAL, 50, 'ONBOARDING_STARTED');
    await advance(5 * MINUTE);
    assert.equal(list.get(SERIAL)?.step?.type, 'ONBOARDING_STARTED');
  });

  it('a stop in another window ends this window’s polling of it', async () => {
    source.add(SERIAL, 0, 'ONBOARDING_STARTED');
    const first = openWindow();
    const second = openWindow();
    await first.list.start(SERIAL);
    second.list.resume();
    assert.equal(second.list.get(SERIAL)?.status, 'watching', 'the second window follows the watch the first started');
    await second.list.stop(SERIAL);
    const requests = source.requests.length;
    await advance(10 * MINUTE);
    assert.equal(source.requests.length, requests);
    assert.deepEqual(store.get(WATCHES_KEY), []);
  });

  it('tells a watched machine’s stall once, in one window of two; a new step ends it and a later stall is told again', async () => {
    // The plant's own sequence (the steps setting): 5 min per step, so a stall is past max(2 × 5, 10) = 10 min at a step.
    const history = new LineHistory(DEFAULT_EVENT_STATE_RULES);
    history.setSetting([
      { type: 'ONBOARDING_STARTED' },
      { type: 'FIRMWARE_CHECKED', expectedMinutes: 5 },
      { type: 'DEVICE_CONFIGURED', expectedMinutes: 5 },
      { type: 'ONBOARDING_COMPLETED', expectedMinutes: 5 },
    ]);
    const progress: WatchListOptions['progress'] = (result) =>
      machineProgress(result.events, history.steps(), clock.now(), DEFAULT_EVENT_STATE_RULES);
    source.add(SERIAL, 0, 'ONBOARDING_STARTED');
    source.add(SERIAL, 1, 'FIRMWARE_CHECKED');
    await advance(2 * MINUTE);
    const first = openWindow(undefined, progress);
    const second = openWindow(undefined, progress);
    assert.equal((await first.list.start(SERIAL)).kind, 'started');
    second.list.resume();
    await advance(8 * MINUTE);
    assert.deepEqual([...first.stalls, ...second.stalls], [], 'at it for 9 min: not stalled yet');
    await advance(20 * MINUTE);
    const told = [...first.stalls, ...second.stalls];
    assert.equal(told.length, 1, `one stall told once, by one window: ${told.join(', ')}`);
    assert.match(told[0] ?? '', /^MX-4711-A0023 at (1[1-9]|2\d) min$/);

    source.add(SERIAL, 31, 'DEVICE_CONFIGURED');
    await advance(5 * MINUTE);
    assert.equal(first.stalls.length + second.stalls.length, 1, 'a new step ends the stall: nothing more is told');
    await advance(20 * MINUTE);
    assert.equal(first.stalls.length + second.stalls.length, 2, 'the next step’s stall is told again, once');
  });

  it('tells one stall, not one per poll, when every poll brings a newest event that is already stale', async () => {
    const history = new LineHistory(DEFAULT_EVENT_STATE_RULES);
    history.setSetting([
      { type: 'ONBOARDING_STARTED' },
      { type: 'FIRMWARE_CHECKED', expectedMinutes: 5 },
      { type: 'ONBOARDING_COMPLETED', expectedMinutes: 5 },
    ]);
    const progress: WatchListOptions['progress'] = (result) =>
      machineProgress(result.events, history.steps(), clock.now(), DEFAULT_EVENT_STATE_RULES);
    source.add(SERIAL, 0, 'ONBOARDING_STARTED');
    source.add(SERIAL, 1, 'FIRMWARE_CHECKED');
    await advance(60 * MINUTE);
    const { list, stalls } = openWindow(undefined, progress);
    assert.equal((await list.start(SERIAL)).kind, 'started');
    // A server that, before every poll, adds a new newest event timestamped 40 minutes ago: each reads as stalled.
    for (let poll = 0; poll < 8; poll++) {
      const minute = Math.floor((clock.now() - T0) / MINUTE) - 40;
      source.add(SERIAL, minute, 'FIRMWARE_CHECKED');
      await advance(clock.pending()[0] ?? 15_000);
    }
    assert.ok(source.requests.length >= 9, `it was polled: ${source.requests.length} requests`);
    assert.equal(stalls.length, 1, `one stall notice: ${stalls.join(', ')}`);
  });
});
