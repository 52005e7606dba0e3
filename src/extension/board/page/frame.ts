// The board page's frame, built once per page: the header, the tools (state
// and text filters, exports), the timeline's section and the table's head.
// Updates write into the nodes it returns; it keeps nothing itself.
import { button, el, icon } from '../../../core/common/page/dom';
import { BOARD_STATES, type BoardState } from '../../../core/domain/board/boardRows';
import { MAX_FILTER_TEXT, type BoardColumn } from '../../../core/domain/board/boardTable';
import type { PageStrings } from '../protocol';
import { page, post, pageString, stateWord, type Frame } from './state';
import { drawRowsSoon, setFilter, setSort, STATE_ICONS, tableKeys, takeTabStop } from './table';
import { exportPng, exportSvg, fit, pan, setAligned, wireTimeline, zoom } from './timelineView';

const COLUMN_STRING: Readonly<Record<BoardColumn, keyof PageStrings>> = {
  serialNumber: 'columnSerialNumber',
  state: 'columnState',
  progress: 'columnProgress',
  toGo: 'columnToGo',
  newest: 'columnNewest',
  age: 'columnAge',
  duration: 'columnDuration',
  events: 'columnEvents',
  error: 'columnError',
};
const SORTABLE: readonly BoardColumn[] = ['serialNumber', 'state', 'progress', 'toGo', 'newest', 'age', 'duration', 'events', 'error'];

/** The page's frame, built once per page: what updates write into. */
export function buildFrame(root: HTMLElement): Frame {
  root.replaceChildren();
  const header = el('header', 'board-header');
  const summary = el('p', 'summary', '', { id: 'summary' });
  const notices = el('div', 'notices');
  header.append(el('h1', undefined, page.board?.title ?? ''), summary, notices);
  const tools = buildTools();
  const timeline = buildTimeline();
  const table = buildTable();
  root.append(header, tools.node, timeline.node, table.node);
  return { summary, notices, ...tools.parts, ...timeline.parts, ...table.parts };
}

type Part<K extends keyof Frame> = { readonly node: HTMLElement; readonly parts: Pick<Frame, K> };

/** The state filter, the text filter, the count shown, and the exports. */
function buildTools(): Part<'stateButtons' | 'stalledButton' | 'abandonedButton' | 'filterInput' | 'shownCount'> {
  const tools = el('div', 'tools');
  const states = el('div', 'state-filter', undefined, { role: 'group', 'aria-label': pageString('filterStates') });
  const stateButtons = new Map<BoardState, HTMLButtonElement>();
  for (const state of BOARD_STATES) {
    const b = el('button', `state-toggle state-${state}`, undefined, { type: 'button', 'aria-pressed': 'false' });
    b.append(icon(STATE_ICONS[state], 'state-icon'), el('span', 'word', stateWord(state)), el('span', 'count', '0'));
    b.addEventListener('click', () => {
      const set = new Set(page.filter.states);
      if (set.has(state)) set.delete(state);
      else set.add(state);
      setFilter({ ...page.filter, states: BOARD_STATES.filter((x) => set.has(x)) });
    });
    stateButtons.set(state, b);
    states.append(b);
  }
  // Stalled qualifies "in progress" (not a state of its own): a filter beside the states, not one of them.
  const stalledButton = el('button', 'state-toggle stalled-toggle', undefined, { type: 'button', 'aria-pressed': 'false' });
  stalledButton.append(icon('watch', 'state-icon'), el('span', 'word', pageString('filterStalled')), el('span', 'count', '0'));
  stalledButton.addEventListener('click', () => {
    setFilter({ ...page.filter, stalled: page.filter.stalled !== true });
  });
  // Abandoned as well: in progress by its newest event, silent far longer than any onboarding of the line took.
  const abandonedButton = el('button', 'state-toggle abandoned-toggle', undefined, { type: 'button', 'aria-pressed': 'false' });
  abandonedButton.append(icon('circle-slash', 'state-icon'), el('span', 'word', pageString('filterAbandoned')), el('span', 'count', '0'));
  abandonedButton.addEventListener('click', () => {
    setFilter({ ...page.filter, abandoned: page.filter.abandoned !== true });
  });
  states.append(stalledButton, abandonedButton);
  const search = el('div', 'search');
  const filterInput = el('input', undefined, undefined, {
    id: 'filter',
    type: 'search',
    placeholder: pageString('filterPlaceholder'),
    maxlength: String(MAX_FILTER_TEXT),
  });
  filterInput.value = page.filter.text;
  filterInput.addEventListener('input', () => {
    setFilter({ ...page.filter, text: filterInput.value });
  });
  search.append(el('label', 'visually-hidden', pageString('filterText'), { for: 'filter' }), icon('filter'), filterInput);
  const shownCount = el('span', 'shown', '', { 'aria-live': 'polite' });
  const exports = el('div', 'exports', undefined, { role: 'group', 'aria-label': pageString('share') });
  exports.append(
    button(pageString('exportCsv'), 'table', () => {
      post({ type: 'export-table', format: 'csv', serialNumbers: page.shown.map((u) => u.row.serialNumber) });
    }),
    button(pageString('copyMarkdown'), 'markdown', () => {
      post({ type: 'export-table', format: 'markdown', serialNumbers: page.shown.map((u) => u.row.serialNumber) });
    }),
    button(pageString('exportSvg'), 'graph-line', exportSvg),
    button(pageString('exportPng'), 'file-media', exportPng),
  );
  tools.append(states, search, shownCount, exports);
  return { node: tools, parts: { stateButtons, stalledButton, abandonedButton, filterInput, shownCount } };
}

function buildTimeline(): Part<'lanes' | 'canvas' | 'spacer' | 'tooltip' | 'alignButton' | 'usualNote'> {
  const timeline = el('section', 'timeline', undefined, { 'aria-labelledby': 'timeline-heading' });
  const timelineHead = el('div', 'section-head');
  const controls = el('div', 'timeline-controls', undefined, { role: 'group', 'aria-label': pageString('timeline') });
  const tool = (label: keyof PageStrings, iconName: string, action: () => void): HTMLButtonElement =>
    button(pageString(label), iconName, action, { iconOnly: true });
  const alignButton = tool('alignStarts', 'list-flat', () => {
    setAligned(!page.aligned);
  });
  controls.append(
    alignButton,
    tool('zoomIn', 'zoom-in', () => {
      zoom(0.5);
    }),
    tool('zoomOut', 'zoom-out', () => {
      zoom(2);
    }),
    tool('zoomFit', 'screen-full', fit),
    tool('panLeft', 'arrow-left', () => {
      pan(-0.25);
    }),
    tool('panRight', 'arrow-right', () => {
      pan(0.25);
    }),
  );
  timelineHead.append(el('h2', undefined, pageString('timeline'), { id: 'timeline-heading' }), controls);
  const help = el('p', 'help', pageString('timelineHelp'), { id: 'timeline-help' });
  const usualNote = el('p', 'help usual-note');
  usualNote.hidden = true;
  const lanes = el('div', 'lanes');
  const canvas = el('canvas', undefined, undefined, {
    tabindex: '0',
    role: 'application',
    'aria-roledescription': pageString('timeline'),
    'aria-label': pageString('timelineAria'),
    'aria-describedby': 'timeline-help',
  });
  const spacer = el('div', 'spacer');
  const tooltip = el('div', 'tooltip', undefined, { role: 'tooltip', id: 'timeline-tooltip' });
  tooltip.hidden = true;
  lanes.append(canvas, spacer);
  timeline.append(timelineHead, help, usualNote, lanes, tooltip);
  wireTimeline(lanes, canvas);
  return { node: timeline, parts: { lanes, canvas, spacer, tooltip, alignButton, usualNote } };
}

function buildTable(): Part<'headers' | 'grid' | 'tbody' | 'noMatch'> {
  const tableSection = el('section', 'table', undefined, { 'aria-labelledby': 'table-heading' });
  // An ARIA table of grid rows rather than <table>: only the rows in view (and a screenful either
  // side) are in the DOM; aria-rowcount and each row's aria-rowindex tell a screen reader the whole.
  const table = el('div', 'grid', undefined, {
    role: 'table',
    'aria-labelledby': 'table-heading',
    'aria-describedby': 'table-caption',
    'aria-rowcount': '1',
  });
  const thead = el('div', 'head', undefined, { role: 'rowgroup' });
  const headRow = el('div', 'row', undefined, { role: 'row', 'aria-rowindex': '1' });
  const headers = new Map<BoardColumn, HTMLElement>();
  for (const column of SORTABLE) {
    const th = el('div', `cell col-${column}`, undefined, { role: 'columnheader' });
    const b = el('button', 'sort', undefined, { type: 'button', title: pageString('sortBy', pageString(COLUMN_STRING[column])) });
    b.append(el('span', undefined, pageString(COLUMN_STRING[column])), icon('arrow-down', 'sort-icon'));
    b.addEventListener('click', () => {
      setSort({ column, descending: page.sort.column === column ? !page.sort.descending : false });
    });
    th.append(b);
    headers.set(column, th);
    headRow.append(th);
  }
  headRow.append(el('div', 'cell col-actions', pageString('columnActions'), { role: 'columnheader' }));
  thead.append(headRow);
  const tbody = el('div', 'body', undefined, { role: 'rowgroup' });
  tbody.addEventListener('keydown', tableKeys);
  tbody.addEventListener('focusin', takeTabStop);
  window.addEventListener('scroll', drawRowsSoon, { passive: true });
  window.addEventListener('resize', drawRowsSoon);
  table.append(thead, tbody);
  const noMatch = el('p', 'no-match', pageString('noMatch'));
  noMatch.hidden = true;
  tableSection.append(
    el('h2', undefined, pageString('table'), { id: 'table-heading' }),
    el('p', 'visually-hidden', pageString('tableCaption'), { id: 'table-caption' }),
    table,
    noMatch,
  );
  return { node: tableSection, parts: { headers, grid: table, tbody, noMatch } };
}
