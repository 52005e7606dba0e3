// The tree's filter: by event type, by text, and by a time window ("since").
// Pure TypeScript (no vscode import), unit-tested under plain mocha.
//
// The window uses the API's `timestamp` query parameter (spec §4.1), whose
// meaning the spec leaves open: unit, inclusive or exclusive, and direction
// are all "not shown". So the value is sent in the unit the server's own
// timestamps use, one unit below the bound (an exclusive "after" bound then
// still returns an event at the bound; an inclusive one returns one unit
// more, which the re-check drops), and every answer is checked client-side.
import type { Localize } from '../../common/localize';
import type { OnboardingEvent, TimestampUnit } from '../../client/model';
import { serverTextData } from '../../common/serverText';

export interface EventFilter {
  /** Only these event types (exact, case-sensitive as the server sends them); empty or absent means all. */
  readonly types?: readonly string[];
  /** Case-insensitive substring of the type, message or asset id. */
  readonly text?: string;
  /** Only events at or after this instant (ms since the Unix epoch). */
  readonly sinceMs?: number;
}

export const NO_FILTER: EventFilter = {};

export function isFilterActive(filter: EventFilter): boolean {
  return (filter.types?.length ?? 0) > 0 || (filter.text ?? '') !== '' || filter.sinceMs !== undefined;
}

/** A predicate built once per filter: the type set and the lower-cased text are not rebuilt per event. */
export function compileFilter(filter: EventFilter): (event: OnboardingEvent) => boolean {
  const types = filter.types && filter.types.length > 0 ? new Set(filter.types) : undefined;
  const text = (filter.text ?? '').trim().toLocaleLowerCase();
  const since = filter.sinceMs;
  return (event) => {
    if (since !== undefined && event.time.epochMs < since) return false;
    if (types && !types.has(serverTextData(event.type))) return false;
    // With no text every event passes: every string includes ''.
    return (
      serverTextData(event.type).toLocaleLowerCase().includes(text) ||
      serverTextData(event.message).toLocaleLowerCase().includes(text) ||
      (event.assetId?.toLocaleLowerCase().includes(text) ?? false)
    );
  };
}

/** Merges a change into the current filter: `[]`, `''` and `null` clear a part. */
export function updateFilter(
  current: EventFilter,
  change: { readonly types?: readonly string[] | null; readonly text?: string | null; readonly sinceMs?: number | null },
): EventFilter {
  const types = change.types === undefined ? current.types : (change.types ?? []);
  const text = change.text === undefined ? current.text : (change.text ?? '');
  const sinceMs = change.sinceMs === undefined ? current.sinceMs : (change.sinceMs ?? undefined);
  return {
    ...(types && types.length > 0 ? { types: [...new Set(types)].sort() } : {}),
    ...(text !== undefined && text.trim() !== '' ? { text: text.trim() } : {}),
    ...(sinceMs !== undefined && Number.isFinite(sinceMs) ? { sinceMs } : {}),
  };
}

/** `since` as epoch ms (a number, or an ISO 8601 date/time); throws, with a message in `t`'s language, when it is not a date. */
export function parseSince(value: number | string | null | undefined, t: Localize): number | null | undefined {
  if (value === undefined || value === null) return value;
  const ms = typeof value === 'number' ? value : Date.parse(value);
  if (!Number.isFinite(ms)) throw new Error(t('"{0}" is not a date. Use a form like 2025-01-31 or 2025-01-31T08:00.', String(value)));
  return ms;
}

/**
 * The `timestamp` query value for a window starting at `sinceMs`, in the unit
 * the server uses. One unit below the bound, see the file comment.
 */
export function windowQueryTimestamp(sinceMs: number, unit: TimestampUnit): number {
  const inUnit = unit === 'seconds' ? Math.floor(sinceMs / 1000) : Math.floor(sinceMs);
  return inUnit - 1;
}

/**
 * What a windowed answer says about how the server read the parameter:
 * - `within`: every event is inside the window (a lower bound, as hoped);
 * - `mixed`: some are outside (the server ignored it, or its bound differs): the re-check drops those;
 * - `outside`: there are events and none is inside — the server probably filters the other way, so
 *   the window's events must come from an unfiltered request;
 * - `empty`: nothing came back (nothing new, or a filter the other way with nothing old).
 */
export type WindowAnswer = 'within' | 'mixed' | 'outside' | 'empty';

export function assessWindowAnswer(events: readonly OnboardingEvent[], sinceMs: number): WindowAnswer {
  if (events.length === 0) return 'empty';
  let inside = 0;
  for (const event of events) if (event.time.epochMs >= sinceMs) inside++;
  if (inside === events.length) return 'within';
  return inside === 0 ? 'outside' : 'mixed';
}

export interface WindowJudgement {
  readonly answer: WindowAnswer;
  /** The server's reading of `timestamp` cannot be trusted (it left out events inside the window). */
  readonly unreliable: boolean;
  /** The window's events cannot be known from this answer: ask without the filter. */
  readonly needFull: boolean;
}

/**
 * Judges a windowed answer against the full result when one is known. The
 * tree shows the union of both, re-checked, so a server that filters
 * differently never hides an event; this only decides whether another,
 * unfiltered request is needed and whether to stop relying on the filter.
 */
export function judgeWindowAnswer(
  windowEvents: readonly OnboardingEvent[],
  fullEvents: readonly OnboardingEvent[] | undefined,
  sinceMs: number,
): WindowJudgement {
  const answer = assessWindowAnswer(windowEvents, sinceMs);
  if (answer === 'outside') return { answer, unreliable: true, needFull: true };
  if (fullEvents === undefined) return { answer, unreliable: false, needFull: answer === 'empty' };
  const returned = new Set(windowEvents.map((event) => event.key));
  const missed = fullEvents.some((event) => event.time.epochMs >= sinceMs && !returned.has(event.key));
  return { answer, unreliable: missed, needFull: false };
}
