// The timeline as the user works it: fitted, zoomed, panned, themed, walked from the keyboard, exported.
import { announce } from '../../../core/common/page/dom';
import { BOARD_STATES, type TimelinePoint, type BoardRow, type BoardState } from '../../../core/domain/board/boardRows';
import { laneTime, timeRange } from '../../../core/domain/board/boardTable';
import type { SvgLook } from '../../../core/domain/board/boardExport';
import { displayText } from '../../../core/common/notificationText';
import { AXIS_HEIGHT, drawTimeline, hitTest, LABEL_WIDTH, LANE_HEIGHT, xOf, type TimelineColors, type TimelineFrame } from './timeline';
import { absolute, durationLocalize, page, post, pageString, stateWord, stateWords, type Spot } from './state';

/** The theme colour of each state, the same ids as STATE_LOOKS, as webview variables. */
const STATE_COLOR_VARS: Readonly<Record<BoardState, string>> = {
  onboarded: '--vscode-testing-iconPassed',
  failed: '--vscode-list-errorForeground',
  'in-progress': '--vscode-charts-blue',
  'no-events': '--vscode-descriptionForeground',
  unknown: '--vscode-list-warningForeground',
  unavailable: '--vscode-list-warningForeground',
  'not-loaded': '--vscode-descriptionForeground',
};
/** Lanes a PNG holds at most: a canvas taller than ~32,000 px is refused by the browser. */
const MAX_PNG_LANES = 1500;

export function readColors(): TimelineColors {
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

export function setAligned(value: boolean): void {
  page.aligned = value;
  page.frame?.alignButton.setAttribute('aria-pressed', String(page.aligned));
  page.frame?.alignButton.classList.toggle('pressed', page.aligned);
  fit();
}

export function fit(): void {
  const range = timeRange(
    page.shown.map((u) => u.row),
    page.aligned,
    page.board?.nowMs,
  );
  page.view = range ? { from: range.from, to: range.to } : undefined;
  draw();
}

export function zoom(factor: number, anchor = 0.5): void {
  if (!page.view) return;
  const span = page.view.to - page.view.from;
  const next = Math.min(Math.max(span * factor, 1000), 50 * 365 * 86_400_000);
  const at = page.view.from + span * anchor;
  page.view = { from: at - next * anchor, to: at + next * (1 - anchor) };
  draw();
}

export function pan(fraction: number): void {
  if (!page.view) return;
  const delta = (page.view.to - page.view.from) * fraction;
  page.view = { from: page.view.from + delta, to: page.view.to + delta };
  draw();
}

export function layoutTimeline(): void {
  if (!page.frame) return;
  const { lanes, canvas, spacer } = page.frame;
  const width = Math.max(200, lanes.clientWidth);
  // As tall as the lanes need, up to the box's max-height (38% of the view): a line of 8 takes 8 lanes, not a third of the screen.
  const room = Number.parseFloat(getComputedStyle(lanes).maxHeight) || 320;
  const height = Math.max(AXIS_HEIGHT + LANE_HEIGHT, Math.min(room, AXIS_HEIGHT + page.shown.length * LANE_HEIGHT));
  const ratio = window.devicePixelRatio || 1;
  if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
    canvas.style.width = `${width}px`;
    canvas.style.height = `${height}px`;
  }
  spacer.style.height = `${Math.max(0, AXIS_HEIGHT + page.shown.length * LANE_HEIGHT - height)}px`;
  draw();
}

export function draw(): void {
  if (page.drawQueued) return;
  page.drawQueued = true;
  requestAnimationFrame(flushDraw);
}

/** Draws now what a draw() asked for: a render ends with the canvas drawn, not a frame later. */
export function flushDraw(): void {
  if (!page.drawQueued) return;
  page.drawQueued = false;
  drawNow();
}

function timelineFrame(): TimelineFrame | undefined {
  if (!page.frame || !page.view || !page.colors || !page.board) return undefined;
  const ratio = window.devicePixelRatio || 1;
  return {
    width: page.frame.canvas.width / ratio,
    height: page.frame.canvas.height / ratio,
    ratio,
    scrollTop: page.frame.lanes.scrollTop,
    from: page.view.from,
    to: page.view.to,
    locale: page.board.locale,
    colors: page.colors,
    rows: page.shown.map((u) => u.row),
    focus: page.focus,
    hover: page.hover,
    stateWords: stateWords(),
    aligned: page.aligned,
    t: durationLocalize,
    usual: page.board.usual?.steps ?? [],
    nowMs: page.board.nowMs,
  };
}

function drawNow(): void {
  if (!page.frame) return;
  const context = page.frame.canvas.getContext('2d');
  const f = timelineFrame();
  if (!context || !f) {
    context?.clearRect(0, 0, page.frame.canvas.width, page.frame.canvas.height);
    return;
  }
  drawTimeline(context, f);
}

function pointAt(lane: number, point: number): { row: BoardRow; point: TimelinePoint } | undefined {
  const row = page.shown[lane]?.row;
  const m = row?.points[point];
  return row && m ? { row, point: m } : undefined;
}

function describe(row: BoardRow, point: TimelinePoint, index: number): string {
  const parts = [row.serialNumber, displayText(point.type), absolute(point.at), stateWord(point.state)];
  if (index === row.failingPoint) parts.push(pageString('failingStep'));
  // The newest event says where the machine stands, and what that rests on.
  if (index === row.points.length - 1 && row.progress)
    parts.push(row.progress.abandonedText ?? row.progress.stalledText ?? row.progress.stepText, row.progress.restsOn);
  return parts.join(' · ');
}

function showTooltip(lane: number, point: number, x: number, y: number): void {
  if (!page.frame) return;
  const found = pointAt(lane, point);
  if (!found) {
    page.frame.tooltip.hidden = true;
    return;
  }
  page.frame.tooltip.textContent = describe(found.row, found.point, point);
  page.frame.tooltip.hidden = false;
  const box = page.frame.lanes.getBoundingClientRect();
  const section = page.frame.lanes.parentElement?.getBoundingClientRect() ?? box;
  page.frame.tooltip.style.left = `${Math.min(box.left - section.left + x + 12, box.width - 260)}px`;
  page.frame.tooltip.style.top = `${box.top - section.top + y + 14}px`;
}

export function wireTimeline(lanes: HTMLElement, canvas: HTMLCanvasElement): void {
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
      if (!f || !page.view) return;
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
    if (!page.view || event.button !== 0) return;
    drag = { x: event.clientX, from: page.view.from, to: page.view.to, moved: false };
  });
  window.addEventListener('mousemove', (event) => {
    if (drag && page.view && page.frame) {
      const dx = event.clientX - drag.x;
      if (Math.abs(dx) > 3) drag.moved = true;
      if (drag.moved) {
        const f = timelineFrame();
        const plot = f ? f.width - LABEL_WIDTH : 1;
        const delta = (-dx / Math.max(1, plot)) * (drag.to - drag.from);
        page.view = { from: drag.from + delta, to: drag.to + delta };
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
    if (hit) openPoint(hit.lane, hit.point);
  });
  canvas.addEventListener('mousemove', (event) => {
    if (drag?.moved) return;
    const f = timelineFrame();
    if (!f) return;
    const { x, y } = local(event);
    const hit = hitTest(f, x, y);
    const changed = hit?.lane !== page.hover?.lane || hit?.point !== page.hover?.point;
    page.hover = hit;
    canvas.style.cursor = hit ? 'pointer' : 'grab';
    if (hit) showTooltip(hit.lane, hit.point, x, y);
    else if (page.frame) page.frame.tooltip.hidden = true;
    if (changed) draw();
  });
  canvas.addEventListener('mouseleave', () => {
    page.hover = undefined;
    if (page.frame && !page.focus) page.frame.tooltip.hidden = true;
    draw();
  });
  canvas.addEventListener('keydown', timelineKeys);
  canvas.addEventListener('blur', () => {
    if (page.frame) page.frame.tooltip.hidden = true;
  });
  window.addEventListener('resize', layoutTimeline);
}

function openPoint(lane: number, point: number): void {
  const found = pointAt(lane, point);
  if (found) post({ type: 'open-event', serialNumber: found.row.serialNumber, key: found.point.key });
}

const LANE_STEPS: Readonly<Record<string, number>> = { ArrowUp: -1, ArrowDown: 1, PageUp: -10, PageDown: 10 };

/** Arrows walk the points (up and down the lanes, left and right in time); + − 0 zoom; Shift+arrows pan; Enter opens. */
function timelineKeys(event: KeyboardEvent): void {
  if (!page.frame || page.shown.length === 0) return;
  const current = page.focus ?? { lane: Math.floor(page.frame.lanes.scrollTop / LANE_HEIGHT), point: -1 };
  const laneOf = (lane: number): number => Math.min(page.shown.length - 1, Math.max(0, lane));
  const lastPoint = (lane: number): number => (page.shown[lane]?.row.points.length ?? 0) - 1;
  let next: Spot | undefined;
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
        const point = current.point < 0 ? (step > 0 ? 0 : lastPoint(lane)) : Math.min(lastPoint(lane), Math.max(0, current.point + step));
        next = { lane, point };
      }
      break;
    case 'ArrowUp':
    case 'ArrowDown':
    case 'PageUp':
    case 'PageDown':
    case 'Home':
    case 'End': {
      const delta = LANE_STEPS[event.key] ?? 0;
      const lane =
        event.key === 'Home' ? 0 : event.key === 'End' ? page.shown.length - 1 : laneOf(page.focus ? current.lane + delta : current.lane);
      next = { lane, point: Math.min(Math.max(0, current.point), lastPoint(lane)) };
      break;
    }
    case 'Enter':
    case ' ':
      if (page.focus) openPoint(page.focus.lane, page.focus.point);
      break;
    case 'Escape':
      page.focus = undefined;
      page.frame.tooltip.hidden = true;
      draw();
      break;
    default:
      return;
  }
  event.preventDefault();
  if (!next) return;
  page.focus = next;
  // Scroll the lane into view, and pan the point into the time range.
  const top = next.lane * LANE_HEIGHT;
  const visible = page.frame.lanes.clientHeight - AXIS_HEIGHT;
  if (top < page.frame.lanes.scrollTop) page.frame.lanes.scrollTop = top;
  else if (top + LANE_HEIGHT > page.frame.lanes.scrollTop + visible) page.frame.lanes.scrollTop = top + LANE_HEIGHT - visible;
  const found = pointAt(next.lane, next.point);
  const t = found && laneTime(found.row, found.point.at, page.aligned);
  if (t !== undefined && page.view && (t < page.view.from || t > page.view.to)) {
    const span = page.view.to - page.view.from;
    page.view = { from: t - span / 2, to: t + span / 2 };
  }
  draw();
  const f = timelineFrame();
  if (found && f) {
    const x = xOf(f, laneTime(found.row, found.point.at, page.aligned));
    const y = AXIS_HEIGHT + next.lane * LANE_HEIGHT - page.frame.lanes.scrollTop;
    showTooltip(next.lane, next.point, x, y);
    announce(describe(found.row, found.point, next.point));
  } else {
    const row = page.shown[next.lane]?.row;
    if (row) announce(`${row.serialNumber} · ${stateWord(row.state)} · ${pageString('noEvents')}`);
  }
}

function svgLookFromTheme(): SvgLook {
  const c = page.colors ?? readColors();
  return { background: c.background, foreground: c.foreground, grid: c.grid, states: c.states };
}

export function exportSvg(): void {
  if (!page.view) return;
  post({
    type: 'export-svg',
    serialNumbers: page.shown.map((u) => u.row.serialNumber),
    from: page.view.from,
    to: page.view.to,
    aligned: page.aligned,
    look: svgLookFromTheme(),
  });
}

/** The whole timeline (every page.shown lane, not only those in page.view) at the current zoom, as a PNG. */
export function exportPng(): void {
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
  post({ type: 'export-png', dataUrl: canvas.toDataURL('image/png'), lanes: rows.length, of: f.rows.length });
}
