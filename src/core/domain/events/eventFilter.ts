// The tree's filter: type, text and a start time ("since"). The spec leaves the `timestamp` parameter's unit,
// bounds and direction open (§4.1), so it is sent one unit below the bound in the server's own unit
// and every answer is re-checked on the client.
import type { Localize } from '../../common/localize';
import type { OnboardingEvent, TimestampUnit } from '../../client/model';
import { serverTextData } from '../../common/serverText';

export interface EventFilter {
  /** Only these event types (exact, case-sensitive as the server sends them); empty or absent means all. */
  readonly types?: readonly string[];
  readonly text?: string;
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

export function windowQueryTimestamp(sinceMs: number, unit: TimestampUnit): number {
  const inUnit = unit === 'seconds' ? Math.floor(sinceMs / 1000) : Math.floor(sinceMs);
  return inUnit - 1;
}

/**
 * How the server read the parameter: `within` as hoped; `mixed` (the re-check drops the rest);
 * `outside` (it filters the other way: ask without it); `empty`.
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
  readonly unreliable: boolean;
  readonly needFull: boolean;
}

/**
 * The tree shows the union of both, re-checked, so a server that filters differently never hides an
 * event; this only decides whether to ask again without the filter.
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
