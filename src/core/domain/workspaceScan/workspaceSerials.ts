// Which serial numbers a set of files contains, and where each was first seen.
import type { SerialMatcher } from '../serialNumbers/serialMatcher';

export interface SerialLocation {
  readonly file: string;
  /** 0-based. */
  readonly line: number;
}

export interface FoundSerial {
  readonly serialNumber: string;
  readonly locations: readonly SerialLocation[];
  readonly occurrences: number;
}

/** Files larger than this are skipped: a serial number list is small, a log dump is not worth blocking on. */
export const MAX_SCANNED_FILE_BYTES = 1024 * 1024;
/** Matches per file, so a generated file full of serials cannot flood the tree. */
export const MAX_MATCHES_PER_FILE = 1000;

interface Entry {
  readonly locations: SerialLocation[];
  occurrences: number;
}

export class SerialCollector {
  private readonly found = new Map<string, Entry>();
  #filesCut = 0;

  /**
   * `maxMatchesPerFile`: the views' cap by default; a gate that must check every serial number passes Infinity.
   * `onFirstSeen` hears each serial number once, as soon as a file names it, so work on it need not wait for the last file.
   */
  constructor(
    private readonly matcher: SerialMatcher,
    private readonly maxMatchesPerFile = MAX_MATCHES_PER_FILE,
    private readonly onFirstSeen?: (serialNumber: string) => void,
  ) {}

  add(file: string, text: string): void {
    // One match more than the cap tells a file that names more from one that names exactly as many.
    const matches = this.matcher.findAll(text, this.maxMatchesPerFile + 1);
    if (matches.length > this.maxMatchesPerFile) {
      this.#filesCut++;
      matches.length = this.maxMatchesPerFile;
    }
    let line = 0;
    let lineCountedTo = 0;
    const seenInFile = new Set<string>();
    for (const match of matches) {
      // Count line breaks incrementally: matches come in order.
      line += text.slice(lineCountedTo, match.start).split('\n').length - 1;
      lineCountedTo = match.start;
      let entry = this.found.get(match.serialNumber);
      if (!entry) {
        entry = { locations: [], occurrences: 0 };
        this.found.set(match.serialNumber, entry);
        this.onFirstSeen?.(match.serialNumber);
      }
      entry.occurrences++;
      if (!seenInFile.has(match.serialNumber)) {
        seenInFile.add(match.serialNumber);
        entry.locations.push({ file, line });
      }
    }
  }

  /** Files that named more serial numbers than the cap per file: only their first ones were taken. */
  get filesCut(): number {
    return this.#filesCut;
  }

  /** Sorted by serial number (UTF-16 code units, not locale), so the group is stable from scan to scan. */
  result(): FoundSerial[] {
    // sort() without a comparator orders strings by UTF-16 code units; every key has its entry.
    return [...this.found.keys()].sort().map((serialNumber) => ({ serialNumber, ...(this.found.get(serialNumber) as Entry) }));
  }
}

/**
 * findFiles applies files.exclude only when given no exclude, so honouring search.exclude means
 * passing both; `when` conditions are left out.
 */
export function excludeGlob(...settings: readonly (Readonly<Record<string, unknown>> | undefined)[]): string | undefined {
  const patterns = new Set<string>();
  for (const setting of settings) {
    for (const [pattern, value] of Object.entries(setting ?? {})) if (value === true) patterns.add(pattern);
  }
  if (patterns.size === 0) return undefined;
  return patterns.size === 1 ? [...patterns][0] : `{${[...patterns].join(',')}}`;
}
