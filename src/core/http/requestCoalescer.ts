// Identical concurrent operations share one execution: the tree, a hover and a
// details view asking for the same serial at once cost one request. The shared
// work has its own AbortSignal, aborted only when every waiter has cancelled,
// so one impatient caller cannot fail the others.

import { cancelledError } from '../errors';
import { asError } from '../../common/errors';

interface Shared<T> {
  readonly controller: AbortController;
  readonly promise: Promise<T>;
  waiters: number;
}

export class RequestCoalescer<T> {
  readonly #inflight = new Map<string, Shared<T>>();

  /** Keys in flight now; for tests and diagnostics. */
  get size(): number {
    return this.#inflight.size;
  }

  run(key: string, signal: AbortSignal | undefined, start: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (signal?.aborted === true) return Promise.reject(cancelledError());
    const shared = this.#inflight.get(key) ?? this.#start(key, start);
    shared.waiters++;
    if (signal === undefined) return shared.promise;

    return new Promise<T>((resolve, reject) => {
      const onAbort = (): void => {
        shared.waiters--;
        if (shared.waiters === 0) {
          this.#forget(key, shared);
          shared.controller.abort();
        }
        reject(cancelledError());
      };
      signal.addEventListener('abort', onAbort, { once: true });
      shared.promise.then(
        (value) => {
          signal.removeEventListener('abort', onAbort);
          resolve(value);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(asError(error));
        },
      );
    });
  }

  #start(key: string, start: (signal: AbortSignal) => Promise<T>): Shared<T> {
    const controller = new AbortController();
    const shared: Shared<T> = { controller, promise: start(controller.signal), waiters: 0 };
    this.#inflight.set(key, shared);
    const forget = (): void => {
      this.#forget(key, shared);
    };
    shared.promise.then(forget, forget);
    return shared;
  }

  #forget(key: string, shared: Shared<T>): void {
    // A newer execution may already own the key after every waiter of this one cancelled.
    if (this.#inflight.get(key) === shared) this.#inflight.delete(key);
  }
}
