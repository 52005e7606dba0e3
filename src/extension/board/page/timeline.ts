// The timeline on a canvas: a lane per machine, a point per event coloured and shaped by its state
// (never colour alone). Our own small renderer, as uPlot has no lane chart: it draws only the lanes in
// view, so 1,000 machines cost what 20 do, where SVG would lay out a node per point.
import type { TimelinePoint, BoardRow, BoardState, UsualStep } from '../../../core/domain/board/boardRows';
import type { Localize } from '../../../core/common/localize';
import { axisLabel, laneEnd, laneTime, timeTicks, usualBands } from '../../../core/domain/board/boardTable';

export const LANE_HEIGHT = 24;
export const AXIS_HEIGHT = 28;
export const LABEL_WIDTH = 170;
const RIGHT_PAD = 12;
const POINT_RADIUS = 5;
/** How far from a point a pointer still hits it. */
const HIT_RADIUS = 7;

export interface TimelineColors {
  readonly background: string;
  readonly foreground: string;
  readonly muted: string;
  readonly grid: string;
  readonly focus: string;
  readonly hoverBackground: string;
  readonly font: string;
  readonly states: Readonly<Record<BoardState, string>>;
}

export interface TimelineFrame {
  readonly width: number;
  readonly height: number;
  readonly ratio: number;
  readonly scrollTop: number;
  readonly from: number;
  readonly to: number;
  readonly locale: string;
  readonly colors: TimelineColors;
  readonly rows: readonly BoardRow[];
  readonly focus: { readonly lane: number; readonly point: number } | undefined;
  readonly hover: { readonly lane: number; readonly point: number } | undefined;
  readonly stateWords: Readonly<Record<BoardState, string>>;
  /** Each lane from its machine's first event: the axis counts time since it. */
  readonly aligned: boolean;
  /** Words the aligned axis's durations (formatDuration's templates). */
  readonly t: Localize;
  /** The line's usual steps, drawn faint behind each lane (empty while the history cannot say). */
  readonly usual: readonly UsualStep[];
  /** The board's time: a machine in progress draws its lane up to it. */
  readonly nowMs: number;
}

export function xOf(frame: Pick<TimelineFrame, 'width' | 'from' | 'to'>, at: number): number {
  const plot = Math.max(1, frame.width - LABEL_WIDTH - RIGHT_PAD);
  return LABEL_WIDTH + ((at - frame.from) / Math.max(1, frame.to - frame.from)) * plot;
}

function visibleLanes(frame: TimelineFrame): { first: number; count: number } {
  const first = Math.max(0, Math.floor(frame.scrollTop / LANE_HEIGHT));
  const count = Math.min(frame.rows.length - first, Math.ceil((frame.height - AXIS_HEIGHT) / LANE_HEIGHT) + 1);
  return { first, count: Math.max(0, count) };
}

/** A state's shape: the legend, the lane's label and every point use the same one. */
function shape(context: CanvasRenderingContext2D, x: number, y: number, state: BoardState, color: string, r = POINT_RADIUS): void {
  context.fillStyle = color;
  context.strokeStyle = color;
  switch (state) {
    case 'onboarded':
      context.beginPath();
      context.moveTo(x, y - r - 1);
      context.lineTo(x + r + 1, y);
      context.lineTo(x, y + r + 1);
      context.lineTo(x - r - 1, y);
      context.closePath();
      context.fill();
      return;
    case 'failed':
      context.lineWidth = 2.5;
      context.beginPath();
      context.moveTo(x - r, y - r);
      context.lineTo(x + r, y + r);
      context.moveTo(x + r, y - r);
      context.lineTo(x - r, y + r);
      context.stroke();
      return;
    case 'in-progress':
      context.beginPath();
      context.arc(x, y, r - 0.5, 0, Math.PI * 2);
      context.fill();
      return;
    default:
      // No events, unknown, unavailable, not loaded: a hollow ring (no point of their own).
      context.lineWidth = 1.5;
      context.beginPath();
      context.arc(x, y, r - 1, 0, Math.PI * 2);
      context.stroke();
  }
}

function ring(context: CanvasRenderingContext2D, x: number, y: number, r: number, color: string, width: number): void {
  context.strokeStyle = color;
  context.lineWidth = width;
  context.beginPath();
  context.arc(x, y, r, 0, Math.PI * 2);
  context.stroke();
}

function drawLane(context: CanvasRenderingContext2D, frame: TimelineFrame, row: BoardRow, lane: number, y: number): void {
  const { colors } = frame;
  const cy = y + LANE_HEIGHT / 2;
  if (frame.hover?.lane === lane || frame.focus?.lane === lane) {
    context.fillStyle = colors.hoverBackground;
    context.fillRect(0, y, frame.width, LANE_HEIGHT);
  }
  // The label: the machine's state shape and its serial number, clipped to the label column.
  shape(context, 10, cy, row.state, colors.states[row.state], 4);
  context.save();
  context.beginPath();
  context.rect(20, y, LABEL_WIDTH - 26, LANE_HEIGHT);
  context.clip();
  context.fillStyle = colors.foreground;
  context.fillText(row.serialNumber, 20, cy);
  context.restore();

  context.save();
  context.beginPath();
  context.rect(LABEL_WIDTH - 2, y, frame.width - LABEL_WIDTH + 2, LANE_HEIGHT);
  context.clip();
  // The usual steps, faint and alternating, behind the machine's own: where it is against where its line usually is (the same bands as the SVG's).
  context.fillStyle = colors.foreground;
  for (const band of usualBands(row, frame.usual, frame.aligned)) {
    const x1 = xOf(frame, band.from);
    const x2 = xOf(frame, band.to);
    if (x2 < LABEL_WIDTH || x1 > frame.width) continue;
    context.globalAlpha = band.index % 2 === 0 ? 0.05 : 0.1;
    context.fillRect(x1, y + 2, Math.max(0.5, x2 - x1), LANE_HEIGHT - 4);
  }
  context.globalAlpha = 1;
  if (row.firstAt !== null && row.endAt !== null) {
    const x1 = xOf(frame, laneTime(row, row.firstAt, frame.aligned));
    const x2 = xOf(frame, laneTime(row, row.endAt, frame.aligned));
    context.globalAlpha = 0.35;
    context.fillStyle = colors.states[row.state];
    context.fillRect(x1, cy - 3, Math.max(2, x2 - x1), 6);
    context.globalAlpha = 1;
    // Since the newest event, dashed: the machine is still at its step (a stall is a long open segment).
    const open = laneEnd(row, frame.nowMs);
    if (open !== null && open > row.endAt) {
      context.strokeStyle = colors.states[row.state];
      context.lineWidth = 2;
      context.setLineDash([4, 3]);
      context.beginPath();
      context.moveTo(x2, cy);
      context.lineTo(xOf(frame, laneTime(row, open, frame.aligned)), cy);
      context.stroke();
      context.setLineDash([]);
    }
  }
  row.points.forEach((point: TimelinePoint, index) => {
    const x = xOf(frame, laneTime(row, point.at, frame.aligned));
    if (x < LABEL_WIDTH - HIT_RADIUS || x > frame.width + HIT_RADIUS) return;
    const color = colors.states[point.state];
    shape(context, x, cy, point.state, color);
    if (index === row.failingPoint) ring(context, x, cy, POINT_RADIUS + 4, color, 1.5);
    if (frame.hover?.lane === lane && frame.hover.point === index) ring(context, x, cy, POINT_RADIUS + 3, colors.foreground, 1);
    if (frame.focus?.lane === lane && frame.focus.point === index) ring(context, x, cy, POINT_RADIUS + 5, colors.focus, 2);
  });
  context.restore();
}

function drawAxis(context: CanvasRenderingContext2D, frame: TimelineFrame): void {
  const { colors } = frame;
  context.fillStyle = colors.background;
  context.fillRect(0, 0, frame.width, AXIS_HEIGHT);
  const plot = frame.width - LABEL_WIDTH - RIGHT_PAD;
  const { step, ticks } = timeTicks(frame.from, frame.to, Math.max(2, Math.floor(plot / 130)));
  context.textAlign = 'center';
  for (const tick of ticks) {
    const x = xOf(frame, tick);
    context.strokeStyle = colors.grid;
    context.lineWidth = 1;
    context.beginPath();
    context.moveTo(Math.round(x) + 0.5, AXIS_HEIGHT - 6);
    context.lineTo(Math.round(x) + 0.5, frame.height);
    context.stroke();
    context.fillStyle = colors.muted;
    const label = axisLabel(tick, step, frame);
    context.fillText(label, x, AXIS_HEIGHT / 2 - 2);
  }
  context.textAlign = 'start';
  context.strokeStyle = colors.grid;
  context.beginPath();
  context.moveTo(0, AXIS_HEIGHT - 0.5);
  context.lineTo(frame.width, AXIS_HEIGHT - 0.5);
  context.stroke();
}

export function drawTimeline(context: CanvasRenderingContext2D, frame: TimelineFrame): void {
  const { colors } = frame;
  context.setTransform(frame.ratio, 0, 0, frame.ratio, 0, 0);
  context.fillStyle = colors.background;
  context.fillRect(0, 0, frame.width, frame.height);
  context.font = colors.font;
  context.textBaseline = 'middle';
  // Grid first, under the lanes; the axis is drawn again on top so its labels stay readable.
  drawAxis(context, frame);
  const { first, count } = visibleLanes(frame);
  for (let i = 0; i < count; i++) {
    const lane = first + i;
    const row = frame.rows[lane];
    if (row) drawLane(context, frame, row, lane, AXIS_HEIGHT + lane * LANE_HEIGHT - frame.scrollTop);
  }
  drawAxis(context, frame);
}

/** The timeline point under a pointer position (CSS pixels in the canvas), the nearest within reach. */
export function hitTest(frame: TimelineFrame, x: number, y: number): { lane: number; point: number } | undefined {
  if (y < AXIS_HEIGHT || x < LABEL_WIDTH - HIT_RADIUS) return undefined;
  const lane = Math.floor((y - AXIS_HEIGHT + frame.scrollTop) / LANE_HEIGHT);
  const row = frame.rows[lane];
  if (!row) return undefined;
  let best: { point: number; distance: number } | undefined;
  row.points.forEach((point, index) => {
    const distance = Math.abs(xOf(frame, laneTime(row, point.at, frame.aligned)) - x);
    if (distance <= HIT_RADIUS && (best === undefined || distance < best.distance)) best = { point: index, distance };
  });
  return best ? { lane, point: best.point } : undefined;
}
