// The serial numbers the user can see: the visible ranges plus a margin (so a line scrolled in already
// has its status), matched once per line until the document changes.
import type { SerialMatcher } from './serialMatcher';

/** Lines `start`..`end`, both included (as VS Code's visible ranges are). */
export interface LineRange {
  readonly start: number;
  readonly end: number;
}

export interface LineMatch {
  readonly line: number;
  readonly start: number;
  readonly end: number;
  readonly serialNumber: string;
}

/** Lines looked at beyond this length are cut: a minified file's one line can be megabytes. */
export const MAX_MATCHED_LINE_LENGTH = 10_000;
/** Beyond this many serial numbers in view, the rest get no status (nobody reads 2,000 at once). */
export const MAX_VISIBLE_MATCHES = 2_000;

/** The ranges grown by `margin` lines each side, clamped to the document, sorted and merged. */
export function linesToScan(ranges: readonly LineRange[], lineCount: number, margin = 0): LineRange[] {
  // An empty document clamps every range to end at -1, before its start, so the filter leaves none.
  const grown = ranges
    .map((range) => ({
      start: Math.max(0, Math.min(range.start, range.end) - margin),
      end: Math.min(lineCount - 1, Math.max(range.start, range.end) + margin),
    }))
    .filter((range) => range.start <= range.end)
    .sort((a, b) => a.start - b.start);
  const merged: LineRange[] = [];
  for (const range of grown) {
    const last = merged[merged.length - 1];
    if (last !== undefined && range.start <= last.end + 1)
      merged[merged.length - 1] = { start: last.start, end: Math.max(last.end, range.end) };
    else merged.push(range);
  }
  return merged;
}

export function distinctSerials(matches: readonly LineMatch[]): string[] {
  const seen = new Set<string>();
  for (const match of matches) seen.add(match.serialNumber);
  return [...seen];
}

/** Scrolling re-reads only lines not seen before; an edit drops the cache. */
export class LineMatchCache {
  private readonly lines = new Map<number, readonly LineMatch[]>();

  constructor(private matcher: SerialMatcher) {}

  reset(matcher?: SerialMatcher): void {
    if (matcher !== undefined) this.matcher = matcher;
    this.lines.clear();
  }

  /** The matches on the lines of `ranges` (in line order), at most `limit`. */
  matchesIn(lineText: (line: number) => string, ranges: readonly LineRange[], limit = MAX_VISIBLE_MATCHES): LineMatch[] {
    const found: LineMatch[] = [];
    for (const range of ranges) {
      for (let line = range.start; line <= range.end; line++) {
        for (const match of this.line(line, lineText)) {
          if (found.length >= limit) return found;
          found.push(match);
        }
      }
    }
    return found;
  }

  private line(line: number, lineText: (line: number) => string): readonly LineMatch[] {
    const known = this.lines.get(line);
    if (known !== undefined) return known;
    const text = lineText(line);
    const matches = this.matcher
      .findAll(text.slice(0, MAX_MATCHED_LINE_LENGTH))
      .map((match) => ({ line, start: match.start, end: match.end, serialNumber: match.serialNumber }));
    this.lines.set(line, matches);
    return matches;
  }
}

/** A document's lines read for the Problems panel stop here: the rest of a 1 M-line dump is left out (and said once). */
export const MAX_INDEXED_LINES = 50_000;
/** A document's serial numbers beyond this many get no entry (a dump of 100,000 serials is not a to-do list). */
export const MAX_INDEXED_MATCHES = 5_000;

export interface SerialIndexLimits {
  readonly lines: number;
  readonly matches: number;
}

/** One edit as VS Code reports it: old lines `startLine`..`endLine` replaced by text with `newLines` line breaks. */
export interface LineEdit {
  readonly startLine: number;
  readonly endLine: number;
  readonly newLines: number;
}

/**
 * Where each serial number of one document is, kept current by edits, so an answer for X costs the
 * lines that hold X, not a rescan. Only lines with a match are kept; bounded by `limits`.
 */
export class SerialIndex {
  private lines = new Map<number, readonly LineMatch[]>();
  private bySerialCache: Map<string, LineMatch[]> | undefined;
  private count = 0;
  private cutBy: 'lines' | 'matches' | undefined;

  constructor(
    private readonly matcher: SerialMatcher,
    lineText: (line: number) => string,
    lineCount: number,
    private readonly limits: SerialIndexLimits = { lines: MAX_INDEXED_LINES, matches: MAX_INDEXED_MATCHES },
  ) {
    this.read(lineText, 0, lineCount - 1, lineCount);
  }

  get cut(): 'lines' | 'matches' | undefined {
    return this.cutBy;
  }

  get matches(): number {
    return this.count;
  }

  all(): LineMatch[] {
    return [...this.lines.keys()].sort((a, b) => a - b).flatMap((line) => this.lines.get(line) ?? []);
  }

  bySerial(): ReadonlyMap<string, readonly LineMatch[]> {
    if (this.bySerialCache === undefined) {
      const map = new Map<string, LineMatch[]>();
      for (const match of this.all()) {
        const list = map.get(match.serialNumber);
        if (list === undefined) map.set(match.serialNumber, [match]);
        else list.push(match);
      }
      this.bySerialCache = map;
    }
    return this.bySerialCache;
  }

  /**
   * Edits refer to the text before the event. False when the index was cut: lines move in and out of
   * the read part, so only a new index is right.
   */
  update(edits: readonly LineEdit[], lineText: (line: number) => string, lineCount: number): boolean {
    if (this.cutBy !== undefined) return false;
    if (edits.length === 0) return true;
    const first = Math.min(...edits.map((edit) => edit.startLine));
    const last = Math.max(...edits.map((edit) => edit.endLine));
    const shift = edits.reduce((sum, edit) => sum + edit.newLines - (edit.endLine - edit.startLine), 0);
    const moved = new Map<number, readonly LineMatch[]>();
    let count = 0;
    for (const [line, matches] of this.lines) {
      if (line < first) moved.set(line, matches);
      else if (line > last) moved.set(line + shift, shift === 0 ? matches : matches.map((match) => ({ ...match, line: line + shift })));
      else continue;
      count += matches.length;
    }
    this.lines = moved;
    this.count = count;
    this.bySerialCache = undefined;
    this.read(lineText, first, Math.min(lineCount - 1, last + shift), lineCount);
    return this.cut === undefined;
  }

  private read(lineText: (line: number) => string, from: number, to: number, lineCount: number): void {
    const end = Math.min(to, this.limits.lines - 1);
    for (let line = from; line <= end; line++) {
      const found = this.matcher.findAll(lineText(line).slice(0, MAX_MATCHED_LINE_LENGTH));
      if (found.length === 0) continue;
      const room = this.limits.matches - this.count;
      const kept = found.slice(0, room).map((match) => ({ line, start: match.start, end: match.end, serialNumber: match.serialNumber }));
      this.lines.set(line, kept);
      this.count += kept.length;
      if (kept.length < found.length) {
        this.cutBy = 'matches';
        return;
      }
    }
    if (lineCount > this.limits.lines) this.cutBy = 'lines';
  }
}
