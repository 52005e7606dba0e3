// Events for the agent tools' pure modules, built through the real validator
// from spec-shaped raw objects (so links, asset ids and times are as the
// client would hand them over).
import assert from 'node:assert/strict';
import type { EventsResult, OnboardingEvent } from '../../../../../src/core/client/model';
import { validateEvent } from '../../../../../src/core/client/validateEvents';
import { makeEvent, type MakeEventInput } from '../../../../support/fakeApi';

export const T0 = Date.UTC(2025, 0, 15, 8, 0, 0);
export const MINUTE = 60_000;
/** "Now" of the tests: three days after T0. */
export const NOW = T0 + 3 * 24 * 60 * MINUTE;

export function event(input: Partial<MakeEventInput> & { readonly minute: number }, serial = 'MX-4711-A0023'): OnboardingEvent {
  const raw = makeEvent({
    type: input.type ?? 'STEP',
    message: input.message ?? `step at minute ${input.minute}`,
    timestamp: T0 + input.minute * MINUTE,
    ...(input.assetId !== undefined ? { assetId: input.assetId } : {}),
    ...(input.extra !== undefined ? { extra: input.extra } : {}),
  });
  const validated = validateEvent(raw, serial);
  assert.ok(typeof validated !== 'string', validated as string);
  return validated;
}

export function result(serial: string, events: readonly OnboardingEvent[], fetchedAt = NOW - 2 * MINUTE): EventsResult {
  return {
    serialNumber: serial,
    events: [...events].sort((a, b) => b.time.epochMs - a.time.epochMs),
    invalid: [],
    fetchedAt,
    truncated: false,
  };
}
