// Which visible serial numbers to load, and when to stop: the policy behind
// the inline status and the Problems panel. Given the serial numbers now in
// view (in order), it asks the events cache for those it has no fresh answer
// for — at most one request per serial per period, a few at a time, top of
// the screen first — drops queued ones that scrolled away before they were
// sent, and aborts sent ones that scrolled away. What was answered or failed,
// and when, is the cache's memory, read here: a 404 is not asked again on
// every scroll. Bounded: at most a screen's worth of serial numbers per view
// and a budget per period load without asking; the rest are held until the
// user says to load them (loadHeld), as the agent tools ask before a bulk
// read. Pure (no vscode), unit-tested with a fake clock over the real cache.
import { isApiError } from '../client/errors';
import { Emitter, type Event } from '../common/emitter';
import { asError } from '../common/errors';
import { failureKind, type EventsCache } from './eventsCache';

export interface VisibleLoadsOptions {
  /** One request through the cache (EventsCache.get with the signal). */
  readonly load: (serialNumber: string, signal: AbortSignal) => Promise<unknown>;
  /**
   * What the cache knows: a fresh answer (nothing to ask), the last answer's
   * time, the last failure; and the window's one budget of loads nobody asked
   * for, which every view spends from (a new view starts no budget of its own).
   */
  readonly cache: Pick<EventsCache, 'isFresh' | 'peek' | 'failure' | 'automaticLoads'>;
  /** The cache period in ms (read on each call, so the setting applies at once). */
  readonly periodMs: () => number;
  readonly now?: () => number;
  /** Requests of ours in flight at once (the client has its own overall limit). */
  readonly maxInFlight?: number;
  /** Serial numbers of one view loaded without asking (the first in view). */
  readonly maxPerView?: number;
}

/**
 * Automatic loads wait at least this long before asking again for the same
 * serial number, even with caching off (cacheSeconds 0): scrolling must never
 * turn into a request per scroll event.
 */
export const MIN_RELOAD_MS = 10_000;
export const DEFAULT_MAX_IN_FLIGHT = 4;
/**
 * A view's serial numbers loaded without asking: one screen of a list of
 * serial numbers (~50 lines), so a normal file — a config, a ticket, a
 * script with a handful — always shows every status. The agent tools ask
 * before 10 because an agent's call is not the user looking; a screen is.
 */
export const MAX_AUTOMATIC_PER_VIEW = 50;
export class VisibleLoads {
  private readonly inFlight = new Map<string, AbortController>();
  private queue: string[] = [];
  private visible = new Set<string>();
  /** Visible, wanted, and not loaded because a bound was reached: waits for loadHeld(). */
  private held = new Set<string>();
  /** What the user said to load (one load each, past the bounds). */
  private granted = new Set<string>();
  private readonly settled = new Emitter<string>();
  private readonly heldChanged = new Emitter<number>();
  private readonly now: () => number;
  private readonly maxInFlight: number;
  /** Bumped by clear(): answers to loads started before belong to another session and are ignored. */
  private generation = 0;

  private readonly maxPerView: number;

  /** A load finished (with an answer or a failure): the serial number. */
  readonly onDidSettle: Event<string> = this.settled.event;
  /** How many visible serial numbers are held (not loaded without asking) changed: the new count. */
  readonly onDidChangeHeld: Event<number> = this.heldChanged.event;

  constructor(private readonly options: VisibleLoadsOptions) {
    this.now = options.now ?? Date.now;
    this.maxInFlight = Math.max(1, options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT);
    this.maxPerView = Math.max(0, options.maxPerView ?? MAX_AUTOMATIC_PER_VIEW);
  }

  /** Visible serial numbers not loaded because a bound was reached. */
  get heldCount(): number {
    return this.held.size;
  }

  /** Serial numbers whose request is on the wire now. */
  get pending(): readonly string[] {
    return [...this.inFlight.keys()];
  }

  /** The error kind of the cache's last failure for this serial number, when it failed within the period (e.g. 'not-found'). */
  failure(serialNumber: string): string | undefined {
    const failed = this.options.cache.failure(serialNumber);
    if (failed === undefined || !this.withinPeriod(failed.at)) return undefined;
    return failureKind(failed);
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
    const before = this.held.size;
    this.held = new Set();
    this.queue = [];
    // The first in view, not the first not yet loaded: showing the same view again loads no more of it.
    serialNumbers.forEach((serialNumber, position) => {
      if (!this.wanted(serialNumber)) return;
      if (position < this.maxPerView || this.granted.has(serialNumber)) this.queue.push(serialNumber);
      else this.held.add(serialNumber);
    });
    this.pump();
    if (this.held.size !== before) this.heldChanged.fire(this.held.size);
  }

  /**
   * The user said to load what is held: each held serial number is loaded
   * once past the bounds, and the window's budget starts again.
   */
  loadHeld(): void {
    if (this.held.size === 0) return;
    for (const serialNumber of this.held) this.granted.add(serialNumber);
    this.queue = [...this.held, ...this.queue];
    this.held = new Set();
    this.options.cache.automaticLoads.restart();
    this.heldChanged.fire(0);
    this.pump();
  }

  /** Signed out or switched environment: abort everything (the cache forgets what was answered). */
  clear(): void {
    this.generation++;
    for (const controller of this.inFlight.values()) controller.abort();
    this.inFlight.clear();
    this.queue = [];
    this.visible.clear();
    this.granted.clear();
    const held = this.held.size;
    this.held = new Set();
    if (held > 0) this.heldChanged.fire(0);
  }

  dispose(): void {
    this.clear();
    this.settled.dispose();
    this.heldChanged.dispose();
  }

  private withinPeriod(at: number): boolean {
    return this.now() - at < Math.max(MIN_RELOAD_MS, this.options.periodMs());
  }

  /** Not in flight, not fresh, and neither answered nor failed within the period. */
  private wanted(serialNumber: string): boolean {
    const { cache } = this.options;
    if (this.inFlight.has(serialNumber) || cache.isFresh(serialNumber)) return false;
    const entry = cache.peek(serialNumber);
    if (entry !== undefined && !entry.stale && this.withinPeriod(entry.result.fetchedAt)) return false;
    const failed = cache.failure(serialNumber);
    return failed === undefined || !this.withinPeriod(failed.at);
  }

  private pump(): void {
    const before = this.held.size;
    while (this.inFlight.size < this.maxInFlight && this.queue.length > 0) {
      const serialNumber = this.queue.shift();
      if (serialNumber === undefined) break;
      if (!this.visible.has(serialNumber) || !this.wanted(serialNumber)) continue;
      if (this.granted.delete(serialNumber)) this.start(serialNumber);
      else if (this.options.cache.automaticLoads.spend()) this.start(serialNumber);
      else this.held.add(serialNumber);
    }
    if (this.held.size !== before) this.heldChanged.fire(this.held.size);
  }

  private start(serialNumber: string): void {
    const controller = new AbortController();
    const generation = this.generation;
    this.inFlight.set(serialNumber, controller);
    const settle = (): void => {
      if (generation !== this.generation || this.inFlight.get(serialNumber) !== controller) return;
      this.inFlight.delete(serialNumber);
      this.settled.fire(serialNumber);
      this.pump();
    };
    let loading: Promise<unknown>;
    try {
      loading = this.options.load(serialNumber, controller.signal);
    } catch (error) {
      loading = Promise.reject(asError(error));
    }
    loading.then(settle, (error: unknown) => {
      // Aborted because it scrolled away: not an attempt, it may be asked again when it comes back.
      if (controller.signal.aborted) return;
      if (isApiError(error) && error.kind === 'cancelled') {
        // The client was replaced (a settings change) under the request: no answer, so no attempt either.
        if (generation === this.generation && this.inFlight.get(serialNumber) === controller) this.inFlight.delete(serialNumber);
        this.pump();
        return;
      }
      settle();
    });
  }
}
