// Where a machine in progress stands against its line's usual steps; stalled qualifies "in progress"
// and is no state of its own. Every figure carries what it rests on.
import type { Localize } from '../../common/localize';
import type { ServerText } from '../../common/serverText';
import type { OnboardingEvent } from '../../client/model';
import { eventState, newestOf, type EventStateRules } from '../events/eventState';
import { MINIMUM_MACHINES, oldestFirst, stepKey, type LearnedSteps, type StepFigures } from './lineHistory';
import { MIN_SAMPLE, serialFamily, STALL_SHARE, type ProgressReason } from './lineTimes';
import { formatDuration } from '../../common/time';

export { MIN_SAMPLE, STALL_SHARE, type ProgressReason };

/** Never stalled sooner: the newest event a window knows may be minutes behind the server's. */
export const MINIMUM_STALL_MS = 10 * 60_000;
/** Stalled, however few machines the history has, past this many times the longest any of them stayed (or the setting's expected time, without them). */
export const LONGEST_STALL_FACTOR = 2;
/** A machine with no event for longer than any onboarding of its line took, and at least this long, is abandoned. */
export const ABANDONED_AFTER_MS = 3 * 24 * 60 * 60_000;

export interface TimeToGo {
  readonly ms: number;
  readonly lowMs: number;
  readonly highMs: number;
  readonly machines: number;
}

export interface MachineProgress {
  readonly kind: 'progress';
  readonly step: number;
  readonly of: number;
  readonly type: ServerText;
  readonly atStepMs: number;
  /** What is likely left; undefined when the history is too thin to say (or the machine is abandoned). */
  readonly timeToGo: TimeToGo | undefined;
  /** How long the history's machines stayed at this step, 90th percentile ("it usually takes under …"), when known. */
  readonly usuallyUnderMs: number | undefined;
  /** Fewer than stallThreshold of the history's machines stayed as long, or past twice the longest; and past MINIMUM_STALL_MS. */
  readonly stalled: boolean;
  readonly stallThreshold: number;
  /** The longest any history machine stayed at this step: twice it is a stall however few they are. */
  readonly longestAtStepMs: number | undefined;
  /** The share of the history's machines at this step still at it after as long; undefined when too few were ever at it. */
  readonly stillAtStepShare: number | undefined;
  /** No event for longer than any onboarding in the history took, and days: not stalled, given up. */
  readonly abandoned: boolean;
  readonly reasons: readonly ProgressReason[];
  /** The kind of machine learned apart (the serial number's family, or a kind the caller named), when it was; else every machine is pooled. */
  readonly cohort: { readonly label: string; readonly machines: number } | undefined;
  readonly missing: readonly ServerText[];
  readonly outOfOrder: readonly ServerText[];
  readonly machines: number;
  readonly source: 'learned' | 'setting';
}

export type ProgressAnswer = MachineProgress | { readonly kind: 'not-enough'; readonly machines: number } | undefined;

interface Standing {
  readonly steps: readonly StepFigures[];
  readonly step: number;
  readonly missing: readonly ServerText[];
  readonly outOfOrder: readonly ServerText[];
}

const standings = new WeakMap<readonly OnboardingEvent[], Standing>();
const newestEvents = new WeakMap<readonly OnboardingEvent[], OnboardingEvent | undefined>();

/** A result's newest event, found once per events array (a repaint asks again and again). */
function newestIn(events: readonly OnboardingEvent[]): OnboardingEvent | undefined {
  if (newestEvents.has(events)) return newestEvents.get(events);
  const newest = newestOf(events);
  newestEvents.set(events, newest);
  return newest;
}

export interface ProgressOptions {
  /** The machine's kind when the caller knows it (the set or file it is listed in); else its serial number's family. */
  readonly kind?: string;
}

export function machineProgress(
  events: readonly OnboardingEvent[],
  learned: LearnedSteps,
  nowMs: number,
  rules: EventStateRules,
  options: ProgressOptions = {},
): ProgressAnswer {
  const newest = newestIn(events);
  if (newest === undefined || eventState(newest, rules) !== 'in-progress') return undefined;
  if (learned.kind === 'not-enough') return learned;
  const { steps } = learned;
  const { step, missing, outOfOrder } = standingOf(events, steps);
  const atStepMs = Math.max(0, nowMs - newest.time.epochMs);
  const stay = learned.times.stay({
    key: stepKey(newest.type),
    kind: options.kind ?? serialFamily(newest.serialNumber),
    atMs: atStepMs,
    nowMs,
  });
  const longest = learned.times.longestOnboardingMs;
  const abandoned = atStepMs > Math.max(longest ?? 0, ABANDONED_AFTER_MS);
  const remaining = steps.slice(step);
  const stillAtStepShare = stay.stillShare;
  const usuallyUnderMs = stay.usuallyUnderMs ?? remaining[0]?.p90Ms;
  // Too few machines to tell a 1 % chance, a stay far past the longest is still one; without history of this step, the setting's own time is all there is.
  const stalledBy =
    stillAtStepShare !== undefined
      ? stillAtStepShare < STALL_SHARE || atStepMs > LONGEST_STALL_FACTOR * (stay.longestMs ?? Infinity)
      : learned.source === 'setting' && atStepMs > LONGEST_STALL_FACTOR * (usuallyUnderMs ?? Infinity);
  return {
    kind: 'progress',
    step,
    of: steps.length,
    type: newest.type,
    atStepMs,
    timeToGo: abandoned ? undefined : (stay.toGo ?? (learned.source === 'setting' ? sumOf(remaining) : undefined)),
    usuallyUnderMs,
    stalled: !abandoned && atStepMs > MINIMUM_STALL_MS && stalledBy,
    stallThreshold: STALL_SHARE,
    longestAtStepMs: stay.longestMs,
    stillAtStepShare,
    abandoned,
    reasons: abandoned ? [] : stay.reasons,
    cohort: stay.cohort,
    missing,
    outOfOrder,
    machines: learned.machines,
    source: learned.source,
  };
}

function standingOf(events: readonly OnboardingEvent[], steps: readonly StepFigures[]): Standing {
  const known = standings.get(events);
  if (known !== undefined && known.steps === steps) return known;
  const index = new Map(steps.map((step, at) => [stepKey(step.type), at]));
  // The usual steps the machine reached, in the order it reached them.
  const reached: number[] = [];
  const seen = new Set<number>();
  // One key per distinct spelling: a hundred thousand events of a few types are upper-cased a few times.
  const byText = new Map<ServerText, number | undefined>();
  for (const event of oldestFirstCheaply(events)) {
    let at = byText.get(event.type);
    if (at === undefined && !byText.has(event.type)) {
      at = index.get(stepKey(event.type));
      byText.set(event.type, at);
    }
    if (at !== undefined && !seen.has(at)) {
      seen.add(at);
      reached.push(at);
    }
  }
  const furthest = reached.length === 0 ? -1 : Math.max(...reached);
  const missing = steps.slice(0, Math.max(0, furthest)).filter((_, at) => !seen.has(at));
  let laterMin = Infinity;
  const outOfOrderAt: number[] = [];
  for (let i = reached.length - 1; i >= 0; i--) {
    const at = reached[i] ?? 0;
    if (laterMin < at) outOfOrderAt.unshift(at);
    laterMin = Math.min(laterMin, at);
  }
  const standing: Standing = {
    steps,
    step: furthest + 1,
    missing: missing.map((step) => step.type),
    outOfOrder: outOfOrderAt.map((at) => stepAt(steps, at).type),
  };
  standings.set(events, standing);
  return standing;
}

/** Events oldest first: the API's newest-first order read backwards when it holds (no sort), else sorted. */
function oldestFirstCheaply(events: readonly OnboardingEvent[]): readonly OnboardingEvent[] {
  for (let i = 1; i < events.length; i++)
    if ((events[i]?.time.epochMs ?? 0) > (events[i - 1]?.time.epochMs ?? 0)) return oldestFirst(events);
  return [...events].reverse();
}

function stepAt(steps: readonly StepFigures[], at: number): StepFigures {
  const step = steps[at];
  if (step === undefined) throw new RangeError(`no step ${at}`);
  return step;
}

/** The onboardingEvents.steps setting's times for the steps ahead: the sum of their medians, up to the sum of their 90th percentiles. */
function sumOf(remaining: readonly StepFigures[]): TimeToGo | undefined {
  let lowMs = 0;
  let highMs = 0;
  for (const step of remaining) {
    if (step.medianMs === undefined || step.p90Ms === undefined) return undefined;
    lowMs += step.medianMs;
    highMs += step.p90Ms;
  }
  return { ms: lowMs, lowMs, highMs, machines: 0 };
}

export type RenderText = (text: ServerText) => string;

/**
 * The words of a machine's progress for every surface ("step 4 of 6 · FIRMWARE_CHECKED", "likely 15
 * min more (80 %: 8–40 min)", "stalled: …"); `line` joins the short ones for a row.
 */
export interface ProgressWords {
  readonly step: string;
  readonly toGo: string | undefined;
  readonly stalled: string | undefined;
  readonly abandoned: string | undefined;
  readonly stallRule: string | undefined;
  readonly reasons: string | undefined;
  readonly cohort: string | undefined;
  readonly restsOn: string;
  readonly how: string;
  readonly oddities: string | undefined;
  readonly line: string;
}

export function progressWords(answer: Exclude<ProgressAnswer, undefined>, t: Localize, render: RenderText): ProgressWords {
  if (answer.kind === 'not-enough') {
    const restsOn = t('not enough history yet ({0} onboarded machines)', answer.machines);
    const how = t(
      'Progress is learned from the onboarded machines of this environment once at least {0} have onboarded; or name the steps in the onboardingEvents.steps setting.',
      MINIMUM_MACHINES,
    );
    return {
      step: restsOn,
      toGo: undefined,
      stalled: undefined,
      abandoned: undefined,
      stallRule: undefined,
      reasons: undefined,
      cohort: undefined,
      restsOn,
      how,
      oddities: undefined,
      line: restsOn,
    };
  }
  const type = render(answer.type);
  const step = answer.step === 0 ? t('step ? of {0} · {1}', answer.of, type) : t('step {0} of {1} · {2}', answer.step, answer.of, type);
  const toGo = answer.abandoned ? undefined : toGoWords(answer, t);
  const stalled = !answer.stalled
    ? undefined
    : answer.usuallyUnderMs === undefined
      ? t('stalled: at it for {0}', formatDuration(answer.atStepMs, t))
      : t('stalled: at it for {0}, usually under {1}', formatDuration(answer.atStepMs, t), formatDuration(answer.usuallyUnderMs, t));
  const abandoned = answer.abandoned
    ? t('abandoned: no event for {0}, longer than any onboarding took', formatDuration(answer.atStepMs, t))
    : undefined;
  const stallRule =
    answer.stillAtStepShare === undefined
      ? undefined
      : t(
          '{0} % of the machines at this step, this one counted, were still at it after as long; below {1} %, or past twice the longest stay ({2}), a machine counts as stalled.',
          percent(answer.stillAtStepShare),
          percent(answer.stallThreshold),
          answer.longestAtStepMs === undefined ? '?' : formatDuration(answer.longestAtStepMs, t),
        );
  const reasons = answer.reasons.length === 0 ? undefined : answer.reasons.map((reason) => reasonWords(reason, t, render)).join('; ');
  const cohort =
    answer.cohort === undefined
      ? t('learned from every machine of this environment')
      : t('learned from the {0} machines of kind {1}', answer.cohort.machines, answer.cohort.label);
  const { restsOn, how } = restsOnWords(answer, t);
  const odd: string[] = [];
  if (answer.missing.length > 0) odd.push(t('missing: {0}', answer.missing.map((type) => render(type)).join(', ')));
  if (answer.outOfOrder.length > 0) odd.push(t('out of order: {0}', answer.outOfOrder.map((type) => render(type)).join(', ')));
  const oddities = odd.length === 0 ? undefined : odd.join('; ');
  const alarm = abandoned ?? stalled;
  const line = [alarm ?? step, alarm === undefined ? toGo : undefined].filter((part) => part !== undefined).join(' · ');
  return { step, toGo, stalled, abandoned, stallRule, reasons, cohort, restsOn, how, oddities, line };
}

/** "likely 15 min more (80 %: 8–40 min)"; when the history cannot say, whether it is thin or only none of it stayed at this step as long. */
function toGoWords(answer: MachineProgress, t: Localize): string {
  const toGo = answer.timeToGo;
  // Enough stays at this step to read a share of them, yet no time to go: too few of them lasted as long as this one.
  if (toGo === undefined && answer.stillAtStepShare !== undefined)
    return t('time to go unknown (too few machines of the history were at this step as long)');
  if (toGo === undefined) return t('time to go unknown (too little history)');
  const range =
    toGo.highMs < 60 * 60_000
      ? t('{0}–{1} min', Math.round(toGo.lowMs / 60_000), Math.round(toGo.highMs / 60_000))
      : t('{0}–{1}', formatDuration(toGo.lowMs, t), formatDuration(toGo.highMs, t));
  return toGo.highMs - toGo.lowMs < 60_000
    ? t('likely {0} more', formatDuration(toGo.ms, t))
    : t('likely {0} more (80 %: {1})', formatDuration(toGo.ms, t), range);
}

function percent(share: number): string {
  const value = share * 100;
  return value > 0 && value < 1 ? value.toFixed(1) : String(Math.round(value));
}

function reasonWords(reason: ProgressReason, t: Localize, render: RenderText): string {
  switch (reason.kind) {
    case 'rework':
      return t('a retry on the way for {0} of {1} machines from here', reason.machines, reason.of);
    case 'optional-step':
      return t('{0} ahead for {1} of {2} machines from here', render(reason.type), reason.machines, reason.of);
    case 'night':
      return reason.withinMs === undefined
        ? t('slower at night (from {0} machines at it at night)', reason.machines)
        : t(
            'slower at night (from {0} machines that began this step within {1} of the same time of night)',
            reason.machines,
            formatDuration(reason.withinMs, t),
          );
  }
}

/** What figures rest on ("from 48 onboarded machines") and how they were learned: the one wording, for a machine or the line's steps. */
export function restsOnWords(
  figures: { readonly source: 'learned' | 'setting'; readonly machines: number },
  t: Localize,
): { readonly restsOn: string; readonly how: string } {
  const restsOn =
    figures.source === 'setting' && figures.machines === 0
      ? t('from the onboardingEvents.steps setting')
      : t('from {0} onboarded machines', figures.machines);
  const how =
    figures.source === 'setting'
      ? t(
          'The steps are the onboardingEvents.steps setting; the time to go is what this environment’s onboarded machines took from the same step after as long, else the setting’s times.',
        )
      : t(
          'Learned from the {0} onboarded machines whose events are loaded: the usual order of their event types up to the outcome; the time to go is what those that had been at the same step as long still took: its median, and the range 80 % of them fell in.',
          figures.machines,
        );
  return { restsOn, how };
}

/** The watch's one notification per stall: "LSR-7000-G0101 has been at FIRMWARE_CHECKED for 38 min; it usually takes under 12 min." */
export function stallNotice(serialNumber: string, progress: MachineProgress, t: Localize, render: RenderText): string | undefined {
  if (!progress.stalled || progress.usuallyUnderMs === undefined) return undefined;
  return t(
    '{0} has been at {1} for {2}; it usually takes under {3} ({4}).',
    serialNumber,
    render(progress.type),
    formatDuration(progress.atStepMs, t),
    formatDuration(progress.usuallyUnderMs, t),
    t('from {0} onboarded machines', progress.machines),
  );
}
