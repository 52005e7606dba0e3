// The board's order, filter, summary line, time range and ticks. Pure and DOM-free: the page runs it
// on every keystroke, the host for exports.
import { BOARD_STATES, type BoardRow, type BoardState, type UsualStep } from './boardRows';
import type { Localize } from '../../common/localize';
import { formatDuration, safeLocale } from '../../common/time';

export const BOARD_COLUMNS = ['serialNumber', 'state', 'progress', 'toGo', 'newest', 'age', 'duration', 'events', 'error'] as const;
export type BoardColumn = (typeof BOARD_COLUMNS)[number];

export interface BoardSort {
  readonly column: BoardColumn;
  readonly descending: boolean;
}

export interface BoardFilter {
  readonly states: readonly BoardState[];
  /** Case-insensitive text looked for in the serial number, state word, newest event type and error. */
  readonly text: string;
  /** Only the stalled machines (in progress, past their step's usual time by a clear margin). Absent in a state kept before it existed. */
  readonly stalled?: boolean;
  /** Only the abandoned machines (in progress by their newest event, but silent far longer than any onboarding took). */
  readonly abandoned?: boolean;
}

export const DEFAULT_SORT: BoardSort = { column: 'serialNumber', descending: false };
export const NO_FILTER: BoardFilter = { states: [], text: '' };
export const MAX_FILTER_TEXT = 200;

/** State order when sorting by state: what needs attention first. */
const STATE_RANK: Readonly<Record<BoardState, number>> = {
  failed: 0,
  unavailable: 1,
  unknown: 2,
  'in-progress': 3,
  'no-events': 4,
  'not-loaded': 5,
  onboarded: 6,
};

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/**
 * The stalled first (they need someone), then the least far along; the abandoned and rows without
 * progress last, in either direction.
 */
function compareProgress(a: BoardRow, b: BoardRow, descending: boolean): number {
  const rank = (p: BoardRow['progress']): number => (p?.known !== true ? 2 : p.abandoned ? 1 : 0);
  const ra = rank(a.progress);
  const rb = rank(b.progress);
  const pa = a.progress;
  const pb = b.progress;
  if (ra !== rb || ra !== 0 || pa === null || pb === null) return ra - rb;
  const order = Number(pb.stalled) - Number(pa.stalled) || pa.step / Math.max(1, pa.of) - pb.step / Math.max(1, pb.of);
  return descending ? -order : order;
}

/** A text's place among the texts it is sorted with: equal under the collator, equal rank. */
function ranks(texts: Iterable<string>): Map<string, number> {
  const sorted = [...new Set(texts)].sort((a, b) => collator.compare(a, b));
  const rank = new Map<string, number>();
  let at = 0;
  sorted.forEach((text, i) => {
    const before = sorted[i - 1];
    if (before !== undefined && collator.compare(before, text) !== 0) at = i;
    rank.set(text, at);
  });
  return rank;
}

/**
 * Sorts one board's rows again and again: each text is collated once, when first sorted by, and every
 * sort compares numbers by row index (a collator's compare is the cost of a sort of thousands of rows).
 */
export class RowSorter {
  private readonly textRanks = new Map<'serialNumber' | 'newest' | 'error', Float64Array>();

  constructor(private readonly rows: readonly BoardRow[]) {}

  /** Each row's rank by a text column (NaN where it has none), collated on first use. */
  private rankOf(column: 'serialNumber' | 'newest' | 'error'): Float64Array {
    let byRow = this.textRanks.get(column);
    if (!byRow) {
      const read = TEXT_OF[column];
      const rank = ranks(this.rows.flatMap((row) => read(row) ?? []));
      byRow = Float64Array.from(this.rows, (row) => {
        const text = read(row);
        return text === null ? Number.NaN : (rank.get(text) ?? Number.NaN);
      });
      this.textRanks.set(column, byRow);
    }
    return byRow;
  }

  /** Each row's figure by a number column, NaN where it has none. */
  private figures(column: Exclude<BoardColumn, 'serialNumber' | 'progress'>): Float64Array {
    if (column === 'newest' || column === 'error') return this.rankOf(column);
    const read: (row: BoardRow) => number | null = {
      state: (row: BoardRow) => STATE_RANK[row.state],
      toGo: (row: BoardRow) => row.progress?.toGoMs ?? null,
      age: (row: BoardRow) => row.newestAt,
      duration: (row: BoardRow) => row.durationMs,
      events: (row: BoardRow) => row.eventCount,
    }[column];
    return Float64Array.from(this.rows, (row) => read(row) ?? Number.NaN);
  }

  /** The rows in the order of `sort`; ties keep serial-number order, so the order never depends on arrival. */
  sort(sort: BoardSort): BoardRow[] {
    const { column, descending } = sort;
    const { rows } = this;
    const serial = this.rankOf('serialNumber');
    let primary: (i: number, j: number) => number;
    if (column === 'serialNumber') primary = () => 0;
    else if (column === 'progress') primary = (i, j) => compareProgress(rows[i] as BoardRow, rows[j] as BoardRow, descending);
    else {
      const figure = this.figures(column);
      // Age ascending = newest event most recent first.
      const down = column === 'age' ? !descending : descending;
      primary = (i, j) => compareFigures(figure[i] as number, figure[j] as number, down);
    }
    const serialDown = column === 'serialNumber' && descending;
    const order = Array.from(rows, (_, i) => i);
    order.sort((i, j) => primary(i, j) || compareFigures(serial[i] as number, serial[j] as number, serialDown) || i - j);
    return order.map((i) => rows[i] as BoardRow);
  }
}

/** Nulls (NaN) last whatever the direction. */
function compareFigures(a: number, b: number, descending: boolean): number {
  const noA = Number.isNaN(a);
  const noB = Number.isNaN(b);
  if (noA || noB) return noA === noB ? 0 : noA ? 1 : -1;
  return descending ? b - a : a - b;
}

const TEXT_OF: Readonly<Record<'serialNumber' | 'newest' | 'error', (row: BoardRow) => string | null>> = {
  serialNumber: (row) => row.serialNumber,
  newest: (row) => row.newestType,
  error: (row) => row.error,
};

/** The rows in the order of `sort`; ties keep serial-number order, so the order never depends on arrival. */
export function sortRows(rows: readonly BoardRow[], sort: BoardSort): BoardRow[] {
  return new RowSorter(rows).sort(sort);
}

export function searchText(row: BoardRow, stateWords: Readonly<Record<BoardState, string>>): string {
  return [row.serialNumber, stateWords[row.state], row.newestType ?? '', row.error ?? '', row.progress?.stepText ?? '']
    .join('\n')
    .toLowerCase();
}

export interface CompiledFilter {
  readonly states: ReadonlySet<BoardState> | undefined;
  readonly needle: string;
  readonly stalled: boolean;
  readonly abandoned: boolean;
}

export function compileFilter(filter: BoardFilter): CompiledFilter {
  return {
    states: filter.states.length === 0 ? undefined : new Set(filter.states),
    needle: filter.text.slice(0, MAX_FILTER_TEXT).trim().toLowerCase(),
    stalled: filter.stalled === true,
    abandoned: filter.abandoned === true,
  };
}

export function rowMatches(row: Pick<BoardRow, 'state' | 'progress'>, haystack: string, filter: CompiledFilter): boolean {
  return (
    (filter.states === undefined || filter.states.has(row.state)) &&
    (!filter.stalled || row.progress?.stalled === true) &&
    (!filter.abandoned || row.progress?.abandoned === true) &&
    // No text passes every row: every string includes ''.
    haystack.includes(filter.needle)
  );
}

export function filterRows(rows: readonly BoardRow[], filter: BoardFilter, stateWords: Readonly<Record<BoardState, string>>): BoardRow[] {
  const compiled = compileFilter(filter);
  return rows.filter((row) => rowMatches(row, searchText(row, stateWords), compiled));
}

export function countStalled(rows: readonly Pick<BoardRow, 'progress'>[]): number {
  return rows.reduce((sum, row) => sum + (row.progress?.stalled === true ? 1 : 0), 0);
}

export function countAbandoned(rows: readonly Pick<BoardRow, 'progress'>[]): number {
  return rows.reduce((sum, row) => sum + (row.progress?.abandoned === true ? 1 : 0), 0);
}

/** A usual step on a lane: from when it usually starts to when it usually ends (medians summed from the machine's first event). */
export interface UsualBand {
  readonly index: number;
  readonly from: number;
  readonly to: number;
}

/**
 * The usual step durations behind a lane, the same on canvas and SVG: from the machine's first event,
 * laid end to end by the steps' medians.
 */
export function usualBands(row: Pick<BoardRow, 'firstAt'>, steps: readonly UsualStep[], aligned: boolean): UsualBand[] {
  if (row.firstAt === null) return [];
  let at = laneTime(row, row.firstAt, aligned);
  const bands: UsualBand[] = [];
  steps.forEach((step, index) => {
    if (index === 0 || step.medianMs === null) return;
    bands.push({ index, from: at, to: at + step.medianMs });
    at += step.medianMs;
  });
  return bands;
}

export type StateCounts = Readonly<Record<BoardState, number>>;

export function countStates(rows: readonly Pick<BoardRow, 'state'>[]): StateCounts {
  const counts = Object.fromEntries(BOARD_STATES.map((state) => [state, 0])) as Record<BoardState, number>;
  for (const row of rows) counts[row.state]++;
  return counts;
}

export interface SummaryWords {
  readonly states: Readonly<Record<BoardState, string>>;
  readonly none: string;
  readonly one: string;
  readonly many: string;
  readonly count: string;
  readonly separator: string;
  /** "abandoned": counted apart from the machines in progress. */
  readonly abandoned: string;
}

const fill = (template: string, ...values: string[]): string => template.replace(/\{(\d)\}/g, (all, i: string) => values[Number(i)] ?? all);

/**
 * "40 machines: 31 onboarded, 3 failed, 4 in progress, 1 abandoned, 1 unknown": empty states left out,
 * the abandoned counted apart right after those in progress.
 */
export function summaryText(counts: StateCounts, words: SummaryWords, locale = 'en', abandoned = 0): string {
  const total = BOARD_STATES.reduce((sum, state) => sum + counts[state], 0);
  if (total === 0) return words.none;
  const number = (n: number): string => n.toLocaleString(locale);
  const apart = Math.min(abandoned, counts['in-progress']);
  const parts = BOARD_STATES.flatMap((state) => {
    const count = state === 'in-progress' ? counts[state] - apart : counts[state];
    const part = count > 0 ? [fill(words.count, number(count), words.states[state])] : [];
    return state === 'in-progress' && apart > 0 ? [...part, fill(words.count, number(apart), words.abandoned)] : part;
  });
  const list = parts.join(words.separator);
  return total === 1 ? fill(words.one, list) : fill(words.many, number(total), list);
}

/** With the lanes aligned, the time since the machine's first event, so onboardings months apart compare step by step. */
export function laneTime(row: Pick<BoardRow, 'firstAt'>, at: number, aligned: boolean): number {
  return aligned ? at - (row.firstAt ?? at) : at;
}

/** When the onboardings lie far apart compared with how long each took: on a shared axis each would be a dot. */
export function prefersAligned(rows: readonly BoardRow[]): boolean {
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  let longest = 0;
  for (const row of rows) {
    if (row.firstAt === null || row.points.length < 2) continue;
    first = Math.min(first, row.firstAt);
    last = Math.max(last, row.firstAt);
    longest = Math.max(longest, (row.points[row.points.length - 1]?.at ?? row.firstAt) - row.firstAt);
  }
  return longest > 0 && last - first > 10 * longest;
}

/**
 * For a machine still in progress, the time since its newest event is part of its onboarding: a stall
 * reads as a long open segment.
 */
export function laneEnd(row: Pick<BoardRow, 'state' | 'endAt'>, nowMs: number): number | null {
  if (row.endAt === null) return null;
  return row.state === 'in-progress' ? Math.max(row.endAt, nowMs) : row.endAt;
}

/** All points (and, given `nowMs`, the open lanes but the abandoned), widened so no point is on the edge. */
export function timeRange(
  rows: readonly BoardRow[],
  aligned = false,
  nowMs?: number,
): { readonly from: number; readonly to: number } | undefined {
  let from = Number.POSITIVE_INFINITY;
  let to = Number.NEGATIVE_INFINITY;
  for (const row of rows) {
    for (const point of row.points) {
      const at = laneTime(row, point.at, aligned);
      if (at < from) from = at;
      if (at > to) to = at;
    }
    // Not an abandoned machine's months-long lane: it would squeeze every other lane into a dot (it runs on off the edge).
    const end = nowMs === undefined || row.points.length === 0 || row.progress?.abandoned === true ? null : laneEnd(row, nowMs);
    if (end !== null) to = Math.max(to, laneTime(row, end, aligned));
  }
  if (!Number.isFinite(from) || !Number.isFinite(to)) return undefined;
  const pad = Math.max((to - from) * 0.03, 60_000);
  return { from: from - pad, to: to + pad };
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const TICK_STEPS = [
  SECOND,
  5 * SECOND,
  15 * SECOND,
  30 * SECOND,
  MINUTE,
  5 * MINUTE,
  15 * MINUTE,
  30 * MINUTE,
  HOUR,
  3 * HOUR,
  6 * HOUR,
  12 * HOUR,
  DAY,
  2 * DAY,
  7 * DAY,
  30 * DAY,
  90 * DAY,
  365 * DAY,
];

export function timeTicks(from: number, to: number, maxTicks: number): { readonly step: number; readonly ticks: number[] } {
  const span = Math.max(1, to - from);
  const wanted = span / Math.max(1, maxTicks);
  const step = TICK_STEPS.find((s) => s >= wanted) ?? Math.ceil(wanted / (365 * DAY)) * 365 * DAY;
  const ticks: number[] = [];
  for (let t = Math.ceil(from / step) * step; t <= to && ticks.length <= maxTicks * 2; t += step) ticks.push(t);
  return { step, ticks };
}

/**
 * The same on canvas and in SVG: with aligned starts "+12 min", else the time of day or, for steps of
 * a day or more, the date, in the user's locale.
 */
export function axisLabel(
  tick: number,
  step: number,
  axis: { readonly aligned: boolean; readonly locale: string; readonly t: Localize | undefined },
): string {
  if (axis.aligned) return tick === 0 ? '0' : `${tick < 0 ? '−' : '+'}${formatDuration(Math.abs(tick), axis.t)}`;
  // A format per label: a kept one outlived the locale and the step it was made for.
  const options: Intl.DateTimeFormatOptions =
    step < 60_000
      ? { hour: '2-digit', minute: '2-digit', second: '2-digit' }
      : step < 86_400_000
        ? { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' }
        : { year: 'numeric', month: 'short', day: 'numeric' };
  // safeLocale: a tag Intl rejects (a workspace cannot set it, but VS Code's language can be anything) reads in English.
  return new Intl.DateTimeFormat(safeLocale(axis.locale), options).format(new Date(tick));
}
