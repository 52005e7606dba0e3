// Where a machine in progress stands against its line's usual steps
// (lineHistory.ts): which step it is at, how long it has been there, how long
// it usually has to go, and whether it is stalled. Stalled qualifies "in
// progress"; it is not a state of its own (the glossary keeps one vocabulary).
// Every figure carries what it rests on. Pure (no vscode).
import type { Localize } from '../../common/localize';
import type { ServerText } from '../../common/serverText';
import type { OnboardingEvent } from '../../core/model';
import { eventState, newestOf, type EventStateRules } from '../events/eventState';
import { formatDuration } from '../watch/watchRules';
import { MINIMUM_MACHINES, oldestFirst, stepKey, type LearnedSteps, type StepFigures } from './lineHistory';

/** Stalled once the time since the newest event passes this many times the next step's 90th percentile… */
export const STALL_FACTOR = 2;
/** …and at least this long, so a line of one-minute steps does not cry wolf. */
export const MINIMUM_STALL_MS = 10 * 60_000;

export interface MachineProgress {
  readonly kind: 'progress';
  /** 1-based: the furthest usual step the machine reached (0 when it reached none yet). */
  readonly step: number;
  /** Usual steps in all, the outcome included. */
  readonly of: number;
  /** The newest event's type (server text). */
  readonly type: ServerText;
  /** Since the newest event, ms. */
  readonly atItForMs: number;
  /** What the remaining steps usually take: the sum of their medians to the sum of their 90th percentiles; undefined when a step's time is not known. */
  readonly timeToGo: { readonly lowMs: number; readonly highMs: number } | undefined;
  /** The next step's 90th percentile ("it usually takes under …"), when known. */
  readonly usuallyUnderMs: number | undefined;
  readonly stalled: boolean;
  /** Usual steps before the current one the machine never reached. */
  readonly missing: readonly ServerText[];
  /** Usual steps it reached in another order than the usual one. */
  readonly outOfOrder: readonly ServerText[];
  /** Onboarded machines the figures rest on. */
  readonly machines: number;
  readonly source: 'learned' | 'setting';
}

/** A machine in progress against the history; notEnough when the history cannot say yet; undefined when it is not in progress. */
export type ProgressAnswer = MachineProgress | { readonly kind: 'notEnough'; readonly machines: number } | undefined;

export function machineProgress(
  events: readonly OnboardingEvent[],
  learned: LearnedSteps,
  nowMs: number,
  rules: EventStateRules,
): ProgressAnswer {
  const newest = newestOf(events);
  if (newest === undefined || eventState(newest, rules) !== 'inProgress') return undefined;
  if (learned.kind === 'notEnough') return learned;
  const { steps } = learned;
  const index = new Map(steps.map((step, at) => [stepKey(step.type), at]));
  // The usual steps the machine reached, in the order it reached them.
  const reached: number[] = [];
  for (const event of oldestFirst(events)) {
    const at = index.get(stepKey(event.type));
    if (at !== undefined && !reached.includes(at)) reached.push(at);
  }
  const furthest = reached.length === 0 ? -1 : Math.max(...reached);
  const missing = steps.slice(0, Math.max(0, furthest)).filter((_, at) => !reached.includes(at));
  const outOfOrder = reached.filter((at, i) => reached.slice(i + 1).some((later) => later < at)).map((at) => stepAt(steps, at).type);
  const remaining = steps.slice(furthest + 1);
  const timeToGo = sumOf(remaining);
  const next = remaining[0];
  const atItForMs = Math.max(0, nowMs - newest.time.epochMs);
  const usuallyUnderMs = next?.p90Ms;
  const stalled = usuallyUnderMs !== undefined && atItForMs > Math.max(STALL_FACTOR * usuallyUnderMs, MINIMUM_STALL_MS);
  return {
    kind: 'progress',
    step: furthest + 1,
    of: steps.length,
    type: newest.type,
    atItForMs,
    timeToGo,
    usuallyUnderMs,
    stalled,
    missing: missing.map((step) => step.type),
    outOfOrder,
    machines: learned.machines,
    source: learned.source,
  };
}

function stepAt(steps: readonly StepFigures[], at: number): StepFigures {
  const step = steps[at];
  if (step === undefined) throw new RangeError(`no step ${at}`);
  return step;
}

function sumOf(remaining: readonly StepFigures[]): MachineProgress['timeToGo'] {
  let lowMs = 0;
  let highMs = 0;
  for (const step of remaining) {
    if (step.medianMs === undefined || step.p90Ms === undefined) return undefined;
    lowMs += step.medianMs;
    highMs += step.p90Ms;
  }
  return { lowMs, highMs };
}

/** Renders server text for the surface at hand (lineText, markdownText, …: common/serverText.ts). */
export type RenderText = (text: ServerText) => string;

/**
 * The words of a machine's progress, in the user's language, for every surface:
 * `step` ("step 4 of 6 · FIRMWARE_CHECKED"), `toGo` ("usually 10–25 min more"),
 * `stalled` ("stalled: at it for 38 min, usually under 12 min"), `restsOn`
 * ("from 48 onboarded machines"), `how` (how it was learned), `oddities` (missing
 * or out-of-order steps). `line` joins the short ones for a row.
 */
export interface ProgressWords {
  readonly step: string;
  readonly toGo: string | undefined;
  readonly stalled: string | undefined;
  readonly restsOn: string;
  readonly how: string;
  readonly oddities: string | undefined;
  readonly line: string;
}

export function progressWords(answer: Exclude<ProgressAnswer, undefined>, t: Localize, render: RenderText): ProgressWords {
  if (answer.kind === 'notEnough') {
    const restsOn = t('not enough history yet ({0} onboarded machines)', answer.machines);
    const how = t(
      'Progress is learned from the onboarded machines of this environment once at least {0} have onboarded; or name the steps in the onboardingEvents.steps setting.',
      MINIMUM_MACHINES,
    );
    return { step: restsOn, toGo: undefined, stalled: undefined, restsOn, how, oddities: undefined, line: restsOn };
  }
  const type = render(answer.type);
  const step = answer.step === 0 ? t('step ? of {0} · {1}', answer.of, type) : t('step {0} of {1} · {2}', answer.step, answer.of, type);
  const toGo =
    answer.timeToGo === undefined
      ? undefined
      : answer.timeToGo.highMs - answer.timeToGo.lowMs < 60_000
        ? t('usually {0} more', formatDuration(answer.timeToGo.highMs, t))
        : answer.timeToGo.highMs < 60 * 60_000
          ? t('usually {0}–{1} min more', Math.round(answer.timeToGo.lowMs / 60_000), Math.round(answer.timeToGo.highMs / 60_000))
          : t('usually {0}–{1} more', formatDuration(answer.timeToGo.lowMs, t), formatDuration(answer.timeToGo.highMs, t));
  const stalled =
    answer.stalled && answer.usuallyUnderMs !== undefined
      ? t('stalled: at it for {0}, usually under {1}', formatDuration(answer.atItForMs, t), formatDuration(answer.usuallyUnderMs, t))
      : undefined;
  const { restsOn, how } = restsOnWords(answer, t);
  const odd: string[] = [];
  if (answer.missing.length > 0) odd.push(t('missing: {0}', answer.missing.map((type) => render(type)).join(', ')));
  if (answer.outOfOrder.length > 0) odd.push(t('out of order: {0}', answer.outOfOrder.map((type) => render(type)).join(', ')));
  const oddities = odd.length === 0 ? undefined : odd.join('; ');
  const line = [stalled ?? step, stalled === undefined ? toGo : undefined].filter((part) => part !== undefined).join(' · ');
  return { step, toGo, stalled, restsOn, how, oddities, line };
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
          'The steps are the onboardingEvents.steps setting; a time the setting does not give is what this environment’s onboarded machines took.',
        )
      : t(
          'Learned from the {0} onboarded machines whose events are loaded: the usual order of their event types up to the outcome, each step’s median time and the time 90 % of them took at most.',
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
    formatDuration(progress.atItForMs, t),
    formatDuration(progress.usuallyUnderMs, t),
    t('from {0} onboarded machines', progress.machines),
  );
}
