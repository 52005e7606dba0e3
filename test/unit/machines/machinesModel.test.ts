// The tree's state machine against a scripted events source that reads the
// `timestamp` parameter the ways the spec leaves open.
import { DEFAULT_EVENT_STATE_RULES } from '../../../src/core/domain/events/eventState';
import assert from 'node:assert/strict';
import { Emitter } from '../../../src/core/common/emitter';
import { ApiError } from '../../../src/core/client/errors';
import type { EventsResult, GetEventsOptions, OnboardingEvent } from '../../../src/core/client/model';
import { EventsCache } from '../../../src/core/eventsCache/eventsCache';
import { MachineLists } from '../../../src/extension/machines/machineLists';
import { MachinesModel, PROGRESS_REPAINT_MS, type ModelChange, type ModelSettings } from '../../../src/extension/machines/machinesModel';
import type { ProgressAnswer } from '../../../src/core/domain/progress/machineProgress';
import { SeenTracker } from '../../../src/extension/machines/seenTracker';
import { event, loaded, MemoryStore, MINUTE, result, SERIAL, T0 } from './fixtures';
import { serverTextData } from '../../../src/core/common/serverText';

type Reading = 'after-inclusive' | 'after-exclusive' | 'before-inclusive' | 'ignore';

class ScriptedSource {
  readonly requests: { serial: string; timestamp: number | undefined }[] = [];
  reading: Reading = 'after-inclusive';
  failWith: Error | undefined;
  constructor(readonly machines: Map<string, OnboardingEvent[]>) {}
  getEvents(serial: string, options: GetEventsOptions = {}): Promise<EventsResult> {
    this.requests.push({ serial, timestamp: options.timestamp });
    if (this.failWith) return Promise.reject(this.failWith);
    const all = this.machines.get(serial) ?? [];
    const t = options.timestamp;
    const kept =
      t === undefined || this.reading === 'ignore'
        ? all
        : all.filter((e) =>
            this.reading === 'after-inclusive' ? e.time.raw >= t : this.reading === 'after-exclusive' ? e.time.raw > t : e.time.raw <= t,
          );
    return Promise.resolve(result(kept, serial, Date.now()));
  }
}

const settings: ModelSettings = {
  maxEvents: 2,
  concurrency: 2,
  timestampUnit: 'auto',
  workspaceScanEnabled: true,
  hasWorkspace: true,
  eventStates: DEFAULT_EVENT_STATE_RULES,
};

async function setup(
  events: OnboardingEvent[] = [event({ minute: 2, type: 'C' }), event({ minute: 1, type: 'B' }), event({ minute: 0, type: 'A' })],
) {
  const source = new ScriptedSource(new Map([[SERIAL, events]]));
  let rejected = 0;
  // The cache is where refused credentials are reported from (to the session, in the extension).
  const service = new EventsCache({ source: () => source, freshForMs: () => 60_000, onCredentialsRejected: () => rejected++ });
  const store = new MemoryStore();
  const lists = new MachineLists({ pinnedStore: () => store, recentStore: store });
  let signedIn = true;
  const model = new MachinesModel({
    events: service,
    lists,
    seen: new SeenTracker(store, () => 'env'),
    settings: () => settings,
    signedIn: () => signedIn,
  });
  await lists.pin(SERIAL);
  return { source, service, lists, model, rejected: () => rejected, signOut: () => (signedIn = false) };
}

const types = (model: MachinesModel): string[] =>
  model.children(SERIAL).map((child) => (child.kind === 'event' ? serverTextData(child.event.type) : child.kind));

describe('Machines model', () => {
  it('lists pinned machines in a group (and the workspace group next to it, to be scanned)', async () => {
    const { model, lists } = await setup();
    assert.deepEqual(model.groups(), ['pinned', 'workspace']);
    await lists.addRecent('OTHER-1');
    await lists.addRecent(SERIAL);
    assert.deepEqual(model.machinesIn('recent'), ['OTHER-1'], 'a pinned look-up is not repeated under Recent');
  });

  it('shows nothing while signed out, and loads nothing', async () => {
    const { model, source, signOut } = await setup();
    signOut();
    assert.deepEqual(model.groups(), []);
    model.ensureLoaded(SERIAL);
    await loaded(model);
    assert.equal(source.requests.length, 0);
  });

  it('loads a machine once, shows the newest N and "Load more"', async () => {
    const { model, source } = await setup();
    assert.equal(model.summary(SERIAL).state, 'not-loaded');
    model.ensureLoaded(SERIAL);
    model.ensureLoaded(SERIAL);
    assert.equal(model.summary(SERIAL).state, 'loading');
    await loaded(model);
    assert.equal(source.requests.length, 1);
    assert.deepEqual(types(model), ['C', 'B', 'load-more']);
    model.loadMore(SERIAL);
    assert.deepEqual(types(model), ['C', 'B', 'A']);
    assert.equal(model.summary(SERIAL).state, 'ok');
  });

  it('records a failure as an error child, keeps the last good events, marks them stale; a good refresh clears it', async () => {
    const { model, source } = await setup();
    await model.load(SERIAL, false);
    source.failWith = new ApiError(
      'server',
      { kind: 'invalid-input', text: () => 'The API had a problem answering (HTTP 500).' },
      { status: 500 },
    );
    await model.load(SERIAL, true);
    assert.deepEqual(types(model), ['error', 'C', 'B', 'load-more']);
    assert.equal(model.summary(SERIAL).state, 'stale');
    source.failWith = undefined;
    await model.load(SERIAL, true);
    assert.deepEqual(types(model), ['C', 'B', 'load-more']);
    assert.equal(model.summary(SERIAL).state, 'ok');
  });

  it("an error row's text is the error's own, in the language of the t the tree passes (English without one)", async () => {
    const { model, source } = await setup();
    source.failWith = new ApiError(
      'server',
      { kind: 'invalid-input', text: (t) => t('The API had a problem answering (HTTP {0}).', 500) },
      { status: 500 },
    );
    await model.load(SERIAL, false);
    const messageOf = (children: ReturnType<MachinesModel['children']>): string | undefined =>
      children[0]?.kind === 'error' ? children[0].message : undefined;
    assert.equal(messageOf(model.children(SERIAL)), 'The API had a problem answering (HTTP 500).');
    assert.equal(
      messageOf(model.children(SERIAL, (message, ...args) => `«${message.replace('{0}', String(args[0]))}»`)),
      '«The API had a problem answering (HTTP 500).»',
    );
  });

  it('a failure with nothing loaded yet is an error state, and is not retried on every render', async () => {
    const { model, source } = await setup();
    source.failWith = new ApiError('network', { kind: 'invalid-input', text: () => 'Could not reach the API.' });
    await model.load(SERIAL, false);
    assert.equal(model.summary(SERIAL).state, 'error');
    model.ensureLoaded(SERIAL);
    await loaded(model);
    assert.equal(source.requests.length, 1);
  });

  it('reports rejected credentials to the session', async () => {
    const { model, source, rejected } = await setup();
    source.failWith = new ApiError('invalid-credentials', { kind: 'invalid-input', text: () => 'The API rejected the credentials.' });
    await model.load(SERIAL, false);
    assert.equal(rejected(), 1);
  });

  it('a cancelled load leaves no error behind', async () => {
    const { model, source } = await setup();
    source.failWith = new ApiError('cancelled', { kind: 'invalid-input', text: () => 'The request was cancelled.' });
    await model.load(SERIAL, false);
    assert.equal(model.failureOf(SERIAL), undefined);
  });

  for (const reading of ['after-inclusive', 'after-exclusive', 'before-inclusive', 'ignore'] as const) {
    it(`a since filter shows the right events when the server reads timestamp as ${reading}`, async () => {
      const { model, source } = await setup();
      source.reading = reading;
      model.setFilter({ sinceMs: T0 + MINUTE });
      await model.load(SERIAL, true);
      model.loadMore(SERIAL);
      assert.deepEqual(types(model), ['C', 'B']);
      const sinceRequest = source.requests.find((request) => request.timestamp !== undefined);
      assert.equal(sinceRequest?.timestamp, T0 + MINUTE - 1, 'sent in milliseconds, one below the bound');
    });
  }

  it("asks in seconds when the server's timestamps are seconds", async () => {
    const seconds = [2, 1, 0].map((minute) => event({ minute, type: `S${minute}`, timestamp: (T0 + minute * MINUTE) / 1000 }));
    const { model, source } = await setup(seconds);
    model.setFilter({ sinceMs: T0 + MINUTE });
    await model.load(SERIAL, true);
    const sent = source.requests.filter((request) => request.timestamp !== undefined).map((request) => request.timestamp);
    assert.equal(sent.at(-1), (T0 + MINUTE) / 1000 - 1);
    model.loadMore(SERIAL);
    assert.deepEqual(types(model), ['S2', 'S1']);
  });

  it('counts events newer than seen, and forgets them once seen', async () => {
    const { model, source } = await setup();
    await model.load(SERIAL, false);
    assert.equal(model.unseenTotal(), 0);
    source.machines.set(SERIAL, [event({ minute: 3, type: 'D' }), ...(source.machines.get(SERIAL) ?? [])]);
    await model.load(SERIAL, true);
    assert.equal(model.unseenTotal(), 1);
    assert.equal(model.summary(SERIAL).unseen, 1);
    model.markSeen(SERIAL);
    assert.equal(model.unseenTotal(), 0);
  });

  it("tells of the decorations' changes at once, not in the tree's batch: the badge reads a watch's outcome in the same turn", async () => {
    const { model } = await setup();
    const changed = new Emitter<readonly string[] | undefined>();
    let outcomes = 0;
    const read: number[] = [];
    model.onDidChangeDecorations(() => read.push(model.unseenOutcomes()));
    const decorated = model.decorate({
      decoration: () => undefined,
      unseen: () => outcomes,
      lookedAt: () => undefined,
      onDidChange: changed.event,
    });
    assert.deepEqual(read, [0]);
    // A watch ends: the watches' status bar and notification follow this same event, synchronously.
    outcomes = 2;
    changed.fire([SERIAL]);
    assert.deepEqual(read, [0, 2], 'read in the same turn, before any timer');
    decorated.dispose();
    assert.deepEqual(read, [0, 2, 0]);
  });

  it("a scanned group's rows load with the concurrency bound, each once, the waiting ones shown as loading", async () => {
    const { model, source } = await setup();
    const found = Array.from({ length: 10 }, (_, i) => `WS-000${i}-A0000`);
    model.setWorkspaceScan({
      kind: 'scanned',
      found: found.map((serialNumber) => ({ serialNumber, locations: [{ file: 'file:///w/a.yaml', line: 0 }], occurrences: 1 })),
      filesScanned: 1,
      capped: false,
      at: T0,
    });
    // Held answers: what is in flight stays in flight until released.
    const held: (() => void)[] = [];
    const answer = source.getEvents.bind(source);
    source.getEvents = (serial, options) => {
      const answered = answer(serial, options);
      return new Promise((resolve) =>
        held.push(() => {
          resolve(answered);
        }),
      );
    };
    model.ensureLoadedAll(model.machinesIn('workspace'));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(source.requests.length, settings.concurrency, 'as many requests at once as the concurrency, not one per row');
    assert.ok(
      found.every((serial) => model.summary(serial).loading),
      'every row waiting or in flight reads as loading',
    );
    while (held.length > 0) {
      for (const release of held.splice(0)) release();
      await new Promise((resolve) => setImmediate(resolve));
    }
    assert.deepEqual(source.requests.map((r) => r.serial).sort(), [...found].sort(), 'each row loaded once');
    assert.ok(found.every((serial) => model.summary(serial).loaded && !model.summary(serial).loading));
    assert.equal(model.foundInWorkspace(found[3] ?? '')?.serialNumber, found[3]);
    model.setWorkspaceScan({ kind: 'not-scanned' });
    assert.equal(model.foundInWorkspace(found[3] ?? ''), undefined, 'a new scan replaces what the last one found');
  });

  it('refreshes every listed machine with the concurrency bound', async () => {
    const { model, lists, source } = await setup();
    for (let i = 0; i < 10; i++) await lists.pin(`M-${i}`);
    const outcome = await model.refreshAll();
    assert.equal(outcome.done, 11);
    assert.equal(source.requests.length, 11);
  });

  it('repaints only the in-progress rows when the line history changes, once for a burst of changes', async () => {
    const store = new MemoryStore();
    const lists = new MachineLists({ pinnedStore: () => store, recentStore: store });
    const learned = new Emitter<void>();
    const inProgress = new Set(['MX-4711-P0001', 'MX-4711-P0002']);
    const model = new MachinesModel({
      events: new EventsCache({ source: () => undefined, freshForMs: () => 60_000 }),
      lists,
      seen: new SeenTracker(store, () => 'env'),
      settings: () => settings,
      signedIn: () => true,
      lineHistory: {
        progressOf: (serial): ProgressAnswer => (inProgress.has(serial) ? { kind: 'not-enough', machines: 3 } : undefined),
        onDidChange: learned.event,
      },
    });
    for (const serial of ['MX-4711-P0001', 'MX-4711-P0002', 'MX-4711-P0003']) await lists.pin(serial);
    const changes: ModelChange[] = [];
    model.onDidChange((change) => changes.push(change));
    // Read through a function: the first assertion narrows the array for the type checker, not for the timer.
    const repaints = (): readonly ModelChange[] => changes;
    const started = Date.now();
    for (let i = 0; i < 50; i++) learned.fire();
    assert.equal(changes.length, 0, 'not at once: a refresh of many machines changes the history with nearly every answer');
    while (repaints().length === 0 && Date.now() - started < 3 * PROGRESS_REPAINT_MS)
      await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(
      repaints().map((change) => (change === undefined ? 'everything' : [...change].sort())),
      [['MX-4711-P0001', 'MX-4711-P0002']],
      'one repaint, of the rows that show progress',
    );
    model.dispose();
  });
});
