// Which serial numbers the user can see: the visible line ranges of an editor
// (plus a small margin, so a line scrolled into view already has its status),
// merged, and the serial numbers on those lines, matched once per line and
// remembered until the document changes. Pure (no vscode): the glue passes
// `lineText` (TextDocument.lineAt) and the ranges; unit-tested and timed by
// the inline status bench (test/bench/) on a 5,000-line file.
import type { SerialMatcher } from './serialMatcher';

/** Lines `start`..`end`, both included (as VS Code's visible ranges are). */
export interface LineRange {
  readonly start: number;
  readonly end: number;
}

export interface LineMatch {
  readonly line: number;
  /** Character offsets in the line. */
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

/** Distinct serial numbers in the order they first appear. */
export function distinctSerials(matches: readonly LineMatch[]): string[] {
  const seen = new Set<string>();
  for (const match of matches) seen.add(match.serialNumber);
  return [...seen];
}

/**
 * The serial numbers of one document version, per line, matched on first
 * sight. Scrolling re-reads only lines not seen before; an edit drops the
 * cache (the glue calls `reset` on every change of the document).
 */
export class LineMatchCache {
  private readonly lines = new Map<number, readonly LineMatch[]>();

  constructor(private matcher: SerialMatcher) {}

  /** A new matcher (settings changed) or a new document version: forget every line. */
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
 * Where each serial number of one document is, read once per document and
 * kept current by edits (only the edited lines are read again), so an answer
 * for serial X costs the lines that hold X, not a rescan of the document.
 * Only lines with a match are kept: a million empty lines cost nothing to
 * remember. Bounded: at most `limits.lines` lines are read and
 * `limits.matches` matches kept; `cut` says which limit left the rest out.
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

  /** Which limit left part of the document out, if one did. */
  get cut(): 'lines' | 'matches' | undefined {
    return this.cutBy;
  }

  get matches(): number {
    return this.count;
  }

  /** Every match, in line order. */
  all(): LineMatch[] {
    return [...this.lines.keys()].sort((a, b) => a - b).flatMap((line) => this.lines.get(line) ?? []);
  }

  /** The serial numbers the index holds, each with its matches in line order. */
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
   * Follows one change event of the document (its edits all refer to the text
   * before the event) and reads the changed lines again from `lineText`, the
   * document after it. Returns false when the index was cut: then only a new
   * index is right (lines move in and out of the read part), and its cost is
   * bounded by the same limits.
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
