// One cache of events per serial number, shared by the tree, the hovers and
// the look-up, so a machine seen in one place costs no second request in
// another. Pure TypeScript (no vscode import): unit-tested under plain mocha.
import type { ApiError } from '../core/errors';
import type { EventsResult } from '../core/model';

/** The slice of OnboardingClient this service needs (lets tests pass a fake). */
export interface EventsSource {
  getEvents(serialNumber: string, options?: { signal?: AbortSignal }): Promise<EventsResult>;
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
  private readonly listeners = new Set<(serialNumber: string) => void>();
  private readonly now: () => number;

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
    if (pending) return pending;
    const source = this.options.source();
    if (!source) throw new NotSignedInError();
    const request = this.fetch(source, serialNumber, options.signal).finally(() => this.inFlight.delete(serialNumber));
    this.inFlight.set(serialNumber, request);
    return request;
  }

  private async fetch(source: EventsSource, serialNumber: string, signal: AbortSignal | undefined): Promise<EventsResult> {
    try {
      const result = await source.getEvents(serialNumber, signal ? { signal } : {});
      this.entries.set(serialNumber, { result, stale: false });
      this.options.store?.save(result);
      this.fire(serialNumber);
      return result;
    } catch (err) {
      const error = err instanceof Error ? err : new Error(String(err));
      const isCancel = (error as Partial<ApiError>).kind === 'cancelled';
      const previous = this.peek(serialNumber);
      if (previous && !isCancel) {
        this.entries.set(serialNumber, { result: previous.result, stale: true, error });
        this.fire(serialNumber);
      }
      throw error;
    }
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
  }

  onDidUpdate(listener: (serialNumber: string) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  private fire(serialNumber: string): void {
    for (const listener of this.listeners) listener(serialNumber);
  }
}
