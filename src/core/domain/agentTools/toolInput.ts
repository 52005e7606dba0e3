// What the agent tools accept, checked here whatever the host already checked
// against the manifest's inputSchema: the input was written by a language
// model, which may have read a hostile file, so every count is bounded and
// every serial number passes the core's rules. package.json's inputSchema
// states the same limits (a unit test holds the two together). Pure.
import { isRecord } from '../../common/guards';
import { isApiError } from '../../client/errors';
import { normalizeSerialNumber } from '../../client/serialNumber';

export const TOOL_LIMITS = {
  /** Serial numbers per machine-events call: each may cost one request. */
  maxEventsSerials: 20,
  /** Serial numbers per summary call. */
  maxSummarySerials: 100,
  defaultEventsPerMachine: 10,
  maxEventsPerMachine: 50,
  /** Serial numbers one watch call may start watching: each is polled for as long as its onboarding runs. */
  maxWatchSerials: 10,
  /** Serial numbers a scope result lists. */
  maxScopeSerials: 200,
  /** More requests than this in one call ask the user first (prepareInvocation). */
  confirmAboveRequests: 10,
  /** Characters of one result (about 6,000 tokens): beyond it, entries are counted, not shown. */
  maxResultChars: 24_000,
  /** Code points of one server value (a message, a type, a link title). */
  maxValueChars: 400,
} as const;

export type SerialSource = 'activeEditor' | 'file' | 'workspace';
export const SERIAL_SOURCES: readonly SerialSource[] = ['activeEditor', 'file', 'workspace'];

export interface SerialList {
  /** Valid, trimmed, without duplicates, in the order given. */
  readonly serialNumbers: readonly string[];
  /** Entries refused, with why (shown back to the agent, quoted). */
  readonly refused: readonly { readonly input: string; readonly reason: string }[];
}

export type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problem: string };

export interface MachineEventsInput extends SerialList {
  readonly maxEvents: number;
}

export type SummaryInput = SerialList;

/** The watch tool's input: serial numbers to start watching; none lists the watches. */
export type WatchInput = SerialList;

export interface SerialScopeInput {
  readonly source: SerialSource;
  /** For source "file": a workspace-relative or absolute path. */
  readonly file?: string;
}

/** The input's fields; none when it is not an object. */
function fieldsOf(input: unknown): Readonly<Record<string, unknown>> {
  return isRecord(input) ? input : {};
}

function serialList(fields: Readonly<Record<string, unknown>>, max: number): Parsed<SerialList> {
  const given = fields['serialNumbers'];
  if (!Array.isArray(given)) return { ok: false, problem: 'Give "serialNumbers": an array of serial numbers.' };
  if (given.length === 0) return { ok: false, problem: 'Give at least one serial number in "serialNumbers".' };
  if (given.length > max)
    return {
      ok: false,
      problem: `Give at most ${max} serial numbers per call (${given.length} were given); split the list into several calls.`,
    };
  const serialNumbers: string[] = [];
  const refused: { input: string; reason: string }[] = [];
  for (const entry of given) {
    if (typeof entry !== 'string') {
      // JSON.stringify gives undefined for undefined (which JSON cannot hold, but a caller's object can).
      const shown = JSON.stringify(entry) as string | undefined;
      refused.push({ input: shown ?? typeof entry, reason: 'not a string' });
      continue;
    }
    try {
      const serial = normalizeSerialNumber(entry);
      if (!serialNumbers.includes(serial)) serialNumbers.push(serial);
    } catch (error) {
      if (!isApiError(error)) throw error;
      refused.push({ input: entry, reason: error.message });
    }
  }
  return { ok: true, value: { serialNumbers, refused } };
}

function wholeNumber(value: unknown, fallback: number, min: number, max: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.min(max, Math.max(min, Math.round(value))) : fallback;
}

export function parseMachineEventsInput(input: unknown): Parsed<MachineEventsInput> {
  const fields = fieldsOf(input);
  const list = serialList(fields, TOOL_LIMITS.maxEventsSerials);
  if (!list.ok) return list;
  const maxEvents = wholeNumber(fields['maxEventsPerMachine'], TOOL_LIMITS.defaultEventsPerMachine, 1, TOOL_LIMITS.maxEventsPerMachine);
  return { ok: true, value: { ...list.value, maxEvents } };
}

export function parseSummaryInput(input: unknown): Parsed<SummaryInput> {
  return serialList(fieldsOf(input), TOOL_LIMITS.maxSummarySerials);
}

export function parseWatchInput(input: unknown): Parsed<WatchInput> {
  const fields = fieldsOf(input);
  const given = fields['serialNumbers'];
  // No serial numbers (absent, null or an empty list) asks for the list of watches, and starts nothing.
  if (given === undefined || given === null || (Array.isArray(given) && given.length === 0))
    return { ok: true, value: { serialNumbers: [], refused: [] } };
  return serialList(fields, TOOL_LIMITS.maxWatchSerials);
}

export function parseSerialScopeInput(input: unknown): Parsed<SerialScopeInput> {
  const fields = fieldsOf(input);
  const chosen = SERIAL_SOURCES.find((candidate) => candidate === fields['source']);
  if (chosen === undefined) return { ok: false, problem: `Give "source": one of ${SERIAL_SOURCES.map((s) => `"${s}"`).join(', ')}.` };
  if (chosen !== 'file') return { ok: true, value: { source: chosen } };
  const file = fields['file'];
  if (typeof file !== 'string' || file.trim() === '')
    return {
      ok: false,
      problem: 'With "source": "file", give "file": a path relative to the workspace folder, or an absolute path inside it.',
    };
  return { ok: true, value: { source: chosen, file: file.trim() } };
}

/** How many of `serialNumbers` would cost a request now (those the cache cannot answer). */
export function requestsNeeded(serialNumbers: readonly string[], isFresh: (serialNumber: string) => boolean): number {
  return serialNumbers.filter((serial) => !isFresh(serial)).length;
}

export function needsConfirmation(requests: number): boolean {
  return requests > TOOL_LIMITS.confirmAboveRequests;
}
