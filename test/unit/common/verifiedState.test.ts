// A globalState write that VS Code drops for an older copy echoed back is
// written again; one that holds is written once.
import * as assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { verifiedState, type StateStore } from '../../../src/core/common/verifiedState';
import { MachineLists, RECENT_KEY } from '../../../src/extension/machines/machineLists';

/**
 * An in-memory Memento that, like VS Code's globalState, applies an update to
 * its copy at once and resolves it a few ms later (`delays` in turn), calling
 * `meanwhile` (another window's write, say) in between.
 */
function lateStore(delays: readonly number[], meanwhile?: (values: Map<string, unknown>, write: number) => void) {
  const values = new Map<string, unknown>();
  const store = {
    values,
    writes: [] as unknown[],
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the shape of vscode.Memento.get
    get<T>(key: string): T | undefined {
      return structuredClone(values.get(key)) as T | undefined;
    },
    async update(key: string, value: unknown): Promise<void> {
      const write = store.writes.length;
      store.writes.push(value);
      values.set(key, structuredClone(value));
      await sleep(delays[write % delays.length] ?? 0);
      meanwhile?.(values, write);
    },
  };
  return store;
}

/** An in-memory Memento that, like VS Code's, can lose the next `drops` updates to an older copy. */
function droppingStore(drops: number): StateStore & { writes: number; lost: number } {
  const values = new Map<string, unknown>();
  const store = {
    writes: 0,
    lost: 0,
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the shape of vscode.Memento.get
    get<T>(key: string): T | undefined {
      return values.get(key) as T | undefined;
    },
    update(key: string, value: unknown): Thenable<void> {
      store.writes += 1;
      if (store.lost < drops) store.lost += 1;
      else values.set(key, structuredClone(value));
      return Promise.resolve();
    },
  };
  return store;
}

describe('verifiedState: a state write that holds', () => {
  it('writes once when the write holds', async () => {
    const inner = droppingStore(0);
    await verifiedState(inner).update('k', ['MX-4711-A0023']);
    assert.equal(inner.writes, 1);
    assert.deepEqual(inner.get('k'), ['MX-4711-A0023']);
  });

  it('writes again when the state dropped the write, and says so', async () => {
    const inner = droppingStore(1);
    const lost: string[] = [];
    await verifiedState(inner, (message) => lost.push(message)).update('k', { a: 1 });
    assert.deepEqual(inner.get('k'), { a: 1 });
    assert.equal(inner.writes, 2);
    assert.deepEqual(lost, ['Global state lost a write of k to an older copy of it: writing it again.']);
  });

  it('gives up after three writes of a value the state keeps losing', async () => {
    const inner = droppingStore(10);
    await verifiedState(inner).update('k', 1);
    assert.equal(inner.writes, 3);
  });

  it('takes clearing a key (undefined) as holding', async () => {
    const inner = droppingStore(0);
    await verifiedState(inner).update('k', undefined);
    assert.equal(inner.writes, 1);
  });
});

describe('verifiedState: writes of one key from one window never undo each other', () => {
  it('three look-ups added to Recent at once all stay, whatever order their writes resolve in', async () => {
    const lost: string[] = [];
    for (let run = 0; run < 40; run++) {
      const inner = lateStore([(run * 7) % 5, (run * 3) % 4, run % 3]);
      const lists = new MachineLists({ pinnedStore: () => inner, recentStore: verifiedState(inner, (m) => lost.push(m)) });
      await Promise.all([lists.addRecent('A'), lists.addRecent('B'), lists.addRecent('C')]);
      assert.deepEqual(inner.get(RECENT_KEY), ['C', 'B', 'A'], `run ${run}: the stored recent list`);
      assert.deepEqual(lists.recent(), ['C', 'B', 'A'], `run ${run}: the recent list as the tree reads it`);
    }
    assert.deepEqual(lost, [], 'no write of this window is taken for a lost one');
  });

  it('answers the newest value this window meant while its writes are under way, and writes them in order', async () => {
    const inner = lateStore([3, 0, 1]);
    const state = verifiedState(inner);
    const first = state.update('k', 1);
    const second = state.update('k', 2);
    assert.equal(state.get('k'), 2);
    const third = state.update('k', 3);
    await Promise.all([first, second, third]);
    assert.equal(inner.get('k'), 3);
    assert.ok(
      inner.writes.every((value, index) => index === 0 || (value as number) >= (inner.writes[index - 1] as number)),
      `writes in order: ${JSON.stringify(inner.writes)}`,
    );
  });

  it('does not write an older value of ours over one another window wrote meanwhile; a later write builds on it', async () => {
    const lost: string[] = [];
    const inner = lateStore([2], (values, write) => {
      if (write === 0) values.set('k', ['theirs']);
    });
    const state = verifiedState(inner, (m) => lost.push(m));
    await Promise.all([state.update('k', ['ours-1']), state.update('k', ['ours-2'])]);
    assert.deepEqual(inner.get('k'), ['theirs'], "the other window's newer value stays");
    assert.deepEqual(state.get('k'), ['theirs']);
    assert.deepEqual(inner.writes, [['ours-2']], 'one write (the newest meant), and nothing of ours queued before theirs written over it');
    assert.deepEqual(lost, ['Global state: another window changed k meanwhile; its value stays.']);
    await state.update('k', [...(state.get<string[]>('k') ?? []), 'ours-3']);
    assert.deepEqual(inner.get('k'), ['theirs', 'ours-3']);
  });
});
