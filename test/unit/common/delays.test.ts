import * as assert from 'node:assert/strict';
import { clampDelay, Debouncer, DELAY_CEILINGS, MAX_TIMER_DELAY_MS } from '../../../src/core/common/delays';

const DAY = 86_400_000;

describe('clampDelay: a delay from outside as whole milliseconds in [floor, ceiling]', () => {
  it('the timer limit is 2^31 - 1 ms and every ceiling is one day', () => {
    assert.equal(MAX_TIMER_DELAY_MS, 2_147_483_647);
    assert.deepEqual(DELAY_CEILINGS, { retryAfterMs: DAY, pollMs: DAY, cacheMs: DAY, tokenLifetimeMs: DAY });
  });

  const rows: readonly [string, number | undefined, number, number | undefined, number][] = [
    ['a value inside the range is kept', 50, 100, 10, 50],
    ['the ceiling itself is kept', 100, 100, undefined, 100],
    ['the floor itself is kept', 10, 100, 10, 10],
    ['below the floor becomes the floor', 5, 100, 10, 10],
    ['missing becomes the floor', undefined, 100, 10, 10],
    ['NaN becomes the floor', Number.NaN, 100, 10, 10],
    ['minus Infinity becomes the floor', Number.NEGATIVE_INFINITY, 100, 10, 10],
    ['Infinity becomes the ceiling', Number.POSITIVE_INFINITY, 100, 10, 100],
    ['a floor above the ceiling is the ceiling', 50, 100, 200, 100],
    ['a negative floor counts as 0', -3, 100, -5, 0],
    ['a negative ceiling counts as 0', 50, -5, undefined, 0],
    ['halves round up', 2.5, 100, undefined, 3],
    [
      'a ceiling above the timer limit is the timer limit',
      Number.POSITIVE_INFINITY,
      Number.POSITIVE_INFINITY,
      undefined,
      MAX_TIMER_DELAY_MS,
    ],
  ];
  for (const [name, ms, ceiling, floor, expected] of rows) {
    it(`${name}: clampDelay(${String(ms)}, ${ceiling}, ${String(floor)}) = ${expected}`, () => {
      assert.equal(floor === undefined ? clampDelay(ms, ceiling) : clampDelay(ms, ceiling, floor), expected);
    });
  }
});

describe('Debouncer: one run after a burst of triggers', () => {
  const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

  it("'quiet' runs once, after the triggers have stopped for the delay", async () => {
    let runs = 0;
    const debouncer = new Debouncer(() => runs++, 30);
    debouncer.trigger();
    await wait(20);
    debouncer.trigger(); // restarts the wait: nothing has run yet
    await wait(20);
    assert.equal(runs, 0);
    assert.equal(debouncer.pending, true);
    await wait(30);
    assert.equal(runs, 1);
    assert.equal(debouncer.pending, false);
  });

  it("'batch' runs the delay after the first trigger, and later triggers join that run", async () => {
    let runs = 0;
    const debouncer = new Debouncer(() => runs++, 30, 'batch');
    debouncer.trigger();
    await wait(20);
    debouncer.trigger(); // joins: does not push the run back
    await wait(20);
    assert.equal(runs, 1);
    debouncer.trigger();
    await wait(40);
    assert.equal(runs, 2);
  });

  it('flush runs a waiting run at once, and nothing when none waits', () => {
    let runs = 0;
    const debouncer = new Debouncer(() => runs++, 10_000);
    debouncer.flush();
    assert.equal(runs, 0);
    debouncer.trigger();
    debouncer.flush();
    assert.equal(runs, 1);
    assert.equal(debouncer.pending, false);
  });

  it('cancel and dispose drop a waiting run', async () => {
    let runs = 0;
    const cancelled = new Debouncer(() => runs++, 10);
    cancelled.trigger();
    cancelled.cancel();
    const disposed = new Debouncer(() => runs++, 10);
    disposed.trigger();
    disposed.dispose();
    await wait(30);
    assert.equal(runs, 0);
  });
});
