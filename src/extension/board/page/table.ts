// A virtual table: every row is data, and only the rows in view and a screenful either side are in
// the DOM, each with its aria-rowindex, so the DOM does not grow with the board; one tab stop for the keyboard.
import { announce, button, el, icon, type Attrs } from '../../../core/common/page/dom';
import { displayText } from '../../../core/common/notificationText';
import { formatRelative } from '../../../core/common/time';
import type { BoardRow, BoardState } from '../../../core/domain/board/boardRows';
import { compileFilter, rowMatches, RowSorter, searchText, type BoardFilter, type BoardSort } from '../../../core/domain/board/boardTable';
import { absolute, durationText, page, persist, post, pageString, stateWords, type DrawnRow, type RowEntry } from './state';
import { fit, flushDraw, layoutTimeline } from './timelineView';

/** The codicon of each state, the same as the tree's (eventState.ts STATE_LOOKS) plus one for "not loaded". */
export const STATE_ICONS: Readonly<Record<BoardState, string>> = {
  onboarded: 'pass',
  failed: 'error',
  'in-progress': 'sync',
  'no-events': 'circle-large-outline',
  unknown: 'question',
  unavailable: 'warning',
  'not-loaded': 'loading',
};

const CELL: Attrs = { role: 'cell' };

function buildRow(row: BoardRow, words: Record<BoardState, string>): DrawnRow {
  const tr = el('div', `row state-${row.state}`, undefined, { role: 'row' });
  const serialCell = el('div', 'cell col-serialNumber', undefined, { role: 'rowheader' });
  const open = el('button', 'link', row.serialNumber, {
    type: 'button',
    'aria-label': pageString('openDetailsAria', row.serialNumber),
    title: pageString('openDetails'),
  });
  open.tabIndex = -1;
  open.addEventListener('click', () => {
    post({ type: 'open-machine', serialNumber: row.serialNumber });
  });
  serialCell.append(open);
  const stateCell = el('div', 'cell col-state', undefined, CELL);
  stateCell.append(icon(STATE_ICONS[row.state], `state-icon state-${row.state}`), el('span', undefined, words[row.state]));
  // Server text (a row carries it as data, for the CSV export): shown as text with bidi and control characters as "�".
  const progress = el('div', 'cell col-progress', undefined, CELL);
  const toGo = el('div', 'cell col-toGo', undefined, CELL);
  if (row.progress) {
    const p = row.progress;
    // "4/6 · FIRMWARE_CHECKED" (the words carry the type already rendered for a page); the title says the whole and what it rests on.
    const short = p.known ? pageString('progressShort', p.step, p.of, displayText(row.newestType ?? '')) : p.stepText;
    // The stalled badge first: a long type is cut after it, never over it.
    if (p.abandoned) progress.append(el('span', 'stalled-badge abandoned-badge', pageString('abandoned')));
    else if (p.stalled) progress.append(el('span', 'stalled-badge', pageString('stalled')));
    progress.append(el('span', 'progress-step', short));
    progress.title = [p.abandonedText ?? p.stalledText ?? p.stepText, p.stallRule, p.oddities, p.restsOn, p.how]
      .filter((x) => x !== null)
      .join('\n');
    if (p.toGoText !== null) {
      toGo.textContent = p.toGoText;
      toGo.title = [p.why, p.restsOn, p.how].filter((x) => x !== null).join('\n');
    }
  }
  const newest = el('div', 'cell col-newest', displayText(row.newestType ?? ''), CELL);
  if (row.newestType !== null) newest.title = displayText(row.newestType);
  if (row.stale) newest.append(el('span', 'stale', ` (${pageString('stale')})`));
  const age = el('div', 'cell col-age', undefined, CELL);
  if (row.newestAt !== null && page.board) {
    age.textContent = formatRelative(row.newestAt, page.board.nowMs, page.board.locale, 'short') ?? '';
    age.title = absolute(row.newestAt);
  }
  const duration = el('div', 'cell col-duration', undefined, CELL);
  if (row.durationMs !== null) {
    duration.textContent = durationText(row.durationMs);
    duration.title = row.completed ? pageString('completed') : pageString('notCompleted');
  }
  const events = el('div', 'cell col-events', String(row.eventCount), CELL);
  const error = el('div', 'cell col-error', row.error ?? '', CELL);
  // One line per row (the virtual table's rows are of one height): the whole error in its title.
  if (row.error !== null) error.title = row.error;
  const actions = el('div', 'cell col-actions', undefined, CELL);
  const reveal = button(
    pageString('reveal'),
    'list-tree',
    () => {
      post({ type: 'reveal', serialNumber: row.serialNumber });
    },
    { iconOnly: true, aria: pageString('revealAria', row.serialNumber) },
  );
  reveal.tabIndex = -1;
  actions.append(reveal);
  tr.append(serialCell, stateCell, progress, toGo, newest, age, duration, events, error, actions);
  return { tr, open, buttons: [open, reveal] };
}

/** How far each key moves in the table: rows, or to an end. */
const ROW_STEPS: ReadonlyMap<string, number | 'first' | 'last'> = new Map<string, number | 'first' | 'last'>([
  ['ArrowDown', 1],
  ['ArrowUp', -1],
  ['PageDown', 10],
  ['PageUp', -10],
  ['Home', 'first'],
  ['End', 'last'],
]);

/** The header row is the table's first; a body row's aria-rowindex is its place in page.shown plus two. */
const FIRST_BODY_ROW_INDEX = 2;

function shownIndexOf(tr: Element | null): number {
  const index = Number(tr?.getAttribute('aria-rowindex')) - FIRST_BODY_ROW_INDEX;
  return Number.isInteger(index) && index >= 0 && index < page.shown.length ? index : -1;
}

/** Arrow keys move between rows (one tab stop for the whole table, as in a grid); Enter on a row's button opens it. */
export function tableKeys(event: KeyboardEvent): void {
  const target = event.target;
  if (!(target instanceof HTMLElement)) return;
  const tr = target.closest('[role=row]');
  const index = shownIndexOf(tr);
  if (index < 0) return;
  const inRow: HTMLButtonElement[] = tr ? Array.from(tr.querySelectorAll('button')) : [];
  const column = inRow.indexOf(target as HTMLButtonElement);
  if (event.key === 'ArrowRight' || event.key === 'ArrowLeft') {
    const to = inRow[column + (event.key === 'ArrowRight' ? 1 : -1)];
    if (to) to.focus();
    event.preventDefault();
    return;
  }
  const last = page.shown.length - 1;
  const step = ROW_STEPS.get(event.key);
  if (step === undefined) return;
  const next = step === 'first' ? 0 : step === 'last' ? last : Math.min(last, Math.max(0, index + step));
  event.preventDefault();
  focusShownRow(next, 0);
}

/** Brings row `index` of page.shown into view (drawing it first when it was not drawn) and focuses its `button`. */
export function focusShownRow(index: number, button: number): void {
  const entry = page.shown[index];
  if (!entry || !page.frame) return;
  if (!page.drawn.has(entry.row)) {
    // Scroll so the row would be mid-screen, then draw the rows there now (the scroll event comes a frame later).
    const height = page.rowHeight ?? DEFAULT_ROW_HEIGHT;
    const top = page.frame.tbody.getBoundingClientRect().top + window.scrollY + index * height;
    window.scrollTo({ top: Math.max(0, top - window.innerHeight / 2), behavior: 'instant' });
    drawRows();
  }
  const drawn = page.drawn.get(entry.row);
  if (!drawn) return;
  const to = drawn.buttons[button] ?? drawn.open;
  to.focus({ preventScroll: true });
  drawn.tr.scrollIntoView({ block: 'nearest' });
}

/** A focused button in the table holds its one tab stop, whether reached by keyboard or pointer. */
export function takeTabStop(event: FocusEvent): void {
  const target = event.target;
  if (!(target instanceof HTMLButtonElement)) return;
  const tr = target.closest('[role=row]');
  const entry = page.shown[shownIndexOf(tr)];
  if (!entry || !tr) return;
  page.tabStop = { serialNumber: entry.row.serialNumber, button: Array.from(tr.querySelectorAll('button')).indexOf(target) };
  applyTabStop();
}

/** One tab stop among the drawn rows: the kept one when drawn, else the first drawn row's open button. */
function applyTabStop(): void {
  const stop = page.tabStop;
  let holder: HTMLButtonElement | undefined;
  for (const [row, drawn] of page.drawn)
    if (stop && row.serialNumber === stop.serialNumber) holder = drawn.buttons[stop.button] ?? drawn.open;
  if (!holder) {
    const first = page.frame?.tbody.querySelector<HTMLElement>('[role=row]');
    holder = [...page.drawn.values()].find((d) => d.tr === first)?.open;
  }
  for (const drawn of page.drawn.values()) for (const b of drawn.buttons) b.tabIndex = b === holder ? 0 : -1;
}

export function setSort(next: BoardSort): void {
  page.sort = next;
  applyOrder();
  persist();
  const header = page.frame?.headers.get(page.sort.column)?.textContent ?? '';
  announce(header);
  flushDraw();
}

export function setFilter(next: BoardFilter): void {
  page.filter = next;
  applyFilter();
  persist();
  flushDraw();
}

/** Takes a board's rows: entries for all, nodes for none until drawn. */
export function setRows(rows: readonly BoardRow[], words: Record<BoardState, string>): void {
  page.rows = rows.map((row) => ({ row, haystack: undefined }));
  page.words = words;
  page.sorter = new RowSorter(rows);
  page.drawn.clear();
  page.frame?.tbody.replaceChildren();
}

export function applyOrder(): void {
  if (!page.frame) return;
  const entries = new Map(page.rows.map((u) => [u.row, u]));
  page.rows = (page.sorter ?? new RowSorter(page.rows.map((u) => u.row))).sort(page.sort).flatMap((row) => entries.get(row) ?? []);
  for (const [column, th] of page.frame.headers) {
    th.setAttribute('aria-sort', column === page.sort.column ? (page.sort.descending ? 'descending' : 'ascending') : 'none');
    th.classList.toggle('sorted', column === page.sort.column);
    th.classList.toggle('descending', column === page.sort.column && page.sort.descending);
  }
  applyFilter();
}

/** Keeps what the filter lets through and draws the table's window of it; the timeline's lanes follow the table's rows. */
function applyFilter(): void {
  if (!page.frame) return;
  const compiled = compileFilter(page.filter);
  // No text, no search text: a board's first render and a state filter never build it.
  const words = page.words;
  const haystack = (u: RowEntry): string => (compiled.needle === '' ? '' : (u.haystack ??= searchText(u.row, words)));
  page.shown = page.rows.filter((u) => rowMatches(u.row, haystack(u), compiled));
  if (page.tabStop && !page.shown.some((u) => u.row.serialNumber === page.tabStop?.serialNumber)) page.tabStop = undefined;
  for (const [state, b] of page.frame.stateButtons) b.setAttribute('aria-pressed', String(page.filter.states.includes(state)));
  page.frame.stalledButton.setAttribute('aria-pressed', String(page.filter.stalled === true));
  page.frame.abandonedButton.setAttribute('aria-pressed', String(page.filter.abandoned === true));
  const locale = page.board?.locale;
  page.frame.shownCount.textContent = pageString(
    'shownOf',
    page.shown.length.toLocaleString(locale),
    page.rows.length.toLocaleString(locale),
  );
  page.frame.noMatch.hidden = page.shown.length > 0 || page.rows.length === 0;
  page.frame.grid.setAttribute('aria-rowcount', String(page.shown.length + 1));
  drawRows();
  page.focus = undefined;
  page.hover = undefined;
  if (!page.view) fit();
  layoutTimeline();
}

/** Before a row was measured: the CSS's height at the default font size. */
const DEFAULT_ROW_HEIGHT = 27;

/**
 * Draws the rows of page.shown in view and a screenful either side, and only those; the rows above and
 * below are room (the body's padding), so the scrollbar and aria-rowcount tell the whole table.
 * A row that stays drawn keeps its node, so a focused button keeps its focus.
 */
export function drawRows(): void {
  if (!page.frame) return;
  const { tbody } = page.frame;
  const words = stateWordsOnce();
  const height = page.rowHeight ?? DEFAULT_ROW_HEIGHT;
  const total = page.shown.length;
  const screen = Math.ceil(window.innerHeight / height) + 1;
  // Where the viewport's top falls in the body, whatever the padding drawn above.
  const seen = Math.floor(Math.max(0, -tbody.getBoundingClientRect().top) / height);
  const first = Math.max(0, Math.min(seen, total) - screen);
  const end = Math.min(total, seen + 2 * screen);
  const active = document.activeElement;
  const hadFocus = active instanceof HTMLButtonElement && tbody.contains(active);
  const wanted = new Map<BoardRow, DrawnRow>();
  const nodes: HTMLElement[] = [];
  for (let i = first; i < end; i++) {
    const entry = page.shown[i];
    if (!entry) continue;
    const drawn = page.drawn.get(entry.row) ?? buildRow(entry.row, words());
    drawn.tr.setAttribute('aria-rowindex', String(i + FIRST_BODY_ROW_INDEX));
    wanted.set(entry.row, drawn);
    nodes.push(drawn.tr);
  }
  const keep = new Set(nodes);
  for (const child of Array.from(tbody.children)) if (!keep.has(child as HTMLElement)) child.remove();
  // Rows already drawn keep their place when the window moves; new ones go in around them.
  let cursor = tbody.firstElementChild;
  for (const node of nodes) {
    if (cursor === node) cursor = cursor.nextElementSibling;
    else tbody.insertBefore(node, cursor);
  }
  page.drawn = wanted;
  if (page.rowHeight === undefined && nodes[0]) page.rowHeight = nodes[0].getBoundingClientRect().height || DEFAULT_ROW_HEIGHT;
  const rowHeight = page.rowHeight ?? DEFAULT_ROW_HEIGHT;
  tbody.style.paddingTop = `${first * rowHeight}px`;
  tbody.style.paddingBottom = `${(total - end) * rowHeight}px`;
  applyTabStop();
  // A sort moved the focused row's node: focus follows it.
  if (hadFocus && page.tabStop && document.activeElement !== active) {
    const index = page.shown.findIndex((u) => u.row.serialNumber === page.tabStop?.serialNumber);
    const drawn = page.drawn.get(page.shown[index]?.row as BoardRow);
    (drawn?.buttons[page.tabStop.button] ?? drawn?.open)?.focus({ preventScroll: true });
  }
}

/** The state words, read from the page strings once per drawing and only when a row is built. */
function stateWordsOnce(): () => Record<BoardState, string> {
  let words: Record<BoardState, string> | undefined;
  return () => (words ??= stateWords());
}

/** On scroll and resize: the window of drawn rows follows the view, once per frame. */
export function drawRowsSoon(): void {
  if (page.rowsQueued) return;
  page.rowsQueued = true;
  requestAnimationFrame(() => {
    page.rowsQueued = false;
    drawRows();
  });
}
