import assert from 'node:assert/strict';
import { refreshMany } from '../../../src/extension/machines/machinesModel';

describe('Refreshing many machines', () => {
  it('never runs more than the concurrency limit at once, and visits each serial number once', async () => {
    let active = 0;
    let peak = 0;
    const seen: string[] = [];
    const serials = Array.from({ length: 50 }, (_, i) => `S-${i}`);
    const result = await refreshMany(
      [...serials, 'S-1'],
      async (serial) => {
        active++;
        peak = Math.max(peak, active);
        seen.push(serial);
        await new Promise((resolve) => setTimeout(resolve, 1));
        active--;
      },
      { concurrency: 4 },
    );
    assert.equal(peak, 4);
    assert.equal(result.done, 50);
    assert.deepEqual([...seen].sort(), [...serials].sort());
  });

  it('collects failures without stopping the others, and reports progress', async () => {
    const progress: number[] = [];
    const result = await refreshMany(
      ['a', 'b', 'c'],
      (serial) => (serial === 'b' ? Promise.reject(new Error('boom')) : Promise.resolve()),
      {
        concurrency: 2,
        onProgress: (done) => progress.push(done),
      },
    );
    assert.deepEqual([...result.failures.keys()], ['b']);
    assert.deepEqual(progress, [1, 2, 3]);
  });

  it('stops starting new refreshes when cancelled', async () => {
    const controller = new AbortController();
    let calls = 0;
    const result = await refreshMany(
      ['a', 'b', 'c', 'd'],
      () => {
        calls++;
        controller.abort();
        return Promise.resolve();
      },
      { concurrency: 1, signal: controller.signal },
    );
    assert.equal(calls, 1);
    assert.equal(result.cancelled, true);
  });
});
