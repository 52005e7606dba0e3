// A line of machines for the progress tests: each machine goes through named
// steps at given minutes (events built through the real validator).
import type { OnboardingEvent } from '../../../../../src/core/client/model';
import { event, MINUTE, T0 } from '../../../machines/fixtures';

export { MINUTE, T0 };

/** The usual line: six steps, the last the outcome. */
export const USUAL = [
  'ONBOARDING_STARTED',
  'CONFIG_APPLIED',
  'FIRMWARE_CHECKED',
  'CERTIFICATE_ISSUED',
  'MACHINE_REGISTERED',
  'ONBOARDING_COMPLETED',
];

/** A machine's events, newest first as the API sends them: `steps` as [type, minute] from `start`. */
export function machine(serial: string, steps: readonly (readonly [string, number])[], start = 0): OnboardingEvent[] {
  return steps.map(([type, minute]) => event({ type, minute: start + minute }, serial)).reverse();
}

/** A machine that went through USUAL with the given minutes between steps. */
export function onboarded(serial: string, gaps: readonly number[], start = 0): OnboardingEvent[] {
  let minute = 0;
  return machine(
    serial,
    USUAL.map((type, index) => {
      if (index > 0) minute += gaps[index - 1] ?? 1;
      return [type, minute] as const;
    }),
    start,
  );
}
