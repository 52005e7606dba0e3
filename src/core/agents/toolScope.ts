// Where the scope tool finds serial numbers differs by program (VS Code: the
// editor, a workspace file, the workspace scan; oe mcp: a file below its
// working folder); reading one file and matching its text is the same for both.
import { isAbsolute } from 'node:path';
import { NamedFileError } from '../common/namedFiles';
import type { SerialScopeInput } from '../domain/agentTools/toolInput';
import type { SerialMatcher } from '../domain/serialNumbers/serialMatcher';
import { MAX_MATCHES_PER_FILE, MAX_SCANNED_FILE_BYTES, SerialCollector, type FoundSerial } from '../domain/workspaceScan/workspaceSerials';
import { definedOnly } from '../common/definedOnly';

export type FoundInScope =
  | {
      readonly ok: true;
      readonly found: readonly FoundSerial[];
      readonly where: string;
      /** Display path of the one file read (editor and file sources). */
      readonly file?: string;
      readonly filesScanned?: number;
      readonly capped: boolean;
      /** Why the user's serial-number pattern was not used, when it was not. */
      readonly patternProblem?: string;
    }
  | { readonly ok: false; readonly problem: string };

/** The scope tool's side of a program: where it looks, and which machines it keeps at hand. */
export interface ToolScope {
  find(input: SerialScopeInput, signal: AbortSignal): Promise<FoundInScope>;
  /** Pinned and recently looked-up machines; empty where the program keeps none. */
  pinned(): ReadonlySet<string>;
  recent(): ReadonlySet<string>;
  /** Who already knew the states the result lists, and from what: "this window already knew (…)". */
  readonly knownFrom: string;
}

/** A path that stays below the folder it is relative to: not absolute, not a URI, no "..". */
export function isPlainPath(path: string): boolean {
  return !isAbsolute(path) && !/^[a-z][a-z0-9+.-]+:/i.test(path) && !path.split(/[\\/]/).includes('..');
}

const decoder = new TextDecoder('utf-8', { fatal: false });

/**
 * One file's text for the scope tool, read by `read` (the program's reader of named files): too large and
 * binary are said; every other refusal is `notReadable`, the same for all, so it tells nothing about a file outside.
 */
export async function scopeFileText(
  read: (maxBytes: number) => Promise<Uint8Array>,
  notReadable: string,
): Promise<string | { readonly problem: string }> {
  let bytes: Uint8Array;
  try {
    bytes = await read(MAX_SCANNED_FILE_BYTES);
  } catch (error) {
    if (error instanceof NamedFileError && error.refusal === 'too-large')
      return { problem: `The file is larger than ${MAX_SCANNED_FILE_BYTES / 1024 / 1024} MiB, so it is not read.` };
    return { problem: notReadable };
  }
  if (bytes.subarray(0, 4096).includes(0)) return { problem: 'The file looks binary, so it is not read.' };
  return decoder.decode(bytes);
}

/** The serial numbers in one text; `key` names it in locations, `shown` is the display path the result gives. */
export function serialsInText(
  matcher: SerialMatcher,
  key: string,
  text: string,
  where: string,
  shown: string,
): Extract<FoundInScope, { ok: true }> {
  const collector = new SerialCollector(matcher);
  collector.add(key, text);
  const found = collector.result();
  const occurrences = found.reduce((sum, serial) => sum + serial.occurrences, 0);
  return {
    ok: true,
    found,
    where,
    file: shown,
    capped: occurrences >= MAX_MATCHES_PER_FILE,
    ...definedOnly({ patternProblem: matcher.problem }),
  };
}
