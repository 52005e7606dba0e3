// The one state vocabulary. The spec lists no event types (§2.2), so the `eventStates` setting maps a
// type to a state; an event with an assetId is always onboarded. Every view reads state through
// machineState/eventState, always with the user's rules, and says it with stateWord.
import type { Localize } from '../../common/localize';
import type { EventsResult, OnboardingEvent } from '../../client/model';
import { serverTextData } from '../../common/serverText';

export type EventState = 'onboarded' | 'failed' | 'in-progress';

export type MachineState = EventState | 'no-events' | 'unknown' | 'unavailable';

/** The `onboardingEvents.eventStates` setting: words a type name contains (case-insensitive). */
export interface EventStateRules {
  readonly failed: readonly string[];
  readonly onboarded: readonly string[];
}

/** Must equal the setting's default in package.json (a unit test compares them). */
export const DEFAULT_EVENT_STATE_RULES: EventStateRules = {
  failed: ['FAIL', 'ERROR', 'REJECT', 'ABORT'],
  onboarded: ['COMPLETE', 'SUCCESS', 'DONE', 'FINISH'],
};

/** Longest word kept from the setting; a type name longer than any real one is not worth matching. */
const MAX_WORD_LENGTH = 100;
/** At most this many words per state: the check runs per event, the list comes from a hand-edited file. */
const MAX_WORDS = 50;

function words(value: unknown, fallback: readonly string[]): readonly string[] {
  if (!Array.isArray(value)) return fallback;
  return value
    .filter((entry): entry is string => typeof entry === 'string')
    .map((entry) => entry.trim().toUpperCase())
    .filter((entry) => entry !== '' && entry.length <= MAX_WORD_LENGTH)
    .slice(0, MAX_WORDS);
}

/** A missing or mistyped list keeps its default; an empty list means "no type name means this". */
export function parseEventStateRules(value: unknown): EventStateRules {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return DEFAULT_EVENT_STATE_RULES;
  const record = value as Record<string, unknown>;
  return {
    failed: words(record['failed'], DEFAULT_EVENT_STATE_RULES.failed),
    onboarded: words(record['onboarded'], DEFAULT_EVENT_STATE_RULES.onboarded),
  };
}

function contains(type: string, list: readonly string[]): boolean {
  for (const word of list) if (type.includes(word)) return true;
  return false;
}

/** `failed` words are checked before `onboarded` ones: `COMPLETED_WITH_ERRORS` is a failure. */
export function eventState(event: Pick<OnboardingEvent, 'type' | 'assetId'>, rules: EventStateRules): EventState {
  if (event.assetId !== undefined) return 'onboarded';
  const type = serverTextData(event.type).toUpperCase();
  if (contains(type, rules.failed)) return 'failed';
  if (contains(type, rules.onboarded)) return 'onboarded';
  return 'in-progress';
}

export interface KnownMachine {
  readonly result?: EventsResult | undefined;
  readonly errorKind?: string | undefined;
}

/** The newest event: results are sorted newest first, but one that was not must not change a machine's state. */
export function newestOf(events: readonly OnboardingEvent[]): OnboardingEvent | undefined {
  let newest: OnboardingEvent | undefined;
  for (const event of events) if (newest === undefined || event.time.epochMs > newest.time.epochMs) newest = event;
  return newest;
}

/**
 * Unknown only for a 404 (spec §7 leaves failure codes open; "not found" is the one reading that
 * means "never heard of it"); unavailable for any other failure with nothing kept.
 */
export function machineState(
  known: { readonly result: EventsResult } | { readonly errorKind: string },
  rules: EventStateRules,
): MachineState;
export function machineState(known: KnownMachine, rules: EventStateRules): MachineState | undefined;
export function machineState(known: KnownMachine, rules: EventStateRules): MachineState | undefined {
  const { result } = known;
  if (result !== undefined) {
    const newest = newestOf(result.events);
    return newest === undefined ? 'no-events' : eventState(newest, rules);
  }
  if (known.errorKind === undefined) return undefined;
  return known.errorKind === 'not-found' ? 'unknown' : 'unavailable';
}

/** Agent tools pass an English `t`: their reader is a model. */
export function stateWord(state: MachineState, t: Localize): string {
  switch (state) {
    case 'onboarded':
      return t('onboarded');
    case 'failed':
      return t('failed');
    case 'in-progress':
      return t('in progress');
    case 'no-events':
      return t('no events');
    case 'unknown':
      return t('unknown');
    case 'unavailable':
      return t('unavailable');
  }
}

/** Vscode-free ids (the glue builds ThemeIcon/ThemeColor), and a glyph where no codicon shows. */
export interface StateLook {
  readonly icon: string;
  readonly color: string;
  readonly glyph: string;
}

export const STATE_LOOKS: { readonly [S in MachineState]: StateLook } = {
  onboarded: { icon: 'pass', color: 'testing.iconPassed', glyph: '\u2713' },
  failed: { icon: 'error', color: 'list.errorForeground', glyph: '\u2717' },
  'in-progress': { icon: 'sync', color: 'charts.blue', glyph: '\u25d0' },
  'no-events': { icon: 'circle-large-outline', color: 'descriptionForeground', glyph: '\u25cb' },
  unknown: { icon: 'question', color: 'list.warningForeground', glyph: '?' },
  unavailable: { icon: 'warning', color: 'list.warningForeground', glyph: '\u26a0' },
};

export function isProblemState(state: MachineState | undefined): state is 'failed' | 'no-events' | 'unknown' {
  return state === 'failed' || state === 'no-events' || state === 'unknown';
}
