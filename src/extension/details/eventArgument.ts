// Commands can be run by anything and panel state comes back from disk, so the raw event is validated
// again as if it had just arrived; a reference is looked up in the cache, which holds only validated events.

import type { OnboardingEvent } from '../../core/client/model';
import type { TimestampUnitSetting } from '../../core/client/timestamp';
import { validateEvent } from '../../core/client/validateEvents';
import { isRecord } from '../../core/common/guards';
import { plainLocalize, type Localize } from '../../core/common/localize';
import { isPersistedState, type PersistedState } from './protocol';

export type EventResult = { readonly ok: true; readonly event: OnboardingEvent } | { readonly ok: false; readonly reason: string };

/** Accepts an OnboardingEvent, or `{ event }` as tree nodes pass it. `t` words the reason, the validator's too. */
export function eventFromArgument(argument: unknown, unit: TimestampUnitSetting, t: Localize = plainLocalize): EventResult {
  const candidate = isRecord(argument) && isRecord(argument['event']) ? argument['event'] : argument;
  if (!isRecord(candidate)) return { ok: false, reason: t('no event was given') };
  const serialNumber = candidate['serialNumber'];
  if (typeof serialNumber !== 'string' || serialNumber === '') return { ok: false, reason: t('the event has no serial number') };
  if (!('raw' in candidate)) return { ok: false, reason: t('the event carries no raw data') };
  return revalidate(serialNumber, candidate['raw'], unit, t);
}

export interface EventReference {
  readonly serialNumber: string;
  readonly key: string | undefined;
}

/**
 * An id, not the event, so no server data travels in a command URI; anything more is validated as an
 * event (a forged event must not pass as a reference).
 */
export function eventReference(argument: unknown): EventReference | undefined {
  if (!isRecord(argument)) return undefined;
  const { serialNumber, key, ...rest } = argument;
  if (typeof serialNumber !== 'string' || serialNumber === '' || Object.keys(rest).length > 0) return undefined;
  if (key !== undefined && typeof key !== 'string') return undefined;
  return { serialNumber, key };
}

export function stateFor(event: OnboardingEvent): PersistedState {
  return { version: 1, serialNumber: event.serialNumber, raw: event.raw };
}

/** The event kept in a panel's state, validated again; a reason when the state is missing or no longer valid. */
export function eventFromState(state: unknown, unit: TimestampUnitSetting): EventResult {
  if (!isPersistedState(state)) return { ok: false, reason: 'the panel kept no event' };
  // Only the log reads why a restored panel closed: English.
  return revalidate(state.serialNumber, state.raw, unit, plainLocalize);
}

function revalidate(serialNumber: string, raw: unknown, unit: TimestampUnitSetting, t: Localize): EventResult {
  const result = validateEvent(raw, serialNumber, unit, t);
  return typeof result === 'string' ? { ok: false, reason: result } : { ok: true, event: result };
}
