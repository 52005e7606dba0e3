import * as assert from 'node:assert/strict';
import { clampDelay, DELAY_CEILINGS, MAX_TIMER_DELAY_MS } from '../../../src/common/delays';

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
