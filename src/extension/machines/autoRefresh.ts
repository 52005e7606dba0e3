// Polls pinned machines on a timer while it makes sense: only when enabled,
// only while the Machines view is visible and the window has focus, and more
// slowly after errors — never sooner than the server's Retry-After. Pure
// TypeScript with injected timers and clock, unit-tested under mocha.
import { clampDelay, DELAY_CEILINGS } from '../../core/common/delays';

export type PollOutcome =
  | { readonly kind: 'ok' }
  /** Some or all requests failed; `retryAfterMs` is the longest wait a 429 asked for. */
  | { readonly kind: 'failed'; readonly retryAfterMs?: number }
  /** Polling cannot work (e.g. the credentials were rejected): stop until update() is called again. */
  | { readonly kind: 'stop' };

export type AutoRefreshState = 'disabled' | 'paused' | 'waiting' | 'polling' | 'stopped';

export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface AutoRefreshOptions {
  readonly enabled: () => boolean;
  readonly intervalMs: () => number;
  /** The view is visible and the window focused. */
  readonly active: () => boolean;
  readonly poll: () => Promise<PollOutcome>;
  readonly timers?: Timers;
  readonly now?: () => number;
  /** Upper bound of the error backoff (never below the interval). */
  readonly maxBackoffMs?: number;
  readonly onStateChange?: (state: AutoRefreshState) => void;
}

export const DEFAULT_MAX_BACKOFF_MS = 60 * 60 * 1000;

const realTimers: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => {
    clearTimeout(handle as ReturnType<typeof setTimeout>);
  },
};

/** Delay before the next poll after `failures` consecutive failed polls. */
export function backoffDelay(
  intervalMs: number,
  failures: number,
  retryAfterMs: number | undefined,
  maxBackoffMs = DEFAULT_MAX_BACKOFF_MS,
): number {
  const interval = pollIntervalMs(intervalMs);
  const doubled = interval * 2 ** Math.min(failures, 16);
  const backoff = Math.min(doubled, Math.max(maxBackoffMs, interval));
  // Never sooner than the interval, never later than a day, whatever the server asked.
  return clampDelay(Math.max(backoff, retryAfterMs ?? 0), DELAY_CEILINGS.pollMs, interval);
}

/** The interval as a timer can honour it: at least a second, at most a day. */
function pollIntervalMs(intervalMs: number): number {
  return clampDelay(intervalMs, DELAY_CEILINGS.pollMs, 1000);
}

export class AutoRefresh {
  private timer: unknown;
  private current: AutoRefreshState = 'disabled';
  private failures = 0;
  private lastRetryAfterMs: number | undefined;
  private lastPollAt: number | undefined;
  private disposed = false;
  private readonly timers: Timers;
  private readonly now: () => number;

  constructor(private readonly options: AutoRefreshOptions) {
    this.timers = options.timers ?? realTimers;
    this.now = options.now ?? Date.now;
  }

  /** Delay from the last poll to the next one: the interval, or the backoff after failures. */
  private currentDelay(): number {
    const interval = pollIntervalMs(this.options.intervalMs());
    return this.failures === 0 ? interval : backoffDelay(interval, this.failures, this.lastRetryAfterMs, this.options.maxBackoffMs);
  }

  /** Re-reads enabled/active/interval; call whenever one of them may have changed. */
  update(): void {
    if (this.disposed || this.current === 'polling' || this.current === 'stopped') return;
    this.clearTimer();
    if (!this.options.enabled()) {
      this.failures = 0;
      this.lastRetryAfterMs = undefined;
      this.setState('disabled');
      return;
    }
    const due =
      this.lastPollAt === undefined ? this.now() + pollIntervalMs(this.options.intervalMs()) : this.lastPollAt + this.currentDelay();
    if (!this.options.active()) {
      this.setState('paused');
      return;
    }
    this.setState('waiting');
    this.timer = this.timers.setTimeout(() => void this.pollWhenDue(), clampDelay(due - this.now(), DELAY_CEILINGS.pollMs));
  }

  /** The timer's poll, unless disabled or inactive (then it only re-reads the state). */
  private async pollWhenDue(): Promise<void> {
    if (this.disposed || this.current === 'polling' || this.current === 'stopped') return;
    if (!this.options.enabled() || !this.options.active()) {
      this.update();
      return;
    }
    this.clearTimer();
    this.setState('polling');
    let outcome: PollOutcome;
    try {
      outcome = await this.options.poll();
    } catch {
      outcome = { kind: 'failed' };
    }
    this.lastPollAt = this.now();
    if (outcome.kind === 'ok') {
      this.failures = 0;
      this.lastRetryAfterMs = undefined;
    } else if (outcome.kind === 'failed') {
      this.failures++;
      this.lastRetryAfterMs = outcome.retryAfterMs;
    }
    if (outcome.kind === 'stop') {
      this.setState('stopped');
      return;
    }
    this.setState('waiting');
    this.update();
  }

  /** Resumes after 'stopped' (e.g. signed in again) and forgets the backoff. */
  reset(): void {
    if (this.current === 'polling') return;
    this.failures = 0;
    this.lastRetryAfterMs = undefined;
    this.lastPollAt = undefined;
    this.current = 'disabled';
    this.update();
  }

  dispose(): void {
    this.disposed = true;
    this.clearTimer();
  }

  private clearTimer(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private setState(state: AutoRefreshState): void {
    if (state === this.current) return;
    this.current = state;
    this.options.onStateChange?.(state);
  }
}
