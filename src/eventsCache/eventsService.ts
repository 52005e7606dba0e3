// One cache of events per serial number, shared by the tree, the hovers and
// the look-up, so a machine seen in one place costs no second request in
// another. Pure TypeScript (no vscode import): unit-tested under plain mocha.
import type { ApiError } from '../core/errors';
import type { EventsResult, GetEventsOptions, RequestPriority, TimestampUnit } from '../core/model';
import { asError } from '../common/errors';
import { Emitter, type Event } from '../common/emitter';

/** The slice of OnboardingClient this service needs (lets tests pass a fake). */
export interface EventsSource {
  getEvents(serialNumber: string, options?: GetEventsOptions): Promise<EventsResult>;
}

/** The answer to a request with the spec's `timestamp` filter (§4.1), kept apart from the full result. */
export interface WindowEntry {
  /** The `timestamp` query value that was sent, in the server's units. */
  readonly timestamp: number;
  readonly result: EventsResult;
}

export interface CacheEntry {
  readonly result: EventsResult;
  /** True when this result came from persisted storage or failed to refresh: shown, marked stale. */
  readonly stale: boolean;
  /** The last refresh error, when the last attempt failed (the result is then the last good one). */
  readonly error?: ApiError | Error;
}

/** Where the last good results survive a reload (extension global storage in the glue). */
export interface ResultStore {
  load(serialNumber: string): EventsResult | undefined;
  save(result: EventsResult): void;
}

export interface EventsServiceOptions {
  readonly source: () => EventsSource | undefined;
  /** How long a result counts as fresh, in ms; read on each call so settings apply at once. */
  readonly freshForMs: () => number;
  readonly store?: ResultStore;
  readonly now?: () => number;
}

export type GetOptions = {
  readonly signal?: AbortSignal;
  /** Ignore the cache and ask the API. */
  readonly force?: boolean;
  /**
   * Interactive when absent (hover, look-up, details). Refresh-all,
   * auto-refresh and the workspace scan pass 'bulk': their requests queue
   * behind every interactive one.
   */
  readonly priority?: RequestPriority;
};

export class NotSignedInError extends Error {
  constructor() {
    super('Not signed in. Run "Onboarding Events: Sign In" first.');
    this.name = 'NotSignedInError';
  }
}

export class EventsService {
  private readonly entries = new Map<string, CacheEntry>();
  private readonly inFlight = new Map<string, Promise<EventsResult>>();
  /** Serial numbers whose request in flight was asked for in bulk and nobody waits for in person yet. */
  private readonly bulkInFlight = new Set<string>();
  private readonly windows = new Map<string, WindowEntry>();
  private readonly windowsInFlight = new Map<string, Promise<EventsResult>>();
  private readonly updated = new Emitter<string>();
  private readonly now: () => number;
  /** Bumped by clear(): answers to requests started before it belong to another sign-in and are dropped. */
  private generation = 0;

  constructor(private readonly options: EventsServiceOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Synchronous: what is known now, fresh or not (loads the persisted copy on first sight). */
  peek(serialNumber: string): CacheEntry | undefined {
    const known = this.entries.get(serialNumber);
    if (known) return known;
    const stored = this.options.store?.load(serialNumber);
    if (!stored) return undefined;
    const entry: CacheEntry = { result: stored, stale: true };
    this.entries.set(serialNumber, entry);
    return entry;
  }

  /** True when a cached result exists and is younger than the freshness period. */
  isFresh(serialNumber: string): boolean {
    const entry = this.entries.get(serialNumber);
    return !!entry && !entry.stale && !entry.error && this.now() - entry.result.fetchedAt < this.options.freshForMs();
  }

  /**
   * Returns fresh events: from the cache when fresh, else from the API. At
   * most one request per serial number is in flight; later callers share it.
   * On failure the last good result stays in the cache, marked stale, and the
   * error is thrown to this caller.
   */
  async get(serialNumber: string, options: GetOptions = {}): Promise<EventsResult> {
    if (!options.force && this.isFresh(serialNumber)) {
      const entry = this.entries.get(serialNumber);
      if (entry) return entry.result;
    }
    const pending = this.inFlight.get(serialNumber);
    if (pending) {
      if ((options.priority ?? 'interactive') === 'interactive' && this.bulkInFlight.delete(serialNumber)) this.expedite(serialNumber);
      return pending;
    }
    const source = this.options.source();
    if (!source) throw new NotSignedInError();
    const request = this.fetch(source, serialNumber, options).finally(() => {
      this.inFlight.delete(serialNumber);
      this.bulkInFlight.delete(serialNumber);
    });
    this.inFlight.set(serialNumber, request);
    if (options.priority === 'bulk') this.bulkInFlight.add(serialNumber);
    return request;
  }

  /**
   * A hover or look-up now waits for a machine a refresh-all asked for in bulk.
   * The same request is asked for again, interactively: the client joins the
   * identical request in flight (one request on the wire) and moves it ahead
   * of the bulk queue. Its answer is the one the pending call delivers.
   */
  private expedite(serialNumber: string): void {
    const source = this.options.source();
    source?.getEvents(serialNumber, { priority: 'interactive' }).catch(() => undefined);
  }

  private async fetch(source: EventsSource, serialNumber: string, options: GetOptions): Promise<EventsResult> {
    const generation = this.generation;
    try {
      const result = await source.getEvents(serialNumber, {
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.priority ? { priority: options.priority } : {}),
      });
      if (generation !== this.generation) return result;
      this.entries.set(serialNumber, { result, stale: false });
      this.options.store?.save(result);
      this.fire(serialNumber);
      return result;
    } catch (err) {
      const error = asError(err);
      const isCancel = (error as Partial<ApiError>).kind === 'cancelled';
      if (generation !== this.generation) throw error;
      const previous = this.peek(serialNumber);
      if (previous && !isCancel) {
        this.entries.set(serialNumber, { result: previous.result, stale: true, error });
        this.fire(serialNumber);
      }
      throw error;
    }
  }

  /**
   * Asks the API for the events of one machine with the spec's `timestamp`
   * filter. The spec does not say what the filter means (§4.1 rule 2), so the
   * answer is kept apart from the full result — never persisted and never
   * replacing it — and callers re-check it client-side. One request per
   * (serial, timestamp) is in flight at a time.
   */
  async getWindow(
    serialNumber: string,
    timestamp: number,
    options: { readonly signal?: AbortSignal; readonly priority?: RequestPriority } = {},
  ): Promise<EventsResult> {
    const key = `${serialNumber}\u0000${timestamp}`;
    const pending = this.windowsInFlight.get(key);
    if (pending) return pending;
    const source = this.options.source();
    if (!source) throw new NotSignedInError();
    const generation = this.generation;
    const request = (async () => {
      const result = await source.getEvents(serialNumber, {
        timestamp,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.priority ? { priority: options.priority } : {}),
      });
      if (generation !== this.generation) return result;
      this.windows.set(serialNumber, { timestamp, result });
      this.fire(serialNumber);
      return result;
    })().finally(() => this.windowsInFlight.delete(key));
    this.windowsInFlight.set(key, request);
    return request;
  }

  /** The last windowed answer for this serial number, when it was asked with this `timestamp`. */
  peekWindow(serialNumber: string, timestamp: number): WindowEntry | undefined {
    const entry = this.windows.get(serialNumber);
    return entry?.timestamp === timestamp ? entry : undefined;
  }

  /**
   * The unit the server's timestamps are in, as far as fetched events tell:
   * this machine's first, then any other machine's (one server, one unit).
   */
  timestampUnitHint(serialNumber?: string): TimestampUnit | undefined {
    const own = serialNumber === undefined ? undefined : this.entries.get(serialNumber)?.result.events[0]?.time.unit;
    if (own) return own;
    for (const entry of this.entries.values()) {
      const unit = entry.result.events[0]?.time.unit;
      if (unit) return unit;
    }
    return undefined;
  }

  /** Forget one serial number (or all): the next get() asks the API. */
  invalidate(serialNumber?: string): void {
    if (serialNumber === undefined) {
      for (const [serial, entry] of this.entries) this.entries.set(serial, { ...entry, stale: true });
    } else {
      const entry = this.entries.get(serialNumber);
      if (entry) this.entries.set(serialNumber, { ...entry, stale: true });
    }
  }

  /** Drop everything, e.g. on sign-out or an environment switch: data of one API never shows under another. */
  clear(): void {
    this.entries.clear();
    this.inFlight.clear();
    this.windows.clear();
    this.windowsInFlight.clear();
    this.generation++;
  }

  /** A serial number's entry changed (fetched, failed, loaded from the store). */
  readonly onDidUpdate: Event<string> = this.updated.event;

  private fire(serialNumber: string): void {
    this.updated.fire(serialNumber);
  }
}
