// A server with finite capacity and a rate limit, as real ones have (the spec
// names neither): C requests are served at once, Q more wait in a first-come
// queue (their wait adds to their latency), and anything beyond is answered
// 429 with Retry-After. Separately, a rate limit of R requests per wall-clock
// second answers 429 with a Retry-After date at the start of the next second.

export interface LoadLimits {
  /** Requests served at once; 0 = unlimited. */
  capacity: number;
  /** Requests waiting for a slot beyond `capacity`; more are answered 429. */
  queueLimit: number;
  /** Retry-After (delay-seconds) sent when the queue is full. */
  overflowRetryAfterSeconds: number;
  /** Requests per wall-clock second; 0 = unlimited. More are answered 429 until the next second. */
  rateLimit: number;
}

export const NO_LOAD_LIMITS: Readonly<LoadLimits> = { capacity: 0, queueLimit: 0, overflowRetryAfterSeconds: 1, rateLimit: 0 };

/** What the server saw of the load; the bench and the limiter tests read it. */
export interface LoadStats {
  /** Requests that were being served at once, at most. */
  readonly maxServing: number;
  /** Requests that waited in the queue at once, at most. */
  readonly maxQueued: number;
  /** Requests that waited in the queue at all. */
  readonly queuedTotal: number;
  /** 429 answers because the queue was full. */
  readonly rejectedFull: number;
  /** 429 answers because of the rate limit. */
  readonly rejectedRate: number;
}

export type Admission =
  { readonly kind: 'admitted'; readonly release: () => void } | { readonly kind: 'rejected'; readonly retryAfter: string };

export class LoadGate {
  #serving = 0;
  readonly #queue: (() => void)[] = [];
  #windowSecond = -1;
  #windowCount = 0;
  #stats = { maxServing: 0, maxQueued: 0, queuedTotal: 0, rejectedFull: 0, rejectedRate: 0 };

  constructor(private readonly limits: () => Readonly<LoadLimits>) {}

  stats(): LoadStats {
    return { ...this.#stats };
  }

  resetStats(): void {
    this.#stats = { maxServing: this.#serving, maxQueued: this.#queue.length, queuedTotal: 0, rejectedFull: 0, rejectedRate: 0 };
  }

  /** Waits for a slot (the queue), or says no at once (429). Call `release` when the answer is sent. */
  async admit(now = Date.now()): Promise<Admission> {
    const limits = this.limits();
    if (limits.rateLimit > 0) {
      const second = Math.floor(now / 1000);
      if (second !== this.#windowSecond) {
        this.#windowSecond = second;
        this.#windowCount = 0;
      }
      if (this.#windowCount >= limits.rateLimit) {
        this.#stats.rejectedRate++;
        return { kind: 'rejected', retryAfter: new Date((second + 1) * 1000).toUTCString() };
      }
      this.#windowCount++;
    }
    if (limits.capacity > 0 && this.#serving >= limits.capacity) {
      if (this.#queue.length >= limits.queueLimit) {
        this.#stats.rejectedFull++;
        return { kind: 'rejected', retryAfter: String(limits.overflowRetryAfterSeconds) };
      }
      this.#stats.queuedTotal++;
      await new Promise<void>((resolve) => {
        this.#queue.push(resolve);
        this.#stats.maxQueued = Math.max(this.#stats.maxQueued, this.#queue.length);
      });
      // The slot was handed over by release(): #serving already counts this request.
    } else {
      this.#serving++;
    }
    this.#stats.maxServing = Math.max(this.#stats.maxServing, this.#serving);
    let released = false;
    return {
      kind: 'admitted',
      release: () => {
        if (released) return;
        released = true;
        const next = this.#queue.shift();
        if (next !== undefined) next();
        else this.#serving--;
      },
    };
  }
}
