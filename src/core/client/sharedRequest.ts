// Work several callers wait for, done once: the events cache shares one
// request per machine (src/core/eventsCache), the token client one grant. Each
// caller waits with its own signal: one that gives up stops waiting (its
// promise rejects 'cancelled'), and the work is aborted only when nobody waits
// any more, so one impatient caller cannot fail the others.

import { asError } from '../common/errors';
import { cancelledError } from './errors';

export class SharedRequest<T> {
  #waiters = 0;

  /**
   * `promise` is the work, started with `controller`'s signal; `onAbandoned`
   * is called once nobody waits any more, just before that signal aborts (the
   * owner forgets the work there, so the next caller starts afresh).
   */
  constructor(
    readonly promise: Promise<T>,
    private readonly controller: AbortController,
    private readonly onAbandoned: () => void,
  ) {}

  /** Waits for the work. Without a signal the caller waits to the end, so the work is never aborted for it. */
  join(signal: AbortSignal | undefined): Promise<T> {
    if (signal?.aborted === true) return Promise.reject(cancelledError());
    this.#waiters++;
    if (signal === undefined) return this.promise;
    return new Promise<T>((resolve, reject) => {
      const onAbort = (): void => {
        this.#waiters--;
        if (this.#waiters === 0) {
          this.onAbandoned();
          this.controller.abort();
        }
        reject(cancelledError());
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.promise.then(
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
}
