// How long is left for a machine in progress: compared with the history's events of its newest type
// that were still the newest after as long, what those machines had left (median, 10th–90th
// percentile) is its time to go. Kinds learn apart once they have enough machines; else pooled.
import { serverText, type ServerText } from '../../common/serverText';

/** Fewer machines than this in a comparison and the history is too thin to say (as few as the line needs to say anything). */
export const MIN_SAMPLE = 5;
/** A machine is stalled when fewer than this share of the history's machines stayed at its step as long. */
export const STALL_SHARE = 0.01;
/** A kind is learned apart from the others once it has this many onboarded machines of its own. */
export const KIND_MINIMUM = 20;
/** Kinds learned apart at most; machines of further kinds only count in the pool. */
export const MAX_KINDS = 100;
/** Distinct event types the history keeps at most (a line's vocabulary, not a server's whim): later ones are not learned. */
export const MAX_TYPES = 1000;
/** Events compared at most per question: a spread of the comparable ones, in the order of their stay, beyond it. */
const MAX_COMPARED = 2000;
/** A period (night, rework, a step ahead) counts as a reason when its machines' median is this much longer. */
const LONGER = 1.25;
/** Share of the comparable machines a reason must cover, at least, and at most (one all share is no reason). */
const REASON_SHARE = [0.1, 0.9] as const;
/** Where night and day differ, the time to go is read from stays that began within this many minutes of the same time of day. */
const NEAR_MINUTES = 120;
/** Answers kept per type until the history changes. */
const MAX_ANSWERS = 512;

export interface TimedEvent {
  readonly gapMs: number;
  readonly remainingMs: number;
  /** The minute of its local day, 0 to 1439. */
  readonly dayMinute: number;
  readonly atMs: number;
  readonly lesson: TimedLesson;
  readonly index: number;
}

export interface TimedLesson {
  readonly kind: string | undefined;
  readonly keys: readonly string[];
  /** Events before this index had a retry (a failed event or a repeated type) still ahead of them. */
  readonly reworkBefore: number;
  readonly totalMs: number | undefined;
  /** Still in progress when observed: every time left and its newest stay are lower bounds. */
  readonly open: boolean;
  readonly events: readonly TimedEvent[];
}

/** Whether an event's stay is still going on (the newest event of a machine in progress): its gapMs is a lower bound. */
function stayOpen(event: TimedEvent): boolean {
  return event.lesson.open && event.index === event.lesson.keys.length - 1;
}

/** Why a machine's time to go is what it is, as far as the history measurably shows it. */
export type ProgressReason =
  /** `machines` of the `of` comparable machines had a retry on the way, and took longer. */
  | { readonly kind: 'rework'; readonly machines: number; readonly of: number }
  /** `machines` of the `of` comparable machines went through `type`, which the others skipped, and took longer. */
  | { readonly kind: 'optional-step'; readonly type: ServerText; readonly machines: number; readonly of: number }
  /** At night this step takes longer: the time to go rests on the `machines` that were at it at night (that began it within `withinMs` of the same time of night, when that many did). */
  | { readonly kind: 'night'; readonly machines: number; readonly withinMs?: number };

export interface StayQuestion {
  readonly key: string;
  readonly kind: string | undefined;
  readonly atMs: number;
  readonly nowMs: number;
}

export interface StayAnswer {
  /** Events of this type in the history compared against (the kind's or the pool's). */
  readonly compared: number;
  /** Share of the stays that began at least as long ago still the newest after as long, this machine counted among them ((still + 1) / (of + 1)); undefined when fewer than MIN_SAMPLE stays ended. */
  readonly stillShare: number | undefined;
  /** 90th percentile of how long this type stayed the newest. */
  readonly usuallyUnderMs: number | undefined;
  /** The longest this type stayed the newest (of stays that ended), when at least MIN_SAMPLE did. */
  readonly longestMs: number | undefined;
  /** Median, 10th and 90th percentile of what was left, and the machines they rest on; undefined when too thin. */
  readonly toGo: { readonly ms: number; readonly lowMs: number; readonly highMs: number; readonly machines: number } | undefined;
  readonly reasons: readonly ProgressReason[];
  /** The kind learned apart, when it was. */
  readonly cohort: { readonly label: string; readonly machines: number } | undefined;
}

export interface LineTimesReader {
  stay(question: StayQuestion): StayAnswer;
  /** The longest whole onboarding in the history (first event to outcome), when any. */
  readonly longestOnboardingMs: number | undefined;
}

/** A serial number's family: "LSR-7000-G0101" → "LSR-7000"; undefined without a final block after a separator. */
export function serialFamily(serialNumber: string): string | undefined {
  const match = /^(.{1,64}?)[^A-Za-z0-9]+[A-Za-z0-9]+$/.exec(serialNumber);
  return match?.[1];
}

/** Whether a moment is at night (22:00 to 06:00, local time of the host, which is the line's for a commissioning engineer). */
export function atNight(epochMs: number): boolean {
  return nightMinute(dayMinuteOf(epochMs));
}

export function dayMinuteOf(epochMs: number): number {
  const date = new Date(epochMs);
  return date.getHours() * 60 + date.getMinutes();
}

function minutesApart(a: number, b: number): number {
  const apart = Math.abs(a - b) % 1440;
  return Math.min(apart, 1440 - apart);
}

function nightMinute(dayMinute: number): boolean {
  const minute = ((dayMinute % 1440) + 1440) % 1440;
  return minute >= 22 * 60 || minute < 6 * 60;
}

class Stays {
  private readonly events: TimedEvent[] = [];
  private readonly answers = new Map<string, Omit<StayAnswer, 'cohort'>>();

  get size(): number {
    return this.events.length;
  }

  add(event: TimedEvent): void {
    this.events.splice(this.after(event.gapMs), 0, event);
    this.changed();
  }

  private changed(): void {
    this.answers.clear();
    this.nightDiffersCache = undefined;
  }

  remove(event: TimedEvent): void {
    // It sits among the stays as long as its own.
    const at = this.events.indexOf(event, this.from(event.gapMs));
    if (at >= 0) this.events.splice(at, 1);
    this.changed();
  }

  private from(ms: number): number {
    let low = 0;
    let high = this.events.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.events[middle]?.gapMs ?? 0) < ms) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  private after(ms: number): number {
    let low = 0;
    let high = this.events.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.events[middle]?.gapMs ?? 0) <= ms) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  answer(atMs: number, nowMs: number, display: (key: string) => ServerText): Omit<StayAnswer, 'cohort'> {
    const start = this.after(atMs);
    const night = this.nightDiffers() ? atNight(nowMs - atMs) : undefined;
    const began = night === undefined ? undefined : dayMinuteOf(nowMs - atMs);
    // The chance of still being there is read as of the minute, so answers keep for a minute.
    const minute = Math.floor(nowMs / 60_000) * 60_000;
    // `began` tells the part of the day too.
    const cacheKey = `${start}:${began ?? '-'}:${Math.round(atMs / 1000)}:${minute}`;
    let answer = this.answers.get(cacheKey);
    if (answer === undefined) {
      answer = this.compute(start, atMs, minute, night, began, display);
      // Too few began near the same time of day: the whole part of the day; too few in it: every part, and no night said.
      if (answer.toGo === undefined && night !== undefined) {
        const samePart = this.compute(start, atMs, minute, night, undefined, display);
        const wider = samePart.toGo === undefined ? this.compute(start, atMs, minute, undefined, undefined, display) : samePart;
        answer = { ...answer, toGo: wider.toGo, reasons: wider.reasons };
      }
      if (this.answers.size >= MAX_ANSWERS) this.answers.clear();
      this.answers.set(cacheKey, answer);
    }
    return answer;
  }

  private nightDiffersCache: boolean | undefined;

  /** Whether machines that were at this step at night measurably took longer from it than those there by day. */
  private nightDiffers(): boolean {
    if (this.nightDiffersCache === undefined) {
      const done = this.events.filter((event) => !event.lesson.open);
      const byNight = done.filter((event) => nightMinute(event.dayMinute));
      const byDay = done.filter((event) => !nightMinute(event.dayMinute));
      this.nightDiffersCache =
        byNight.length >= MIN_SAMPLE && byDay.length >= MIN_SAMPLE && medianLeft(byNight) >= LONGER * medianLeft(byDay);
    }
    return this.nightDiffersCache;
  }

  private compute(
    start: number,
    atMs: number,
    nowMs: number,
    night: boolean | undefined,
    began: number | undefined,
    display: (key: string) => ServerText,
  ): Omit<StayAnswer, 'cohort'> {
    // Where night and day differ, only machines at this step in the same part of the day compare.
    const samePeriod = (event: TimedEvent): boolean => night === undefined || nightMinute(event.dayMinute) === night;
    const nearInDay = (event: TimedEvent): boolean => began === undefined || minutesApart(event.dayMinute, began) <= NEAR_MINUTES;
    // The usual stay is read from stays that ended: the usual, not the hung.
    const ended: TimedEvent[] = [];
    const still: TimedEvent[] = [];
    // Read from stays that began at least atMs ago, ended or not: younger ones could not have lasted as long yet.
    let seen = 0;
    let seenStill = 0;
    this.events.forEach((event, at) => {
      if (!samePeriod(event)) return;
      if (at >= start && nearInDay(event)) still.push(event);
      if (!stayOpen(event)) ended.push(event);
      if (event.atMs > nowMs - atMs) return;
      seen++;
      if (at >= start) seenStill++;
    });
    const compared = ended.length;
    const stillShare = compared >= MIN_SAMPLE ? (seenStill + 1) / (seen + 1) : undefined;
    const usuallyUnderMs = compared >= MIN_SAMPLE ? ended[Math.max(1, Math.ceil(0.9 * compared)) - 1]?.gapMs : undefined;
    const longestMs = compared >= MIN_SAMPLE ? ended[compared - 1]?.gapMs : undefined;
    // The comparable events: a spread of at most MAX_COMPARED of those that stayed longer than atMs.
    const step = Math.max(1, still.length / MAX_COMPARED);
    const sample: TimedEvent[] = [];
    for (let at = 0; at < still.length; at += step) {
      const event = still[Math.floor(at)];
      if (event !== undefined) sample.push(event);
    }
    const done = sample.filter((event) => !event.lesson.open);
    const machines = machinesIn(sample);
    const quantile = leftAfter(sample, atMs);
    const [ms, lowMs, highMs] = [quantile(0.5), quantile(0.1), quantile(0.9)];
    if (machinesIn(done) < MIN_SAMPLE || ms === undefined || lowMs === undefined || highMs === undefined)
      return { compared, stillShare, usuallyUnderMs, longestMs, toGo: undefined, reasons: [] };
    const reasons: ProgressReason[] =
      night !== true
        ? []
        : began === undefined
          ? [{ kind: 'night', machines }]
          : [{ kind: 'night', machines, withinMs: NEAR_MINUTES * 60_000 }];
    reasons.push(...aheadReasons(done, display));
    return { compared, stillShare, usuallyUnderMs, longestMs, toGo: { ms, lowMs, highMs, machines }, reasons };
  }
}

/**
 * The share done within a time, counting machines still on their way for as long as they are known to
 * have been (Kaplan–Meier), or the history would hold only the quick ones. Undefined past what it knows.
 */
function leftAfter(sample: readonly TimedEvent[], atMs: number): (q: number) => number | undefined {
  const left = sample.map((event) => ({ ms: Math.max(0, event.remainingMs - atMs), open: event.lesson.open })).sort((a, b) => a.ms - b.ms);
  const steps: { ms: number; done: number }[] = [];
  let atRisk = left.length;
  let stillGoing = 1;
  for (let at = 0; at < left.length;) {
    const ms = left[at]?.ms ?? 0;
    let finished = 0;
    let leaving = 0;
    for (; left[at]?.ms === ms; at++) {
      leaving++;
      if (left[at]?.open === false) finished++;
    }
    // A time only machines still on their way reached adds a step with the share done before it.
    stillGoing *= 1 - finished / atRisk;
    steps.push({ ms, done: 1 - stillGoing });
    atRisk -= leaving;
  }
  return (q) => steps.find((step) => step.done >= q - 1e-9)?.ms;
}

function nearestRank(sorted: readonly number[], q: number): number {
  return sorted[Math.max(1, Math.ceil(q * sorted.length)) - 1] ?? 0;
}

function medianLeft(events: readonly TimedEvent[]): number {
  return nearestRank(
    events.map((event) => event.remainingMs).sort((a, b) => a - b),
    0.5,
  );
}

function machinesIn(events: readonly TimedEvent[]): number {
  return new Set(events.map((event) => event.lesson)).size;
}

/** Whether those with a trait took measurably longer than those without, and cover a share that makes it a reason. */
function measurablyLonger(sample: readonly TimedEvent[], withIt: readonly TimedEvent[]): boolean {
  const share = withIt.length / sample.length;
  if (share < REASON_SHARE[0] || share > REASON_SHARE[1] || withIt.length < 3) return false;
  const traits = new Set(withIt);
  const without = sample.filter((event) => !traits.has(event));
  return medianLeft(withIt) >= LONGER * medianLeft(without);
}

/** Rework and optional steps still ahead of the comparable machines, where the history shows them. */
function aheadReasons(sample: readonly TimedEvent[], display: (key: string) => ServerText): ProgressReason[] {
  const reasons: ProgressReason[] = [];
  const rework = sample.filter((event) => event.index < event.lesson.reworkBefore);
  if (measurablyLonger(sample, rework)) reasons.push({ kind: 'rework', machines: machinesIn(rework), of: machinesIn(sample) });
  const ahead = new Map<string, TimedEvent[]>();
  for (const event of sample) {
    const seen = new Set<string>();
    for (let at = event.index + 1; at < event.lesson.keys.length; at++) {
      const key = event.lesson.keys[at];
      if (key === undefined || seen.has(key)) continue;
      seen.add(key);
      const list = ahead.get(key);
      if (list === undefined) ahead.set(key, [event]);
      else list.push(event);
    }
  }
  let optional: { key: string; events: TimedEvent[] } | undefined;
  for (const [key, events] of [...ahead.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    if ((optional === undefined || events.length > optional.events.length) && measurablyLonger(sample, events)) optional = { key, events };
  if (optional !== undefined)
    reasons.push({ kind: 'optional-step', type: display(optional.key), machines: machinesIn(optional.events), of: machinesIn(sample) });
  return reasons;
}

export class LineTimes implements LineTimesReader {
  private readonly pooled = new Map<string, Stays>();
  /** By kind: onboarded machines (what makes a kind its own measure), lessons in all, and their stays. */
  private readonly kinds = new Map<string, { machines: number; lessons: number; readonly stays: Map<string, Stays> }>();
  /** Whole onboardings, shortest first (the longest tells an abandoned machine). */
  private readonly totals: number[] = [];

  constructor(private readonly display: (key: string) => ServerText = serverText) {}

  get longestOnboardingMs(): number | undefined {
    return this.totals[this.totals.length - 1];
  }

  /** The kind a lesson counts under apart (a kind beyond MAX_KINDS only counts in the pool). */
  kindFor(kind: string | undefined): string | undefined {
    return kind !== undefined && (this.kinds.has(kind) || this.kinds.size < MAX_KINDS) ? kind : undefined;
  }

  add(lesson: TimedLesson): void {
    if (lesson.totalMs !== undefined) insertSorted(this.totals, lesson.totalMs);
    const kind = lesson.kind === undefined ? undefined : this.kindStays(lesson.kind);
    if (kind !== undefined) {
      kind.lessons++;
      if (!lesson.open) kind.machines++;
    }
    for (const event of lesson.events) {
      const key = lesson.keys[event.index];
      if (key === undefined) continue;
      staysOf(this.pooled, key).add(event);
      if (kind !== undefined) staysOf(kind.stays, key).add(event);
    }
  }

  remove(lesson: TimedLesson): void {
    const at = lesson.totalMs === undefined ? -1 : this.totals.indexOf(lesson.totalMs);
    if (at >= 0) this.totals.splice(at, 1);
    const kind = lesson.kind === undefined ? undefined : this.kinds.get(lesson.kind);
    for (const event of lesson.events) {
      const key = lesson.keys[event.index];
      if (key === undefined) continue;
      dropFrom(this.pooled, key, event);
      if (kind !== undefined) dropFrom(kind.stays, key, event);
    }
    if (kind !== undefined && !lesson.open) kind.machines--;
    if (kind !== undefined && --kind.lessons <= 0 && lesson.kind !== undefined) this.kinds.delete(lesson.kind);
  }

  clear(): void {
    this.pooled.clear();
    this.kinds.clear();
    this.totals.length = 0;
  }

  stay(question: StayQuestion): StayAnswer {
    const kind = question.kind === undefined ? undefined : this.kinds.get(question.kind);
    // A kind with enough machines of its own, that went through this step often enough, is its own measure.
    const own = kind !== undefined && kind.machines >= KIND_MINIMUM ? kind.stays.get(question.key) : undefined;
    if (own !== undefined && question.kind !== undefined && own.size >= KIND_MINIMUM)
      return {
        ...own.answer(question.atMs, question.nowMs, this.display),
        cohort: { label: question.kind, machines: kind?.machines ?? 0 },
      };
    const pooled = this.pooled.get(question.key)?.answer(question.atMs, question.nowMs, this.display);
    return pooled === undefined
      ? {
          compared: 0,
          stillShare: undefined,
          usuallyUnderMs: undefined,
          longestMs: undefined,
          toGo: undefined,
          reasons: [],
          cohort: undefined,
        }
      : { ...pooled, cohort: undefined };
  }

  private kindStays(kind: string): { machines: number; lessons: number; readonly stays: Map<string, Stays> } {
    let stays = this.kinds.get(kind);
    if (stays === undefined) {
      stays = { machines: 0, lessons: 0, stays: new Map() };
      this.kinds.set(kind, stays);
    }
    return stays;
  }
}

function staysOf(map: Map<string, Stays>, key: string): Stays {
  let stays = map.get(key);
  if (stays === undefined) {
    stays = new Stays();
    map.set(key, stays);
  }
  return stays;
}

function dropFrom(map: Map<string, Stays>, key: string, event: TimedEvent): void {
  const stays = map.get(key);
  if (stays === undefined) return;
  stays.remove(event);
  if (stays.size === 0) map.delete(key);
}

function insertSorted(values: number[], value: number): void {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((values[middle] ?? 0) <= value) low = middle + 1;
    else high = middle;
  }
  values.splice(low, 0, value);
}
