// Every delay that comes from outside — a server's Retry-After or expires_in,
// a setting's interval or cache period — passes through here before it
// reaches a timer or a comparison. Node's setTimeout treats anything above
// 2^31−1 ms (about 24.8 days) as 1 ms, so an unclamped "wait a very long
// time" turns into "retry at once, forever". Pure: unit-tested.

/** The largest delay setTimeout honours; above it Node fires after 1 ms. */
export const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

/** Ceilings for the delays we take from outside, in one place. */
export const DELAY_CEILINGS = {
  /** A Retry-After honoured by auto-refresh: at most a day between polls. */
  retryAfterMs: 24 * 60 * 60 * 1000,
  /** An auto-refresh interval or backoff step. */
  pollMs: 24 * 60 * 60 * 1000,
  /** How long a cached result counts as fresh. */
  cacheMs: 24 * 60 * 60 * 1000,
  /** How long an access token is used before a new grant. */
  tokenLifetimeMs: 24 * 60 * 60 * 1000,
} as const;

/**
 * A delay from outside as a whole number of milliseconds in [floor, ceiling]
 * (the ceiling itself never above MAX_TIMER_DELAY_MS). NaN, negative or
 * missing values become `floor`; Infinity and huge values become the ceiling.
 */
export function clampDelay(ms: number | undefined, ceiling: number, floor = 0): number {
  const top = Math.min(Math.max(0, ceiling), MAX_TIMER_DELAY_MS);
  const bottom = Math.min(Math.max(0, floor), top);
  if (ms === undefined || Number.isNaN(ms)) return bottom;
  // Infinity needs no case of its own: Math.min(top, Infinity) is top.
  return Math.min(top, Math.max(bottom, Math.round(ms)));
}

/**
 * The one way to run something after a burst of triggers (typing, scrolling,
 * answers landing together), instead of a hand-written timer per feature.
 * 'quiet' runs once the triggers have stopped for `delayMs` (each trigger
 * restarts the wait: a cursor that keeps moving updates nothing until it
 * rests); 'batch' runs `delayMs` after the first trigger of a burst (later
 * triggers join that run: a stream of answers repaints at a steady pace).
 */
export class Debouncer {
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly run: () => void,
    private readonly delayMs: number,
    private readonly mode: 'quiet' | 'batch' = 'quiet',
  ) {}

  /** A run is waiting for its timer. */
  get pending(): boolean {
    return this.#timer !== undefined;
  }

  trigger(): void {
    if (this.#timer !== undefined) {
      if (this.mode === 'batch') return;
      clearTimeout(this.#timer);
    }
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.run();
    }, this.delayMs);
  }

  /** Runs now when a run is waiting (e.g. a test, or a reader that cannot wait for the timer). */
  flush(): void {
    if (this.#timer === undefined) return;
    this.cancel();
    this.run();
  }

  cancel(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  dispose(): void {
    this.cancel();
  }
}
