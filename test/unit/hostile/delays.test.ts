// Hostile corpus: delays a server or a setting hands us. Every row is a value
// an attacker (a server, a proxy, a workspace's settings) can choose; none may
// overflow a timer (Node fires anything above 2^31−1 ms after 1 ms) or turn
// auto-refresh into a hot loop. One row per case: add yours.
import assert from 'node:assert/strict';
import { clampDelay, DELAY_CEILINGS, MAX_TIMER_DELAY_MS } from '../../../src/core/common/delays';
import { parseRetryAfter } from '../../../src/core/client/http/retryPolicy';
import { AutoRefresh, backoffDelay } from '../../../src/extension/machines/autoRefresh';

const NOW = Date.UTC(2025, 5, 2, 9, 30);
const DAY = 24 * 60 * 60 * 1000;

describe('hostile input: delays from outside are clamped', () => {
  const retryAfter: readonly { readonly header: string; readonly expected: number | undefined }[] = [
    { header: '120', expected: 120_000 },
    { header: '3000000', expected: DAY },
    { header: '9'.repeat(400), expected: DAY },
    { header: 'Fri, 31 Dec 9999 23:59:59 GMT', expected: DAY },
    { header: 'Thu, 01 Jan 1970 00:00:00 GMT', expected: 0 },
    { header: '-5', expected: 0 },
    { header: '1e400', expected: undefined },
    { header: 'Infinity', expected: undefined },
    { header: 'x'.repeat(100_000), expected: undefined },
  ];
  for (const row of retryAfter) {
    it(`Retry-After ${JSON.stringify(row.header.slice(0, 40))} → ${String(row.expected)} ms`, () => {
      const ms = parseRetryAfter(row.header, NOW);
      assert.equal(ms, row.expected);
      if (ms !== undefined) assert.ok(Number.isFinite(ms) && ms <= MAX_TIMER_DELAY_MS);
    });
  }

  const clamps: readonly [number | undefined, number, number][] = [
    [Number.POSITIVE_INFINITY, DAY, DAY],
    [Number.NaN, DAY, 0],
    [undefined, DAY, 0],
    [-1, DAY, 0],
    [3e9, Number.MAX_SAFE_INTEGER, MAX_TIMER_DELAY_MS],
    [1.6, DAY, 2],
  ];
  for (const [ms, ceiling, expected] of clamps) {
    it(`clampDelay(${String(ms)}, ${ceiling}) = ${expected}`, () => {
      assert.equal(clampDelay(ms, ceiling), expected);
    });
  }

  it('the backoff honours a huge Retry-After as "a day", never as an overflowing timer', () => {
    for (const retryAfterMs of [3e9, Number.POSITIVE_INFINITY, Number.MAX_VALUE]) {
      const delay = backoffDelay(300_000, 1, retryAfterMs);
      assert.equal(delay, DELAY_CEILINGS.pollMs);
      assert.ok(delay <= MAX_TIMER_DELAY_MS);
    }
  });

  it('auto-refresh under Retry-After: 3000000 (real timers) polls once, not in a hot loop', async () => {
    let polls = 0;
    const delays: number[] = [];
    const refresh = new AutoRefresh({
      timers: {
        setTimeout: (callback, ms) => {
          delays.push(ms);
          return setTimeout(callback, ms);
        },
        clearTimeout: (handle) => {
          clearTimeout(handle as NodeJS.Timeout);
        },
      },
      enabled: () => true,
      active: () => true,
      intervalMs: () => 1000,
      // The value the old parseRetryAfter returned for "3000000" seconds.
      poll: () => {
        polls++;
        return Promise.resolve({ kind: 'failed', retryAfterMs: 3_000_000 * 1000 });
      },
    });
    try {
      // The scheduler's own first timer (the 1 s interval) makes the poll.
      refresh.update();
      const deadline = Date.now() + 10_000;
      while (polls === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(polls, 1, `polled ${polls} times in 300 ms`);
      assert.ok((delays.at(-1) ?? 0) > DAY - 60_000, 'the next poll is a day away');
    } finally {
      refresh.dispose();
    }
  });

  it('a setting-derived interval of 0 or Infinity neither spins nor overflows', () => {
    assert.equal(backoffDelay(0, 0, undefined), 1000);
    assert.equal(backoffDelay(Number.POSITIVE_INFINITY, 3, undefined), DELAY_CEILINGS.pollMs);
  });
});
