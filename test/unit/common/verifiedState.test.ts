// A globalState write that VS Code drops for an older copy echoed back is
// written again; one that holds is written once.
import * as assert from 'node:assert/strict';
import { verifiedState, type StateStore } from '../../../src/common/verifiedState';

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
