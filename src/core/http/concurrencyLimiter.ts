// One limit for every request the client makes, so a refresh of hundreds of
// serial numbers cannot open hundreds of sockets or trip the server's rate
// limit. Waiters are served first come, first served, and leave the queue when
// their caller cancels.

import { cancelledError } from '../apiErrors';

interface Waiter {
  readonly grant: () => void;
}

export class ConcurrencyLimiter {
  #active = 0;
  readonly #queue: Waiter[] = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`The concurrency limit must be a positive integer, not ${limit}.`);
  }

  /** Requests running now; for tests and diagnostics. */
  get active(): number {
    return this.#active;
  }

  get queued(): number {
    return this.#queue.length;
  }

  async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.#acquire(signal);
    try {
      return await task();
    } finally {
      this.#release();
    }
  }

  #acquire(signal: AbortSignal | undefined): Promise<void> {
    if (signal?.aborted === true) return Promise.reject(cancelledError());
    if (this.#active < this.limit) {
      this.#active++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        const position = this.#queue.indexOf(waiter);
        if (position >= 0) this.#queue.splice(position, 1);
        reject(cancelledError());
      };
      const waiter: Waiter = {
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      this.#queue.push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  #release(): void {
    const next = this.#queue.shift();
    // The slot passes straight to the next waiter, so `active` never dips and lets a newcomer jump the queue.
    if (next !== undefined) next.grant();
    else this.#active--;
  }
}
