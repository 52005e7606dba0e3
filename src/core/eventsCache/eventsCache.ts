// The one owner of the data path every view reads through: requests de-duplicated (one per serial
// number in flight), results, failures and misses remembered once, refused credentials turned into one event.
import { CausedError, cancelledError, isApiError } from '../client/errors';
import { RequestLane } from '../client/http/concurrencyLimiter';
import type { EventsResult, GetEventsOptions, RequestPriority, TimestampUnit } from '../client/model';
import type { LinkedResource } from '../client/onboardingClient';
import { SharedRequest } from '../client/sharedRequest';
import { asError } from '../common/errors';
import { Emitter, type Event } from '../common/emitter';
import { LoadBudget } from './loadBudget';

export interface EventsSource {
  getEvents(serialNumber: string, options?: GetEventsOptions): Promise<EventsResult>;
  /** Details' Fetch of a HAL link; sources that only read events (tests, the bench) leave it out. */
  fetchLink?(href: string, signal?: AbortSignal): Promise<LinkedResource>;
}

/** The answer to a request with the spec's `timestamp` filter (§4.1), kept apart from the full result. */
export interface SinceEntry {
  readonly timestamp: number;
  readonly result: EventsResult;
}

export interface CacheEntry {
  readonly result: EventsResult;
  /** Persisted, or the last refresh failed: shown, marked stale. */
  readonly stale: boolean;
  readonly error?: Error;
}

export interface FailedLoad {
  readonly error: Error;
  readonly at: number;
}

/** The error kind of a failed load (`ApiError.kind`, e.g. 'not-found'), 'error' for anything else: what machineState reads. */
export function failureKind(failed: FailedLoad): string {
  return isApiError(failed.error) ? failed.error.kind : 'error';
}

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
  readonly force?: boolean;
  /**
   * Fresh only when younger than this too: a watch's poll wants a newer answer than a hover, yet joins
   * the request in flight.
   */
  readonly maxAgeMs?: number;
  /** 'bulk' (refresh-all, auto-refresh, the scan) queues behind every interactive request. */
  readonly priority?: RequestPriority;
};

/** The one way "signed out" reaches a view: the cache has no client to ask. Each program words what to do. */
export class NotSignedInError extends CausedError {
  constructor() {
    super({ kind: 'not-signed-in' });
    this.name = 'NotSignedInError';
  }
}

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
  private readonly sinceAnswers = new Map<string, SinceEntry>();
  private readonly sinceInFlight = new Map<string, InFlight>();
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

  /** From memory, fresh or not; on first sight the stored copy is read in the background and onDidUpdate fires. */
  peek(serialNumber: string): CacheEntry | undefined {
    const known = this.entries.get(serialNumber);
    if (known === undefined) void this.fromStore(serialNumber);
    return known;
  }

  isFresh(serialNumber: string, maxAgeMs?: number): boolean {
    const entry = this.entries.get(serialNumber);
    const freshFor = Math.min(this.options.freshForMs(), maxAgeMs ?? Number.POSITIVE_INFINITY);
    return !!entry && !entry.stale && !entry.error && this.now() - entry.result.fetchedAt < freshFor;
  }

  failure(serialNumber: string): FailedLoad | undefined {
    return this.failures.get(serialNumber);
  }

  loading(serialNumber: string): boolean {
    if (this.inFlight.has(serialNumber)) return true;
    for (const key of this.sinceInFlight.keys()) if (key.startsWith(`${serialNumber}\u0000`)) return true;
    return false;
  }

  /**
   * One request per serial number in flight, later callers join it; a caller's abort ends only its own
   * wait. On failure the last good result stays, marked stale, and every waiter gets the error.
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
   * The spec leaves the `timestamp` filter's meaning open (§4.1 rule 2): the answer is kept apart from
   * the full result, never persisted, and callers re-check it.
   */
  async getSince(
    serialNumber: string,
    timestamp: number,
    options: { readonly signal?: AbortSignal; readonly priority?: RequestPriority } = {},
  ): Promise<EventsResult> {
    const key = `${serialNumber}\u0000${timestamp}`;
    const joined = this.join(this.sinceInFlight, key, options);
    if (joined) return joined;
    const { source, controller, lane, generation } = this.begin(options);
    const request = source.getEvents(serialNumber, { timestamp, signal: controller.signal, priority: lane }).then(
      (result) => {
        if (generation !== this.generation) return result;
        this.sinceAnswers.set(serialNumber, { timestamp, result });
        this.failures.delete(serialNumber);
        this.fire(serialNumber);
        return result;
      },
      (error: unknown) => this.failed(serialNumber, generation, error),
    );
    return this.share(this.sinceInFlight, key, { request, controller, lane }, options.signal);
  }

  peekSince(serialNumber: string, timestamp: number): SinceEntry | undefined {
    const entry = this.sinceAnswers.get(serialNumber);
    return entry?.timestamp === timestamp ? entry : undefined;
  }

  /** Through the signed-in client, so refused credentials are reported as for events. */
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

  /** As far as fetched events tell: this machine's first, then any other's (one server, one unit). */
  timestampUnitHint(serialNumber?: string): TimestampUnit | undefined {
    const own = serialNumber === undefined ? undefined : this.entries.get(serialNumber)?.result.events[0]?.time.unit;
    if (own) return own;
    for (const entry of this.entries.values()) {
      const unit = entry.result.events[0]?.time.unit;
      if (unit) return unit;
    }
    return undefined;
  }

  *results(): IterableIterator<readonly [string, EventsResult]> {
    for (const [serialNumber, entry] of this.entries) yield [serialNumber, entry.result];
  }

  /** Shown again after removal, the machine is asked again. */
  forgetFailure(serialNumber: string): void {
    this.failures.delete(serialNumber);
  }

  clear(): void {
    this.entries.clear();
    this.failures.clear();
    this.inFlight.clear();
    this.sinceAnswers.clear();
    this.sinceInFlight.clear();
    this.storeAsks.clear();
    this.generation++;
  }

  readonly onDidUpdate: Event<string> = this.updated.event;

  private fire(serialNumber: string): void {
    this.updated.fire(serialNumber);
  }

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

  /** The client, its own controller and lane; the caller calls the client itself, so no frame of ours sits between. */
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

  /** A request nobody waits for any more is no failure. */
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

  /** Once per serial number per sign-in; a found copy lands as a stale entry. */
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
