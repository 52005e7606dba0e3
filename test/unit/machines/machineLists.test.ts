import assert from 'node:assert/strict';
import { MachineLists, PINNED_KEY, RECENT_KEY } from '../../../src/extension/machines/machineLists';
import { SeenTracker } from '../../../src/extension/machines/seenTracker';
import { event, MemoryStore } from './fixtures';

describe('Pinned and recent machines', () => {
  let workspace: MemoryStore;
  let global: MemoryStore;
  let scope: 'workspace' | 'global';
  let lists: MachineLists;

  beforeEach(() => {
    workspace = new MemoryStore();
    global = new MemoryStore();
    scope = 'workspace';
    lists = new MachineLists({ pinnedStore: () => (scope === 'global' ? global : workspace), recentStore: global, maxRecent: 3 });
  });

  it('pins newest first, once, and unpins', async () => {
    assert.equal(await lists.pin('A'), true);
    assert.equal(await lists.pin('B'), true);
    assert.equal(await lists.pin('A'), false);
    assert.deepEqual(lists.pinned(), ['B', 'A']);
    assert.equal(await lists.unpin('A'), true);
    assert.equal(await lists.unpin('A'), false);
    assert.deepEqual(lists.pinned(), ['B']);
  });

  it('keeps pins in the store of the chosen scope', async () => {
    await lists.pin('A');
    assert.deepEqual(workspace.get(PINNED_KEY), ['A']);
    scope = 'global';
    assert.deepEqual(lists.pinned(), []);
  });

  it('carries pins over when the scope changes, in front of what the new scope had', async () => {
    await lists.pin('A');
    await global.update(PINNED_KEY, ['G']);
    await lists.carryPinsOver(workspace, global);
    scope = 'global';
    assert.deepEqual(lists.pinned(), ['A', 'G']);
  });

  it('moves a repeated look-up to the front of Recent and caps the list', async () => {
    for (const serial of ['A', 'B', 'C', 'A', 'D']) await lists.addRecent(serial);
    assert.deepEqual(lists.recent(), ['D', 'A', 'C']);
    await lists.removeRecent('A');
    assert.deepEqual(lists.recent(), ['D', 'C']);
    await lists.clearRecent();
    assert.deepEqual(lists.recent(), []);
  });

  it('ignores stored state of the wrong shape', async () => {
    await workspace.update(PINNED_KEY, ['A', 3, null, 'A', '', 'B']);
    await global.update(RECENT_KEY, 'not a list');
    assert.deepEqual(lists.pinned(), ['A', 'B']);
    assert.deepEqual(lists.recent(), []);
  });

  it('tells listeners about every change', async () => {
    let changes = 0;
    lists.onDidChange(() => changes++);
    await lists.pin('A');
    await lists.addRecent('B');
    await lists.unpin('A');
    assert.equal(changes, 3);
  });

  it('tells listeners when the list reads new, not when the write lands (a Memento answers with the new value at once)', async () => {
    // Global state as VS Code's: the value is read back at once, the write lands later (here: when released).
    const landed: (() => void)[] = [];
    const slow = new (class extends MemoryStore {
      override update(key: string, value: unknown): Promise<void> {
        void super.update(key, value);
        return new Promise((resolve) => landed.push(resolve));
      }
    })();
    const slowLists = new MachineLists({ pinnedStore: () => slow, recentStore: slow });
    const seen: string[][] = [];
    slowLists.onDidChange(() => seen.push([...slowLists.recent(), ...slowLists.pinned()]));
    const writes = [slowLists.addRecent('A'), slowLists.pin('P'), slowLists.removeRecent('A'), slowLists.clearRecent()];
    assert.deepEqual(seen, [['A'], ['A', 'P'], ['P'], ['P']], 'each change is told while its write is still on its way');
    for (const land of landed) land();
    await Promise.all(writes);
    assert.equal(seen.length, 4, 'and only once');
  });
});

describe('Seen events (the view badge)', () => {
  const older = event({ minute: 1 });
  const newer = event({ minute: 2 });
  const newest = event({ minute: 3 });

  it('sets a baseline when a machine is first seen, so its history is not "new"', () => {
    const tracker = new SeenTracker(new MemoryStore(), () => 'env');
    assert.equal(tracker.unseen('S', [newer, older]), 0);
    assert.equal(tracker.baseline('S', newer), true);
    assert.equal(tracker.baseline('S', newest), false, 'only once');
    assert.equal(tracker.unseen('S', [newest, newer, older]), 1);
    tracker.markSeen('S', newest);
    assert.equal(tracker.unseen('S', [newest, newer, older]), 0);
  });

  it('writes baselines only with the next thing the user sees (or on flush), not one write per machine', async () => {
    const store = new MemoryStore();
    let writes = 0;
    const counting = new (class extends MemoryStore {
      override update(key: string, value: unknown): Promise<void> {
        writes++;
        return store.update(key, value);
      }
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the shape of vscode.Memento.get
      override get<T>(key: string): T | undefined {
        return store.get<T>(key);
      }
    })();
    const tracker = new SeenTracker(counting, () => 'env');
    for (let i = 0; i < 100; i++) tracker.baseline(`S-${i}`, older);
    assert.equal(writes, 0);
    tracker.markSeen('S-0', newest);
    assert.equal(writes, 1);
    assert.equal(
      (store.get<Record<string, Record<string, number>>>('onboardingEvents.seenEvents') ?? {})['env']?.['S-99'],
      older.time.epochMs,
    );
    tracker.baseline('T', older);
    await tracker.flush();
    assert.equal(writes, 2);
    assert.equal(tracker.flush(), undefined, 'nothing left to write');
  });

  it('never moves backwards', () => {
    const tracker = new SeenTracker(new MemoryStore(), () => 'env');
    tracker.markSeen('S', newest);
    assert.equal(tracker.markSeen('S', older), false);
    assert.equal(tracker.seenUpTo('S'), newest.time.epochMs);
  });

  it('keeps each environment apart, and records nothing while signed out', () => {
    const store = new MemoryStore();
    let scope: string | undefined = 'one';
    const tracker = new SeenTracker(store, () => scope);
    tracker.markSeen('S', newer);
    scope = 'two';
    assert.equal(tracker.seenUpTo('S'), undefined);
    scope = undefined;
    assert.equal(tracker.markSeen('S', newest), false);
    scope = 'one';
    assert.equal(tracker.seenUpTo('S'), newer.time.epochMs);
  });

  it('forgets what it kept for environments that were signed out, and keeps the others', async () => {
    const store = new MemoryStore();
    let scope: string | undefined = 'one';
    const tracker = new SeenTracker(store, () => scope);
    tracker.markSeen('S', newer);
    scope = 'two';
    tracker.markSeen('S', newest);
    assert.equal(tracker.keepOnly(['one', 'two']), undefined, 'nothing to forget, nothing written');
    await tracker.keepOnly(['two']);
    assert.deepEqual(Object.keys(store.get<Record<string, unknown>>('onboardingEvents.seenEvents') ?? {}), ['two']);
    assert.equal(tracker.seenUpTo('S'), newest.time.epochMs);
    scope = 'one';
    assert.equal(tracker.seenUpTo('S'), undefined);
  });
});
