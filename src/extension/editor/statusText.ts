// The words of the inline status, Problems entries and completion ("✓ onboarded · 3 days ago"): only
// our state words and a time, never server text.
import type { Localize } from '../../core/common/localize';
import { formatRelative } from '../../core/common/time';
import type { EventsResult } from '../../core/client/model';
import {
  isProblemState,
  machineState,
  newestOf,
  STATE_LOOKS,
  stateWord,
  type EventStateRules,
  type MachineState,
} from '../../core/domain/events/eventState';
import type { LineMatch } from '../../core/domain/serialNumbers/visibleSerials';
import { lineText, type ServerText } from '../../core/common/serverText';

export interface SerialStatus {
  readonly state: MachineState;
  readonly latestEpochMs: number | undefined;
  /** Type of the newest event (server text: plain text only). */
  readonly latestType: ServerText | undefined;
  readonly stale: boolean;
}

/** A serial number's status from its cache entry and the error kind of a failed load; undefined while nothing is known. */
export function serialStatusOf(
  entry: { readonly result: EventsResult; readonly stale: boolean; readonly error?: Error | undefined } | undefined,
  errorKind: string | undefined,
  rules: EventStateRules,
): SerialStatus | undefined {
  const state = machineState({ result: entry?.result, errorKind }, rules);
  if (state === undefined) return undefined;
  const latest = entry === undefined ? undefined : newestOf(entry.result.events);
  return {
    state,
    latestEpochMs: latest?.time.epochMs,
    latestType: latest?.type,
    stale: entry?.stale === true || entry?.error !== undefined,
  };
}

export interface PlannedStatus {
  readonly match: LineMatch;
  readonly state: MachineState;
  readonly text: string;
}

/** One look-up and one text per distinct serial number, however often it occurs. */
export function planStatuses(
  matches: readonly LineMatch[],
  stateOf: (serialNumber: string) => SerialStatus | undefined,
  ctx: StatusTextContext,
): PlannedStatus[] {
  const texts = new Map<string, { state: MachineState; text: string } | undefined>();
  const planned: PlannedStatus[] = [];
  for (const match of matches) {
    let known = texts.get(match.serialNumber);
    if (!texts.has(match.serialNumber)) {
      const state = stateOf(match.serialNumber);
      known = state === undefined ? undefined : { state: state.state, text: inlineStatusText(state.state, state.latestEpochMs, ctx) };
      texts.set(match.serialNumber, known);
    }
    if (known !== undefined) planned.push({ match, state: known.state, text: known.text });
  }
  return planned;
}

export interface PlannedProblem {
  readonly match: LineMatch;
  readonly state: 'failed' | 'no-events' | 'unknown';
  readonly message: string;
}

const TYPE_TEXT_MAX = 60;

/** The Problems-panel entries for `matches` (every occurrence), one state and message per serial number. */
export function planProblems(
  matches: readonly LineMatch[],
  stateOf: (serialNumber: string) => SerialStatus | undefined,
  ctx: StatusTextContext,
): PlannedProblem[] {
  const known = new Map<string, { state: 'failed' | 'no-events' | 'unknown'; message: string } | undefined>();
  const planned: PlannedProblem[] = [];
  for (const match of matches) {
    let entry = known.get(match.serialNumber);
    if (!known.has(match.serialNumber)) {
      const state = stateOf(match.serialNumber);
      entry =
        state !== undefined && isProblemState(state.state)
          ? {
              state: state.state,
              message: problemMessage(
                match.serialNumber,
                state.state,
                state.latestType === undefined ? undefined : lineText(state.latestType, TYPE_TEXT_MAX),
                ctx,
              ),
            }
          : undefined;
      known.set(match.serialNumber, entry);
    }
    if (entry !== undefined) planned.push({ match, state: entry.state, message: entry.message });
  }
  return planned;
}

export interface StatusTextContext {
  readonly now: number;
  readonly locale: string;
  readonly t: Localize;
}

export function stateSummary(state: MachineState, latestEpochMs: number | undefined, ctx: StatusTextContext): string {
  const word = stateWord(state, ctx.t);
  if (latestEpochMs === undefined) return word;
  const age = formatRelative(latestEpochMs, ctx.now, ctx.locale);
  return age === undefined ? word : `${word} · ${age}`;
}

export function inlineStatusText(state: MachineState, latestEpochMs: number | undefined, ctx: StatusTextContext): string {
  return `${STATE_LOOKS[state].glyph} ${stateSummary(state, latestEpochMs, ctx)}`;
}

export function problemMessage(
  serialNumber: string,
  state: 'failed' | 'no-events' | 'unknown',
  latestType: string | undefined,
  ctx: StatusTextContext,
): string {
  switch (state) {
    case 'failed':
      // The type name is server text: a diagnostic message is plain text, never rendered as Markdown.
      return ctx.t('Onboarding of {0} failed: its latest event is {1}.', serialNumber, latestType ?? '?');
    case 'no-events':
      return ctx.t('The platform has no onboarding events for {0}.', serialNumber);
    case 'unknown':
      return ctx.t('The platform does not know the serial number {0}.', serialNumber);
  }
}
