// Where a machine stands, as far as its events tell. The spec leaves states
// and event types open (§3, §2.2), so the state is read from the type of the
// newest event by the one mapping the tree and the editor use. Pure: unit-tested.
import type { EventsResult, OnboardingEvent } from '../../core/model';
import { DEFAULT_EVENT_STATE_RULES, eventState, type EventStateRules } from '../events/eventState';

export type OnboardingState = 'failed' | 'completed' | 'in-progress' | 'no-events' | 'unavailable';

/** Order and wording of states in results (English: the reader is a model): failures first, since that is what people ask about. */
export const STATES: readonly { readonly state: OnboardingState; readonly wording: string }[] = [
  { state: 'failed', wording: 'failed' },
  { state: 'unavailable', wording: 'unavailable (the request failed)' },
  { state: 'in-progress', wording: 'in progress' },
  { state: 'no-events', wording: 'no events' },
  { state: 'completed', wording: 'completed' },
];

/** The one mapping from event types to states (domain/events/eventState.ts), in this file's words. */
export function stateOfEvent(
  newest: OnboardingEvent | undefined,
  rules: EventStateRules = DEFAULT_EVENT_STATE_RULES,
): Exclude<OnboardingState, 'unavailable'> {
  if (newest === undefined) return 'no-events';
  const state = eventState(newest, rules);
  return state === 'onboarded' ? 'completed' : state === 'failed' ? 'failed' : 'in-progress';
}

export function stateOfResult(result: EventsResult): Exclude<OnboardingState, 'unavailable'> {
  return stateOfEvent(newestOf(result.events));
}

/** The newest event: the client sorts newest first, but a result read back from disk is checked, not trusted. */
export function newestOf(events: readonly OnboardingEvent[]): OnboardingEvent | undefined {
  let newest: OnboardingEvent | undefined;
  for (const event of events) if (newest === undefined || event.time.epochMs > newest.time.epochMs) newest = event;
  return newest;
}

/** The machine-created event, for its asset id. */
export function createdEventOf(events: readonly OnboardingEvent[]): OnboardingEvent | undefined {
  return events.find((event) => event.assetId !== undefined);
}

export function countStates(states: readonly OnboardingState[]): ReadonlyMap<OnboardingState, number> {
  const counts = new Map<OnboardingState, number>(STATES.map(({ state }) => [state, 0]));
  for (const state of states) counts.set(state, (counts.get(state) ?? 0) + 1);
  return counts;
}

export function labelOf(state: OnboardingState): string {
  return STATES.find((entry) => entry.state === state)?.wording ?? state;
}
