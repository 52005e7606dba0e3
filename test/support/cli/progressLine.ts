// The line both oe progress tiers serve: twelve machines that onboarded days ago, one on time,
// one stalled for hours, one silent for months (in process and as a process, the same line).
import { makeEvent, type FakeApi } from '../fakeApi';

export const MINUTE = 60_000;
export const DAY = 24 * 60 * MINUTE;
// Twelve: enough that a machine 2 minutes into its step has a range, with the machines in progress teaching too.
export const ONBOARDED = Array.from({ length: 12 }, (_, i) => `MX-4711-P00${String(i + 20)}`);
export const ON_TIME = 'MX-4711-P0010';
export const STALLED = 'MX-4711-P0011';
export const ABANDONED = 'MX-4711-P0012';
export const ALL = [...ONBOARDED, ON_TIME, STALLED, ABANDONED];

/** Events of one machine, oldest first: [type, minutes before now]. */
function events(steps: readonly (readonly [string, number])[]): Record<string, unknown>[] {
  return steps.map(([type, minutesAgo]) => makeEvent({ type, message: `${type} reported`, timestamp: Date.now() - minutesAgo * MINUTE }));
}

export function serveTheLine(api: FakeApi): void {
  ONBOARDED.forEach((serial, index) => {
    const start = ((3 + index) * DAY) / MINUTE;
    const step = 4 + (index % 6) * 0.4;
    api.setMachineEvents(
      serial,
      events([
        ['ONBOARDING_STARTED', start],
        ['FIRMWARE_CHECKED', start - step],
        ['DEVICE_CONFIGURED', start - 2 * step],
        ['ONBOARDING_COMPLETED', start - 3 * step],
      ]),
    );
  });
  api.setMachineEvents(
    ON_TIME,
    events([
      ['ONBOARDING_STARTED', 7],
      ['FIRMWARE_CHECKED', 2],
    ]),
  );
  api.setMachineEvents(
    STALLED,
    events([
      ['ONBOARDING_STARTED', 200],
      ['FIRMWARE_CHECKED', 180],
    ]),
  );
  api.setMachineEvents(
    ABANDONED,
    events([
      ['ONBOARDING_STARTED', (150 * DAY) / MINUTE + 5],
      ['FIRMWARE_CHECKED', (150 * DAY) / MINUTE],
    ]),
  );
}
