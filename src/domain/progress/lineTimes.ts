// How long is left for a machine in progress, read from the line's history
// (lineHistory.ts feeds it): every event of every onboarded machine, with how
// long it stayed the machine's newest event and how long the machine still
// took from it to its outcome. A machine whose newest event is of type X, and
// has been for a ms, is compared with the history's events of type X that were
// still the newest after a ms: what those machines had left from that moment —
// its median and its 10th to 90th percentile — is the machine's time to go, and
// their share of all events of type X is its chance of still being there.
//
// Kinds learn apart (a serial number's family, or a kind the caller names)
// once a kind has enough onboarded machines of its own; else every machine
// of the environment is pooled. Pure (no vscode).
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
/** Answers kept per type until the history changes. */
const MAX_ANSWERS = 512;

/** One event of an onboarded machine: how long it stayed the newest and how long was left from it. */
export interface TimedEvent {
  readonly gapMs: number;
  readonly remainingMs: number;
  /** When it happened, whole minutes since the epoch (night or day). */
  readonly atMinute: number;
  readonly lesson: TimedLesson;
  /** Its place in lesson.keys. */
  readonly index: number;
}

/** What one onboarded machine teaches of times: its events' types in order, and which had a retry after them. */
export interface TimedLesson {
  readonly kind: string | undefined;
  readonly keys: readonly string[];
  /** Events before this index had a retry (a failed event or a repeated type) still ahead of them. */
  readonly reworkBefore: number;
  /** From the first event to the outcome. */
  readonly totalMs: number;
  readonly events: readonly TimedEvent[];
}

/** Why a machine's time to go is what it is, as far as the history measurably shows it. */
export type ProgressReason =
  /** `machines` of the `of` comparable machines had a retry on the way, and took longer. */
  | { readonly kind: 'rework'; readonly machines: number; readonly of: number }
  /** `machines` of the `of` comparable machines went through `type`, which the others skipped, and took longer. */
  | { readonly kind: 'optionalStep'; readonly type: ServerText; readonly machines: number; readonly of: number }
  /** At night this step takes longer: the time to go rests on the `machines` that were at it at night. */
  | { readonly kind: 'night'; readonly machines: number };

export interface StayQuestion {
  /** The newest event's type, as stepKey gives it. */
  readonly key: string;
  readonly kind: string | undefined;
  /** How long it has been the newest. */
  readonly atMs: number;
  readonly nowMs: number;
}

export interface StayAnswer {
  /** Events of this type in the history compared against (the kind's or the pool's). */
  readonly compared: number;
  /** Share of them still the newest after as long; undefined when fewer than MIN_SAMPLE. */
  readonly stillShare: number | undefined;
  /** 90th percentile of how long this type stayed the newest. */
  readonly usuallyUnderMs: number | undefined;
  /** Median, 10th and 90th percentile of what was left, and the machines they rest on; undefined when too thin. */
  readonly toGo: { readonly ms: number; readonly lowMs: number; readonly highMs: number; readonly machines: number } | undefined;
  readonly reasons: readonly ProgressReason[];
  /** The kind learned apart, when it was. */
  readonly cohort: { readonly label: string; readonly machines: number } | undefined;
}

/** The history's answers about time: what lineHistory's LearnedSteps carries for machineProgress. */
export interface LineTimesReader {
  stay(question: StayQuestion): StayAnswer;
  /** The longest whole onboarding in the history (first event to outcome), when any. */
  readonly longestOnboardingMs: number | undefined;
}

/**
 * The kind of a machine by its serial number: the serial without its final
 * block of letters and digits ("LSR-7000-G0101" → "LSR-7000"); undefined when
 * it has no such block after a separator.
 */
export function serialFamily(serialNumber: string): string | undefined {
  const match = /^(.{1,64}?)[^A-Za-z0-9]+[A-Za-z0-9]+$/.exec(serialNumber);
  return match?.[1];
}

/** Whether a moment is at night (22:00 to 06:00, local time of the host, which is the line's for a commissioning engineer). */
export function atNight(epochMs: number): boolean {
  const hour = new Date(epochMs).getHours();
  return hour >= 22 || hour < 6;
}

/** The events of one type (of one kind, or pooled), sorted by how long they stayed the newest. */
class Stays {
  private readonly events: TimedEvent[] = [];
  private readonly answers = new Map<string, Omit<StayAnswer, 'cohort'>>();

  get size(): number {
    return this.events.length;
  }

  add(event: TimedEvent): void {
    this.events.splice(this.after(event.gapMs), 0, event);
    this.answers.clear();
  }

  remove(event: TimedEvent): void {
    for (let at = this.from(event.gapMs); at < this.events.length && this.events[at]?.gapMs === event.gapMs; at++)
      if (this.events[at] === event) {
        this.events.splice(at, 1);
        break;
      }
    this.answers.clear();
  }

  /** The first index whose stay is ≥ ms. */
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

  /** The first index whose stay is > ms. */
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
    const night = atNight(nowMs);
    const cacheKey = `${start}:${night ? 'n' : 'd'}:${Math.round(atMs / 1000)}`;
    let answer = this.answers.get(cacheKey);
    if (answer === undefined) {
      answer = this.compute(start, atMs, night, display);
      if (this.answers.size >= MAX_ANSWERS) this.answers.clear();
      this.answers.set(cacheKey, answer);
    }
    return answer;
  }

  private compute(start: number, atMs: number, night: boolean, display: (key: string) => ServerText): Omit<StayAnswer, 'cohort'> {
    const compared = this.events.length;
    const still = compared - start;
    const stillShare = compared >= MIN_SAMPLE ? still / compared : undefined;
    const usuallyUnderMs = compared >= MIN_SAMPLE ? this.events[Math.max(1, Math.ceil(0.9 * compared)) - 1]?.gapMs : undefined;
    // The comparable events: a spread of at most MAX_COMPARED of those that stayed longer than atMs.
    const step = Math.max(1, still / MAX_COMPARED);
    let sample: TimedEvent[] = [];
    for (let at = start; at < compared; at += step) {
      const event = this.events[Math.floor(at)];
      if (event !== undefined) sample.push(event);
    }
    const reasons: ProgressReason[] = [];
    // Night and day apart, when the history shows the step takes longer at night.
    const nightOf = (event: TimedEvent): boolean => atNight(event.atMinute * 60_000 + atMs);
    const atNightToo = sample.filter(nightOf);
    const byDay = sample.filter((event) => !nightOf(event));
    if (atNightToo.length >= MIN_SAMPLE && byDay.length >= MIN_SAMPLE && medianLeft(atNightToo) >= LONGER * medianLeft(byDay)) {
      sample = night ? atNightToo : byDay;
      if (night) reasons.push({ kind: 'night', machines: machinesIn(sample) });
    }
    if (machinesIn(sample) < MIN_SAMPLE) return { compared, stillShare, usuallyUnderMs, toGo: undefined, reasons: [] };
    const left = sample.map((event) => Math.max(0, event.remainingMs - atMs)).sort((a, b) => a - b);
    const toGo = {
      ms: nearestRank(left, 0.5),
      lowMs: nearestRank(left, 0.1),
      highMs: nearestRank(left, 0.9),
      machines: machinesIn(sample),
    };
    reasons.push(...aheadReasons(sample, display));
    return { compared, stillShare, usuallyUnderMs, toGo, reasons };
  }
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
  const without = sample.filter((event) => !withIt.includes(event));
  const median = (events: readonly TimedEvent[]): number =>
    nearestRank(
      events.map((event) => event.remainingMs).sort((a, b) => a - b),
      0.5,
    );
  return median(withIt) >= LONGER * median(without);
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
    reasons.push({ kind: 'optionalStep', type: display(optional.key), machines: machinesIn(optional.events), of: machinesIn(sample) });
  return reasons;
}

/** Every onboarded machine's timed events, by type, pooled and by kind. */
export class LineTimes implements LineTimesReader {
  private readonly pooled = new Map<string, Stays>();
  private readonly kinds = new Map<string, { machines: number; readonly stays: Map<string, Stays> }>();
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
    insertSorted(this.totals, lesson.totalMs);
    const kind = lesson.kind === undefined ? undefined : this.kindStays(lesson.kind);
    if (kind !== undefined) kind.machines++;
    for (const event of lesson.events) {
      const key = lesson.keys[event.index];
      if (key === undefined) continue;
      staysOf(this.pooled, key).add(event);
      if (kind !== undefined) staysOf(kind.stays, key).add(event);
    }
  }

  remove(lesson: TimedLesson): void {
    const at = this.totals.indexOf(lesson.totalMs);
    if (at >= 0) this.totals.splice(at, 1);
    const kind = lesson.kind === undefined ? undefined : this.kinds.get(lesson.kind);
    for (const event of lesson.events) {
      const key = lesson.keys[event.index];
      if (key === undefined) continue;
      dropFrom(this.pooled, key, event);
      if (kind !== undefined) dropFrom(kind.stays, key, event);
    }
    if (kind !== undefined && --kind.machines <= 0 && lesson.kind !== undefined) this.kinds.delete(lesson.kind);
  }

  clear(): void {
    this.pooled.clear();
    this.kinds.clear();
    this.totals.length = 0;
  }

  stay(question: StayQuestion): StayAnswer {
    const kind = question.kind === undefined ? undefined : this.kinds.get(question.kind);
    if (kind !== undefined && question.kind !== undefined && kind.machines >= KIND_MINIMUM) {
      const own = kind.stays.get(question.key)?.answer(question.atMs, question.nowMs, this.display);
      if (own?.toGo !== undefined) return { ...own, cohort: { label: question.kind, machines: kind.machines } };
    }
    const pooled = this.pooled.get(question.key)?.answer(question.atMs, question.nowMs, this.display);
    return pooled === undefined
      ? { compared: 0, stillShare: undefined, usuallyUnderMs: undefined, toGo: undefined, reasons: [], cohort: undefined }
      : { ...pooled, cohort: undefined };
  }

  private kindStays(kind: string): { machines: number; readonly stays: Map<string, Stays> } {
    let stays = this.kinds.get(kind);
    if (stays === undefined) {
      stays = { machines: 0, stays: new Map() };
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
