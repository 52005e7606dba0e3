// The watch list, in global state so it survives a reload and every window reads the same list, and
// the schedule that polls each watch through the events cache (its sharing, limiter and Retry-After)
// only while its own environment is signed in; one window claims telling each outcome.
import type { Claims } from '../../core/common/claims';
import { clampDelay, DELAY_CEILINGS } from '../../core/common/delays';
import { definedOnly } from '../../core/common/definedOnly';
import { Emitter, type Event } from '../../core/common/emitter';
import { errorMessage } from '../../core/common/errors';
import { isRecord } from '../../core/common/guards';
import { Disposable } from '../../core/common/lifecycle';
import { formatUtcIso } from '../../core/common/time';
import { verifiedState, type StateStore } from '../../core/common/verifiedState';
import { isApiError } from '../../core/client/errors';
import type { EventsResult, RequestPriority } from '../../core/client/model';
import { newestOf, type EventStateRules } from '../../core/domain/events/eventState';
import type { MachineProgress, ProgressAnswer } from '../../core/domain/progress/machineProgress';
import {
  afterPoll,
  MAX_WATCHES,
  NO_HISTORY,
  nextPollDelay,
  readWatch,
  unreachableForLong,
  type PollHistory,
  type WatchOutcome,
  type NewestEvent,
  type WatchTiming,
} from '../../core/domain/watch/watchRules';

/** The global-state key of the list (workbench/constants.ts STATE_KEYS names it too). */
export const WATCHES_KEY = 'onboardingEvents.watches';

export interface Watch {
  readonly serialNumber: string;
  readonly environmentId: string;
  readonly startedAt: number;
  /** The newest event's time when the watch started on a failed machine: only a newer outcome ends it. */
  readonly since?: number;
  readonly step?: NewestEvent;
  readonly outcome?: WatchOutcome;
  /** The user looked at the outcome (the view's badge stops counting it). */
  readonly seen?: boolean;
}

export type WatchStatus = 'watching' | 'paused' | 'onboarded' | 'failed';

export interface WatchInfo extends Watch {
  readonly status: WatchStatus;
}

/** A watch that ended by itself; `tellUser` is true in the one window that claimed telling the user. */
export interface WatchEnded {
  readonly watch: Watch & { readonly outcome: WatchOutcome };
  readonly tellUser: boolean;
}

export type StartResult =
  | { readonly kind: 'started' | 'already-watched'; readonly watch: Watch }
  | { readonly kind: 'already-onboarded'; readonly step: NewestEvent }
  | { readonly kind: 'limit'; readonly max: number }
  | { readonly kind: 'not-signed-in' };

/** A watched machine stalled at its step (domain/progress/machineProgress.ts); fired only in the window that claimed telling it. */
export interface WatchStalled {
  readonly watch: Watch;
  readonly progress: MachineProgress;
}

export interface WatchReads {
  get(
    serialNumber: string,
    options: { readonly maxAgeMs: number; readonly priority: RequestPriority; readonly signal: AbortSignal },
  ): Promise<EventsResult>;
}

export type WatchStore = StateStore;

export interface WatchClock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realClock: WatchClock = {
  now: () => Date.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => {
    clearTimeout(handle as ReturnType<typeof setTimeout>);
  },
};

export interface WatchListOptions {
  readonly events: WatchReads;
  readonly store: WatchStore;
  readonly claims: Claims;
  readonly environment: () => string | undefined;
  readonly rules: () => EventStateRules;
  readonly timing: () => WatchTiming;
  readonly focused: () => boolean;
  readonly clock?: WatchClock;
  readonly log?: (message: string) => void;
  /** A result's progress against the line's history (eventsCache/cachedLineHistory.ts): a stall is told once. */
  readonly progress?: (result: EventsResult) => ProgressAnswer;
}

interface Running {
  history: PollHistory;
  timer: unknown;
  polling: boolean;
  /** The usual step of the stall told or seen claimed: it lasts until a poll finds the machine moving or further on. */
  stallStep?: number | undefined;
}

/** Ended watches kept (newest first) for the quick pick and the badge; older ones go when more end. */
const MAX_ENDED = MAX_WATCHES;
const MAX_STORED = MAX_WATCHES + MAX_ENDED;

function bounded(list: Watch[]): Watch[] {
  const ended = list.filter((watch) => watch.outcome !== undefined);
  if (ended.length <= MAX_ENDED) return list;
  const dropped = new Set(ended.sort((a, b) => (a.outcome?.at ?? 0) - (b.outcome?.at ?? 0)).slice(0, ended.length - MAX_ENDED));
  return list.filter((watch) => !dropped.has(watch));
}

const keyOf = (environmentId: string, serialNumber: string): string => `${environmentId}\u0000${serialNumber}`;

/** A stored list from another version or a hand-edited profile: keep only what reads as a watch. */
function readWatches(value: unknown): Watch[] {
  if (!Array.isArray(value)) return [];
  const watches: Watch[] = [];
  // The newest entries are last: a list grown past any bound by hand keeps those.
  for (const item of value.slice(-MAX_STORED)) {
    if (!isRecord(item)) continue;
    const { serialNumber, environmentId, startedAt } = item;
    if (typeof serialNumber !== 'string' || typeof environmentId !== 'string' || typeof startedAt !== 'number') continue;
    watches.push(item as unknown as Watch);
  }
  return watches;
}

export class WatchList extends Disposable {
  private readonly clock: WatchClock;
  /** Global state through the one mechanism every write of ours takes (common/verifiedState.ts). */
  private readonly store: StateStore;
  private readonly running = new Map<string, Running>();
  private readonly changed = this.register(new Emitter<readonly string[] | undefined>());
  private readonly ended = this.register(new Emitter<WatchEnded>());
  private readonly unreachable = this.register(new Emitter<{ readonly watching: number }>());
  private readonly stalled = this.register(new Emitter<WatchStalled>());
  /** Aborted when the environment changes or the list is disposed: answers for another sign-in never land. */
  private lifetime = new AbortController();
  /** When polls started failing, across the list (one API): reset by any success. */
  private firstFailureAt: number | undefined;
  private unreachableSaid = false;
  private activeEnvironment: string | undefined;

  readonly onDidChange: Event<readonly string[] | undefined> = this.changed.event;
  readonly onDidEnd: Event<WatchEnded> = this.ended.event;
  /** Polls have failed for long (the API unreachable): said once until a poll succeeds again. */
  readonly onDidGoUnreachable: Event<{ readonly watching: number }> = this.unreachable.event;
  /** Once per stall, in the one window that claimed telling it; a new event ends the stall. */
  readonly onDidStall: Event<WatchStalled> = this.stalled.event;

  constructor(private readonly options: WatchListOptions) {
    super();
    this.clock = options.clock ?? realClock;
    this.store = verifiedState(options.store, options.log);
    this.register({
      dispose: () => {
        this.lifetime.abort();
        for (const run of this.running.values()) this.clock.clearTimeout(run.timer);
        this.running.clear();
      },
    });
    this.resume();
  }

  list(): readonly WatchInfo[] {
    const active = this.options.environment();
    return this.stored().map((watch) => ({ ...watch, status: this.statusOf(watch, active) }));
  }

  get(serialNumber: string): WatchInfo | undefined {
    return this.list().find((watch) => watch.serialNumber === serialNumber && watch.environmentId === this.options.environment());
  }

  unseenOutcomes(): number {
    const active = this.options.environment();
    return this.stored().filter((watch) => watch.environmentId === active && watch.outcome !== undefined && watch.seen !== true).length;
  }

  /** A machine already onboarded has nothing left to watch; one that failed is watched for its retry. */
  async start(serialNumber: string): Promise<StartResult> {
    const environmentId = this.options.environment();
    if (environmentId === undefined) return { kind: 'not-signed-in' };
    const existing = this.stored().find((watch) => watch.environmentId === environmentId && watch.serialNumber === serialNumber);
    if (existing !== undefined && existing.outcome === undefined) return { kind: 'already-watched', watch: existing };
    if (existing === undefined && this.stored().filter((watch) => watch.outcome === undefined).length >= MAX_WATCHES)
      return { kind: 'limit', max: MAX_WATCHES };
    let watch: Watch = { serialNumber, environmentId, startedAt: this.clock.now() };
    const result = await this.read(serialNumber, this.lifetime.signal).catch(() => undefined);
    if (this.options.environment() !== environmentId) return { kind: 'not-signed-in' };
    if (result !== undefined) {
      const reading = readWatch(result, this.options.rules(), undefined);
      if (reading.kind === 'outcome' && reading.outcome.state === 'onboarded') return { kind: 'already-onboarded', step: reading.newest };
      watch = {
        ...watch,
        ...definedOnly({ step: reading.newest }),
        ...(reading.kind === 'outcome' ? { since: reading.newest.at } : {}),
      };
    }
    await this.write((list) => [
      ...list.filter((other) => !(other.environmentId === environmentId && other.serialNumber === serialNumber)),
      watch,
    ]);
    this.options.log?.(`Watching ${serialNumber}.`);
    this.schedule(watch, NO_HISTORY);
    return { kind: 'started', watch };
  }

  async stop(serialNumber: string): Promise<boolean> {
    const environmentId = this.options.environment();
    const before = this.stored().length;
    await this.write((list) => list.filter((watch) => !(watch.serialNumber === serialNumber && watch.environmentId === environmentId)));
    this.unschedule(keyOf(environmentId ?? '', serialNumber));
    return this.stored().length < before;
  }

  async clearEnded(): Promise<void> {
    const environmentId = this.options.environment();
    await this.write((list) => list.filter((watch) => watch.environmentId !== environmentId || watch.outcome === undefined));
  }

  lookedAt(serialNumber: string): void {
    const environmentId = this.options.environment();
    const watch = this.stored().find((w) => w.serialNumber === serialNumber && w.environmentId === environmentId);
    if (watch?.outcome === undefined || watch.seen === true) return;
    void this.update(watch, (w) => ({ ...w, seen: true }));
  }

  /**
   * Polls the signed-in environment's unfinished watches (other windows' new ones too) and pauses the
   * rest; called on a session change and now and then, to follow other windows.
   */
  resume(): void {
    const environmentId = this.options.environment();
    const before = [...this.running.keys()].join('\n');
    const switched = environmentId !== this.activeEnvironment;
    if (switched) {
      this.lifetime.abort();
      this.lifetime = new AbortController();
      for (const key of [...this.running.keys()]) this.unschedule(key);
      this.activeEnvironment = environmentId;
      this.firstFailureAt = undefined;
      this.unreachableSaid = false;
    }
    const wanted = new Set<string>();
    for (const watch of this.stored()) {
      if (watch.environmentId !== environmentId || watch.outcome !== undefined) continue;
      const key = keyOf(watch.environmentId, watch.serialNumber);
      wanted.add(key);
      if (!this.running.has(key)) this.schedule(watch, NO_HISTORY);
    }
    // Stopped (or ended) in another window.
    for (const key of [...this.running.keys()]) if (!wanted.has(key)) this.unschedule(key);
    if (switched || [...this.running.keys()].join('\n') !== before) this.changed.fire(undefined);
  }

  refocus(): void {
    for (const [key, run] of this.running) {
      const watch = this.stored().find((w) => keyOf(w.environmentId, w.serialNumber) === key);
      if (watch !== undefined && !run.polling) this.schedule(watch, run.history);
    }
  }

  private statusOf(watch: Watch, active: string | undefined): WatchStatus {
    if (watch.outcome !== undefined) return watch.outcome.state;
    return watch.environmentId === active ? 'watching' : 'paused';
  }

  private stored(): Watch[] {
    return readWatches(this.store.get<unknown>(WATCHES_KEY));
  }

  /**
   * Every window reads this list: the store orders this window's writes and writes again when VS Code
   * dropped one for an older echoed copy (microsoft/vscode#137132), which once lost a told outcome.
   */
  private async write(change: (list: Watch[]) => Watch[]): Promise<void> {
    await this.store.update(WATCHES_KEY, bounded(change(this.stored())));
    this.changed.fire(undefined);
  }

  private read(serialNumber: string, signal: AbortSignal): Promise<EventsResult> {
    // A result another view fetched within the first interval's half is as good as a new one.
    const maxAgeMs = Math.max(1000, Math.floor(this.options.timing().firstMs / 2));
    return this.options.events.get(serialNumber, { maxAgeMs, priority: 'bulk', signal });
  }

  /** `atLeastMs`: a server's Retry-After, which no poll of ours comes before. */
  private schedule(watch: Watch, history: PollHistory, atLeastMs = 0): void {
    const key = keyOf(watch.environmentId, watch.serialNumber);
    const run = this.running.get(key) ?? { history, timer: undefined, polling: false };
    run.history = history;
    this.clock.clearTimeout(run.timer);
    const delay = Math.max(
      nextPollDelay(history, this.options.focused(), this.options.timing()),
      clampDelay(atLeastMs, DELAY_CEILINGS.retryAfterMs),
    );
    run.timer = this.clock.setTimeout(() => void this.poll(watch), delay);
    this.running.set(key, run);
  }

  private unschedule(key: string): void {
    const run = this.running.get(key);
    if (run === undefined) return;
    this.clock.clearTimeout(run.timer);
    this.running.delete(key);
  }

  /** One poll of one watch: never two at once for the same watch, and the cache joins anyone else's request. */
  private async poll(watch: Watch): Promise<void> {
    const key = keyOf(watch.environmentId, watch.serialNumber);
    const run = this.running.get(key);
    if (run === undefined || run.polling) return;
    // Stopped or ended in another window since it was scheduled.
    const current = this.stored().find((w) => keyOf(w.environmentId, w.serialNumber) === key);
    if (current === undefined || current.outcome !== undefined) {
      this.unschedule(key);
      return;
    }
    run.polling = true;
    this.clock.clearTimeout(run.timer);
    const signal = this.lifetime.signal;
    let found: 'new-event' | 'quiet' | 'failed';
    let retryAfterMs = 0;
    try {
      const result = await this.read(watch.serialNumber, signal);
      if (signal.aborted || this.options.environment() !== watch.environmentId) return;
      this.firstFailureAt = undefined;
      this.unreachableSaid = false;
      const taken = await this.take(current, result);
      if (taken === 'ended') {
        this.unschedule(key);
        return;
      }
      found = taken;
      await this.tellStall(current, result, run);
    } catch (error) {
      if (signal.aborted || (isApiError(error) && error.kind === 'cancelled')) return;
      // A machine the platform has not heard of yet: its onboarding has not begun, which is no failure to poll.
      if (isApiError(error) && error.kind === 'not-found') found = 'quiet';
      else {
        found = 'failed';
        if (isApiError(error)) retryAfterMs = error.details.retryAfterMs ?? 0;
        this.options.log?.(`Watch of ${watch.serialNumber}: poll failed: ${errorMessage(error)}`);
        this.firstFailureAt ??= this.clock.now();
        if (!this.unreachableSaid && unreachableForLong(this.firstFailureAt, this.clock.now(), this.options.timing())) {
          this.unreachableSaid = true;
          this.unreachable.fire({ watching: this.running.size });
        }
      }
    } finally {
      run.polling = false;
    }
    if (this.running.get(key) === run) this.schedule(current, afterPoll(run.history, found), retryAfterMs);
  }

  /** An outcome ends the watch and is told by the window that claims it. */
  private async take(watch: Watch, result: EventsResult): Promise<'ended' | 'new-event' | 'quiet'> {
    const reading = readWatch(result, this.options.rules(), watch.since);
    const same = reading.newest?.type === watch.step?.type && reading.newest?.at === watch.step?.at;
    if (reading.kind === 'newest') {
      if (same) return 'quiet';
      await this.update(watch, (w) => ({ ...w, ...definedOnly({ step: reading.newest }) }));
      this.changed.fire([watch.serialNumber]);
      return 'new-event';
    }
    const ended = { ...watch, step: reading.newest, outcome: reading.outcome };
    await this.update(watch, () => ended);
    this.options.log?.(`Watch of ${watch.serialNumber} ended: ${reading.outcome.state}.`);
    const tellUser = await this.options.claims.claim(
      `${watch.environmentId}\u0000${watch.serialNumber}\u0000${reading.outcome.state}\u0000${reading.outcome.at}`,
    );
    this.changed.fire([watch.serialNumber]);
    this.ended.fire({ watch: ended, tellUser });
    return 'ended';
  }

  /**
   * Told once across windows, like an outcome (the claim names the stall's first newest event); an
   * already-stale new event continues the stall unless it reached a further usual step.
   */
  private async tellStall(watch: Watch, result: EventsResult, run: Running): Promise<void> {
    const progress = this.options.progress?.(result);
    const newest = newestOf(result.events);
    if (progress?.kind !== 'progress' || !progress.stalled || newest === undefined) {
      run.stallStep = undefined;
      return;
    }
    if (run.stallStep === progress.step) return;
    run.stallStep = progress.step;
    // formatUtcIso, not Date#toISOString: a server's timestamp past the range of a Date must not throw in a poll.
    this.options.log?.(
      `Watch of ${watch.serialNumber}: stalled at its step since ${formatUtcIso(newest.time.epochMs) ?? String(newest.time.epochMs)}.`,
    );
    const tellUser = await this.options.claims.claim(
      `${watch.environmentId}\u0000${watch.serialNumber}\u0000stalled\u0000${newest.time.epochMs}`,
    );
    if (tellUser) this.stalled.fire({ watch, progress });
  }

  private update(watch: Watch, change: (watch: Watch) => Watch): Promise<void> {
    const key = keyOf(watch.environmentId, watch.serialNumber);
    return this.write((list) => list.map((w) => (keyOf(w.environmentId, w.serialNumber) === key ? change(w) : w)));
  }
}
