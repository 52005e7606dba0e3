// The line's history fed from the events cache and the stored copies (read lazily, one at a time), so
// a window that fetched nothing yet still knows the line. One per window, for the active environment;
// `onDidChange` fires at most once per turn.
import { Emitter, type Event } from '../common/emitter';
import { Disposable } from '../common/lifecycle';
import type { EventsResult } from '../client/model';
import type { EventStateRules } from '../domain/events/eventState';
import { LineHistory, type LearnOptions, type LearnedSteps, type StepSetting } from '../domain/progress/lineHistory';
import { machineProgress, type ProgressAnswer } from '../domain/progress/machineProgress';
import type { EventsCache } from './eventsCache';

/** Stored copies read at most: the history of a line, not of every machine ever seen. */
export const MAX_STORED_LESSONS = 5000;

export interface CachedLineHistoryOptions {
  readonly cache: Pick<EventsCache, 'peek' | 'results' | 'onDidUpdate'>;
  /** The active environment's stored results, one at a time (FileResultStore.each). */
  readonly stored: (limit: number) => AsyncIterable<EventsResult>;
  readonly rules: () => EventStateRules;
  readonly steps: () => readonly StepSetting[];
  readonly now?: () => number;
}

export class CachedLineHistory extends Disposable {
  private history: LineHistory;
  private storedRead: Promise<void> | undefined;
  private generation = 0;
  private pending = false;
  private readonly changed = this.register(new Emitter<void>());
  private readonly now: () => number;

  readonly onDidChange: Event<void> = this.changed.event;

  constructor(private readonly options: CachedLineHistoryOptions) {
    super();
    this.now = options.now ?? Date.now;
    this.history = new LineHistory(options.rules());
    this.history.setSetting(options.steps());
    this.register(
      options.cache.onDidUpdate((serialNumber) => {
        const entry = options.cache.peek(serialNumber);
        if (entry === undefined) this.history.forget(serialNumber);
        else if (this.history.learn(serialNumber, entry.result.events, observed(entry.result))) this.fireSoon();
      }),
    );
  }

  /** What the history knows now; the first call starts reading the stored copies (onDidChange tells when they are in). */
  steps(): LearnedSteps {
    this.readStored();
    return this.history.steps();
  }

  /** A machine's progress from the result the cache holds; undefined when it holds none or the machine is not in progress. */
  progressOf(serialNumber: string): ProgressAnswer {
    const entry = this.options.cache.peek(serialNumber);
    return entry === undefined ? undefined : this.progressFor(entry.result);
  }

  /** A result's progress against the history (a result the caller holds, e.g. a watch's last poll). */
  progressFor(result: EventsResult): ProgressAnswer {
    return machineProgress(result.events, this.steps(), this.now(), this.options.rules());
  }

  reset(): void {
    this.generation++;
    this.history = new LineHistory(this.options.rules());
    this.history.setSetting(this.options.steps());
    this.storedRead = undefined;
    this.fireSoon();
  }

  /** The eventStates rules changed: which events are outcomes changed with them, in the cache's results and the stored copies alike. */
  rulesChanged(): void {
    this.generation++;
    this.history.setRules(this.options.rules(), this.known());
    this.storedRead = undefined;
    this.fireSoon();
  }

  settingChanged(): void {
    this.history.setSetting(this.options.steps());
    this.fireSoon();
  }

  private *known(): Iterable<readonly [string, EventsResult['events'], LearnOptions]> {
    for (const [serialNumber, result] of this.options.cache.results()) yield [serialNumber, result.events, observed(result)];
  }

  private readStored(): void {
    if (this.storedRead !== undefined) return;
    const generation = this.generation;
    this.storedRead = (async () => {
      let changed = false;
      for await (const result of this.options.stored(MAX_STORED_LESSONS)) {
        if (generation !== this.generation) return;
        // A fresher result in memory wins over the stored copy of the same machine.
        if (this.options.cache.peek(result.serialNumber) === undefined)
          changed = this.history.learn(result.serialNumber, result.events, observed(result)) || changed;
      }
      if (changed && generation === this.generation) this.fireSoon();
    })().catch(() => undefined); // The store reports its own errors; the history learns from what arrives.
  }

  private fireSoon(): void {
    if (this.pending) return;
    this.pending = true;
    queueMicrotask(() => {
      this.pending = false;
      this.changed.fire();
    });
  }
}

/** A result teaches as of when it was fetched: a machine in progress had taken at least that long. */
function observed(result: EventsResult): LearnOptions {
  return { observedAt: result.fetchedAt };
}
