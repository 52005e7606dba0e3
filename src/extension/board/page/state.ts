// The page's state as one object a reader can see whole; the page's other modules keep none of their own.
import { plainLocalize, type Localize } from '../../../core/common/localize';
import { pageChannel } from '../../../core/common/page/dom';
import { formatDuration, safeLocale } from '../../../core/common/time';
import { BOARD_STATES, type BoardRow, type BoardState } from '../../../core/domain/board/boardRows';
import {
  DEFAULT_SORT,
  NO_FILTER,
  type BoardColumn,
  type RowSorter,
  type BoardFilter,
  type BoardSort,
} from '../../../core/domain/board/boardTable';
import {
  isHostMessage,
  persistedState,
  type BoardView,
  type HostMessage,
  type PageMessage,
  type PageStrings,
  type PersistedState,
} from '../protocol';
import type { TimelineColors } from './timeline';

export const channel = pageChannel<PageMessage, HostMessage>(isHostMessage);
export const { post } = channel;

/** A row of the board and the text the filter searches (made when a text filter first asks): no node until the row is drawn. */
export interface RowEntry {
  readonly row: BoardRow;
  haystack: string | undefined;
}

/** A row drawn in the table: its node and its buttons (open first). */
export interface DrawnRow {
  readonly tr: HTMLElement;
  readonly open: HTMLButtonElement;
  readonly buttons: readonly HTMLButtonElement[];
}

/** The table's one tab stop: a row's serial number and which of its buttons. */
export interface TabStop {
  readonly serialNumber: string;
  readonly button: number;
}

export interface Frame {
  readonly summary: HTMLElement;
  readonly shownCount: HTMLElement;
  readonly notices: HTMLElement;
  readonly stateButtons: Map<BoardState, HTMLButtonElement>;
  /** "Stalled": only the machines past their step's usual time. */
  readonly stalledButton: HTMLButtonElement;
  /** "Abandoned": only the machines silent far longer than any onboarding of their line took. */
  readonly abandonedButton: HTMLButtonElement;
  /** What the faint bands behind the lanes are, and what they rest on. */
  readonly usualNote: HTMLElement;
  readonly filterInput: HTMLInputElement;
  readonly headers: Map<BoardColumn, HTMLElement>;
  /** The table (role=table): its aria-rowcount counts every row, drawn or not. */
  readonly grid: HTMLElement;
  readonly tbody: HTMLElement;
  readonly noMatch: HTMLElement;
  readonly lanes: HTMLElement;
  readonly canvas: HTMLCanvasElement;
  readonly spacer: HTMLElement;
  readonly tooltip: HTMLElement;
  readonly alignButton: HTMLButtonElement;
}

/** A place on the timeline: lane index in `shown`, point index in that lane's points. */
export interface Spot {
  readonly lane: number;
  readonly point: number;
}

export interface BoardPageState {
  strings: PageStrings | undefined;
  board: BoardView | undefined;
  /** Every row of the board, in the sort's order. */
  rows: RowEntry[];
  /** The rows the filter lets through: the table's rows and the timeline's lanes. */
  shown: RowEntry[];
  /** The state words the filter's search text of this board's rows is made with. */
  words: Record<BoardState, string>;
  /** Sorts this board's rows (each text collated once per board). */
  sorter: RowSorter | undefined;
  /** The rows in the DOM: those in view and a screenful either side. */
  drawn: Map<BoardRow, DrawnRow>;
  /** A drawn row's height in CSS pixels, measured once per board and theme. */
  rowHeight: number | undefined;
  tabStop: TabStop | undefined;
  /** A drawing of the table's rows is asked for the next frame (the view scrolled). */
  rowsQueued: boolean;
  sort: BoardSort;
  filter: BoardFilter;
  /** The timeline's time range; undefined until it is fitted to the rows. */
  view: { from: number; to: number } | undefined;
  focus: Spot | undefined;
  hover: Spot | undefined;
  colors: TimelineColors | undefined;
  /** Lanes from each machine's first event; chosen per board when it first shows (prefersAligned), then the user's. */
  aligned: boolean;
  frame: Frame | undefined;
  drawQueued: boolean;
}

const saved = persistedState(channel.savedState);

export const page: BoardPageState = {
  strings: undefined,
  board: undefined,
  rows: [],
  shown: [],
  words: Object.fromEntries(BOARD_STATES.map((state) => [state, state])) as Record<BoardState, string>,
  sorter: undefined,
  drawn: new Map(),
  rowHeight: undefined,
  tabStop: undefined,
  rowsQueued: false,
  sort: saved?.sort ?? DEFAULT_SORT,
  filter: saved?.filter ?? NO_FILTER,
  view: undefined,
  focus: undefined,
  hover: undefined,
  colors: undefined,
  aligned: false,
  frame: undefined,
  drawQueued: false,
};

/** What the user chose survives a reload of the page (VS Code keeps it while the panel lives). */
export function persist(): void {
  if (!page.board) return;
  const state: PersistedState = { version: 1, set: page.board.set, sort: page.sort, filter: page.filter };
  channel.setState(state);
}

const STATE_STRING: Readonly<Record<BoardState, keyof PageStrings>> = {
  onboarded: 'stateOnboarded',
  failed: 'stateFailed',
  'in-progress': 'stateInProgress',
  'no-events': 'stateNoEvents',
  unknown: 'stateUnknown',
  unavailable: 'stateUnavailable',
  'not-loaded': 'stateNotLoaded',
};

export const pageString = (key: keyof PageStrings, ...args: (string | number)[]): string =>
  plainLocalize(page.strings?.[key] ?? key, ...args);
export const stateWord = (state: BoardState): string => pageString(STATE_STRING[state]);
export const stateWords = (): Record<BoardState, string> =>
  Object.fromEntries(BOARD_STATES.map((state) => [state, stateWord(state)])) as Record<BoardState, string>;
/** formatDuration's templates, each to the page string that carries its translation. */
const DURATION_STRING: Readonly<Record<string, keyof PageStrings>> = {
  '{0} ms': 'durationMs',
  '{0} s': 'durationS',
  '{0} min': 'durationMin',
  '{0} h': 'durationH',
  '{0} h {1} min': 'durationHMin',
  '1 day': 'durationOneDay',
  '{0} days': 'durationDays',
  '1 day {0} h': 'durationOneDayH',
  '{0} days {1} h': 'durationDaysH',
};
/** The host's vscode.l10n.t for durations, rebuilt from the page strings: the page cannot call it. */
export const durationLocalize: Localize = (message, ...args) => {
  const key = DURATION_STRING[message];
  return plainLocalize((key === undefined ? undefined : page.strings?.[key]) ?? message, ...args);
};
export const durationText = (ms: number): string => formatDuration(ms, durationLocalize);

const absoluteFormat = new Map<string, Intl.DateTimeFormat>();
/** In the board's locale (the page's lang before the first board); a tag Intl rejects reads in English, as everywhere else. */
export function absolute(epochMs: number): string {
  const locale = safeLocale(page.board?.locale ?? document.documentElement.lang);
  let format = absoluteFormat.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium' });
    absoluteFormat.set(locale, format);
  }
  return format.format(new Date(epochMs));
}
