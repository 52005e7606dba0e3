// One queue for every request, shared by every view: a learnt limit under the user's ceiling;
// interactive requests ahead of bulk ones, with a reserve bulk never takes; a Retry-After holds the
// whole queue; retries go first.

import { cancelledError } from '../errors';
import { AdaptiveLimit, type AdaptiveLimitOptions, type LimitSnapshot, type SampleOutcome } from './adaptiveLimit';

export type { SampleOutcome } from './adaptiveLimit';

/** Interactive: someone is waiting to see the answer. Bulk: many requests nobody looks at one by one. */
export type RequestPriority = 'interactive' | 'bulk';

/**
 * The priority of one piece of work, handed to each of its requests. It only rises: when someone waits
 * in person for bulk work, its queued requests move ahead.
 */
export class RequestLane {
  #priority: RequestPriority;
  readonly #raised = new Set<() => void>();

  constructor(priority: RequestPriority = 'interactive') {
    this.#priority = priority;
  }

  get priority(): RequestPriority {
    return this.#priority;
  }

  expedite(): boolean {
    this.#priority = 'interactive';
    const waiting = [...this.#raised];
    this.#raised.clear();
    for (const move of waiting) move();
    return waiting.length > 0;
  }

  onExpedite(move: () => void): () => void {
    this.#raised.add(move);
    return () => this.#raised.delete(move);
  }
}

export type Priority = RequestPriority | RequestLane;

export interface AcquireOptions {
  readonly priority?: Priority;
  readonly signal?: AbortSignal;
  /** A retry of a request already sent once: queued ahead of first attempts. */
  readonly retry?: boolean;
}

export interface Permit {
  release(outcome: SampleOutcome): void;
}

export interface ConcurrencyLimiterOptions extends Omit<AdaptiveLimitOptions, 'ceiling'> {
  readonly ceiling: number;
  /** Milliseconds; Date.now by default (a Retry-After date is wall-clock time). */
  readonly now?: () => number;
}

interface Waiter {
  priority: RequestPriority;
  readonly grant: () => void;
}

/** Slots bulk requests never take: one per 32 of the ceiling, at least one when there are two or more. */
export function interactiveReserve(ceiling: number): number {
  return ceiling < 2 ? 0 : Math.max(1, Math.floor(ceiling / 32));
}

export class ConcurrencyLimiter {
  readonly #limit: AdaptiveLimit;
  readonly #reserve: number;
  readonly #now: () => number;
  readonly #interactive: Waiter[] = [];
  readonly #bulk: Waiter[] = [];
  #active = 0;
  #pausedUntil = 0;
  #pauseTimer: ReturnType<typeof setTimeout> | undefined;
  #maxActive = 0;

  constructor(options: ConcurrencyLimiterOptions) {
    this.#limit = new AdaptiveLimit(options);
    this.#reserve = interactiveReserve(options.ceiling);
    this.#now = options.now ?? Date.now;
  }

  get ceiling(): number {
    return this.#limit.ceiling;
  }

  get limit(): number {
    return this.#limit.limit;
  }

  get active(): number {
    return this.#active;
  }

  get maxActive(): number {
    return this.#maxActive;
  }

  get queued(): number {
    return this.#interactive.length + this.#bulk.length;
  }

  snapshot(): LimitSnapshot {
    return this.#limit.snapshot();
  }

  async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const permit = await this.acquire(signal === undefined ? {} : { signal });
    try {
      return await task();
    } finally {
      permit.release('ignore');
    }
  }

  /** A later pause extends an earlier one, never shortens it. */
  pauseUntil(until: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, until);
    this.#schedulePump(this.#now());
  }

  pausedUntil(): number | undefined {
    return this.#pausedUntil > this.#now() ? this.#pausedUntil : undefined;
  }

  acquire(options: AcquireOptions = {}): Promise<Permit> {
    const { signal } = options;
    const lane = typeof options.priority === 'object' ? options.priority : undefined;
    const priority: RequestPriority = lane?.priority ?? (typeof options.priority === 'string' ? options.priority : 'interactive');
    if (signal?.aborted === true) return Promise.reject(cancelledError());
    const queue = priority === 'interactive' ? this.#interactive : this.#bulk;
    // Nobody of equal or higher rank waits, and there is room: go now.
    const ahead = priority === 'interactive' ? this.#interactive.length : this.#interactive.length + this.#bulk.length;
    if (ahead === 0 && this.#mayStart(priority)) return Promise.resolve(this.#start());
    return new Promise<Permit>((resolve, reject) => {
      const onAbort = (): void => {
        stopListening();
        const own = waiter.priority === 'interactive' ? this.#interactive : this.#bulk;
        // A waiter still listening is in the queue of its priority: grant stops the listening as it
        // takes the waiter out, and the lane's move takes it along with its priority.
        own.splice(own.indexOf(waiter), 1);
        reject(cancelledError());
        // A cancelled interactive waiter may have been what held bulk ones back.
        this.#pump();
      };
      const waiter: Waiter = {
        priority,
        grant: () => {
          stopListening();
          signal?.removeEventListener('abort', onAbort);
          resolve(this.#start());
        },
      };
      // Someone now waits in person for this bulk request: it moves to the interactive queue.
      const stopListening =
        lane !== undefined && priority === 'bulk'
          ? lane.onExpedite(() => {
              this.#bulk.splice(this.#bulk.indexOf(waiter), 1);
              waiter.priority = 'interactive';
              this.#interactive.push(waiter);
              this.#pump();
            })
          : () => undefined;
      if (options.retry === true) queue.unshift(waiter);
      else queue.push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  #mayStart(priority: RequestPriority): boolean {
    const now = this.#now();
    if (this.#pausedUntil > now) {
      this.#schedulePump(now);
      return false;
    }
    const limit = this.#limit.limit;
    const ceiling = this.#limit.ceiling;
    const allowed = priority === 'interactive' ? Math.min(ceiling, limit + this.#reserve) : Math.min(limit, ceiling - this.#reserve);
    return this.#active < Math.max(1, allowed);
  }

  #start(): Permit {
    this.#active++;
    this.#maxActive = Math.max(this.#maxActive, this.#active);
    const sent = this.#limit.onSend(this.#active);
    const startedAt = this.#now();
    let released = false;
    return {
      release: (outcome) => {
        if (released) return;
        released = true;
        this.#active--;
        this.#limit.onSample(sent, this.#now() - startedAt, outcome, this.#now());
        this.#pump();
      },
    };
  }

  #pump(): void {
    for (;;) {
      const next = this.#interactive[0] ?? this.#bulk[0];
      if (next === undefined || !this.#mayStart(next.priority)) return;
      (next.priority === 'interactive' ? this.#interactive : this.#bulk).shift();
      next.grant();
    }
  }

  /** `now` is the reading that found the pause on: a second reading could be past its end and arm no timer. */
  #schedulePump(now: number): void {
    clearTimeout(this.#pauseTimer);
    // Timers may fire a little early against the wall clock: a waiter the pump finds still paused arms the next one.
    this.#pauseTimer = setTimeout(() => {
      this.#pump();
    }, this.#pausedUntil - now);
  }
}
