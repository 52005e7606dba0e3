// The state behind the Machines tree, without VS Code: which machines are
// listed, what each one shows, what is loading or failed, the filter, the
// "new events" count. The tree provider (machinesTreeProvider.ts, treeItems.ts)
// turns it into TreeItems; the bench drives it directly against the fake API
// through the real client.
import { definedOnly } from '../../core/common/definedOnly';
import { Debouncer } from '../../core/common/delays';
import { Emitter, type Event } from '../../core/common/emitter';
import { Disposable, toDisposable, type IDisposable } from '../../core/common/lifecycle';
import { isApiError } from '../../core/client/errors';
import { extensionErrorText } from '../workbench/remedies';
import { plainLocalize, type Localize } from '../../core/common/localize';
import type { TimestampUnit } from '../../core/client/model';
import type { TimestampUnitSetting } from '../../core/client/timestamp';
import { NotSignedInError, type EventsCache, type FailedLoad } from '../../core/eventsCache/eventsCache';
import type { EventStateRules } from '../../core/domain/events/eventState';
import type { ProgressAnswer } from '../../core/domain/progress/machineProgress';
import type { CachedLineHistory } from '../../core/eventsCache/cachedLineHistory';
import { isFilterActive, judgeWindowAnswer, NO_FILTER, windowQueryTimestamp, type EventFilter } from '../../core/domain/events/eventFilter';
import { EventViewCache, machineChildren, type MachineChild, type MachineView } from '../../core/domain/events/eventView';
import type { MachineLists } from './machineLists';
import type { SeenTracker } from './seenTracker';
import type { FoundSerial } from '../../core/domain/workspaceScan/workspaceSerials';
import type { MachineRowDecoration, MachineRowDecorations } from '../workbench/contracts/features';

export type GroupKind = 'pinned' | 'recent' | 'workspace';

/**
 * How far a listed machine's data has come (the tree row's icon and description):
 * not the onboarding state (domain/events/eventState.ts MachineState), which says
 * where the machine itself stands.
 */
export type LoadState = 'not-loaded' | 'loading' | 'ok' | 'created' | 'error' | 'stale';

export interface ModelSettings {
  readonly maxEvents: number;
  /** The core client's concurrency limit: refresh-all uses as many workers. */
  readonly concurrency: number;
  readonly timestampUnit: TimestampUnitSetting;
  readonly workspaceScanEnabled: boolean;
  readonly hasWorkspace: boolean;
  /** The eventStates setting: which type names mean failed or onboarded (the events' icons). */
  readonly eventStates: EventStateRules;
}

export interface MachineSummary {
  readonly serialNumber: string;
  readonly state: LoadState;
  readonly view: MachineView;
  readonly loaded: boolean;
  readonly loading: boolean;
  /** When the shown result was received. */
  readonly fetchedAt: number | undefined;
  /** True when the shown result is not the answer to the latest attempt (stored copy, or the refresh failed). */
  readonly stale: boolean;
  readonly failure: FailedLoad | undefined;
  readonly unseen: number;
  readonly pinned: boolean;
}

export type WorkspaceScanState =
  | { readonly kind: 'not-scanned' }
  | { readonly kind: 'scanning' }
  | {
      readonly kind: 'scanned';
      readonly found: readonly FoundSerial[];
      readonly filesScanned: number;
      readonly capped: boolean;
      /** Files over the scan's size limit, left unread. */
      readonly tooLarge?: number;
      /** Files naming more serial numbers than the cap per file, of which only the first ones are listed. */
      readonly filesCut?: number;
      readonly at: number;
    }
  | { readonly kind: 'failed'; readonly message: string };

export interface MachinesModelOptions {
  readonly events: EventsCache;
  readonly lists: MachineLists;
  readonly seen: SeenTracker;
  readonly settings: () => ModelSettings;
  readonly signedIn: () => boolean;
  readonly log?: (message: string) => void;
  /** The line's history: an in-progress row says its step, time to go or stall, and changes when the history learns. */
  readonly lineHistory?: Pick<CachedLineHistory, 'progressOf' | 'onDidChange'>;
}

/**
 * How long a change of the line's history waits before the in-progress rows repaint: a refresh of many
 * machines changes it with nearly every answer, and the figures move little from one answer to the next.
 */
export const PROGRESS_REPAINT_MS = 1000;

/** `undefined` means "everything may have changed" (lists, groups, filter). */
export type ModelChange = readonly string[] | undefined;

export class MachinesModel extends Disposable {
  private readonly viewCache = new EventViewCache();
  /** The tree's own loads (a since answer may take several requests); the requests themselves are the cache's. */
  private readonly loading = new Map<string, Promise<void>>();
  private readonly limits = new Map<string, number>();
  /** The `timestamp` actually sent for the current since filter, per machine (its unit may differ per answer). */
  private readonly windowTimestamps = new Map<string, number>();
  private readonly changed = this.register(new Emitter<ModelChange>());
  readonly onDidChange: Event<ModelChange> = this.changed.event;
  private readonly decorationsChanged = this.register(new Emitter<void>());
  /**
   * The decorations (and so the outcomes the badge counts) changed. Fired at
   * once, where the tree batches onDidChange: the watches' status bar and
   * notifications follow the same change at once, and a badge redrawn a batch
   * later still counts the outcomes as absent in between.
   */
  readonly onDidChangeDecorations: Event<void> = this.decorationsChanged.event;
  private currentFilter: EventFilter = NO_FILTER;
  /** Set once the server's `timestamp` filter was seen to leave out events inside the since filter. */
  private windowFilterUnreliable = false;
  private scan: WorkspaceScanState = { kind: 'not-scanned' };
  /** Rows waiting for a worker of ensureLoadedAll, in the order they were drawn. */
  private readonly toLoad = new Set<string>();
  private loadWorkers = 0;
  /** Each listed machine's unseen events as last counted; a change of the machine (or of everything) forgets it. */
  private readonly unseenCounts = new Map<string, number>();
  /** The scan's serial numbers in its order, and each one's entry: a row asks for its own on every draw. */
  private scanned: { readonly serials: readonly string[]; readonly bySerial: ReadonlyMap<string, FoundSerial> } = {
    serials: [],
    bySerial: new Map(),
  };
  /** What another feature (the watches) adds to rows and the badge. */
  private decorations: MachineRowDecorations | undefined;

  constructor(private readonly options: MachinesModelOptions) {
    super();
    this.register(
      options.events.onDidUpdate((serial) => {
        this.afterData(serial);
        this.fire([serial]);
      }),
    );
    const history = options.lineHistory;
    if (history !== undefined) {
      // Only the rows that show progress repaint, at most once a PROGRESS_REPAINT_MS.
      const repaint = this.register(
        new Debouncer(
          () => {
            const inProgress = this.allListed().filter((serial) => history.progressOf(serial) !== undefined);
            if (inProgress.length > 0) this.fire(inProgress);
          },
          PROGRESS_REPAINT_MS,
          'batch',
        ),
      );
      this.register(
        history.onDidChange(() => {
          repaint.trigger();
        }),
      );
    }
  }

  /** Where an in-progress machine stands against its line's history; undefined when it is not in progress (or not loaded). */
  progress(serialNumber: string): ProgressAnswer {
    return this.options.lineHistory?.progressOf(serialNumber);
  }

  fire(change: ModelChange): void {
    // Every input of a machine's unseen count (its events, what was seen, the filter, the lists) changes through here.
    if (change === undefined) this.unseenCounts.clear();
    else for (const serial of change) this.unseenCounts.delete(serial);
    this.changed.fire(change);
  }

  // ---- Which machines -------------------------------------------------------

  groups(): GroupKind[] {
    if (!this.options.signedIn()) return [];
    const groups: GroupKind[] = [];
    const pinned = this.machinesIn('pinned');
    const recent = this.machinesIn('recent');
    if (pinned.length > 0) groups.push('pinned');
    if (recent.length > 0) groups.push('recent');
    const settings = this.options.settings();
    const found = this.scan.kind === 'scanned' ? this.scan.found.length : 0;
    // With no other machine the welcome view (which offers Scan Workspace) is shown instead of an unscanned group.
    if (settings.workspaceScanEnabled && settings.hasWorkspace && (groups.length > 0 || found > 0 || this.scan.kind === 'scanning'))
      groups.push('workspace');
    return groups;
  }

  machinesIn(group: GroupKind): string[] {
    switch (group) {
      case 'pinned':
        return this.options.lists.pinned();
      case 'recent': {
        const pinned = new Set(this.options.lists.pinned());
        return this.options.lists.recent().filter((serial) => !pinned.has(serial));
      }
      case 'workspace':
        return this.scanned.serials.slice();
    }
  }

  /** Every listed machine once: pinned, then recent, then found in the workspace. */
  allListed(): string[] {
    return [...new Set([...this.machinesIn('pinned'), ...this.machinesIn('recent'), ...this.machinesIn('workspace')])];
  }

  hasMachines(): boolean {
    return this.options.lists.pinned().length > 0 || this.options.lists.recent().length > 0 || this.machinesIn('workspace').length > 0;
  }

  get workspaceScan(): WorkspaceScanState {
    return this.scan;
  }

  setWorkspaceScan(state: WorkspaceScanState): void {
    this.scan = state;
    const found = state.kind === 'scanned' ? state.found : [];
    this.scanned = {
      serials: found.map((entry) => entry.serialNumber),
      bySerial: new Map(found.map((entry) => [entry.serialNumber, entry])),
    };
    this.fire(undefined);
  }

  foundInWorkspace(serialNumber: string): FoundSerial | undefined {
    return this.scanned.bySerial.get(serialNumber);
  }

  // ---- Filter ---------------------------------------------------------------

  get filter(): EventFilter {
    return this.currentFilter;
  }

  get filtered(): boolean {
    return isFilterActive(this.currentFilter);
  }

  /** Replaces the filter; a new since filter loads the listed machines' since answers again. */
  setFilter(filter: EventFilter): void {
    const windowChanged = filter.sinceMs !== this.currentFilter.sinceMs;
    this.currentFilter = filter;
    if (windowChanged) this.windowTimestamps.clear();
    this.fire(undefined);
  }

  // ---- What a machine shows -------------------------------------------------

  view(serialNumber: string): MachineView {
    const full = this.options.events.peek(serialNumber)?.result;
    const since = this.currentFilter.sinceMs;
    const timestamp = since === undefined ? undefined : this.windowTimestamps.get(serialNumber);
    const sinceAnswer = timestamp === undefined ? undefined : this.options.events.peekSince(serialNumber, timestamp)?.result;
    return this.viewCache.view(serialNumber, full, sinceAnswer, this.currentFilter);
  }

  summary(serialNumber: string): MachineSummary {
    const entry = this.options.events.peek(serialNumber);
    const view = this.view(serialNumber);
    const failure = this.options.events.failure(serialNumber);
    const loading = this.loading.has(serialNumber) || this.toLoad.has(serialNumber) || this.options.events.loading(serialNumber);
    const windowLoaded = this.currentFilter.sinceMs !== undefined && this.windowTimestamps.has(serialNumber) && view.total > 0;
    const loaded = entry !== undefined || windowLoaded;
    const stale = loaded && (entry?.stale === true || failure !== undefined);
    let state: LoadState;
    if (!loaded) state = failure ? 'error' : loading ? 'loading' : 'not-loaded';
    else if (stale) state = 'stale';
    else state = view.created ? 'created' : 'ok';
    return {
      serialNumber,
      state,
      view,
      loaded,
      loading,
      fetchedAt: entry?.result.fetchedAt,
      stale,
      failure,
      unseen: this.options.seen.unseen(serialNumber, view.all),
      pinned: this.options.lists.isPinned(serialNumber),
    };
  }

  /** The rows under a machine; `t` is the language of an error row's text (the tree passes the user's). */
  children(serialNumber: string, t: Localize = plainLocalize): MachineChild[] {
    const summary = this.summary(serialNumber);
    return machineChildren({
      view: summary.view,
      limit: this.limitOf(serialNumber),
      loaded: summary.loaded,
      loading: summary.loading,
      error: summary.failure
        ? {
            message: extensionErrorText(summary.failure.error, t),
            kind: isApiError(summary.failure.error) ? summary.failure.error.kind : undefined,
          }
        : undefined,
    });
  }

  limitOf(serialNumber: string): number {
    return this.limits.get(serialNumber) ?? this.pageSize();
  }

  /** Which event types mean failed or onboarded: the one mapping the inline status shares. */
  eventStates(): EventStateRules {
    return this.options.settings().eventStates;
  }

  /** Events per page: the tree.maxEvents setting. */
  pageSize(): number {
    return Math.max(1, Math.floor(this.options.settings().maxEvents));
  }

  /** Shows the next page of (already fetched) events. */
  loadMore(serialNumber: string): void {
    this.limits.set(serialNumber, this.limitOf(serialNumber) + this.pageSize());
    this.fire([serialNumber]);
  }

  /** Events newer than the user has seen, over every listed machine. */
  unseenTotal(): number {
    let total = 0;
    for (const serial of this.allListed()) {
      // The badge is counted after every batch of answers: only the machines the batch changed are counted again.
      let unseen = this.unseenCounts.get(serial);
      if (unseen === undefined) {
        unseen = this.options.seen.unseen(serial, this.view(serial).all);
        this.unseenCounts.set(serial, unseen);
      }
      total += unseen;
    }
    return total;
  }

  /** The user looked at the machine (expanded or selected it). */
  markSeen(serialNumber: string): void {
    this.decorations?.lookedAt(serialNumber);
    if (this.options.seen.markSeen(serialNumber, this.view(serialNumber).newest)) this.fire([serialNumber]);
  }

  /** Rows and the badge show what `decorations` adds, until disposed. */
  decorate(decorations: MachineRowDecorations): IDisposable {
    this.decorations = decorations;
    const subscription = decorations.onDidChange((serials) => {
      this.fire(serials);
      this.decorationsChanged.fire();
    });
    this.fire(undefined);
    this.decorationsChanged.fire();
    return toDisposable(() => {
      subscription.dispose();
      if (this.decorations === decorations) this.decorations = undefined;
      this.fire(undefined);
      this.decorationsChanged.fire();
    });
  }

  decoration(serialNumber: string): MachineRowDecoration | undefined {
    return this.decorations?.decoration(serialNumber);
  }

  /** Outcomes of watched machines the user has not looked at (the badge counts them). */
  unseenOutcomes(): number {
    return this.decorations?.unseen() ?? 0;
  }

  // ---- Loading --------------------------------------------------------------

  /** Starts loading a listed machine that has no data, no request in flight and no recorded failure (an error row stays until a refresh). */
  ensureLoaded(serialNumber: string): void {
    if (this.needsLoad(serialNumber)) void this.load(serialNumber, false);
  }

  /**
   * ensureLoaded for the rows of a group: loaded by as many workers as the client's concurrency, so a group of
   * 10,000 rows does not put 10,000 requests in the client's queue in the turn that draws them. Waiting rows read as loading.
   */
  ensureLoadedAll(serialNumbers: readonly string[]): void {
    for (const serial of serialNumbers) if (this.needsLoad(serial)) this.toLoad.add(serial);
    const workers = Math.min(Math.max(1, Math.floor(this.options.settings().concurrency)), this.toLoad.size);
    while (this.loadWorkers < workers) {
      this.loadWorkers++;
      void this.loadWaiting().finally(() => {
        this.loadWorkers--;
      });
    }
  }

  private async loadWaiting(): Promise<void> {
    for (let next = this.nextToLoad(); next !== undefined; next = this.nextToLoad()) {
      if (this.needsLoad(next)) await this.load(next, false);
      else if (!this.loading.has(next)) this.fire([next]);
    }
  }

  private nextToLoad(): string | undefined {
    const next = this.toLoad.values().next();
    if (next.done === true) return undefined;
    this.toLoad.delete(next.value);
    return next.value;
  }

  private needsLoad(serialNumber: string): boolean {
    if (!this.options.signedIn() || this.loading.has(serialNumber) || this.options.events.failure(serialNumber) !== undefined) return false;
    const entry = this.options.events.peek(serialNumber);
    const needsWindow = this.currentFilter.sinceMs !== undefined && !this.windowTimestamps.has(serialNumber);
    return !entry || entry.stale || needsWindow;
  }

  /** Loads one machine; never rejects: failures are recorded and shown as an error child. */
  load(serialNumber: string, force: boolean, signal?: AbortSignal): Promise<void> {
    const pending = this.loading.get(serialNumber);
    if (pending) return pending;
    const request = this.fetch(serialNumber, force, signal).finally(() => {
      this.loading.delete(serialNumber);
      this.fire([serialNumber]);
    });
    this.loading.set(serialNumber, request);
    this.fire([serialNumber]);
    return request;
  }

  /** Refreshes the given machines (default: every listed one) with the client's concurrency as the bound. */
  refreshAll(
    serialNumbers = this.allListed(),
    options: { signal?: AbortSignal; onProgress?: (done: number, total: number) => void } = {},
  ): Promise<RefreshManyResult> {
    return refreshMany(serialNumbers, (serial) => this.load(serial, true, options.signal), {
      concurrency: this.options.settings().concurrency,
      ...definedOnly({ signal: options.signal, onProgress: options.onProgress }),
    });
  }

  /** The cache's memory of the machine's last failed request. */
  failureOf(serialNumber: string): FailedLoad | undefined {
    return this.options.events.failure(serialNumber);
  }

  /** Drops everything tied to the signed-in environment (sign-out, switch); the cache forgets its own part. */
  reset(): void {
    this.toLoad.clear();
    this.limits.clear();
    this.windowTimestamps.clear();
    this.viewCache.forget();
    this.windowFilterUnreliable = false;
    this.fire(undefined);
  }

  /** Forgets a machine's per-machine state (removed from the tree). */
  forget(serialNumber: string): void {
    this.toLoad.delete(serialNumber);
    this.options.events.forgetFailure(serialNumber);
    this.limits.delete(serialNumber);
    this.windowTimestamps.delete(serialNumber);
    this.viewCache.forget(serialNumber);
  }

  private async fetch(serialNumber: string, force: boolean, signal: AbortSignal | undefined): Promise<void> {
    if (!this.options.signedIn()) return;
    try {
      const since = this.currentFilter.sinceMs;
      if (since === undefined || this.windowFilterUnreliable) {
        // The tree's loads (refresh-all, auto-refresh, a scan's results) queue behind hovers, look-ups and details.
        await this.options.events.get(serialNumber, { force, priority: 'bulk', ...definedOnly({ signal }) });
      } else {
        await this.fetchWindow(serialNumber, since, signal);
      }
      this.afterData(serialNumber);
    } catch (error) {
      // The cache remembers the failure (shown as an error row) and reports refused credentials to the session.
      if (error instanceof NotSignedInError || (isApiError(error) && error.kind === 'cancelled')) return;
      if (isApiError(error) && error.kind === 'invalid-credentials')
        this.options.log?.(`The API rejected the credentials while loading ${serialNumber}.`);
    }
  }

  private unitFor(serialNumber: string): TimestampUnit {
    const hint = this.options.events.timestampUnitHint(serialNumber);
    if (hint) return hint;
    const setting = this.options.settings().timestampUnit;
    return setting === 'auto' ? 'milliseconds' : setting;
  }

  private async fetchWindow(serialNumber: string, since: number, signal: AbortSignal | undefined): Promise<void> {
    const options = { priority: 'bulk' as const, ...definedOnly({ signal }) };
    if (this.options.events.timestampUnitHint(serialNumber) === undefined && this.options.settings().timestampUnit === 'auto') {
      // Nothing tells the server's unit yet: one unfiltered answer does (and is what the since answer is checked against).
      await this.options.events.get(serialNumber, options);
    }
    let unit = this.unitFor(serialNumber);
    let timestamp = windowQueryTimestamp(since, unit);
    let answer = await this.options.events.getSince(serialNumber, timestamp, options);
    const answeredUnit = answer.events[0]?.time.unit;
    if (answeredUnit !== undefined && answeredUnit !== unit && !this.options.events.timestampUnitHint(serialNumber)) {
      // The first events of this server told us its unit only now: ask again in that unit.
      unit = answeredUnit;
      timestamp = windowQueryTimestamp(since, unit);
      answer = await this.options.events.getSince(serialNumber, timestamp, options);
    }
    if (this.currentFilter.sinceMs !== since) return; // The since filter changed meanwhile.
    this.windowTimestamps.set(serialNumber, timestamp);
    const judgement = judgeWindowAnswer(answer.events, this.options.events.peek(serialNumber)?.result.events, since);
    if (judgement.unreliable && !this.windowFilterUnreliable) {
      this.windowFilterUnreliable = true;
      this.options.log?.(
        `The API's timestamp filter left out events inside the since filter (answer: ${judgement.answer}); the since filter is now applied to unfiltered results only.`,
      );
    }
    if (judgement.needFull) await this.options.events.get(serialNumber, { ...options, force: judgement.unreliable });
  }

  /** New data arrived: set the "seen" baseline of a machine seen for the first time. */
  private afterData(serialNumber: string): void {
    // Only listed machines count towards the badge; a hover over some other serial number stores nothing.
    if (!this.isListed(serialNumber)) return;
    this.options.seen.baseline(serialNumber, this.view(serialNumber).newest);
  }

  isListed(serialNumber: string): boolean {
    return (
      this.options.lists.isPinned(serialNumber) ||
      this.options.lists.recent().includes(serialNumber) ||
      this.foundInWorkspace(serialNumber) !== undefined
    );
  }
}

// Refreshes many machines with a fixed number of workers, so a refresh of
// 1,000 pinned machines keeps at most `concurrency` requests in the client's
// queue at a time and leaves room for hovers and look-ups in between. Pure
// TypeScript, unit-tested and measured by the bench.
export interface RefreshManyOptions {
  /** Workers; the core client's limit (the maxConcurrentRequests setting). */
  readonly concurrency: number;
  readonly signal?: AbortSignal;
  readonly onProgress?: (done: number, total: number) => void;
}

export interface RefreshManyResult {
  readonly done: number;
  readonly failures: ReadonlyMap<string, unknown>;
  readonly cancelled: boolean;
}

export async function refreshMany(
  serialNumbers: readonly string[],
  refreshOne: (serialNumber: string) => Promise<unknown>,
  options: RefreshManyOptions,
): Promise<RefreshManyResult> {
  const unique = [...new Set(serialNumbers)];
  const failures = new Map<string, unknown>();
  let next = 0;
  let done = 0;
  const worker = async (): Promise<void> => {
    while (next < unique.length && options.signal?.aborted !== true) {
      const serial = unique[next++];
      if (serial === undefined) break;
      try {
        await refreshOne(serial);
      } catch (error) {
        failures.set(serial, error);
      }
      done++;
      options.onProgress?.(done, unique.length);
    }
  };
  const workers = Math.max(1, Math.min(Math.floor(options.concurrency), unique.length));
  await Promise.all(Array.from({ length: workers }, worker));
  return { done, failures, cancelled: options.signal?.aborted === true };
}
