// Every delay from outside passes here before a timer: Node treats more than 2^31−1 ms as 1 ms, so an
// unclamped "wait very long" becomes "retry at once, forever".

/** The largest delay setTimeout honours; above it Node fires after 1 ms. */
export const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

export const DELAY_CEILINGS = {
  /** A Retry-After honoured by auto-refresh: at most a day between polls. */
  retryAfterMs: 24 * 60 * 60 * 1000,
  pollMs: 24 * 60 * 60 * 1000,
  cacheMs: 24 * 60 * 60 * 1000,
  tokenLifetimeMs: 24 * 60 * 60 * 1000,
} as const;

/** NaN, negative or missing become `floor`; Infinity and huge values the ceiling. */
export function clampDelay(ms: number | undefined, ceiling: number, floor = 0): number {
  const top = Math.min(Math.max(0, ceiling), MAX_TIMER_DELAY_MS);
  const bottom = Math.min(Math.max(0, floor), top);
  if (ms === undefined || Number.isNaN(ms)) return bottom;
  // Infinity needs no case of its own: Math.min(top, Infinity) is top.
  return Math.min(top, Math.max(bottom, Math.round(ms)));
}

/**
 * The one way to run something after a burst of triggers: 'quiet' once they stopped for `delayMs`,
 * 'batch' `delayMs` after the first (a stream of answers repaints at a steady pace).
 */
export class Debouncer {
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly run: () => void,
    private readonly delayMs: number,
    private readonly mode: 'quiet' | 'batch' = 'quiet',
  ) {}

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
