// Rows built once per update, then sorted and filtered by moving and hiding them (1,000 rows stay
// under a frame); one tab stop for the keyboard.
import { announce, button, el, icon, type Attrs } from '../../../core/common/page/dom';
import { displayText } from '../../../core/common/notificationText';
import { formatRelative } from '../../../core/common/time';
import type { BoardRow, BoardState } from '../../../core/domain/board/boardRows';
import { compileFilter, rowMatches, searchText, sortRows, type BoardFilter, type BoardSort } from '../../../core/domain/board/boardTable';
import { absolute, durationText, page, persist, post, pageString, type RowUi } from './state';
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

export function buildRow(row: BoardRow, words: Record<BoardState, string>): RowUi {
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
  return { row, tr, open, haystack: searchText(row, words) };
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

/** Arrow keys move between rows (one tab stop for the whole table, as in a grid); Enter on a row's button opens it. */
export function tableKeys(event: KeyboardEvent): void {
  const target = event.target;
  if (!(target instanceof HTMLElement)) return;
  const tr = target.closest('[role=row]');
  const index = page.shown.findIndex((u) => u.tr === tr);
  if (index < 0) return;
  const inRow: HTMLButtonElement[] = tr ? Array.from(tr.querySelectorAll('button')) : [];
  const column = inRow.indexOf(target as HTMLButtonElement);
  if (event.key === 'ArrowRight' || event.key === 'ArrowLeft') {
    const to = inRow[column + (event.key === 'ArrowRight' ? 1 : -1)];
    if (to) moveFocus(target, to);
    event.preventDefault();
    return;
  }
  const last = page.shown.length - 1;
  const step = ROW_STEPS.get(event.key);
  if (step === undefined) return;
  const next = step === 'first' ? 0 : step === 'last' ? last : Math.min(last, Math.max(0, index + step));
  event.preventDefault();
  const to = page.shown[next];
  if (to) {
    moveFocus(target, to.open);
    to.tr.scrollIntoView({ block: 'nearest' });
  }
}

function moveFocus(from: HTMLElement, to: HTMLElement): void {
  from.tabIndex = -1;
  to.tabIndex = 0;
  to.focus();
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

export function applyOrder(): void {
  if (!page.frame) return;
  const byRow = new Map(page.rows.map((u) => [u.row, u]));
  page.rows = sortRows(
    page.rows.map((u) => u.row),
    page.sort,
  ).flatMap((row) => byRow.get(row) ?? []);
  const fragment = document.createDocumentFragment();
  for (const u of page.rows) fragment.append(u.tr);
  page.frame.tbody.append(fragment);
  for (const [column, th] of page.frame.headers) {
    th.setAttribute('aria-sort', column === page.sort.column ? (page.sort.descending ? 'descending' : 'ascending') : 'none');
    th.classList.toggle('sorted', column === page.sort.column);
    th.classList.toggle('descending', column === page.sort.column && page.sort.descending);
  }
  applyFilter();
}

/** Hides what the filter leaves out; the timeline's lanes follow the table's rows. */
function applyFilter(): void {
  if (!page.frame) return;
  const compiled = compileFilter(page.filter);
  page.shown = [];
  for (const u of page.rows) {
    const match = rowMatches(u.row, u.haystack, compiled);
    if (u.tr.hidden === match) u.tr.hidden = !match;
    if (match) page.shown.push(u);
  }
  // One tab stop in the table: the first page.shown row's button unless a page.shown one already holds it.
  const stop = page.shown.find((u) => u.open.tabIndex === 0) ?? page.shown[0];
  for (const u of page.rows) if (u !== stop && u.open.tabIndex === 0) u.open.tabIndex = -1;
  if (stop) stop.open.tabIndex = 0;
  for (const [state, b] of page.frame.stateButtons) b.setAttribute('aria-pressed', String(page.filter.states.includes(state)));
  page.frame.stalledButton.setAttribute('aria-pressed', String(page.filter.stalled === true));
  page.frame.abandonedButton.setAttribute('aria-pressed', String(page.filter.abandoned === true));
  page.frame.shownCount.textContent = pageString('shownOf', page.shown.length, page.rows.length);
  page.frame.noMatch.hidden = page.shown.length > 0 || page.rows.length === 0;
  page.focus = undefined;
  page.hover = undefined;
  if (!page.view) fit();
  layoutTimeline();
}
