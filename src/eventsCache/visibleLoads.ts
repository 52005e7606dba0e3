// Which visible serial numbers to load, and when to stop: the policy behind
// the inline status and the Problems panel. Given the serial numbers now in
// view (in order), it asks the events cache for those it has no fresh answer
// for — at most one request per serial per period, a few at a time, top of
// the screen first — drops queued ones that scrolled away before they were
// sent, and aborts sent ones that scrolled away. Failures are remembered for
// the period too (the cache keeps no entry for a machine that never loaded,
// so without this a 404 would be asked again on every scroll). Pure (no
// vscode), unit-tested with a fake clock and a fake loader.
import { isApiError } from '../core/errors';
import { Emitter, type Event } from '../common/emitter';
import { asError } from '../common/errors';

export interface VisibleLoadsOptions {
  /** One request through the cache (EventsService.get with the signal). */
  readonly load: (serialNumber: string, signal: AbortSignal) => Promise<unknown>;
  /** The cache has a fresh answer: nothing to ask. */
  readonly isFresh: (serialNumber: string) => boolean;
  /** The cache period in ms (read on each call, so the setting applies at once). */
  readonly periodMs: () => number;
  readonly now?: () => number;
  /** Requests of ours in flight at once (the client has its own overall limit). */
  readonly maxInFlight?: number;
}

/**
 * Automatic loads wait at least this long before asking again for the same
 * serial number, even with caching off (cacheSeconds 0): scrolling must never
 * turn into a request per scroll event.
 */
export const MIN_RELOAD_MS = 10_000;
export const DEFAULT_MAX_IN_FLIGHT = 4;

interface Attempt {
  readonly at: number;
  /** ApiError kind (or 'error') of a failed attempt; undefined when it succeeded. */
  readonly errorKind: string | undefined;
}

export class VisibleLoads {
  private readonly attempts = new Map<string, Attempt>();
  private readonly inFlight = new Map<string, AbortController>();
  private queue: string[] = [];
  private visible = new Set<string>();
  private sent = 0;
  private readonly settled = new Emitter<string>();
  private readonly now: () => number;
  private readonly maxInFlight: number;
  /** Bumped by clear(): answers to loads started before belong to another session and are ignored. */
  private generation = 0;

  /** A load finished (with an answer or a failure): the serial number. */
  readonly onDidSettle: Event<string> = this.settled.event;

  constructor(private readonly options: VisibleLoadsOptions) {
    this.now = options.now ?? Date.now;
    this.maxInFlight = Math.max(1, options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT);
  }

  /** Requests sent so far (for the bench and tests). */
  get requestsSent(): number {
    return this.sent;
  }

  /** Serial numbers whose request is on the wire now. */
  get pending(): readonly string[] {
    return [...this.inFlight.keys()];
  }

  /** The error kind of the last attempt, when it failed within the period (e.g. 'not-found'). */
  failure(serialNumber: string): string | undefined {
    const attempt = this.attempts.get(serialNumber);
    return attempt !== undefined && this.withinPeriod(attempt) ? attempt.errorKind : undefined;
  }

  /** The serial numbers now in view, most important first. Replaces the previous set. */
  show(serialNumbers: readonly string[]): void {
    this.visible = new Set(serialNumbers);
    for (const [serialNumber, controller] of this.inFlight) {
      if (!this.visible.has(serialNumber)) {
        this.inFlight.delete(serialNumber);
        controller.abort();
      }
    }
    this.queue = serialNumbers.filter((serialNumber) => this.wanted(serialNumber));
    this.pump();
  }

  /** Signed out or switched environment: forget every attempt, abort everything. */
  clear(): void {
    this.generation++;
    for (const controller of this.inFlight.values()) controller.abort();
    this.inFlight.clear();
    this.attempts.clear();
    this.queue = [];
    this.visible.clear();
  }

  dispose(): void {
    this.clear();
    this.settled.dispose();
  }

  private withinPeriod(attempt: Attempt): boolean {
    return this.now() - attempt.at < Math.max(MIN_RELOAD_MS, this.options.periodMs());
  }

  private wanted(serialNumber: string): boolean {
    if (this.inFlight.has(serialNumber) || this.options.isFresh(serialNumber)) return false;
    const attempt = this.attempts.get(serialNumber);
    return attempt === undefined || !this.withinPeriod(attempt);
  }

  private pump(): void {
    while (this.inFlight.size < this.maxInFlight && this.queue.length > 0) {
      const serialNumber = this.queue.shift();
      if (serialNumber === undefined) break;
      if (this.visible.has(serialNumber) && this.wanted(serialNumber)) this.start(serialNumber);
    }
  }

  private start(serialNumber: string): void {
    const controller = new AbortController();
    const generation = this.generation;
    this.inFlight.set(serialNumber, controller);
    this.sent++;
    const settle = (errorKind: string | undefined): void => {
      if (generation !== this.generation || this.inFlight.get(serialNumber) !== controller) return;
      this.inFlight.delete(serialNumber);
      this.attempts.set(serialNumber, { at: this.now(), errorKind });
      this.settled.fire(serialNumber);
      this.pump();
    };
    let loading: Promise<unknown>;
    try {
      loading = this.options.load(serialNumber, controller.signal);
    } catch (error) {
      loading = Promise.reject(asError(error));
    }
    loading.then(
      () => {
        settle(undefined);
      },
      (error: unknown) => {
        // Aborted because it scrolled away: not an attempt, it may be asked again when it comes back.
        if (controller.signal.aborted) return;
        if (isApiError(error) && error.kind === 'cancelled') {
          // Another caller sharing the cache's request cancelled it: no answer, so no attempt either.
          if (generation === this.generation && this.inFlight.get(serialNumber) === controller) this.inFlight.delete(serialNumber);
          this.pump();
          return;
        }
        settle(isApiError(error) ? error.kind : 'error');
      },
    );
  }
}
