// What the board page and the host say to each other, validated on both sides: a compromised page
// names machines and events only by serial number and key, which the host looks up in what it showed.
import { isRecord } from '../../core/common/guards';
import {
  BOARD_STATES,
  MAX_ERROR_LENGTH,
  MAX_POINTS,
  type TimelinePoint,
  type BoardRow,
  type BoardState,
  type RowProgress,
  type UsualStep,
} from '../../core/domain/board/boardRows';
import { BOARD_COLUMNS, MAX_FILTER_TEXT, type BoardFilter, type BoardSort } from '../../core/domain/board/boardTable';
import type { SvgLook } from '../../core/domain/board/boardExport';

/** Machines on one board at most: bounds every message; a set naming more shows these and says how many it left off. */
export const MAX_ROWS = 10_000;
/** Longest serial number a message may carry (the matcher's own limit is lower). */
const MAX_SERIAL = 200;
/** Longest event type or key carried (validation already cuts types at 256). */
const MAX_TEXT = 1024;
/** A PNG the page renders: a 4,000 × 20,000 canvas compresses far below this. */
export const MAX_PNG_DATA_URL = 24 * 1024 * 1024;

/** Usual steps carried at most (the learner keeps at most 200 per machine; a line has a dozen). */
const MAX_USUAL_STEPS = 200;
/** Longest progress wording (a step, its oddities, how it was learned). */
const MAX_WORDS = 4096;

export interface UsualSteps {
  readonly steps: readonly UsualStep[];
  readonly restsOn: string;
  readonly how: string;
}

export type BoardSet =
  | { readonly kind: 'pinned' }
  | { readonly kind: 'workspace' }
  | { readonly kind: 'file'; readonly uri: string }
  | { readonly kind: 'serials'; readonly serialNumbers: readonly string[] };

export type SessionView = 'signed-in' | 'signed-out';

export interface BoardView {
  readonly title: string;
  readonly set: BoardSet;
  readonly session: SessionView;
  readonly rows: readonly BoardRow[];
  /** Machines of the set not loaded without asking (VisibleLoads' bounds): the page offers to load them. */
  readonly held: number;
  /** Machines the set names past MAX_ROWS, not on the board: the page says how many. */
  readonly beyond: number;
  readonly locale: string;
  readonly nowMs: number;
  readonly usual: UsualSteps | null;
}

export interface PersistedState {
  readonly version: 1;
  readonly set: BoardSet;
  readonly sort: BoardSort;
  readonly filter: BoardFilter;
}

/** Every user-visible string of the page, localised by the host (the page cannot call vscode.l10n). */
export const PAGE_STRING_KEYS = [
  'loading',
  'summaryNone',
  'summaryOne',
  'summaryMany',
  'summaryCount',
  'summarySeparator',
  'shownOf',
  'stateOnboarded',
  'stateFailed',
  'stateInProgress',
  'stateNoEvents',
  'stateUnknown',
  'stateUnavailable',
  'stateNotLoaded',
  'filterStates',
  'filterText',
  'filterPlaceholder',
  'columnSerialNumber',
  'columnState',
  'columnProgress',
  'columnToGo',
  'columnNewest',
  'columnAge',
  'columnDuration',
  'columnEvents',
  'columnError',
  'columnActions',
  'sortBy',
  'openDetails',
  'openDetailsAria',
  'reveal',
  'revealAria',
  'signedOut',
  'signIn',
  'held',
  'heldOne',
  'loadHeld',
  'beyond',
  'share',
  'exportCsv',
  'exportSvg',
  'exportPng',
  'copyMarkdown',
  'timeline',
  'timelineAria',
  'timelineHelp',
  'alignStarts',
  'zoomIn',
  'zoomOut',
  'zoomFit',
  'panLeft',
  'panRight',
  'table',
  'tableCaption',
  'noEvents',
  'completed',
  'notCompleted',
  'stale',
  'durationMs',
  'durationS',
  'durationMin',
  'durationH',
  'durationHMin',
  'durationOneDay',
  'durationDays',
  'durationOneDayH',
  'durationDaysH',
  'noMatch',
  'failingStep',
  'filterStalled',
  'stalled',
  'filterAbandoned',
  'abandoned',
  'progressShort',
  'usualSteps',
] as const;
export type PageStringKey = (typeof PAGE_STRING_KEYS)[number];
export type PageStrings = Readonly<Record<PageStringKey, string>>;

export type HostMessage =
  | { readonly type: 'show'; readonly board: BoardView; readonly strings: PageStrings }
  | { readonly type: 'status'; readonly message: string };

export type TableFormat = 'csv' | 'markdown';

export type PageMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'open-machine'; readonly serialNumber: string }
  | { readonly type: 'open-event'; readonly serialNumber: string; readonly key: string }
  | { readonly type: 'reveal'; readonly serialNumber: string }
  | { readonly type: 'sign-in' }
  | { readonly type: 'load-held' }
  /** The rows as shown (filtered, sorted): the host exports its own copy of each. */
  | { readonly type: 'export-table'; readonly format: TableFormat; readonly serialNumbers: readonly string[] }
  | {
      readonly type: 'export-svg';
      readonly serialNumbers: readonly string[];
      readonly from: number;
      readonly to: number;
      readonly aligned: boolean;
      readonly look: SvgLook;
    }
  /** The picture, with how many lanes it holds of the lanes shown (a canvas has a largest height). */
  | { readonly type: 'export-png'; readonly dataUrl: string; readonly lanes: number; readonly of: number };

// ---- validation (runs on both sides; no DOM, no vscode) ----

const isString = (v: unknown, max = MAX_TEXT): v is string => typeof v === 'string' && v.length <= max;
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isFiniteNumber = (v: unknown): v is number => Number.isFinite(v);
const isNullableNumber = (v: unknown): v is number | null => v === null || isFiniteNumber(v);
const isNullableString = (v: unknown, max = MAX_TEXT): v is string | null => v === null || isString(v, max);
const STATES: readonly unknown[] = BOARD_STATES;
const isBoardState = (v: unknown): v is BoardState => STATES.includes(v);
const isSerial = (v: unknown): v is string => isString(v, MAX_SERIAL) && v !== '';

function isSerials(value: unknown): value is readonly string[] {
  return Array.isArray(value) && value.length <= MAX_ROWS && value.every(isSerial);
}

function isTimelinePoint(value: unknown): value is TimelinePoint {
  return (
    isRecord(value) &&
    isFiniteNumber(value['at']) &&
    (value['state'] === 'onboarded' || value['state'] === 'failed' || value['state'] === 'in-progress') &&
    isString(value['type']) &&
    isString(value['key'])
  );
}

const isNullableWords = (v: unknown): v is string | null => isNullableString(v, MAX_WORDS);

function isRowProgress(value: unknown): value is RowProgress {
  return (
    isRecord(value) &&
    typeof value['known'] === 'boolean' &&
    isCount(value['step']) &&
    isCount(value['of']) &&
    value['step'] <= value['of'] &&
    typeof value['stalled'] === 'boolean' &&
    typeof value['abandoned'] === 'boolean' &&
    isNullableNumber(value['toGoMs']) &&
    isNullableNumber(value['toGoLowMs']) &&
    isNullableNumber(value['toGoHighMs']) &&
    isString(value['stepText'], MAX_WORDS) &&
    isNullableWords(value['toGoText']) &&
    isNullableWords(value['stalledText']) &&
    isNullableWords(value['abandonedText']) &&
    isNullableWords(value['stallRule']) &&
    isNullableWords(value['why']) &&
    isString(value['restsOn'], MAX_WORDS) &&
    isString(value['how'], MAX_WORDS) &&
    isNullableWords(value['oddities'])
  );
}

function isUsualSteps(value: unknown): value is UsualSteps {
  if (!isRecord(value)) return false;
  const steps = value['steps'];
  return (
    Array.isArray(steps) &&
    steps.length <= MAX_USUAL_STEPS &&
    steps.every(
      (step) => isRecord(step) && isString(step['type']) && isNullableNumber(step['medianMs']) && isNullableNumber(step['p90Ms']),
    ) &&
    isString(value['restsOn'], MAX_WORDS) &&
    isString(value['how'], MAX_WORDS)
  );
}

export function isBoardRow(value: unknown): value is BoardRow {
  if (!isRecord(value)) return false;
  const points = value['points'];
  return (
    (value['progress'] === null || isRowProgress(value['progress'])) &&
    isSerial(value['serialNumber']) &&
    isBoardState(value['state']) &&
    isNullableString(value['newestType']) &&
    isNullableNumber(value['newestAt']) &&
    isNullableNumber(value['firstAt']) &&
    isNullableNumber(value['endAt']) &&
    typeof value['completed'] === 'boolean' &&
    isNullableNumber(value['durationMs']) &&
    isCount(value['eventCount']) &&
    isNullableString(value['error'], MAX_ERROR_LENGTH) &&
    typeof value['stale'] === 'boolean' &&
    Array.isArray(points) &&
    points.length <= MAX_POINTS &&
    points.every(isTimelinePoint) &&
    typeof value['failingPoint'] === 'number' &&
    Number.isSafeInteger(value['failingPoint']) &&
    value['failingPoint'] >= -1 &&
    value['failingPoint'] < points.length
  );
}

export function isBoardSet(value: unknown): value is BoardSet {
  if (!isRecord(value)) return false;
  switch (value['kind']) {
    case 'pinned':
    case 'workspace':
      return true;
    case 'file':
      return isString(value['uri'], 4096) && value['uri'] !== '';
    case 'serials':
      return isSerials(value['serialNumbers']);
    default:
      return false;
  }
}

const COLUMNS: readonly unknown[] = BOARD_COLUMNS;

export function isSort(value: unknown): value is BoardSort {
  return isRecord(value) && COLUMNS.includes(value['column']) && typeof value['descending'] === 'boolean';
}

export function isFilter(value: unknown): value is BoardFilter {
  if (!isRecord(value)) return false;
  const states = value['states'];
  return (
    isString(value['text'], MAX_FILTER_TEXT) &&
    Array.isArray(states) &&
    states.length <= BOARD_STATES.length &&
    states.every(isBoardState) &&
    (value['stalled'] === undefined || typeof value['stalled'] === 'boolean') &&
    (value['abandoned'] === undefined || typeof value['abandoned'] === 'boolean')
  );
}

export function isPersistedState(value: unknown): value is PersistedState {
  return isRecord(value) && value['version'] === 1 && isBoardSet(value['set']) && isSort(value['sort']) && isFilter(value['filter']);
}

/** State names a page kept before they were kebab-cased: a panel VS Code restores still reads them. */
const KEPT_STATE_NAMES: Readonly<Record<string, BoardState>> = {
  inProgress: 'in-progress',
  noEvents: 'no-events',
  notLoaded: 'not-loaded',
};

/** What a page kept (its set, sort and filter), read with today's state names; undefined when it is not a board's. */
export function persistedState(value: unknown): PersistedState | undefined {
  const filter = isRecord(value) ? value['filter'] : undefined;
  if (isRecord(value) && isRecord(filter) && Array.isArray(filter['states'])) {
    const states = filter['states'].map((state: unknown) => (typeof state === 'string' ? (KEPT_STATE_NAMES[state] ?? state) : state));
    const renamed = { ...value, filter: { ...filter, states } };
    return isPersistedState(renamed) ? renamed : undefined;
  }
  return isPersistedState(value) ? value : undefined;
}

function isBoardView(value: unknown): value is BoardView {
  if (!isRecord(value)) return false;
  const rows = value['rows'];
  return (
    isString(value['title']) &&
    isBoardSet(value['set']) &&
    (value['session'] === 'signed-in' || value['session'] === 'signed-out') &&
    Array.isArray(rows) &&
    rows.length <= MAX_ROWS &&
    rows.every(isBoardRow) &&
    isCount(value['held']) &&
    isCount(value['beyond']) &&
    isString(value['locale'], 64) &&
    isFiniteNumber(value['nowMs']) &&
    (value['usual'] === null || isUsualSteps(value['usual']))
  );
}

export function isPageStrings(value: unknown): value is PageStrings {
  return isRecord(value) && PAGE_STRING_KEYS.every((key) => isString(value[key]));
}

export function isHostMessage(value: unknown): value is HostMessage {
  if (!isRecord(value)) return false;
  switch (value['type']) {
    case 'show':
      return isBoardView(value['board']) && isPageStrings(value['strings']);
    case 'status':
      return isString(value['message']);
    default:
      return false;
  }
}

function isSvgLook(value: unknown): value is SvgLook {
  if (!isRecord(value)) return false;
  const states = value['states'];
  return (
    isString(value['background'], 64) &&
    isString(value['foreground'], 64) &&
    isString(value['grid'], 64) &&
    isRecord(states) &&
    BOARD_STATES.every((state) => isString(states[state], 64))
  );
}

export function isPageMessage(value: unknown): value is PageMessage {
  if (!isRecord(value)) return false;
  switch (value['type']) {
    case 'ready':
    case 'sign-in':
    case 'load-held':
      return true;
    case 'open-machine':
    case 'reveal':
      return isSerial(value['serialNumber']);
    case 'open-event':
      return isSerial(value['serialNumber']) && isString(value['key']);
    case 'export-table':
      return (value['format'] === 'csv' || value['format'] === 'markdown') && isSerials(value['serialNumbers']);
    case 'export-svg':
      return (
        isSerials(value['serialNumbers']) &&
        isFiniteNumber(value['from']) &&
        isFiniteNumber(value['to']) &&
        value['to'] > value['from'] &&
        typeof value['aligned'] === 'boolean' &&
        isSvgLook(value['look'])
      );
    case 'export-png':
      return (
        isString(value['dataUrl'], MAX_PNG_DATA_URL) &&
        value['dataUrl'].startsWith('data:image/png;base64,') &&
        isCount(value['lanes']) &&
        isCount(value['of']) &&
        value['lanes'] <= value['of']
      );
    default:
      return false;
  }
}
