// The board page: a table (the screen reader's and the keyboard's view) and a canvas timeline over
// one state object. Nodes are built with common/page/dom.ts only: rows carry server text, never parsed as HTML.
import { announce, button, el, icon } from '../../../core/common/page/dom';
import { countAbandoned, countStalled, countStates, prefersAligned, summaryText } from '../../../core/domain/board/boardTable';
import { MAX_ROWS, type BoardView } from '../protocol';
import { buildFrame } from './frame';
import { channel, page, persist, post, pageString, stateWords } from './state';
import { applyOrder, focusShownRow, setRows } from './table';
import { draw, fit, flushDraw, readColors } from './timelineView';

function renderBoard(): void {
  const root = document.getElementById('root');
  if (!root || !page.board) return;
  root.setAttribute('aria-busy', 'false');
  const hadFrame = page.frame !== undefined;
  const filterHadFocus = document.activeElement === page.frame?.filterInput;
  // Rows are rebuilt as answers land: a keyboard user in the table keeps their row (and button in it).
  const focused = focusedRow();
  if (!page.frame) page.frame = buildFrame(root);
  document.title = page.board.title;
  // The frame outlives a board: the panel that showed line 3 and is asked for line 4 says line 4.
  const heading = root.querySelector('.board-header h1');
  if (heading) heading.textContent = page.board.title;
  const words = stateWords();
  setRows(page.board.rows, words);
  const counts = countStates(page.board.rows);
  const abandoned = countAbandoned(page.board.rows);
  page.frame.summary.textContent = summaryText(
    counts,
    {
      states: words,
      none: pageString('summaryNone'),
      one: pageString('summaryOne'),
      many: pageString('summaryMany'),
      count: pageString('summaryCount'),
      separator: pageString('summarySeparator'),
      abandoned: pageString('abandoned'),
    },
    page.board.locale,
    abandoned,
  );
  for (const [state, b] of page.frame.stateButtons) {
    const count = b.querySelector('.count');
    if (count) count.textContent = counts[state].toLocaleString(page.board.locale);
    b.hidden = counts[state] === 0 && !page.filter.states.includes(state);
  }
  const stalled = countStalled(page.board.rows);
  const stalledCount = page.frame.stalledButton.querySelector('.count');
  if (stalledCount) stalledCount.textContent = stalled.toLocaleString(page.board.locale);
  page.frame.stalledButton.hidden = stalled === 0 && page.filter.stalled !== true;
  const abandonedCount = page.frame.abandonedButton.querySelector('.count');
  if (abandonedCount) abandonedCount.textContent = abandoned.toLocaleString(page.board.locale);
  page.frame.abandonedButton.hidden = abandoned === 0 && page.filter.abandoned !== true;
  const { usual } = page.board;
  page.frame.usualNote.hidden = usual === null;
  page.frame.usualNote.textContent = usual === null ? '' : pageString('usualSteps', usual.restsOn);
  page.frame.usualNote.title = usual?.how ?? '';
  renderNotices(page.frame.notices, page.board);
  if (!hadFrame || page.colors === undefined) page.colors = readColors();
  if (!hadFrame) {
    page.view = undefined;
    page.aligned = prefersAligned(page.board.rows);
    page.frame.alignButton.setAttribute('aria-pressed', String(page.aligned));
    page.frame.alignButton.classList.toggle('pressed', page.aligned);
  }
  applyOrder();
  if (!page.view) fit();
  if (filterHadFocus) page.frame.filterInput.focus();
  if (focused) restoreRowFocus(focused);
  persist();
  // The timeline is drawn in the same task as the table: the first frame shows both.
  flushDraw();
}

/** The row (by serial number) and button the keyboard is on in the table, if it is there. */
function focusedRow(): { serialNumber: string; button: number } | undefined {
  const active = document.activeElement;
  if (!(active instanceof HTMLButtonElement) || !page.frame?.tbody.contains(active)) return undefined;
  return page.tabStop;
}

function restoreRowFocus(focused: { serialNumber: string; button: number }): void {
  const index = page.shown.findIndex((u) => u.row.serialNumber === focused.serialNumber);
  page.tabStop = index < 0 ? undefined : focused;
  focusShownRow(Math.max(0, index), index < 0 ? 0 : focused.button);
}

function renderNotices(notices: HTMLElement, board: BoardView): void {
  notices.replaceChildren();
  if (board.session === 'signed-out') {
    const p = el('p', 'notice');
    p.append(
      icon('account'),
      el('span', undefined, pageString('signedOut')),
      button(pageString('signIn'), 'sign-in', () => {
        post({ type: 'sign-in' });
      }),
    );
    notices.append(p);
  }
  if (board.held > 0) {
    const p = el('p', 'notice');
    p.append(
      icon('info'),
      el('span', undefined, board.held === 1 ? pageString('heldOne') : pageString('held', board.held.toLocaleString(board.locale))),
      button(pageString('loadHeld'), 'cloud-download', () => {
        post({ type: 'load-held' });
      }),
    );
    notices.append(p);
  }
  if (board.beyond > 0) {
    const p = el('p', 'notice');
    p.append(
      icon('warning'),
      el('span', undefined, pageString('beyond', board.beyond.toLocaleString(board.locale), MAX_ROWS.toLocaleString(board.locale))),
    );
    notices.append(p);
  }
}

channel.onMessage((message) => {
  if (message.type === 'status') {
    announce(message.message);
    return;
  }
  page.strings = message.strings;
  page.board = message.board;
  renderBoard();
});

// VS Code sets the theme's class on body: colours are read again and the timeline redrawn.
new MutationObserver(() => {
  page.colors = readColors();
  draw();
}).observe(document.body, { attributes: true, attributeFilter: ['class'] });

post({ type: 'ready' });
