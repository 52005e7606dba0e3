// Which visible serial numbers to load: those without a fresh answer, top of the screen first, queued
// ones dropped and sent ones aborted when they scroll away. A screen's worth per view and the window's
// budget load without asking; the rest are held until the user says "Load".
import { isApiError } from '../client/errors';
import { Emitter, type Event } from '../common/emitter';
import { asError } from '../common/errors';
import { failureKind, type EventsCache } from './eventsCache';

export interface VisibleLoadsOptions {
  readonly load: (serialNumber: string, signal: AbortSignal) => Promise<unknown>;
  /** What the cache knows, and the window's one budget of loads nobody asked for, which every view spends from. */
  readonly cache: Pick<EventsCache, 'isFresh' | 'peek' | 'failure' | 'automaticLoads'>;
  readonly periodMs: () => number;
  readonly now?: () => number;
  /** Requests of ours in flight at once (the client has its own overall limit). */
  readonly maxInFlight?: number;
  /** Serial numbers of one view loaded without asking (the first in view). */
  readonly maxPerView?: number;
}

/** Even with caching off, scrolling must never turn into a request per scroll event. */
export const MIN_RELOAD_MS = 10_000;
export const DEFAULT_MAX_IN_FLIGHT = 4;
/**
 * One screen of a list (~50 lines), so a normal file always shows every status; the agent tools ask
 * before 10 because an agent's call is not the user looking.
 */
export const MAX_AUTOMATIC_PER_VIEW = 50;
export class VisibleLoads {
  private readonly inFlight = new Map<string, AbortController>();
  private queue: string[] = [];
  private visible = new Set<string>();
  private held = new Set<string>();
  private granted = new Set<string>();
  private readonly settled = new Emitter<string>();
  private readonly heldChanged = new Emitter<number>();
  private readonly now: () => number;
  private readonly maxInFlight: number;
  private generation = 0;

  private readonly maxPerView: number;

  readonly onDidSettle: Event<string> = this.settled.event;
  readonly onDidChangeHeld: Event<number> = this.heldChanged.event;

  constructor(private readonly options: VisibleLoadsOptions) {
    this.now = options.now ?? Date.now;
    this.maxInFlight = Math.max(1, options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT);
    this.maxPerView = Math.max(0, options.maxPerView ?? MAX_AUTOMATIC_PER_VIEW);
  }

  get heldCount(): number {
    return this.held.size;
  }

  get pending(): readonly string[] {
    return [...this.inFlight.keys()];
  }

  /** The error kind of the cache's last failure for this serial number, when it failed within the period (e.g. 'not-found'). */
  failure(serialNumber: string): string | undefined {
    const failed = this.options.cache.failure(serialNumber);
    if (failed === undefined || !this.withinPeriod(failed.at)) return undefined;
    return failureKind(failed);
  }

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

  /** Each held serial number loads once past the bounds, and the window's budget starts again. */
  loadHeld(): void {
    if (this.held.size === 0) return;
    for (const serialNumber of this.held) this.granted.add(serialNumber);
    this.queue = [...this.held, ...this.queue];
    this.held = new Set();
    this.options.cache.automaticLoads.restart();
    this.heldChanged.fire(0);
    this.pump();
  }

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
