// The one events cache every view reads through (tree, hovers, inline status,
// look-up, details, agent tools), and the one owner of the data path: it
// de-duplicates requests (one per serial number in flight, each caller
// cancelling only its own wait), remembers results, failures and misses (so no
// view keeps its own memory of them), and turns credentials the API refused
// into one session event. Pure TypeScript (no vscode import): unit-tested
// under plain mocha.
import { CausedError, cancelledError, isApiError } from '../client/errors';
import { RequestLane } from '../client/http/concurrencyLimiter';
import type { EventsResult, GetEventsOptions, RequestPriority, TimestampUnit } from '../client/model';
import type { LinkedResource } from '../client/onboardingClient';
import { SharedRequest } from '../client/sharedRequest';
import { asError } from '../common/errors';
import { Emitter, type Event } from '../common/emitter';
import { LoadBudget } from './loadBudget';

/** The slice of OnboardingClient the cache needs (lets tests pass a fake). */
export interface EventsSource {
  getEvents(serialNumber: string, options?: GetEventsOptions): Promise<EventsResult>;
  /** Details' Fetch of a HAL link; sources that only read events (tests, the bench) leave it out. */
  fetchLink?(href: string, signal?: AbortSignal): Promise<LinkedResource>;
}

/** The answer to a request with the spec's `timestamp` filter (§4.1), kept apart from the full result. */
export interface WindowEntry {
  /** The `timestamp` query value that was sent, in the server's units. */
  readonly timestamp: number;
  readonly result: EventsResult;
}

/** What the cache holds for one machine: the hover, the tree and the agent tools render it. */
export interface CacheEntry {
  readonly result: EventsResult;
  /** True when this result came from persisted storage or failed to refresh: shown, marked stale. */
  readonly stale: boolean;
  /** The last refresh error, when the last attempt failed (the result is then the last good one). */
  readonly error?: Error;
}

/** The last failed request for a machine, and when it failed (the cache's clock). */
export interface FailedLoad {
  readonly error: Error;
  readonly at: number;
}

/** The error kind of a failed load (`ApiError.kind`, e.g. 'not-found'), 'error' for anything else: what machineState reads. */
export function failureKind(failed: FailedLoad): string {
  return isApiError(failed.error) ? failed.error.kind : 'error';
}

/** Where the last good results survive a reload (extension global storage in the glue). */
export interface ResultStore {
  /** Never a synchronous disk read: a serial number the store has nothing for is answered from its in-memory index. */
  load(serialNumber: string): Promise<EventsResult | undefined>;
  save(result: EventsResult): void;
}

export interface EventsCacheOptions {
  readonly source: () => EventsSource | undefined;
  /** How long a result counts as fresh, in ms; read on each call so settings apply at once. */
  readonly freshForMs: () => number;
  readonly store?: ResultStore;
  readonly now?: () => number;
  /** The API refused the stored credentials (ApiError 'invalid-credentials'): once per refused request. */
  readonly onCredentialsRejected?: () => void;
}

export type GetOptions = {
  readonly signal?: AbortSignal;
  /** Ignore the cache and ask the API. */
  readonly force?: boolean;
  /**
   * A cached result counts as fresh only when younger than this too (never
   * longer than `cacheSeconds`): a watch's poll wants a newer answer than a
   * hover does, yet reuses one the tree fetched a moment ago and, like every
   * read, joins the request in flight.
   */
  readonly maxAgeMs?: number;
  /**
   * Interactive when absent (hover, look-up, details). Refresh-all,
   * auto-refresh and the workspace scan pass 'bulk': their requests queue
   * behind every interactive one.
   */
  readonly priority?: RequestPriority;
};

/** The one way "signed out" reaches a view: the cache has no client to ask. Each program words what to do. */
export class NotSignedInError extends CausedError {
  constructor() {
    super({ kind: 'not-signed-in' });
    this.name = 'NotSignedInError';
  }
}

/** A request in flight, with the lane its priority travels down in. */
interface InFlight {
  readonly shared: SharedRequest<EventsResult>;
  readonly lane: RequestLane;
}

/** Serial numbers asked of the store are remembered up to this many; past it the memory starts over (the store answers misses from memory too). */
const MAX_STORE_ASKS = 50_000;

export class EventsCache {
  private readonly entries = new Map<string, CacheEntry>();
  private readonly failures = new Map<string, FailedLoad>();
  private readonly inFlight = new Map<string, InFlight>();
  private readonly windows = new Map<string, WindowEntry>();
  private readonly windowsInFlight = new Map<string, InFlight>();
  /** Serial numbers asked of the store since the last clear(), with the answer's arrival: a miss is then answered from here. */
  private readonly storeAsks = new Map<string, Promise<void>>();
  private readonly updated = new Emitter<string>();
  private readonly now: () => number;
  /** The window's one budget of loads nobody asked for (eventsCache/loadBudget.ts): every view's VisibleLoads spends from it. */
  readonly automaticLoads: LoadBudget;
  /** Bumped by clear(): answers to requests started before it belong to another sign-in and are dropped. */
  private generation = 0;

  constructor(private readonly options: EventsCacheOptions) {
    this.now = options.now ?? Date.now;
    this.automaticLoads = new LoadBudget({ now: this.now });
  }

  /**
   * Synchronous and from memory: what is known now, fresh or not. On first
   * sight of a serial number the stored copy is read in the background; when
   * it arrives, onDidUpdate fires for it.
   */
  peek(serialNumber: string): CacheEntry | undefined {
    const known = this.entries.get(serialNumber);
    if (known === undefined) void this.fromStore(serialNumber);
    return known;
  }

  /** True when a cached result exists and is younger than the freshness period (and than `maxAgeMs`, when given). */
  isFresh(serialNumber: string, maxAgeMs?: number): boolean {
    const entry = this.entries.get(serialNumber);
    const freshFor = Math.min(this.options.freshForMs(), maxAgeMs ?? Number.POSITIVE_INFINITY);
    return !!entry && !entry.stale && !entry.error && this.now() - entry.result.fetchedAt < freshFor;
  }

  /** The last failure of a request for this machine, until one succeeds (or clear()). */
  failure(serialNumber: string): FailedLoad | undefined {
    return this.failures.get(serialNumber);
  }

  /** True while a request for this machine (full or windowed) is in flight. */
  loading(serialNumber: string): boolean {
    if (this.inFlight.has(serialNumber)) return true;
    for (const key of this.windowsInFlight.keys()) if (key.startsWith(`${serialNumber}\u0000`)) return true;
    return false;
  }

  /**
   * Returns fresh events: from the cache when fresh, else from the API. At
   * most one request per serial number is in flight; later callers join it.
   * A caller whose signal aborts stops waiting (rejects 'cancelled'); the
   * request is aborted only when nobody waits any more. On failure the last
   * good result stays in the cache, marked stale, the failure is remembered,
   * and the error is thrown to every waiting caller.
   */
  async get(serialNumber: string, options: GetOptions = {}): Promise<EventsResult> {
    if (!options.force && this.isFresh(serialNumber, options.maxAgeMs)) {
      const entry = this.entries.get(serialNumber);
      if (entry) return entry.result;
    }
    const joined = this.join(this.inFlight, serialNumber, options);
    if (joined) return joined;
    const { source, controller, lane, generation } = this.begin(options);
    const request = source.getEvents(serialNumber, { signal: controller.signal, priority: lane }).then(
      (result) => this.settled(serialNumber, generation, result),
      (error: unknown) => this.failed(serialNumber, generation, error),
    );
    return this.share(this.inFlight, serialNumber, { request, controller, lane }, options.signal);
  }

  /**
   * Asks the API for the events of one machine with the spec's `timestamp`
   * filter. The spec does not say what the filter means (§4.1 rule 2), so the
   * answer is kept apart from the full result — never persisted and never
   * replacing it — and callers re-check it client-side. One request per
   * (serial, timestamp) is in flight at a time, shared as get() shares.
   */
  async getWindow(
    serialNumber: string,
    timestamp: number,
    options: { readonly signal?: AbortSignal; readonly priority?: RequestPriority } = {},
  ): Promise<EventsResult> {
    const key = `${serialNumber}\u0000${timestamp}`;
    const joined = this.join(this.windowsInFlight, key, options);
    if (joined) return joined;
    const { source, controller, lane, generation } = this.begin(options);
    const request = source.getEvents(serialNumber, { timestamp, signal: controller.signal, priority: lane }).then(
      (result) => {
        if (generation !== this.generation) return result;
        this.windows.set(serialNumber, { timestamp, result });
        this.failures.delete(serialNumber);
        this.fire(serialNumber);
        return result;
      },
      (error: unknown) => this.failed(serialNumber, generation, error),
    );
    return this.share(this.windowsInFlight, key, { request, controller, lane }, options.signal);
  }

  /** The last windowed answer for this serial number, when it was asked with this `timestamp`. */
  peekWindow(serialNumber: string, timestamp: number): WindowEntry | undefined {
    const entry = this.windows.get(serialNumber);
    return entry?.timestamp === timestamp ? entry : undefined;
  }

  /**
   * GETs a HAL link's target (details' Fetch) through the signed-in client,
   * so refused credentials are reported here as for events.
   */
  async fetchLink(href: string, signal?: AbortSignal): Promise<LinkedResource> {
    const source = this.options.source();
    if (source?.fetchLink === undefined) throw new NotSignedInError();
    const generation = this.generation;
    try {
      return await source.fetchLink(href, signal);
    } catch (error) {
      if (generation === this.generation) this.reportRejected(error);
      throw error;
    }
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

  /** Every result held in memory, by serial number (what the line's history learns from). */
  *results(): IterableIterator<readonly [string, EventsResult]> {
    for (const [serialNumber, entry] of this.entries) yield [serialNumber, entry.result];
  }

  /** Forget one machine's last failure (removed from the tree: shown again, it is asked again). */
  forgetFailure(serialNumber: string): void {
    this.failures.delete(serialNumber);
  }

  /** Drop everything, e.g. on sign-out or an environment switch: data of one API never shows under another. */
  clear(): void {
    this.entries.clear();
    this.failures.clear();
    this.inFlight.clear();
    this.windows.clear();
    this.windowsInFlight.clear();
    this.storeAsks.clear();
    this.generation++;
  }

  /** A serial number's entry changed (fetched, failed, loaded from the store). */
  readonly onDidUpdate: Event<string> = this.updated.event;

  private fire(serialNumber: string): void {
    this.updated.fire(serialNumber);
  }

  /** The request in flight for `key`, joined with this caller's signal; undefined when there is none. */
  private join(
    requests: Map<string, InFlight>,
    key: string,
    options: { readonly signal?: AbortSignal; readonly priority?: RequestPriority },
  ): Promise<EventsResult> | undefined {
    const pending = requests.get(key);
    if (!pending) return undefined;
    // A hover or look-up now waits in person for a refresh-all's machine: its requests go ahead of the bulk queue.
    if ((options.priority ?? 'interactive') === 'interactive') pending.lane.expedite();
    return pending.shared.join(options.signal);
  }

  /**
   * What a new request needs: the client (none while signed out), its own
   * controller (aborted when nobody waits any more) and lane. The caller then
   * calls the client itself, so no frame of ours sits between them.
   */
  private begin(options: { readonly signal?: AbortSignal; readonly priority?: RequestPriority }): {
    readonly source: EventsSource;
    readonly controller: AbortController;
    readonly lane: RequestLane;
    readonly generation: number;
  } {
    const source = this.options.source();
    if (!source) throw new NotSignedInError();
    if (options.signal?.aborted === true) throw cancelledError();
    return {
      source,
      controller: new AbortController(),
      lane: new RequestLane(options.priority ?? 'interactive'),
      generation: this.generation,
    };
  }

  /** Makes a request just started the one for `key`, which later callers join; its starter is its first waiter. */
  private share(
    requests: Map<string, InFlight>,
    key: string,
    started: { readonly request: Promise<EventsResult>; readonly controller: AbortController; readonly lane: RequestLane },
    signal: AbortSignal | undefined,
  ): Promise<EventsResult> {
    const forget = (): void => {
      // A newer request may already own the key after every waiter of this one gave up.
      if (requests.get(key)?.shared === shared) requests.delete(key);
    };
    const shared = new SharedRequest(started.request, started.controller, forget);
    started.request.then(forget, forget);
    requests.set(key, { shared, lane: started.lane });
    return shared.join(signal);
  }

  private settled(serialNumber: string, generation: number, result: EventsResult): EventsResult {
    if (generation !== this.generation) return result;
    this.entries.set(serialNumber, { result, stale: false });
    this.failures.delete(serialNumber);
    this.options.store?.save(result);
    this.fire(serialNumber);
    return result;
  }

  /** Remembers a failure once, for every view (a request nobody waits for any more is no failure). */
  private async failed(serialNumber: string, generation: number, err: unknown): Promise<never> {
    const error = asError(err);
    if (generation !== this.generation || (isApiError(error) && error.kind === 'cancelled')) throw error;
    this.reportRejected(error);
    this.failures.set(serialNumber, { error, at: this.now() });
    // The stored copy, if any, is the last good result the failure is shown with.
    await this.fromStore(serialNumber);
    if (generation !== this.generation) throw error;
    const previous = this.entries.get(serialNumber);
    if (previous) this.entries.set(serialNumber, { result: previous.result, stale: true, error });
    this.fire(serialNumber);
    throw error;
  }

  private reportRejected(error: unknown): void {
    if (isApiError(error) && error.kind === 'invalid-credentials') this.options.onCredentialsRejected?.();
  }

  /** Reads the stored copy once per serial number (per sign-in); what it finds lands as a stale entry. */
  private fromStore(serialNumber: string): Promise<void> {
    const { store } = this.options;
    if (store === undefined) return Promise.resolve();
    const asked = this.storeAsks.get(serialNumber);
    if (asked) return asked;
    if (this.storeAsks.size >= MAX_STORE_ASKS) this.storeAsks.clear();
    const generation = this.generation;
    const loading = store.load(serialNumber).then(
      (stored) => {
        if (stored === undefined || generation !== this.generation || this.entries.has(serialNumber)) return;
        this.entries.set(serialNumber, { result: stored, stale: true });
        this.fire(serialNumber);
      },
      // The store reports its own errors; a broken copy is a miss.
      () => undefined,
    );
    this.storeAsks.set(serialNumber, loading);
    return loading;
  }
}
