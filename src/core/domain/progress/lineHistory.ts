// The usual order of steps and their times, learned from the machines that onboarded: the spec lists
// no event types (§2.2), so every environment teaches its own. Onboarded machines teach the same in any
// order; one in progress teaches only steps already known, so callers feed machines in a fixed order (the
// store's). Statistics are recomputed lazily, per changed step.
import { serverText, serverTextData, type ServerText } from '../../common/serverText';
import type { OnboardingEvent } from '../../client/model';
import { eventState, type EventStateRules } from '../events/eventState';
import { dayMinuteOf, LineTimes, MAX_TYPES, serialFamily, type LineTimesReader, type TimedEvent, type TimedLesson } from './lineTimes';

/** Below this many onboarded machines the history says so instead of guessing. */
export const MINIMUM_MACHINES = 5;
/** A type is a usual step when at least this share of onboarded machines went through it. */
const USUAL_SHARE = 0.5;
/** Machines remembered at most (a line's history, not a data warehouse): older lessons are not dropped, new ones are refused. */
export const MAX_MACHINES = 50_000;
/** Events the history keeps in all (its memory: a few hundred bytes each); a new machine past it is refused, as past MAX_MACHINES. */
export const MAX_LEARNED_EVENTS = 600_000;
/** Events of one machine read at most (the last before its outcome): a history of thousands of events is not an onboarding. */
export const MAX_EVENTS_PER_MACHINE = 64;
/** Spellings of one type (by case) kept at most: more are read as the first. */
const MAX_SPELLINGS = 8;
/** Longest type name and most steps the `steps` setting keeps. */
const MAX_SETTING_TYPE = 256;
const MAX_SETTING_STEPS = 100;
/** Longest expected time the setting may give (a week), in minutes. */
const MAX_EXPECTED_MINUTES = 7 * 24 * 60;

export interface StepFigures {
  /** The event type as the server sent it (or as the setting names it): shown through a renderer. */
  readonly type: ServerText;
  readonly machines: number;
  /** Time from the step before: median and 90th percentile, ms; undefined for the first step or when nothing measured it. */
  readonly medianMs: number | undefined;
  readonly p90Ms: number | undefined;
}

export type LearnedSteps =
  | {
      readonly kind: 'steps';
      /** learned from this environment's onboarded machines, or the `onboardingEvents.steps` setting. */
      readonly source: 'learned' | 'setting';
      readonly steps: readonly StepFigures[];
      readonly machines: number;
      /** What the history says of time: how long is left after a given stay at a given type (lineTimes.ts). */
      readonly times: LineTimesReader;
    }
  | { readonly kind: 'not-enough'; readonly machines: number };

export interface StepSetting {
  readonly type: string;
  readonly expectedMinutes?: number;
}

/** The setting as written by hand: type names or `{ type, expectedMinutes }`; an empty result means "learn". */
export function parseStepsSetting(value: unknown): readonly StepSetting[] {
  if (!Array.isArray(value)) return [];
  const seen = new Set<string>();
  const steps: StepSetting[] = [];
  for (const entry of value.slice(0, MAX_SETTING_STEPS * 2)) {
    const record = typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>) : undefined;
    const rawType = typeof entry === 'string' ? entry : record?.['type'];
    if (typeof rawType !== 'string') continue;
    const type = rawType.trim();
    if (type === '' || type.length > MAX_SETTING_TYPE || seen.has(type.toUpperCase())) continue;
    seen.add(type.toUpperCase());
    const minutes = record?.['expectedMinutes'];
    // NaN fails `> 0` and Infinity fails `≤ a week`: no finiteness test of its own.
    const expected = typeof minutes === 'number' && minutes > 0 && minutes <= MAX_EXPECTED_MINUTES ? minutes : undefined;
    steps.push(expected === undefined ? { type } : { type, expectedMinutes: expected });
    if (steps.length >= MAX_SETTING_STEPS) break;
  }
  return steps;
}

/** The name a type is known by: case does not make another step. */
export function stepKey(type: ServerText): string {
  return serverTextData(type).toUpperCase();
}

/** One machine's lesson: its steps in order, each with the time from the one before, and its events' times. */
interface Lesson {
  readonly steps: readonly {
    readonly key: string;
    readonly type: ServerText;
    readonly afterMs: number | undefined;
    readonly position: number;
  }[];
  readonly timed: TimedLesson;
}

/** How a result is learned: the kind it counts under (else its serial number's family), and when it was known to be current. */
export interface LearnOptions {
  readonly kind?: string;
  /** When the events were fetched: a machine still in progress then teaches its times so far (it took at least that long), not only an onboarded one. */
  readonly observedAt?: number;
}

/** A machine in progress with no event for this long teaches nothing of time: it is abandoned, not slow. */
export const IDLE_UNTAUGHT_MS = 3 * 24 * 60 * 60_000;

/** Numbers kept in one array, sorted when a percentile is asked for (one pass when they already are). */
class Sample {
  private readonly values: number[] = [];

  add(value: number): void {
    this.values.push(value);
  }

  remove(value: number): void {
    const at = this.values.lastIndexOf(value);
    if (at >= 0) this.values.splice(at, 1);
  }

  /** Nearest-rank percentile (0 < q ≤ 1): always one of the values, so never outside their range; undefined when empty (rank 1 of none). */
  percentile(q: number): number | undefined {
    this.values.sort((a, b) => a - b);
    const rank = Math.max(1, Math.ceil(q * this.values.length));
    return this.values[rank - 1];
  }
}

interface TypeFigures {
  /** How the machines spell it (case may differ), with counts: the display is the first in code-point order, whoever came first. */
  readonly spellings: Map<string, { readonly text: ServerText; count: number }>;
  machines: number;
  readonly afterMs: Sample;
  /** Where in a machine's run the type came, 0 (first) to 1 (the outcome). */
  readonly positions: Sample;
}

function displayed(figures: TypeFigures): ServerText {
  const first = [...figures.spellings.keys()].sort()[0];
  const spelling = first === undefined ? undefined : figures.spellings.get(first);
  if (spelling === undefined) throw new RangeError('a step without a spelling');
  return spelling.text;
}

export class LineHistory {
  private readonly lessons = new Map<string, Lesson>();
  private onboarded = 0;
  private learnedEvents = 0;
  private readonly types = new Map<string, TypeFigures>();
  /** Every type's name once, with the lessons that use it: at most MAX_TYPES. */
  private readonly names = new Map<string, { readonly key: string; uses: number }>();
  private readonly times = new LineTimes((key) => {
    const figures = this.types.get(key);
    return figures === undefined ? serverText(key) : displayed(figures);
  });
  private cached: LearnedSteps | undefined;
  private setting: readonly StepSetting[] = [];
  private refusedLessons = 0;

  constructor(
    private rules: EventStateRules,
    private readonly minimumMachines = MINIMUM_MACHINES,
  ) {}

  get machines(): number {
    return this.onboarded;
  }

  /** Lessons refused since the history was made because it was full (MAX_MACHINES, MAX_LEARNED_EVENTS): its callers say so. */
  get refused(): number {
    return this.refusedLessons;
  }

  /**
   * What `serialNumber`'s events teach: an onboarded machine its lesson, one in progress how long it took
   * so far; any other result takes back what it taught. True when the figures may have changed.
   */
  learn(serialNumber: string, events: readonly OnboardingEvent[], options: LearnOptions = {}): boolean {
    const kind = this.times.kindFor(options.kind ?? serialFamily(serialNumber));
    const lesson =
      lessonOf(
        events,
        this.rules,
        kind,
        (type) => this.name(type),
        (key, type) => this.spelling(key, type),
      ) ??
      (options.observedAt === undefined
        ? undefined
        : openLessonOf(events, this.rules, kind, options.observedAt, (type) => this.names.get(stepKey(type))?.key));
    const before = this.lessons.get(serialNumber);
    if (before === undefined && lesson === undefined) return false;
    if (before !== undefined) this.withdraw(before);
    // What `before` taught is withdrawn already: the room is counted without it.
    const room =
      (before !== undefined || this.lessons.size < MAX_MACHINES) &&
      this.learnedEvents + (lesson?.timed.events.length ?? 0) <= MAX_LEARNED_EVENTS;
    if (lesson !== undefined && !room) this.refusedLessons++;
    if (lesson === undefined || !room) {
      this.lessons.delete(serialNumber);
    } else {
      this.lessons.set(serialNumber, lesson);
      this.addLesson(lesson);
    }
    this.cached = undefined;
    return true;
  }

  forget(serialNumber: string): void {
    const before = this.lessons.get(serialNumber);
    if (before === undefined) return;
    this.withdraw(before);
    this.lessons.delete(serialNumber);
    this.cached = undefined;
  }

  clear(): void {
    this.lessons.clear();
    this.onboarded = 0;
    this.learnedEvents = 0;
    this.types.clear();
    this.names.clear();
    this.times.clear();
    this.cached = undefined;
  }

  /** New eventStates rules change which events are outcomes: every lesson is read again from `known`. */
  setRules(rules: EventStateRules, known: Iterable<readonly [string, readonly OnboardingEvent[], LearnOptions?]>): void {
    this.rules = rules;
    this.clear();
    for (const [serial, events, options] of known) this.learn(serial, events, options);
  }

  /** The user's own sequence (the `onboardingEvents.steps` setting, parsed): it replaces what was learned; empty to learn again. */
  setSetting(setting: readonly StepSetting[]): void {
    this.setting = setting;
    this.cached = undefined;
  }

  steps(): LearnedSteps {
    this.cached ??= this.setting.length > 0 ? this.fromSetting() : this.learned();
    return this.cached;
  }

  private learned(): LearnedSteps {
    const machines = this.onboarded;
    if (machines < this.minimumMachines) return { kind: 'not-enough', machines };
    const usual = [...this.types.entries()].filter(([, figures]) => figures.machines >= machines * USUAL_SHARE);
    const ranked = usual.map(([key, figures]) => ({ key, figures, position: figures.positions.percentile(0.5) ?? 0 }));
    ranked.sort(
      (a, b) => a.position - b.position || b.figures.machines - a.figures.machines || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
    );
    const steps = ranked.map(({ figures }, index) => ({
      type: displayed(figures),
      machines: figures.machines,
      medianMs: index === 0 ? undefined : figures.afterMs.percentile(0.5),
      p90Ms: index === 0 ? undefined : figures.afterMs.percentile(0.9),
    }));
    return { kind: 'steps', source: 'learned', steps, machines, times: this.times };
  }

  /** The setting's order; a step's time is the setting's when given, else what the history measured for that type. */
  private fromSetting(): LearnedSteps {
    const enough = this.onboarded >= this.minimumMachines;
    const steps = this.setting.map((step, index): StepFigures => {
      const figures = enough ? this.types.get(stepKey(serverText(step.type))) : undefined;
      const expectedMs = step.expectedMinutes === undefined ? undefined : step.expectedMinutes * 60_000;
      const first = index === 0;
      return {
        type: serverText(step.type),
        machines: figures?.machines ?? 0,
        medianMs: first ? undefined : (expectedMs ?? figures?.afterMs.percentile(0.5)),
        p90Ms: first ? undefined : (expectedMs ?? figures?.afterMs.percentile(0.9)),
      };
    });
    return { kind: 'steps', source: 'setting', steps, machines: this.onboarded, times: this.times };
  }

  /** A type's one name (interned: a thousand machines share one string), or undefined once MAX_TYPES are known. */
  private name(type: ServerText): string | undefined {
    const key = stepKey(type);
    const known = this.names.get(key);
    if (known !== undefined) return known.key;
    return this.names.size >= MAX_TYPES ? undefined : key;
  }

  /** The spelling a lesson keeps: the history's own copy when it has one (or enough of them), else the event's. */
  private spelling(key: string, type: ServerText): ServerText {
    const spellings = this.types.get(key)?.spellings;
    if (spellings === undefined) return type;
    const known = spellings.get(serverTextData(type));
    if (known !== undefined) return known.text;
    return spellings.size >= MAX_SPELLINGS ? (spellings.values().next().value?.text ?? type) : type;
  }

  private addLesson(lesson: Lesson): void {
    this.learnedEvents += lesson.timed.events.length;
    this.times.add(lesson.timed);
    if (lesson.timed.open) return;
    this.onboarded++;
    // Every key of the lesson is one of its steps: the steps name them.
    for (const step of lesson.steps) {
      const name = this.names.get(step.key);
      if (name === undefined) this.names.set(step.key, { key: step.key, uses: 1 });
      else name.uses++;
    }
    for (const step of lesson.steps) {
      let figures = this.types.get(step.key);
      if (figures === undefined) {
        figures = { spellings: new Map(), machines: 0, afterMs: new Sample(), positions: new Sample() };
        this.types.set(step.key, figures);
      }
      const spelling = serverTextData(step.type);
      const known = figures.spellings.get(spelling);
      if (known) known.count++;
      else figures.spellings.set(spelling, { text: step.type, count: 1 });
      figures.machines++;
      figures.positions.add(step.position);
      if (step.afterMs !== undefined) figures.afterMs.add(step.afterMs);
    }
  }

  private withdraw(lesson: Lesson): void {
    this.learnedEvents -= lesson.timed.events.length;
    this.times.remove(lesson.timed);
    if (lesson.timed.open) return;
    this.onboarded--;
    for (const step of lesson.steps) {
      const name = this.names.get(step.key);
      if (name !== undefined && --name.uses <= 0) this.names.delete(step.key);
    }
    for (const step of lesson.steps) {
      const figures = this.types.get(step.key);
      if (figures === undefined) continue;
      figures.machines--;
      const spelling = figures.spellings.get(serverTextData(step.type));
      if (spelling && --spelling.count <= 0) figures.spellings.delete(serverTextData(step.type));
      figures.positions.remove(step.position);
      if (step.afterMs !== undefined) figures.afterMs.remove(step.afterMs);
      if (figures.machines <= 0) this.types.delete(step.key);
    }
  }
}

/** Events oldest first; equal times keep the server's order (newest first) reversed, as they happened. */
export function oldestFirst(events: readonly OnboardingEvent[]): OnboardingEvent[] {
  return events
    .map((event, index) => ({ event, index }))
    .sort((a, b) => a.event.time.epochMs - b.event.time.epochMs || b.index - a.index)
    .map(({ event }) => event);
}

/**
 * A machine's lesson: its distinct non-failed types in order, up to the first onboarded event, and the
 * times of its events before it. Undefined when it has not onboarded.
 */
function lessonOf(
  events: readonly OnboardingEvent[],
  rules: EventStateRules,
  kind: string | undefined,
  name: (type: ServerText) => string | undefined,
  spell: (key: string, type: ServerText) => ServerText,
): Lesson | undefined {
  const ordered = oldestFirst(events);
  const outcomeAt = ordered.findIndex((event) => eventState(event, rules) === 'onboarded');
  const outcome = ordered[outcomeAt];
  if (outcome === undefined) return undefined;
  const before = ordered.slice(Math.max(0, outcomeAt - MAX_EVENTS_PER_MACHINE), outcomeAt + 1);
  const first = ordered[0] ?? outcome;
  // Types past the history's vocabulary are not learned (their events still end the stay before them).
  const named = before.map((event) => ({ event, key: name(event.type), failed: eventState(event, rules) === 'failed' }));
  const timed = timedLesson(named.slice(0, -1), outcome.time.epochMs, false, kind, Math.max(0, outcome.time.epochMs - first.time.epochMs));
  const seen = new Set<string>();
  const reached: { key: string; type: ServerText; at: number }[] = [];
  for (const { event, key, failed } of named) {
    if (failed || key === undefined || seen.has(key)) continue;
    seen.add(key);
    reached.push({ key, type: spell(key, event.type), at: event.time.epochMs });
  }
  const last = Math.max(1, reached.length - 1);
  return {
    steps: reached.map((step, index) => {
      const previous = reached[index - 1];
      return {
        key: step.key,
        type: step.type,
        afterMs: previous === undefined ? undefined : Math.max(0, step.at - previous.at),
        position: index / last,
      };
    }),
    timed,
  };
}

/**
 * What a machine still in progress teaches of time: each event's stay and the time since, both at least.
 * Undefined when it is not in progress or idle for IDLE_UNTAUGHT_MS.
 */
function openLessonOf(
  events: readonly OnboardingEvent[],
  rules: EventStateRules,
  kind: string | undefined,
  observedAt: number,
  known: (type: ServerText) => string | undefined,
): Lesson | undefined {
  const ordered = oldestFirst(events);
  const newest = ordered[ordered.length - 1];
  if (newest === undefined || eventState(newest, rules) !== 'in-progress' || observedAt - newest.time.epochMs > IDLE_UNTAUGHT_MS)
    return undefined;
  const window = ordered.slice(Math.max(0, ordered.length - MAX_EVENTS_PER_MACHINE));
  const named = window.map((event) => ({ event, key: known(event.type), failed: eventState(event, rules) === 'failed' }));
  const timed = timedLesson(named, Math.max(observedAt, newest.time.epochMs), true, kind, undefined);
  return timed.events.length === 0 ? undefined : { steps: [], timed };
}

/** Each non-failed event's stay (to the next event, or `until`) and what was left from it to `until`. */
function timedLesson(
  named: readonly { readonly event: OnboardingEvent; readonly key: string | undefined; readonly failed: boolean }[],
  until: number,
  open: boolean,
  kind: string | undefined,
  totalMs: number | undefined,
): TimedLesson {
  const keys: string[] = [];
  const stays: Omit<TimedEvent, 'lesson'>[] = [];
  const seenKeys = new Set<string>();
  let reworkBefore = 0;
  named.forEach(({ event, key, failed }, at) => {
    // A failed event (a retry ahead for every event before it) is never a machine's newest while in progress: it only ends the stay before it.
    if (failed) reworkBefore = keys.length;
    if (failed || key === undefined) return;
    if (seenKeys.has(key)) reworkBefore = keys.length;
    seenKeys.add(key);
    const next = named[at + 1]?.event.time.epochMs ?? until;
    stays.push({
      gapMs: Math.max(0, next - event.time.epochMs),
      remainingMs: Math.max(0, until - event.time.epochMs),
      dayMinute: dayMinuteOf(event.time.epochMs),
      atMs: event.time.epochMs,
      index: keys.length,
    });
    keys.push(key);
  });
  const timedEvents: TimedEvent[] = [];
  const timed: TimedLesson = { kind, keys, reworkBefore, totalMs, open, events: timedEvents };
  for (const stay of stays) timedEvents.push(new Stay(stay.gapMs, stay.remainingMs, stay.dayMinute, stay.atMs, timed, stay.index));
  return timed;
}

/** One timed event, as a class: a few hundred thousand of them keep their fields in the object itself. */
class Stay implements TimedEvent {
  constructor(
    readonly gapMs: number,
    readonly remainingMs: number,
    readonly dayMinute: number,
    readonly atMs: number,
    readonly lesson: TimedLesson,
    readonly index: number,
  ) {}
}
