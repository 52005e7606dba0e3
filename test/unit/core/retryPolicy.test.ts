// The retry policy alone: how long a backoff step is, how a Retry-After header
// is read, and how a wait ends early when its caller cancels.

import * as assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { backoffDelay, DEFAULT_RETRY_POLICY, parseRetryAfter, sleep, type RetryPolicy } from '../../../src/core/client/http/retryPolicy';

const NOW = Date.UTC(2025, 5, 2, 9, 30);

describe('Retry policy', () => {
  describe('backoffDelay: between half and all of min(max, base·2^retry)', () => {
    const policy = (random: number, overrides: Partial<RetryPolicy> = {}): RetryPolicy => ({
      ...DEFAULT_RETRY_POLICY,
      baseDelayMs: 100,
      maxDelayMs: 1_000,
      random: () => random,
      ...overrides,
    });
    const rows: readonly { readonly retry: number; readonly random: number; readonly expected: number }[] = [
      { retry: 0, random: 0, expected: 50 },
      { retry: 0, random: 1, expected: 100 },
      { retry: 0, random: 0.5, expected: 75 },
      { retry: 1, random: 0, expected: 100 },
      { retry: 1, random: 1, expected: 200 },
      { retry: 2, random: 1, expected: 400 },
      { retry: 3, random: 0.25, expected: 500 },
      // 100·2^4 = 1600 is above the 1000 ceiling of one step.
      { retry: 4, random: 1, expected: 1_000 },
      { retry: 4, random: 0, expected: 500 },
      { retry: 30, random: 1, expected: 1_000 },
    ];
    for (const row of rows)
      it(`retry ${row.retry}, random ${row.random} → ${row.expected} ms`, () => {
        assert.equal(backoffDelay(row.retry, policy(row.random)), row.expected);
      });

    it('rounds to whole milliseconds', () => {
      assert.equal(backoffDelay(0, policy(0.333, { baseDelayMs: 10 })), 7);
    });
  });

  describe('parseRetryAfter: delay-seconds or an HTTP-date', () => {
    const rows: readonly { readonly header: string | undefined; readonly expected: number | undefined }[] = [
      { header: undefined, expected: undefined },
      { header: '0', expected: 0 },
      { header: '7', expected: 7_000 },
      { header: ' 7 ', expected: 7_000 },
      { header: '\t12\r\n', expected: 12_000 },
      // Twelve digits is the longest number read as it is; thirteen or more is "a long time" (a day).
      { header: '000000000007', expected: 7_000 },
      { header: '0000000000007', expected: 24 * 60 * 60 * 1000 },
      // Digits around anything else are not delay-seconds, and not a date either.
      { header: '12abc', expected: undefined },
      { header: 'abc12', expected: undefined },
      { header: '', expected: undefined },
      { header: 'soon', expected: undefined },
      { header: new Date(NOW + 30_000).toUTCString(), expected: 30_000 },
      { header: `  ${new Date(NOW + 30_000).toUTCString()}  `, expected: 30_000 },
      { header: new Date(NOW - 30_000).toUTCString(), expected: 0 },
    ];
    for (const row of rows)
      it(`${JSON.stringify(row.header)} → ${String(row.expected)}`, () => {
        assert.equal(parseRetryAfter(row.header, NOW), row.expected);
      });

    // Date.parse skips a parenthesised comment, so a valid date can be padded to any length.
    const dateOfLength = (length: number): string => {
      const date = new Date(NOW + 5_000).toUTCString();
      return `${date} (${'c'.repeat(length - date.length - 3)})`;
    };
    it('reads an HTTP-date of 64 characters', () => {
      assert.equal(dateOfLength(64).length, 64);
      assert.equal(parseRetryAfter(dateOfLength(64), NOW), 5_000);
    });

    it('refuses anything longer than 64 characters unread, even a date', () => {
      assert.equal(Number.isNaN(Date.parse(dateOfLength(65))), false, 'the header is a valid date');
      assert.equal(parseRetryAfter(dateOfLength(65), NOW), undefined);
    });
  });

  describe('sleep', () => {
    it('resolves "slept" after the delay and leaves no listener on the signal', async () => {
      const controller = new AbortController();
      assert.equal(await sleep(1, controller.signal), 'slept');
      assert.equal(getEventListeners(controller.signal, 'abort').length, 0);
    });

    it('resolves "slept" without a signal', async () => {
      assert.equal(await sleep(1, undefined), 'slept');
    });

    it('resolves "aborted" at once for a signal already aborted', async () => {
      const signal = AbortSignal.abort();
      const slept = sleep(60_000, signal);
      assert.equal(getEventListeners(signal, 'abort').length, 0, 'no wait was started');
      assert.equal(await slept, 'aborted');
    });

    it('listens for the abort while it waits, resolves "aborted" when it comes, and then stops listening', async () => {
      const controller = new AbortController();
      const slept = sleep(60_000, controller.signal);
      assert.equal(getEventListeners(controller.signal, 'abort').length, 1);
      controller.abort();
      assert.equal(await slept, 'aborted');
      assert.equal(getEventListeners(controller.signal, 'abort').length, 0);
    });
  });
});
