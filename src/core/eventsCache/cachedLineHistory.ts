// The line's history fed from the events cache and every stored copy (read lazily, in a stream, a few at
// a time), so a window that fetched nothing yet still knows the line. One per window, for the active
// environment; `onDidChange` fires at most once per turn.
import { Emitter, type Event } from '../common/emitter';
import { Disposable } from '../common/lifecycle';
import type { EventsResult } from '../client/model';
import type { EventStateRules } from '../domain/events/eventState';
import { LessonEvents } from '../domain/progress/lessonEvents';
import {
  LineHistory,
  MAX_LEARNED_EVENTS,
  MAX_MACHINES,
  type LearnOptions,
  type LearnedSteps,
  type StepSetting,
} from '../domain/progress/lineHistory';
import { machineProgress, type ProgressAnswer } from '../domain/progress/machineProgress';
import type { EventsCache } from './eventsCache';
import type { StoredCopy, StoredFields } from './fileResultStore';

/** Stored copies read at once: each holds one file open and one chunk and one event of it in memory. */
export const COPIES_AT_ONCE = 16;
/** Longest the learner keeps the event loop before it lets it turn, ms: far below what a user notices. */
const SLICE_MS = 10;

export interface CachedLineHistoryOptions {
  readonly cache: Pick<EventsCache, 'peek' | 'results' | 'onDidUpdate'>;
  /** The active environment's stored copies, each read in a stream when asked (FileResultStore.copies). */
  readonly stored: () => AsyncIterable<StoredCopy>;
  readonly rules: () => EventStateRules;
  readonly steps: () => readonly StepSetting[];
  readonly now?: () => number;
  /** The history is full: stored machines past its bound are not learned (said once per reading). */
  readonly onFull?: (message: string) => void;
}

export class CachedLineHistory extends Disposable {
  private history: LineHistory;
  private storedRead: Promise<void> | undefined;
  private generation = 0;
  private pending = false;
  /** The machines the cache holds a result of (its onDidUpdate said so): their stored copies are older. */
  private readonly inCache = new Set<string>();
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
        if (entry === undefined) this.inCache.delete(serialNumber);
        else this.inCache.add(serialNumber);
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
    for (const [serialNumber] of this.options.cache.results()) this.inCache.add(serialNumber);
    let changed = false;
    const refusedBefore = this.history.refused;
    const learn = (learned: readonly [StoredFields, LessonEvents] | undefined): void => {
      // A fresher result in memory wins over the stored copy of the same machine.
      if (learned === undefined || this.inCache.has(learned[0].serialNumber)) return;
      const [fields, lesson] = learned;
      changed = this.history.learn(fields.serialNumber, lesson.events(), observed(fields)) || changed;
    };
    const readAll = async (): Promise<void> => {
      // Read a few at once, learned in the store's order: what a machine in progress teaches depends on the steps known before it.
      const reading: Promise<readonly [StoredFields, LessonEvents] | undefined>[] = [];
      let turned = performance.now();
      for await (const copy of this.options.stored()) {
        if (generation !== this.generation) return;
        reading.push(this.lessonOf(copy));
        if (reading.length >= COPIES_AT_ONCE) learn(await reading.shift());
        // Reading a file lets the event loop turn; copies still in memory (not yet written) do not.
        if (performance.now() - turned > SLICE_MS) {
          await new Promise((resolve) => setImmediate(resolve));
          turned = performance.now();
        }
      }
      for (const next of reading) if (generation === this.generation) learn(await next);
    };
    this.storedRead = readAll()
      .then(() => {
        if (generation !== this.generation) return;
        const unlearned = this.history.refused - refusedBefore;
        if (unlearned > 0)
          this.options.onFull?.(
            `The line's history keeps at most ${MAX_MACHINES.toLocaleString('en')} machines and ${MAX_LEARNED_EVENTS.toLocaleString('en')} events: ${unlearned.toLocaleString('en')} stored machines were not learned from.`,
          );
        if (changed) this.fireSoon();
      })
      .catch(() => undefined); // The store reports its own errors; the history learns from what arrives.
  }

  /** A stored copy's few events a lesson is made of: read once, or twice when its events were not newest first. */
  private async lessonOf(copy: StoredCopy): Promise<readonly [StoredFields, LessonEvents] | undefined> {
    const lesson = new LessonEvents(this.options.rules());
    const fields = await copy.read((event) => {
      lesson.add(event);
    });
    if (fields === undefined || !lesson.again) return fields && ([fields, lesson] as const);
    const again = await copy.read((event) => {
      lesson.addAgain(event);
    });
    return again && ([again, lesson] as const);
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
function observed(result: Pick<EventsResult, 'fetchedAt'>): LearnOptions {
  return { observedAt: result.fetchedAt };
}
