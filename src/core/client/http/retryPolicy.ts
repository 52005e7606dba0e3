// Only plausibly temporary failures are retried: network errors, 429, 502/503/504. A 500 is a server
// bug, and retrying it would only triple the load.
import { setTimeout as delay } from 'node:timers/promises';
import { clampDelay, DELAY_CEILINGS, MAX_TIMER_DELAY_MS } from '../../common/delays';
import { definedOnly } from '../../common/definedOnly';
import type { NetworkFailure } from './transport';

export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/** Timeouts are not retried (the user already waited); certificates, proxies and DNS fail the same way again. */
export const RETRYABLE_FAILURES: ReadonlySet<NetworkFailure> = new Set<NetworkFailure>(['connection', 'connection-refused']);

export interface RetryPolicy {
  readonly maxRetries: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** A Retry-After longer than this is not waited out: the error reports it so the user can decide. */
  readonly maxRetryAfterMs: number;
  readonly random: () => number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 3,
  baseDelayMs: 250,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 30_000,
  random: Math.random,
};

/** Exponential backoff with jitter: between half and all of min(max, base·2^retry), so clients that failed together spread out. */
export function backoffDelay(retry: number, policy: RetryPolicy): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return Math.round(ceiling / 2 + (policy.random() * ceiling) / 2);
}

/**
 * RFC 9110 §10.2.3; always finite and at most a day, so "a long time" never becomes Infinity or an
 * overflowing timer.
 */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  // More digits than this is a day's ceiling anyway; Number() of 400 digits is Infinity.
  if (/^\d+$/.test(trimmed))
    return clampDelay(trimmed.length > 12 ? Number.POSITIVE_INFINITY : Number(trimmed) * 1000, DELAY_CEILINGS.retryAfterMs);
  if (trimmed.length > 64) return undefined;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return clampDelay(date - now, DELAY_CEILINGS.retryAfterMs);
}

export async function sleep(ms: number, signal: AbortSignal | undefined): Promise<'slept' | 'aborted'> {
  try {
    await delay(clampDelay(ms, MAX_TIMER_DELAY_MS), undefined, definedOnly({ signal }));
    return 'slept';
  } catch {
    return 'aborted';
  }
}
