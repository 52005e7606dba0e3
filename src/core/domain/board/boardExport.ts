// The board shared: CSV (RFC 4180, formula-guarded), a Markdown table for a ticket, and the timeline as
// a standalone SVG, with server text escaped for each.
import { csvCell } from '../events/exportEvents';
import { toSingleLine } from '../../common/markdownText';
import type { BoardRow, BoardState, UsualStep } from './boardRows';
import { laneEnd, laneTime, timeTicks, usualBands } from './boardTable';
import type { Localize } from '../../common/localize';
import { formatDuration } from '../../common/time';

/**
 * Unlike the events export (a data format), the board's exports are the table as the user sees it,
 * shared with people, so in their language; times stay ISO 8601 UTC and durations whole seconds.
 */
export interface ExportWords {
  readonly states: Readonly<Record<BoardState, string>>;
  readonly headings: {
    readonly serialNumber: string;
    readonly state: string;
    readonly newest: string;
    readonly newestTime: string;
    readonly duration: string;
    readonly events: string;
    readonly error: string;
  };
  /** Words durations the way every view does (formatDuration), in the reader's language. */
  readonly t: Localize;
}

const iso = (epochMs: number | null): string => {
  if (epochMs === null) return '';
  const date = new Date(epochMs);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString();
};

/** CSV of the rows as shown (their order and filter): durations in whole seconds, so a spreadsheet can sum them. */
export function boardToCsv(rows: readonly BoardRow[], words: ExportWords): string {
  const h = words.headings;
  const lines = [[h.serialNumber, h.state, h.newest, h.newestTime, `${h.duration} (s)`, h.events, h.error].map(csvCell).join(',')];
  for (const row of rows)
    lines.push(
      [
        csvCell(row.serialNumber),
        csvCell(words.states[row.state]),
        csvCell(row.newestType ?? ''),
        iso(row.newestAt),
        row.durationMs === null ? '' : String(Math.round(row.durationMs / 1000)),
        String(row.eventCount),
        csvCell(row.error ?? ''),
      ].join(','),
    );
  return `\ufeff${lines.join('\r\n')}\r\n`;
}

/** Longest cell text in a Markdown table: a ticket wants a line, not a stack trace. */
const MAX_MARKDOWN_CELL = 200;

/** Every character that would end the cell or start markup is escaped, so server text reads as typed. */
export function markdownCell(text: string): string {
  return toSingleLine(text, MAX_MARKDOWN_CELL).replace(/[\\|`*_[\]<>#~!&]/g, (c) => `\\${c}`);
}

export function boardToMarkdown(rows: readonly BoardRow[], words: ExportWords): string {
  const h = words.headings;
  const header = [h.serialNumber, h.state, h.newest, h.newestTime, h.duration, h.events, h.error].map(markdownCell);
  const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => ' --- ').join('|')}|`];
  for (const row of rows)
    lines.push(
      `| ${[
        markdownCell(row.serialNumber),
        markdownCell(words.states[row.state]),
        markdownCell(row.newestType ?? ''),
        iso(row.newestAt),
        row.durationMs === null ? '' : markdownCell(formatDuration(row.durationMs, words.t)),
        String(row.eventCount),
        markdownCell(row.error ?? ''),
      ].join(' | ')} |`,
    );
  return `${lines.join('\n')}\n`;
}

export interface SvgLook {
  readonly background: string;
  readonly foreground: string;
  readonly grid: string;
  readonly states: Readonly<Record<BoardState, string>>;
}

/** The lanes an SVG holds at most: past this a picture is no longer readable, and the file stays bounded. */
export const MAX_SVG_LANES = 2000;

const XML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
// eslint-disable-next-line no-control-regex -- XML 1.0 forbids these characters; they are dropped
const XML_FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

export function xmlText(text: string): string {
  return text.replace(XML_FORBIDDEN, '').replace(/[&<>"']/g, (c) => XML_ESCAPES[c] ?? c);
}

/** A colour from the page is used in an attribute: only plain colour syntax passes, anything else falls back. */
export function safeColor(value: string, fallback: string): string {
  const v = value.trim();
  return /^(#[0-9a-fA-F]{3,8}|rgba?\([\d.,\s%]+\)|[a-zA-Z]{3,20})$/.test(v) ? v : fallback;
}

/** The point's shape for a state, so the picture never says a state by colour alone: ◆ onboarded, ✕ failed, ● in progress. */
function svgPoint(x: number, y: number, state: BoardState, color: string, failing: boolean): string {
  const r = 5;
  switch (state) {
    case 'onboarded':
      return `<path d="M${x} ${y - r}L${x + r} ${y}L${x} ${y + r}L${x - r} ${y}Z" fill="${color}"/>`;
    case 'failed':
      return (
        `<path d="M${x - r} ${y - r}L${x + r} ${y + r}M${x + r} ${y - r}L${x - r} ${y + r}" stroke="${color}" stroke-width="2.5"/>` +
        (failing ? `<circle cx="${x}" cy="${y}" r="${r + 3}" fill="none" stroke="${color}" stroke-width="1.5"/>` : '')
      );
    default:
      return `<circle cx="${x}" cy="${y}" r="${r - 1}" fill="${color}"/>`;
  }
}

export interface SvgOptions {
  readonly from: number;
  readonly to: number;
  readonly look: SvgLook;
  readonly states: Readonly<Record<BoardState, string>>;
  readonly title: string;
  readonly aligned: boolean;
  readonly formatTick: (at: number, step: number) => string;
  /** The line's usual steps, drawn faint behind each lane as the page does, with what they rest on (the picture's description). */
  readonly usual?: { readonly steps: readonly UsualStep[]; readonly restsOn: string; readonly how: string } | null;
  /** The export's time: a machine in progress draws its lane up to it, dashed after its newest event, as the page does. */
  readonly nowMs?: number;
}

export function timelineSvg(rows: readonly BoardRow[], options: SvgOptions): string {
  const lanes = rows.slice(0, MAX_SVG_LANES);
  const labelWidth = 220;
  const plotWidth = 900;
  const laneHeight = 22;
  const top = 40;
  const width = labelWidth + plotWidth + 20;
  const height = top + lanes.length * laneHeight + 10;
  const look = {
    background: safeColor(options.look.background, '#ffffff'),
    foreground: safeColor(options.look.foreground, '#000000'),
    grid: safeColor(options.look.grid, '#888888'),
  };
  const color = (state: BoardState): string => safeColor(options.look.states[state], look.foreground);
  const span = Math.max(1, options.to - options.from);
  const x = (at: number): number => Math.round((labelWidth + ((at - options.from) / span) * plotWidth) * 10) / 10;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<title>${xmlText(options.title)}</title>`,
    ...(options.usual ? [`<desc>${xmlText(`${options.usual.how} (${options.usual.restsOn})`)}</desc>`] : []),
    `<rect width="100%" height="100%" fill="${look.background}"/>`,
  ];
  const { step, ticks } = timeTicks(options.from, options.to, 8);
  for (const tick of ticks) {
    const tx = x(tick);
    parts.push(
      `<line x1="${tx}" y1="${top - 8}" x2="${tx}" y2="${height - 10}" stroke="${look.grid}" stroke-width="0.5"/>`,
      `<text x="${tx}" y="${top - 14}" fill="${look.foreground}" text-anchor="middle">${xmlText(options.formatTick(tick, step))}</text>`,
    );
  }
  lanes.forEach((row, i) => {
    const y = top + i * laneHeight + laneHeight / 2;
    const c = color(row.state);
    parts.push(
      `<text x="4" y="${y + 4}" fill="${look.foreground}">${xmlText(`${row.serialNumber} · ${options.states[row.state]}`)}</text>`,
    );
    const at = (time: number): number => laneTime(row, time, options.aligned);
    // The usual steps behind the lane, faint, alternating, as on the page's canvas.
    if (options.usual)
      for (const band of usualBands(row, options.usual.steps, options.aligned)) {
        const from = Math.max(band.from, options.from);
        const to = Math.min(band.to, options.to);
        if (to <= from) continue;
        parts.push(
          `<rect class="usual" x="${x(from)}" y="${y - laneHeight / 2 + 2}" width="${Math.max(0.5, x(to) - x(from))}" height="${laneHeight - 4}" fill="${look.foreground}" fill-opacity="${band.index % 2 === 0 ? 0.05 : 0.1}"><title>${xmlText(options.usual.steps[band.index]?.type ?? '')}</title></rect>`,
        );
      }
    if (row.firstAt !== null && row.endAt !== null)
      parts.push(
        `<rect x="${x(at(row.firstAt))}" y="${y - 3}" width="${Math.max(1, x(at(row.endAt)) - x(at(row.firstAt)))}" height="6" rx="3" fill="${c}" fill-opacity="0.35"/>`,
      );
    const open = options.nowMs === undefined ? null : laneEnd(row, options.nowMs);
    if (row.endAt !== null && open !== null && open > row.endAt) {
      const from = Math.max(at(row.endAt), options.from);
      const to = Math.min(at(open), options.to);
      if (to > from)
        parts.push(
          `<line class="open" x1="${x(from)}" y1="${y}" x2="${x(to)}" y2="${y}" stroke="${c}" stroke-width="2" stroke-dasharray="4 3"/>`,
        );
    }
    row.points.forEach((point, m) => {
      const t = at(point.at);
      if (t < options.from || t > options.to) return;
      parts.push(svgPoint(x(t), y, point.state, color(point.state), m === row.failingPoint));
    });
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
