// A commissioning line whose future is known, for the time-to-go backtest
// (test/bench/timeToGo.bench.ts): machines of two kinds start around the
// clock, go through their kind's steps at times that vary by step, slower at
// night; some need a firmware update (a slow cohort, seen only once its
// firmware is checked), some fail their self test and retry, some fail for
// good, some hang at a step for hours, a few were given up on months ago.
// Seeded: the same seed gives the same line. Every machine's whole future is
// generated; a backtest cuts it at a time and compares what was said with
// what came after.
import { serverText } from '../../../src/core/common/serverText';
import type { OnboardingEvent } from '../../../src/core/client/model';
import { atNight } from '../../../src/core/domain/progress/lineTimes';
import { seededRandom } from '../fakeApi/ordering';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** One step of a kind: its type and the median minutes it takes from the step before. */
interface StepPlan {
  readonly type: string;
  readonly minutes: number;
}

/** Presses (the usual kind): the firmware update comes after FIRMWARE_CHECKED for the slow cohort. */
const PRESS: readonly StepPlan[] = [
  { type: 'DEVICE_REGISTERED', minutes: 8 },
  { type: 'CERTIFICATE_ISSUED', minutes: 20 },
  { type: 'FIRMWARE_CHECKED', minutes: 30 },
  { type: 'CONFIG_APPLIED', minutes: 35 },
  { type: 'SELF_TEST_PASSED', minutes: 45 },
  { type: 'ONBOARDING_COMPLETED', minutes: 15 },
];
/** Assembly robots (the second kind): some steps shared with other times, one of their own. */
const ROBOT: readonly StepPlan[] = [
  { type: 'DEVICE_REGISTERED', minutes: 4 },
  { type: 'CALIBRATED', minutes: 70 },
  { type: 'CERTIFICATE_ISSUED', minutes: 6 },
  { type: 'CONFIG_APPLIED', minutes: 12 },
  { type: 'ONBOARDING_COMPLETED', minutes: 5 },
];
const FIRMWARE_UPDATE: StepPlan = { type: 'FIRMWARE_UPDATED', minutes: 80 };
const SPREAD = 0.55; // sigma of the log-normal step times
const NIGHT_FACTOR = 1.7;
const SHARE_ROBOTS = 0.3;
const SHARE_FIRMWARE_UPDATE = 0.3;
const SHARE_REWORK = 0.25;
const SHARE_FAILING = 0.04;
const SHARE_HANGING = 0.04;
const ABANDONED_LONG_AGO = 6;

/** What became of a machine after all: onboarded (at), failed, or never anything more. */
export type Fate = { readonly kind: 'onboarded'; readonly at: number } | { readonly kind: 'failed' | 'never' };

export interface GeneratedMachine {
  readonly serialNumber: string;
  /** Every event it will ever have, oldest first. */
  readonly events: readonly OnboardingEvent[];
  readonly fate: Fate;
  /** A planted hang: the whole stay it hung in, from its newest event to the next (Infinity when it never went on). */
  readonly hang: { readonly from: number; readonly to: number } | undefined;
  /** Given up on long before the line started. */
  readonly abandoned: boolean;
}

export interface GeneratedLine {
  readonly machines: readonly GeneratedMachine[];
  /** When the first machine started. */
  readonly start: number;
}

function event(serialNumber: string, type: string, at: number, index: number, assetId?: string): OnboardingEvent {
  return {
    serialNumber,
    type: serverText(type),
    message: serverText(`${type} for ${serialNumber}`),
    time: { raw: at, epochMs: at, unit: 'milliseconds', detected: true },
    ...(assetId === undefined ? {} : { assetId }),
    links: {},
    extra: {},
    raw: {},
    key: `${serialNumber}-${index}`,
  };
}

/** How big a line is: how many machines start, how many an hour, from when (local time: the night is the host's, as the product reads it). */
export interface LineSize {
  readonly machines: number;
  readonly arrivalsPerHour: number;
  readonly start: number;
}

const DEFAULT_SIZE: LineSize = { machines: 1400, arrivalsPerHour: 30, start: new Date(2025, 2, 3, 6, 0).getTime() };

/** The line of `seed`. */
export function generateLine(seed: number, size: Partial<LineSize> = {}): GeneratedLine {
  const { machines, arrivalsPerHour, start } = { ...DEFAULT_SIZE, ...size };
  const random = seededRandom(seed);
  const normal = (): number => {
    const u = Math.max(random(), 1e-12);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
  };
  const duration = (plan: StepPlan, at: number): number =>
    Math.round(plan.minutes * MINUTE * Math.exp(SPREAD * normal()) * (atNight(at) ? NIGHT_FACTOR : 1));
  const line: GeneratedMachine[] = [];
  let arrival = start;
  for (let m = 0; m < machines; m++) {
    arrival += Math.round((-Math.log(Math.max(random(), 1e-12)) / arrivalsPerHour) * HOUR);
    const robot = random() < SHARE_ROBOTS;
    const serialNumber = robot ? `ASM-8800-H${String(m).padStart(5, '0')}` : `LSR-7000-G${String(m).padStart(5, '0')}`;
    const plan = [...(robot ? ROBOT : PRESS)];
    if (!robot && random() < SHARE_FIRMWARE_UPDATE) plan.splice(3, 0, FIRMWARE_UPDATE);
    const failsAt = random() < SHARE_FAILING ? 1 + Math.floor(random() * (plan.length - 1)) : -1;
    const hangsAt = random() < SHARE_HANGING ? Math.floor(random() * (plan.length - 1)) : -1;
    const hangFor = (2 + random() * 46) * HOUR;
    const hangEnds = random() < 0.7; // the rest never go on
    const events: OnboardingEvent[] = [];
    let at = arrival;
    events.push(event(serialNumber, 'ONBOARDING_STARTED', at, 0));
    let fate: Fate | undefined;
    let hang: GeneratedMachine['hang'];
    plan.forEach((step, index) => {
      if (fate !== undefined) return;
      const from = at;
      if (index === hangsAt && !hangEnds) {
        hang = { from, to: Infinity };
        fate = { kind: 'never' };
        return;
      }
      if (index === hangsAt) at += hangFor;
      at += duration(step, at);
      if (index === hangsAt) hang = { from, to: at };
      if (index === failsAt) {
        events.push(event(serialNumber, 'ONBOARDING_FAILED', at, events.length));
        fate = { kind: 'failed' };
        return;
      }
      // Rework: the self test fails, is started again at once, and takes its time again (maybe more than once).
      if (step.type === 'SELF_TEST_PASSED')
        for (let round = 0; round < 3 && random() < (round === 0 ? SHARE_REWORK : 0.3); round++) {
          events.push(event(serialNumber, 'SELF_TEST_FAILED', at, events.length));
          at += Math.round((0.5 + random()) * MINUTE);
          events.push(event(serialNumber, 'SELF_TEST_RESTARTED', at, events.length));
          at += duration(step, at);
        }
      const outcome = step.type === 'ONBOARDING_COMPLETED';
      events.push(
        event(serialNumber, step.type, at, events.length, outcome ? `5d1c7e0a-2b7f-4c1e-9e0d-${String(m).padStart(12, '0')}` : undefined),
      );
      if (outcome) fate = { kind: 'onboarded', at };
    });
    line.push({ serialNumber, events, fate: fate ?? { kind: 'never' }, hang, abandoned: false });
  }
  // Given up on months ago, somewhere on the way: their newest event is old.
  for (let a = 0; a < ABANDONED_LONG_AGO; a++) {
    const serialNumber = `LSR-7000-X${String(a).padStart(5, '0')}`;
    let at = start - (40 + random() * 120) * DAY;
    const events = [event(serialNumber, 'ONBOARDING_STARTED', at, 0)];
    for (const step of PRESS.slice(0, 1 + Math.floor(random() * 3))) {
      at += duration(step, at);
      events.push(event(serialNumber, step.type, at, events.length));
    }
    line.push({ serialNumber, events, fate: { kind: 'never' }, hang: undefined, abandoned: true });
  }
  return { machines: line, start };
}

/** A machine's events up to `cut`, newest first as the API sends them. */
export function eventsAt(machine: GeneratedMachine, cut: number): OnboardingEvent[] {
  const known: OnboardingEvent[] = [];
  for (const e of machine.events) if (e.time.epochMs <= cut) known.push(e);
  return known.reverse();
}
