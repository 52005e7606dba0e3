// The onboarding board page, bundled by esbuild into media/board/board.js.
// A table (the screen-reader view, and the keyboard's) and a timeline drawn on
// a canvas. Every node is built with createElement and filled with
// textContent: rows carry server text, and none of it is ever parsed as HTML.
// The table's rows are built once per update from the host; a filter or a
// sort only hides or moves them (a filter of 1,000 rows stays well under a
// frame). The timeline draws only the lanes in view.
import { plainLocalize } from '../../common/localize';
import { displayText } from '../../common/notificationText';
import { formatRelative, safeLocale } from '../../common/time';
import { BOARD_STATES, type BoardMark, type BoardRow, type BoardState } from '../../domain/board/boardRows';
import {
  compileFilter,
  countStates,
  DEFAULT_SORT,
  durationText,
  MAX_FILTER_TEXT,
  NO_FILTER,
  rowMatches,
  searchText,
  sortRows,
  summaryText,
  laneTime,
  prefersAligned,
  timeRange,
  type BoardColumn,
  type BoardFilter,
  type BoardSort,
  type DurationUnits,
} from '../../domain/board/boardTable';
import type { SvgLook } from '../../domain/board/boardExport';
import { AXIS_HEIGHT, drawTimeline, hitTest, LABEL_WIDTH, LANE_HEIGHT, xOf, type TimelineColors, type TimelineFrame } from './timeline';
import {
  isHostMessage,
  isPersistedState,
  type BoardView,
  type PageMessage,
  type PageStrings,
  type PersistedState,
  type RenderedReport,
} from '../protocol';

interface VsCodeApi {
  postMessage(message: PageMessage): void;
  setState(state: unknown): void;
  getState(): unknown;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const post = (message: PageMessage): void => {
  vscode.postMessage(message);
};

/** The codicon of each state, the same as the tree's (eventState.ts STATE_LOOKS) plus one for "not loaded". */
const STATE_ICONS: Readonly<Record<BoardState, string>> = {
  onboarded: 'pass',
  failed: 'error',
  inProgress: 'sync',
  noEvents: 'circle-large-outline',
  unknown: 'question',
  unavailable: 'warning',
  notLoaded: 'loading',
};
/** The theme colour of each state, the same ids as STATE_LOOKS, as webview variables. */
const STATE_COLOR_VARS: Readonly<Record<BoardState, string>> = {
  onboarded: '--vscode-testing-iconPassed',
  failed: '--vscode-list-errorForeground',
  inProgress: '--vscode-charts-blue',
  noEvents: '--vscode-descriptionForeground',
  unknown: '--vscode-list-warningForeground',
  unavailable: '--vscode-list-warningForeground',
  notLoaded: '--vscode-descriptionForeground',
};
const STATE_STRING: Readonly<Record<BoardState, keyof PageStrings>> = {
  onboarded: 'stateOnboarded',
  failed: 'stateFailed',
  inProgress: 'stateInProgress',
  noEvents: 'stateNoEvents',
  unknown: 'stateUnknown',
  unavailable: 'stateUnavailable',
  notLoaded: 'stateNotLoaded',
};
const COLUMN_STRING: Readonly<Record<BoardColumn, keyof PageStrings>> = {
  serialNumber: 'columnSerialNumber',
  state: 'columnState',
  newest: 'columnNewest',
  age: 'columnAge',
  duration: 'columnDuration',
  events: 'columnEvents',
  error: 'columnError',
};
const SORTABLE: readonly BoardColumn[] = ['serialNumber', 'state', 'newest', 'age', 'duration', 'events', 'error'];
/** Lanes a PNG holds at most: a canvas taller than ~32,000 px is refused by the browser. */
const MAX_PNG_LANES = 1500;

type Attrs = Readonly<Record<string, string>>;

/** The only way this page creates content: text nodes, never markup. */
function el<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string, attrs: Attrs = {}): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  return node;
}

function icon(name: string, className = ''): HTMLSpanElement {
  return el('span', `codicon codicon-${name} ${className}`.trim(), undefined, { 'aria-hidden': 'true' });
}

function button(
  label: string,
  iconName: string,
  onClick: () => void,
  options: { aria?: string; iconOnly?: boolean } = {},
): HTMLButtonElement {
  const b = el('button', options.iconOnly ? 'icon-button' : 'secondary', undefined, { type: 'button' });
  b.append(icon(iconName));
  if (options.iconOnly) {
    b.setAttribute('aria-label', options.aria ?? label);
    b.title = label;
  } else {
    b.append(el('span', undefined, label));
    if (options.aria !== undefined) b.setAttribute('aria-label', options.aria);
  }
  b.addEventListener('click', onClick);
  return b;
}

function announce(message: string): void {
  const status = document.getElementById('status');
  if (!status) return;
  // Cleared first so the same message twice is read out twice.
  status.textContent = '';
  setTimeout(() => (status.textContent = message), 50);
}

// ---- state ----

interface RowUi {
  readonly row: BoardRow;
  readonly tr: HTMLElement;
  readonly open: HTMLButtonElement;
  readonly haystack: string;
}

let strings: PageStrings | undefined;
let board: BoardView | undefined;
let rowUis: RowUi[] = [];
/** Shown rows (filtered, in sort order): the table's visible rows and the timeline's lanes. */
let shown: RowUi[] = [];
const saved = vscode.getState();
let sort: BoardSort = isPersistedState(saved) ? saved.sort : DEFAULT_SORT;
let filter: BoardFilter = isPersistedState(saved) ? saved.filter : NO_FILTER;
let view: { from: number; to: number } | undefined;
/** The keyboard's place on the timeline: lane index in `shown`, mark index in that lane's marks. */
let focus: { lane: number; mark: number } | undefined;
let hover: { lane: number; mark: number } | undefined;
let colors: TimelineColors | undefined;
/** Lanes from each machine's first event; chosen per board when it first shows (prefersAligned), then the user's. */
let aligned = false;
let alignButton: HTMLButtonElement | undefined;

const s = (key: keyof PageStrings, ...args: (string | number)[]): string => plainLocalize(strings?.[key] ?? key, ...args);
const stateWord = (state: BoardState): string => s(STATE_STRING[state]);
const stateWords = (): Record<BoardState, string> =>
  Object.fromEntries(BOARD_STATES.map((state) => [state, stateWord(state)])) as Record<BoardState, string>;
const units = (): DurationUnits => ({ s: s('durationS'), min: s('durationMin'), h: s('durationH'), d: s('durationD') });

function persist(): void {
  if (!board) return;
  const state: PersistedState = { version: 1, set: board.set, sort, filter };
  vscode.setState(state);
}

// ---- the page's frame, built once per show ----

interface Frame {
  readonly summary: HTMLElement;
  readonly shownCount: HTMLElement;
  readonly notices: HTMLElement;
  readonly stateButtons: Map<BoardState, HTMLButtonElement>;
  readonly filterInput: HTMLInputElement;
  readonly headers: Map<BoardColumn, HTMLElement>;
  readonly tbody: HTMLElement;
  readonly noMatch: HTMLElement;
  readonly lanes: HTMLElement;
  readonly canvas: HTMLCanvasElement;
  readonly spacer: HTMLElement;
  readonly tooltip: HTMLElement;
}
let frame: Frame | undefined;

function buildFrame(root: HTMLElement): Frame {
  root.replaceChildren();
  const header = el('header', 'board-header');
  const title = el('h1', undefined, board?.title ?? '');
  const summary = el('p', 'summary', '', { id: 'summary' });
  const notices = el('div', 'notices');
  header.append(title, summary, notices);

  const tools = el('div', 'tools');
  const states = el('div', 'state-filter', undefined, { role: 'group', 'aria-label': s('filterStates') });
  const stateButtons = new Map<BoardState, HTMLButtonElement>();
  for (const state of BOARD_STATES) {
    const b = el('button', `state-toggle state-${state}`, undefined, { type: 'button', 'aria-pressed': 'false' });
    b.append(icon(STATE_ICONS[state], 'state-icon'), el('span', 'word', stateWord(state)), el('span', 'count', '0'));
    b.addEventListener('click', () => {
      const set = new Set(filter.states);
      if (set.has(state)) set.delete(state);
      else set.add(state);
      setFilter({ ...filter, states: BOARD_STATES.filter((x) => set.has(x)) });
    });
    stateButtons.set(state, b);
    states.append(b);
  }
  const search = el('div', 'search');
  const filterInput = el('input', undefined, undefined, {
    id: 'filter',
    type: 'search',
    placeholder: s('filterPlaceholder'),
    maxlength: String(MAX_FILTER_TEXT),
  });
  filterInput.value = filter.text;
  filterInput.addEventListener('input', () => {
    setFilter({ ...filter, text: filterInput.value });
  });
  search.append(el('label', 'visually-hidden', s('filterText'), { for: 'filter' }), icon('filter'), filterInput);
  const shownCount = el('span', 'shown', '', { 'aria-live': 'polite' });
  const exports = el('div', 'exports', undefined, { role: 'group', 'aria-label': s('share') });
  exports.append(
    button(s('exportCsv'), 'table', () => {
      post({ type: 'exportTable', format: 'csv', serialNumbers: shown.map((u) => u.row.serialNumber) });
    }),
    button(s('copyMarkdown'), 'markdown', () => {
      post({ type: 'exportTable', format: 'markdown', serialNumbers: shown.map((u) => u.row.serialNumber) });
    }),
    button(s('exportSvg'), 'graph-line', exportSvg),
    button(s('exportPng'), 'file-media', exportPng),
  );
  tools.append(states, search, shownCount, exports);

  // ---- timeline ----
  const timeline = el('section', 'timeline', undefined, { 'aria-labelledby': 'timeline-heading' });
  const timelineHead = el('div', 'section-head');
  const controls = el('div', 'timeline-controls', undefined, { role: 'group', 'aria-label': s('timeline') });
  alignButton = button(
    s('alignStarts'),
    'list-flat',
    () => {
      setAligned(!aligned);
    },
    { iconOnly: true },
  );
  controls.append(
    alignButton,
    button(
      s('zoomIn'),
      'zoom-in',
      () => {
        zoom(0.5);
      },
      { iconOnly: true },
    ),
    button(
      s('zoomOut'),
      'zoom-out',
      () => {
        zoom(2);
      },
      { iconOnly: true },
    ),
    button(s('zoomFit'), 'screen-full', fit, { iconOnly: true }),
    button(
      s('panLeft'),
      'arrow-left',
      () => {
        pan(-0.25);
      },
      { iconOnly: true },
    ),
    button(
      s('panRight'),
      'arrow-right',
      () => {
        pan(0.25);
      },
      { iconOnly: true },
    ),
  );
  timelineHead.append(el('h2', undefined, s('timeline'), { id: 'timeline-heading' }), controls);
  const help = el('p', 'help', s('timelineHelp'), { id: 'timeline-help' });
  const lanes = el('div', 'lanes');
  const canvas = el('canvas', undefined, undefined, {
    tabindex: '0',
    role: 'application',
    'aria-roledescription': s('timeline'),
    'aria-label': s('timelineAria'),
    'aria-describedby': 'timeline-help',
  });
  const spacer = el('div', 'spacer');
  const tooltip = el('div', 'tooltip', undefined, { role: 'tooltip', id: 'timeline-tooltip' });
  tooltip.hidden = true;
  lanes.append(canvas, spacer);
  timeline.append(timelineHead, help, lanes, tooltip);
  wireTimeline(lanes, canvas);

  // ---- table ----
  const tableSection = el('section', 'table', undefined, { 'aria-labelledby': 'table-heading' });
  // An ARIA table of grid rows rather than <table>: each row skips layout and
  // paint while off screen (content-visibility), so 1,000 rows lay out like 30,
  // and stay in the accessibility tree for screen readers.
  const table = el('div', 'grid', undefined, { role: 'table', 'aria-labelledby': 'table-heading', 'aria-describedby': 'table-caption' });
  const thead = el('div', 'head', undefined, { role: 'rowgroup' });
  const headRow = el('div', 'row', undefined, { role: 'row' });
  const headers = new Map<BoardColumn, HTMLElement>();
  for (const column of SORTABLE) {
    const th = el('div', `cell col-${column}`, undefined, { role: 'columnheader' });
    const b = el('button', 'sort', undefined, { type: 'button', title: s('sortBy', s(COLUMN_STRING[column])) });
    b.append(el('span', undefined, s(COLUMN_STRING[column])), icon('arrow-down', 'sort-icon'));
    b.addEventListener('click', () => {
      setSort({ column, descending: sort.column === column ? !sort.descending : false });
    });
    th.append(b);
    headers.set(column, th);
    headRow.append(th);
  }
  headRow.append(el('div', 'cell col-actions', s('columnActions'), { role: 'columnheader' }));
  thead.append(headRow);
  const tbody = el('div', 'body', undefined, { role: 'rowgroup' });
  tbody.addEventListener('keydown', tableKeys);
  table.append(thead, tbody);
  const noMatch = el('p', 'no-match', s('noMatch'));
  noMatch.hidden = true;
  tableSection.append(
    el('h2', undefined, s('table'), { id: 'table-heading' }),
    el('p', 'visually-hidden', s('tableCaption'), { id: 'table-caption' }),
    table,
    noMatch,
  );

  root.append(header, tools, timeline, tableSection);
  return { summary, shownCount, notices, stateButtons, filterInput, headers, tbody, noMatch, lanes, canvas, spacer, tooltip };
}

// ---- table ----

const absoluteFormat = new Map<string, Intl.DateTimeFormat>();
/** In the board's locale (the page's lang before the first board); a tag Intl rejects reads in English, as everywhere else. */
function absolute(epochMs: number): string {
  const locale = safeLocale(board?.locale ?? document.documentElement.lang);
  let format = absoluteFormat.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium' });
    absoluteFormat.set(locale, format);
  }
  return format.format(new Date(epochMs));
}

const CELL: Attrs = { role: 'cell' };

function buildRow(row: BoardRow, words: Record<BoardState, string>): RowUi {
  const tr = el('div', `row state-${row.state}`, undefined, { role: 'row' });
  const serialCell = el('div', 'cell col-serialNumber', undefined, { role: 'rowheader' });
  const open = el('button', 'link', row.serialNumber, {
    type: 'button',
    'aria-label': s('openDetailsAria', row.serialNumber),
    title: s('openDetails'),
  });
  open.tabIndex = -1;
  open.addEventListener('click', () => {
    post({ type: 'openMachine', serialNumber: row.serialNumber });
  });
  serialCell.append(open);
  const stateCell = el('div', 'cell col-state', undefined, CELL);
  stateCell.append(icon(STATE_ICONS[row.state], `state-icon state-${row.state}`), el('span', undefined, words[row.state]));
  // Server text (a row carries it as data, for the CSV export): shown as text with bidi and control characters as "�".
  const newest = el('div', 'cell col-newest', displayText(row.newestType ?? ''), CELL);
  if (row.newestType !== null) newest.title = displayText(row.newestType);
  if (row.stale) newest.append(el('span', 'stale', ` (${s('stale')})`));
  const age = el('div', 'cell col-age', undefined, CELL);
  if (row.newestAt !== null && board) {
    age.textContent = formatRelative(row.newestAt, board.nowMs, board.locale, 'short') ?? '';
    age.title = absolute(row.newestAt);
  }
  const duration = el('div', 'cell col-duration', undefined, CELL);
  if (row.durationMs !== null) {
    duration.textContent = durationText(row.durationMs, units());
    duration.title = row.completed ? s('completed') : s('notCompleted');
  }
  const events = el('div', 'cell col-events', String(row.eventCount), CELL);
  const error = el('div', 'cell col-error', row.error ?? '', CELL);
  const actions = el('div', 'cell col-actions', undefined, CELL);
  const reveal = button(
    s('reveal'),
    'list-tree',
    () => {
      post({ type: 'reveal', serialNumber: row.serialNumber });
    },
    { iconOnly: true, aria: s('revealAria', row.serialNumber) },
  );
  reveal.tabIndex = -1;
  actions.append(reveal);
  tr.append(serialCell, stateCell, newest, age, duration, events, error, actions);
  return { row, tr, open, haystack: searchText(row, words) };
}

/** Arrow keys move between rows (one tab stop for the whole table, as in a grid); Enter on a row's button opens it. */
function tableKeys(event: KeyboardEvent): void {
  const target = event.target;
  if (!(target instanceof HTMLElement)) return;
  const tr = target.closest('[role=row]');
  const index = shown.findIndex((u) => u.tr === tr);
  if (index < 0) return;
  const inRow: HTMLButtonElement[] = tr ? Array.from(tr.querySelectorAll('button')) : [];
  const column = inRow.indexOf(target as HTMLButtonElement);
  let next = index;
  switch (event.key) {
    case 'ArrowDown':
      next = Math.min(shown.length - 1, index + 1);
      break;
    case 'ArrowUp':
      next = Math.max(0, index - 1);
      break;
    case 'Home':
      next = 0;
      break;
    case 'End':
      next = shown.length - 1;
      break;
    case 'PageDown':
      next = Math.min(shown.length - 1, index + 10);
      break;
    case 'PageUp':
      next = Math.max(0, index - 10);
      break;
    case 'ArrowRight':
    case 'ArrowLeft': {
      const to = inRow[column + (event.key === 'ArrowRight' ? 1 : -1)];
      if (to) moveFocus(target, to);
      event.preventDefault();
      return;
    }
    default:
      return;
  }
  event.preventDefault();
  const to = shown[next];
  if (to) {
    moveFocus(target, to.open);
    to.tr.scrollIntoView({ block: 'nearest' });
  }
}

/** Roving tab stop: the focused button is the table's one stop. */
function moveFocus(from: HTMLElement, to: HTMLElement): void {
  from.tabIndex = -1;
  to.tabIndex = 0;
  to.focus();
}

function setSort(next: BoardSort): void {
  const started = performance.now();
  sort = next;
  applyOrder();
  persist();
  const header = frame?.headers.get(sort.column)?.textContent ?? '';
  announce(header);
  report('sort', started);
}

function setFilter(next: BoardFilter): void {
  const started = performance.now();
  filter = next;
  applyFilter();
  persist();
  report('filter', started);
}

/** Puts the rows in sort order (moving the existing rows), then filters. */
function applyOrder(): void {
  if (!frame) return;
  const byRow = new Map(rowUis.map((u) => [u.row, u]));
  rowUis = sortRows(
    rowUis.map((u) => u.row),
    sort,
  ).flatMap((row) => byRow.get(row) ?? []);
  const fragment = document.createDocumentFragment();
  for (const u of rowUis) fragment.append(u.tr);
  frame.tbody.append(fragment);
  for (const [column, th] of frame.headers) {
    th.setAttribute('aria-sort', column === sort.column ? (sort.descending ? 'descending' : 'ascending') : 'none');
    th.classList.toggle('sorted', column === sort.column);
    th.classList.toggle('descending', column === sort.column && sort.descending);
  }
  applyFilter();
}

/** Hides what the filter leaves out; the timeline's lanes follow the table's rows. */
function applyFilter(): void {
  if (!frame) return;
  const compiled = compileFilter(filter);
  shown = [];
  for (const u of rowUis) {
    const match = rowMatches(u.row.state, u.haystack, compiled);
    if (u.tr.hidden === match) u.tr.hidden = !match;
    if (match) shown.push(u);
  }
  // One tab stop in the table: the first shown row's button unless a shown one already holds it.
  const stop = shown.find((u) => u.open.tabIndex === 0) ?? shown[0];
  for (const u of rowUis) if (u !== stop && u.open.tabIndex === 0) u.open.tabIndex = -1;
  if (stop) stop.open.tabIndex = 0;
  for (const [state, b] of frame.stateButtons) b.setAttribute('aria-pressed', String(filter.states.includes(state)));
  frame.shownCount.textContent = s('shownOf', shown.length, rowUis.length);
  frame.noMatch.hidden = shown.length > 0 || rowUis.length === 0;
  focus = undefined;
  hover = undefined;
  if (!view) fit();
  layoutTimeline();
}

// ---- timeline ----

function readColors(): TimelineColors {
  const style = getComputedStyle(document.documentElement);
  const read = (name: string, fallback: string): string => style.getPropertyValue(name).trim() || fallback;
  const foreground = read('--vscode-foreground', '#cccccc');
  return {
    background: read('--vscode-editor-background', '#1e1e1e'),
    foreground,
    muted: read('--vscode-descriptionForeground', foreground),
    grid: read('--vscode-editorWidget-border', read('--vscode-panel-border', '#80808059')),
    focus: read('--vscode-focusBorder', '#007fd4'),
    hoverBackground: read('--vscode-list-hoverBackground', 'transparent'),
    font: `${read('--vscode-font-size', '13px')} ${read('--vscode-font-family', 'sans-serif')}`,
    states: Object.fromEntries(BOARD_STATES.map((state) => [state, read(STATE_COLOR_VARS[state], foreground)])) as Record<
      BoardState,
      string
    >,
  };
}

function setAligned(value: boolean): void {
  aligned = value;
  alignButton?.setAttribute('aria-pressed', String(aligned));
  alignButton?.classList.toggle('pressed', aligned);
  fit();
}

function fit(): void {
  const range = timeRange(
    shown.map((u) => u.row),
    aligned,
  );
  view = range ? { from: range.from, to: range.to } : undefined;
  draw();
}

function zoom(factor: number, anchor = 0.5): void {
  if (!view) return;
  const span = view.to - view.from;
  const next = Math.min(Math.max(span * factor, 1000), 50 * 365 * 86_400_000);
  const at = view.from + span * anchor;
  view = { from: at - next * anchor, to: at + next * (1 - anchor) };
  draw();
}

function pan(fraction: number): void {
  if (!view) return;
  const delta = (view.to - view.from) * fraction;
  view = { from: view.from + delta, to: view.to + delta };
  draw();
}

let lanesDrawn = 0;
/** Sizes the canvas to the lane area and the spacer to all lanes, then draws. */
function layoutTimeline(): void {
  if (!frame) return;
  const { lanes, canvas, spacer } = frame;
  const width = Math.max(200, lanes.clientWidth);
  // As tall as the lanes need, up to the box's max-height (38% of the view): a line of 8 takes 8 lanes, not a third of the screen.
  const room = Number.parseFloat(getComputedStyle(lanes).maxHeight) || 320;
  const height = Math.max(AXIS_HEIGHT + LANE_HEIGHT, Math.min(room, AXIS_HEIGHT + shown.length * LANE_HEIGHT));
  const ratio = window.devicePixelRatio || 1;
  if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
    canvas.style.width = `${width}px`;
    canvas.style.height = `${height}px`;
  }
  spacer.style.height = `${Math.max(0, AXIS_HEIGHT + shown.length * LANE_HEIGHT - height)}px`;
  draw();
}

let drawQueued = false;
function draw(): void {
  if (drawQueued) return;
  drawQueued = true;
  requestAnimationFrame(flushDraw);
}

/** Draws now what a draw() asked for (a render's report then includes the canvas). */
function flushDraw(): void {
  if (!drawQueued) return;
  drawQueued = false;
  drawNow();
}

function timelineFrame(): TimelineFrame | undefined {
  if (!frame || !view || !colors || !board) return undefined;
  const ratio = window.devicePixelRatio || 1;
  return {
    width: frame.canvas.width / ratio,
    height: frame.canvas.height / ratio,
    ratio,
    scrollTop: frame.lanes.scrollTop,
    from: view.from,
    to: view.to,
    locale: board.locale,
    colors,
    rows: shown.map((u) => u.row),
    focus,
    hover,
    stateWords: stateWords(),
    aligned,
    units: units(),
  };
}

function drawNow(): void {
  if (!frame) return;
  const context = frame.canvas.getContext('2d');
  const f = timelineFrame();
  if (!context || !f) {
    context?.clearRect(0, 0, frame.canvas.width, frame.canvas.height);
    lanesDrawn = 0;
    return;
  }
  lanesDrawn = drawTimeline(context, f);
}

function markAt(lane: number, mark: number): { row: BoardRow; mark: BoardMark } | undefined {
  const row = shown[lane]?.row;
  const m = row?.marks[mark];
  return row && m ? { row, mark: m } : undefined;
}

function describe(row: BoardRow, mark: BoardMark, index: number): string {
  const parts = [row.serialNumber, displayText(mark.type), absolute(mark.at), stateWord(mark.state)];
  if (index === row.failingMark) parts.push(s('failingStep'));
  return parts.join(' · ');
}

function showTooltip(lane: number, mark: number, x: number, y: number): void {
  if (!frame) return;
  const found = markAt(lane, mark);
  if (!found) {
    frame.tooltip.hidden = true;
    return;
  }
  frame.tooltip.textContent = describe(found.row, found.mark, mark);
  frame.tooltip.hidden = false;
  const box = frame.lanes.getBoundingClientRect();
  const section = frame.lanes.parentElement?.getBoundingClientRect() ?? box;
  frame.tooltip.style.left = `${Math.min(box.left - section.left + x + 12, box.width - 260)}px`;
  frame.tooltip.style.top = `${box.top - section.top + y + 14}px`;
}

function wireTimeline(lanes: HTMLElement, canvas: HTMLCanvasElement): void {
  lanes.addEventListener('scroll', draw, { passive: true });
  let drag: { x: number; from: number; to: number; moved: boolean } | undefined;
  const local = (event: MouseEvent): { x: number; y: number } => {
    const box = canvas.getBoundingClientRect();
    return { x: event.clientX - box.left, y: event.clientY - box.top };
  };
  canvas.addEventListener(
    'wheel',
    (event) => {
      const f = timelineFrame();
      if (!f || !view) return;
      const { x } = local(event);
      if (event.ctrlKey || event.metaKey) {
        event.preventDefault();
        const anchor = Math.min(1, Math.max(0, (x - LABEL_WIDTH) / (f.width - LABEL_WIDTH)));
        zoom(event.deltaY > 0 ? 1.25 : 0.8, anchor);
      } else if (event.shiftKey || Math.abs(event.deltaX) > Math.abs(event.deltaY)) {
        event.preventDefault();
        pan(((event.shiftKey ? event.deltaY : event.deltaX) / Math.max(1, f.width)) * 1.5);
      }
    },
    { passive: false },
  );
  canvas.addEventListener('mousedown', (event) => {
    if (!view || event.button !== 0) return;
    drag = { x: event.clientX, from: view.from, to: view.to, moved: false };
  });
  window.addEventListener('mousemove', (event) => {
    if (drag && view && frame) {
      const dx = event.clientX - drag.x;
      if (Math.abs(dx) > 3) drag.moved = true;
      if (drag.moved) {
        const f = timelineFrame();
        const plot = f ? f.width - LABEL_WIDTH : 1;
        const delta = (-dx / Math.max(1, plot)) * (drag.to - drag.from);
        view = { from: drag.from + delta, to: drag.to + delta };
        draw();
      }
    }
  });
  window.addEventListener('mouseup', (event) => {
    const was = drag;
    drag = undefined;
    if (!was || was.moved || event.target !== canvas) return;
    const f = timelineFrame();
    if (!f) return;
    const { x, y } = local(event);
    const hit = hitTest(f, x, y);
    if (hit) openMark(hit.lane, hit.mark);
  });
  canvas.addEventListener('mousemove', (event) => {
    if (drag?.moved) return;
    const f = timelineFrame();
    if (!f) return;
    const { x, y } = local(event);
    const hit = hitTest(f, x, y);
    const changed = hit?.lane !== hover?.lane || hit?.mark !== hover?.mark;
    hover = hit;
    canvas.style.cursor = hit ? 'pointer' : 'grab';
    if (hit) showTooltip(hit.lane, hit.mark, x, y);
    else if (frame) frame.tooltip.hidden = true;
    if (changed) draw();
  });
  canvas.addEventListener('mouseleave', () => {
    hover = undefined;
    if (frame && !focus) frame.tooltip.hidden = true;
    draw();
  });
  canvas.addEventListener('keydown', timelineKeys);
  canvas.addEventListener('blur', () => {
    if (frame) frame.tooltip.hidden = true;
  });
  window.addEventListener('resize', layoutTimeline);
}

function openMark(lane: number, mark: number): void {
  const found = markAt(lane, mark);
  if (found) post({ type: 'openEvent', serialNumber: found.row.serialNumber, key: found.mark.key });
}

const LANE_STEPS: Readonly<Record<string, number>> = { ArrowUp: -1, ArrowDown: 1, PageUp: -10, PageDown: 10 };

/** Arrows walk the marks (up and down the lanes, left and right in time); + − 0 zoom; Shift+arrows pan; Enter opens. */
function timelineKeys(event: KeyboardEvent): void {
  if (!frame || shown.length === 0) return;
  const current = focus ?? { lane: Math.floor(frame.lanes.scrollTop / LANE_HEIGHT), mark: -1 };
  const laneOf = (lane: number): number => Math.min(shown.length - 1, Math.max(0, lane));
  const lastMark = (lane: number): number => (shown[lane]?.row.marks.length ?? 0) - 1;
  let next: { lane: number; mark: number } | undefined;
  switch (event.key) {
    case '+':
    case '=':
      zoom(0.5);
      break;
    case '-':
    case '_':
      zoom(2);
      break;
    case '0':
      fit();
      break;
    case 'ArrowLeft':
    case 'ArrowRight':
      if (event.shiftKey) pan(event.key === 'ArrowLeft' ? -0.25 : 0.25);
      else {
        const lane = laneOf(current.lane);
        const step = event.key === 'ArrowLeft' ? -1 : 1;
        const mark = current.mark < 0 ? (step > 0 ? 0 : lastMark(lane)) : Math.min(lastMark(lane), Math.max(0, current.mark + step));
        next = { lane, mark };
      }
      break;
    case 'ArrowUp':
    case 'ArrowDown':
    case 'PageUp':
    case 'PageDown':
    case 'Home':
    case 'End': {
      const delta = LANE_STEPS[event.key] ?? 0;
      const lane = event.key === 'Home' ? 0 : event.key === 'End' ? shown.length - 1 : laneOf(focus ? current.lane + delta : current.lane);
      next = { lane, mark: Math.min(Math.max(0, current.mark), lastMark(lane)) };
      break;
    }
    case 'Enter':
    case ' ':
      if (focus) openMark(focus.lane, focus.mark);
      break;
    case 'Escape':
      focus = undefined;
      frame.tooltip.hidden = true;
      draw();
      break;
    default:
      return;
  }
  event.preventDefault();
  if (!next) return;
  focus = next;
  // Scroll the lane into view, and pan the mark into the time range.
  const top = next.lane * LANE_HEIGHT;
  const visible = frame.lanes.clientHeight - AXIS_HEIGHT;
  if (top < frame.lanes.scrollTop) frame.lanes.scrollTop = top;
  else if (top + LANE_HEIGHT > frame.lanes.scrollTop + visible) frame.lanes.scrollTop = top + LANE_HEIGHT - visible;
  const found = markAt(next.lane, next.mark);
  const t = found && laneTime(found.row, found.mark.at, aligned);
  if (t !== undefined && view && (t < view.from || t > view.to)) {
    const span = view.to - view.from;
    view = { from: t - span / 2, to: t + span / 2 };
  }
  draw();
  const f = timelineFrame();
  if (found && f) {
    const x = xOf(f, laneTime(found.row, found.mark.at, aligned));
    const y = AXIS_HEIGHT + next.lane * LANE_HEIGHT - frame.lanes.scrollTop;
    showTooltip(next.lane, next.mark, x, y);
    announce(describe(found.row, found.mark, next.mark));
  } else {
    const row = shown[next.lane]?.row;
    if (row) announce(`${row.serialNumber} · ${stateWord(row.state)} · ${s('noEvents')}`);
  }
}

function look(): SvgLook {
  const c = colors ?? readColors();
  return { background: c.background, foreground: c.foreground, grid: c.grid, states: c.states };
}

function exportSvg(): void {
  if (!view) return;
  post({ type: 'exportSvg', serialNumbers: shown.map((u) => u.row.serialNumber), from: view.from, to: view.to, aligned, look: look() });
}

/** The whole timeline (every shown lane, not only those in view) at the current zoom, as a PNG. */
function exportPng(): void {
  const f = timelineFrame();
  if (!f) return;
  const rows = f.rows.slice(0, MAX_PNG_LANES);
  const canvas = document.createElement('canvas');
  const width = Math.max(800, f.width);
  const height = AXIS_HEIGHT + rows.length * LANE_HEIGHT + 4;
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d');
  if (!context) return;
  drawTimeline(context, { ...f, rows, width, height, ratio: 1, scrollTop: 0, focus: undefined, hover: undefined });
  post({ type: 'exportPng', dataUrl: canvas.toDataURL('image/png') });
}

// ---- rendering a board ----

function renderBoard(reason: RenderedReport['reason'], started: number): void {
  const root = document.getElementById('root');
  if (!root || !board) return;
  root.setAttribute('aria-busy', 'false');
  const hadFrame = frame !== undefined;
  const filterHadFocus = document.activeElement === frame?.filterInput;
  // Rows are rebuilt as answers land: a keyboard user in the table keeps their row (and button in it).
  const focused = focusedRow();
  if (!frame) frame = buildFrame(root);
  document.title = board.title;
  const words = stateWords();
  rowUis = board.rows.map((row) => buildRow(row, words));
  frame.tbody.replaceChildren();
  const counts = countStates(board.rows);
  frame.summary.textContent = summaryText(
    counts,
    {
      states: words,
      none: s('summaryNone'),
      one: s('summaryOne'),
      many: s('summaryMany'),
      count: s('summaryCount'),
      separator: s('summarySeparator'),
    },
    board.locale,
  );
  for (const [state, b] of frame.stateButtons) {
    const count = b.querySelector('.count');
    if (count) count.textContent = counts[state].toLocaleString(board.locale);
    b.hidden = counts[state] === 0 && !filter.states.includes(state);
  }
  renderNotices(frame.notices, board);
  if (!hadFrame || colors === undefined) colors = readColors();
  if (!hadFrame) {
    view = undefined;
    aligned = prefersAligned(board.rows);
    alignButton?.setAttribute('aria-pressed', String(aligned));
    alignButton?.classList.toggle('pressed', aligned);
  }
  applyOrder();
  if (!view) fit();
  if (filterHadFocus) frame.filterInput.focus();
  if (focused) restoreRowFocus(focused);
  persist();
  report(reason, started);
}

/** The row (serial number) and button index that hold the keyboard focus, when it is in the table. */
function focusedRow(): { serialNumber: string; button: number } | undefined {
  const active = document.activeElement;
  const owner = shown.find((u) => active instanceof HTMLElement && u.tr.contains(active));
  if (!owner || !(active instanceof HTMLButtonElement)) return undefined;
  return { serialNumber: owner.row.serialNumber, button: Array.from(owner.tr.querySelectorAll('button')).indexOf(active) };
}

function restoreRowFocus(focused: { serialNumber: string; button: number }): void {
  const owner = shown.find((u) => u.row.serialNumber === focused.serialNumber);
  const target = owner ? (Array.from(owner.tr.querySelectorAll('button'))[focused.button] ?? owner.open) : shown[0]?.open;
  if (!target) return;
  for (const u of rowUis) u.open.tabIndex = -1;
  target.tabIndex = 0;
  target.focus();
}

function renderNotices(notices: HTMLElement, view: BoardView): void {
  notices.replaceChildren();
  if (view.session === 'signedOut') {
    const p = el('p', 'notice');
    p.append(
      icon('account'),
      el('span', undefined, s('signedOut')),
      button(s('signIn'), 'sign-in', () => {
        post({ type: 'signIn' });
      }),
    );
    notices.append(p);
  }
  if (view.held > 0) {
    const p = el('p', 'notice');
    p.append(
      icon('info'),
      el('span', undefined, view.held === 1 ? s('heldOne') : s('held', view.held.toLocaleString(view.locale))),
      button(s('loadHeld'), 'cloud-download', () => {
        post({ type: 'loadHeld' });
      }),
    );
    notices.append(p);
  }
}

function report(reason: RenderedReport['reason'], started: number): void {
  flushDraw();
  // After layout: the time a user waits includes it.
  document.body.getBoundingClientRect();
  const renderMs = performance.now() - started;
  post({
    type: 'rendered',
    rows: rowUis.length,
    shown: shown.length,
    firstShown: shown.slice(0, 50).map((u) => u.row.serialNumber),
    summary: frame?.summary.textContent ?? '',
    lanesDrawn,
    renderMs,
    reason,
  });
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const started = performance.now();
  const message = event.data;
  if (!isHostMessage(message)) return;
  if (message.type === 'status') {
    announce(message.message);
    return;
  }
  strings = message.strings;
  board = message.board;
  renderBoard('show', started);
});

// VS Code sets the theme's class on body: colours are read again and the timeline redrawn.
new MutationObserver(() => {
  colors = readColors();
  draw();
}).observe(document.body, { attributes: true, attributeFilter: ['class'] });

post({ type: 'ready' });
