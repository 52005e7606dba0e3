// One board row per machine: its state by the one mapping, its newest event, how long its onboarding
// took, and its events as timeline points. Pure: the host builds rows, the page sorts and draws them.
import type { EventsResult } from '../../client/model';
import { eventState, machineState, type EventState, type EventStateRules, type MachineState } from '../events/eventState';
import { serverTextData } from '../../common/serverText';
import type { ProgressAnswer, ProgressWords } from '../progress/machineProgress';
import type { LearnedSteps } from '../progress/lineHistory';

export type BoardState = MachineState | 'not-loaded';

export const BOARD_STATES: readonly BoardState[] = [
  'onboarded',
  'failed',
  'in-progress',
  'no-events',
  'unknown',
  'unavailable',
  'not-loaded',
];

/** One event on a lane: when, what state it says, its type (server text, drawn as text) and its key (to open its details). */
export interface TimelinePoint {
  readonly at: number;
  readonly state: EventState;
  readonly type: string;
  readonly key: string;
}

export interface RowProgress {
  /** False while the history is too short to say ("not enough history yet"): no step, no time to go. */
  readonly known: boolean;
  readonly step: number;
  readonly of: number;
  readonly stalled: boolean;
  /** No event for far longer than any onboarding of the line took: counted apart from the machines in progress, no time to go. */
  readonly abandoned: boolean;
  /** Time to go from the history: the likely remaining time and its 80 % range; null when unknown. */
  readonly toGoMs: number | null;
  readonly toGoLowMs: number | null;
  readonly toGoHighMs: number | null;
  readonly stepText: string;
  readonly toGoText: string | null;
  readonly stalledText: string | null;
  readonly abandonedText: string | null;
  /** The stall's rule with the share it measured, for a stalled machine; null otherwise. */
  readonly stallRule: string | null;
  /** What the history shows about the time to go (rework, a slower night, the kind it was learned from): one line each; null when nothing. */
  readonly why: string | null;
  readonly restsOn: string;
  readonly how: string;
  readonly oddities: string | null;
}

export function rowProgress(answer: Exclude<ProgressAnswer, undefined>, words: ProgressWords): RowProgress {
  const known = answer.kind === 'progress';
  return {
    known,
    step: known ? answer.step : 0,
    of: known ? answer.of : 0,
    stalled: known && answer.stalled,
    abandoned: known && answer.abandoned,
    toGoMs: known ? (answer.timeToGo?.ms ?? null) : null,
    toGoLowMs: known ? (answer.timeToGo?.lowMs ?? null) : null,
    toGoHighMs: known ? (answer.timeToGo?.highMs ?? null) : null,
    stepText: words.step,
    toGoText: words.toGo ?? null,
    stalledText: words.stalled ?? null,
    abandonedText: words.abandoned ?? null,
    stallRule: answer.kind === 'progress' && answer.stalled ? (words.stallRule ?? null) : null,
    why:
      [words.reasons, known && answer.source === 'learned' ? words.cohort : undefined].filter((part) => part !== undefined).join('\n') ||
      null,
    restsOn: words.restsOn,
    how: words.how,
    oddities: words.oddities ?? null,
  };
}

export interface UsualStep {
  readonly type: string;
  readonly medianMs: number | null;
  readonly p90Ms: number | null;
}

export function usualSteps(learned: LearnedSteps): UsualStep[] {
  if (learned.kind !== 'steps') return [];
  return learned.steps.map((step) => ({ type: serverTextData(step.type), medianMs: step.medianMs ?? null, p90Ms: step.p90Ms ?? null }));
}

export interface BoardRow {
  readonly serialNumber: string;
  readonly state: BoardState;
  readonly newestType: string | null;
  readonly newestAt: number | null;
  readonly firstAt: number | null;
  /** Completion (the first onboarded event) when there is one, else the newest event. */
  readonly endAt: number | null;
  readonly completed: boolean;
  readonly durationMs: number | null;
  readonly eventCount: number;
  /** Why the machine's request failed (shown for unavailable and unknown machines); null otherwise. */
  readonly error: string | null;
  readonly stale: boolean;
  readonly points: readonly TimelinePoint[];
  /** Index in `points` of the failing step (the newest failed event), -1 when none failed. */
  readonly failingPoint: number;
  readonly progress: RowProgress | null;
}

/** Points kept per lane: the newest ones. Enough for any onboarding; bounds the message a machine with 10,000 events makes. */
export const MAX_POINTS = 200;
export const MAX_ERROR_LENGTH = 300;

export interface BoardSource {
  readonly result?: EventsResult | undefined;
  readonly stale?: boolean | undefined;
  readonly errorKind?: string | undefined;
  readonly errorMessage?: string | undefined;
  readonly progress?: RowProgress | undefined;
}

function boundedError(message: string | undefined): string | null {
  if (message === undefined || message === '') return null;
  return message.length > MAX_ERROR_LENGTH ? `${message.slice(0, MAX_ERROR_LENGTH - 1)}…` : message;
}

export function boardRow(serialNumber: string, source: BoardSource, rules: EventStateRules): BoardRow {
  const { result } = source;
  const state: BoardState = machineState(source, rules) ?? 'not-loaded';
  const error = result === undefined ? boundedError(source.errorMessage) : null;
  // Nothing known yet. A result without events goes on below, which makes the same empty row from no points.
  if (result === undefined)
    return {
      serialNumber,
      state,
      newestType: null,
      newestAt: null,
      firstAt: null,
      endAt: null,
      completed: false,
      durationMs: null,
      eventCount: 0,
      error,
      stale: source.stale === true,
      points: [],
      failingPoint: -1,
      progress: null,
    };
  // Oldest first, whatever order the result came in (it should be newest first; a stray order must not change a duration).
  const ordered = [...result.events].sort((a, b) => a.time.epochMs - b.time.epochMs);
  const all = ordered.map((event) => ({
    at: event.time.epochMs,
    state: eventState(event, rules),
    type: serverTextData(event.type),
    key: event.key,
  }));
  const points = all.slice(-MAX_POINTS);
  const first = all[0];
  const newest = all[all.length - 1];
  const newestEvent = ordered[ordered.length - 1];
  const completion = all.find((point) => point.state === 'onboarded');
  let failingPoint = -1;
  points.forEach((point, i) => {
    if (point.state === 'failed') failingPoint = i;
  });
  const firstAt = first?.at ?? null;
  const endAt = completion?.at ?? newest?.at ?? null;
  return {
    serialNumber,
    state,
    newestType: newestEvent === undefined ? null : serverTextData(newestEvent.type),
    newestAt: newest?.at ?? null,
    firstAt,
    endAt,
    completed: completion !== undefined,
    durationMs: firstAt !== null && endAt !== null ? endAt - firstAt : null,
    eventCount: result.events.length,
    error,
    stale: source.stale === true,
    points,
    failingPoint,
    progress: state === 'in-progress' ? (source.progress ?? null) : null,
  };
}
