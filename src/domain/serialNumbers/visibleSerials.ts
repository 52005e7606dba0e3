// Which serial numbers the user can see: the visible line ranges of an editor
// (plus a small margin, so a line scrolled into view already has its status),
// merged, and the serial numbers on those lines, matched once per line and
// remembered until the document changes. Pure (no vscode): the glue passes
// `lineText` (TextDocument.lineAt) and the ranges; unit-tested and timed by
// test/bench/glance.bench.ts on a 5,000-line file.
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
