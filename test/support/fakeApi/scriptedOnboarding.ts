// A scripted onboarding: events that appear on the fake over time, as a
// machine being commissioned produces them, ending completed or failed. The
// watch tests and the demo play one; each event's timestamp is the moment it
// appears (a step with a negative offset happened before the play started,
// so a short play can still read as a 46-minute onboarding).
import { makeEvent } from './data';

export interface ScriptedStep {
  /** When the event appears, in ms after the play starts (≤ 0: at once, dated that long before). */
  readonly afterMs: number;
  readonly type: string;
  readonly message: string;
  readonly assetId?: string;
}

/** Where the fake keeps events: FakeApi.addEvent. */
export interface EventSink {
  addEvent(serial: string, event: unknown): void;
}

/** A started play: `done` resolves once its last event is on the fake; `stop()` cancels what has not appeared. */
export interface OnboardingPlay {
  readonly done: Promise<void>;
  stop(): void;
}

export const SCRIPTED_ASSET_ID = '9d1e6f2a-4b3c-4d5e-8f70-a1b2c3d4e5f6';

/**
 * The steps of a typical onboarding, `stepMs` apart, ending `outcome`. With
 * `startedMsAgo` the first step is dated that long before the play (the
 * engineer started it earlier), so "onboarded in N min" reads like the real
 * thing in a demo of a few minutes.
 */
export function onboardingScript(outcome: 'completed' | 'failed', stepMs: number, startedMsAgo = 0): ScriptedStep[] {
  const steps: ScriptedStep[] = [
    { afterMs: -startedMsAgo, type: 'ONBOARDING_STARTED', message: 'Onboarding started by operator@example.invalid' },
    { afterMs: stepMs, type: 'DEVICE_REGISTERED', message: 'Device registered with gateway gw-eu-1' },
    { afterMs: 2 * stepMs, type: 'CERTIFICATE_REQUESTED', message: 'Device certificate requested' },
  ];
  if (outcome === 'failed')
    return [
      ...steps,
      {
        afterMs: 3 * stepMs,
        type: 'ONBOARDING_FAILED',
        message: 'Certificate enrolment rejected: the device clock is 3 h ahead of the CA. Set the device time and start again.',
      },
    ];
  return [
    ...steps,
    { afterMs: 3 * stepMs, type: 'MACHINE_CREATED', message: 'Machine asset created', assetId: SCRIPTED_ASSET_ID },
    { afterMs: 4 * stepMs, type: 'ONBOARDING_COMPLETED', message: 'Onboarding completed' },
  ];
}

/** Plays `steps` for `serial` on the fake: each event is added when its time comes. */
export function playOnboarding(sink: EventSink, serial: string, steps: readonly ScriptedStep[], now = Date.now()): OnboardingPlay {
  const timers = new Set<NodeJS.Timeout>();
  let finish = (): void => undefined;
  const done = new Promise<void>((resolve) => (finish = resolve));
  let left = steps.length;
  const add = (step: ScriptedStep): void => {
    sink.addEvent(
      serial,
      makeEvent({
        type: step.type,
        message: step.message,
        timestamp: now + step.afterMs,
        ...(step.assetId === undefined ? {} : { assetId: step.assetId }),
      }),
    );
    if (--left === 0) finish();
  };
  for (const step of steps) {
    if (step.afterMs <= 0) add(step);
    else {
      const timer = setTimeout(() => {
        timers.delete(timer);
        add(step);
      }, step.afterMs);
      timer.unref();
      timers.add(timer);
    }
  }
  if (steps.length === 0) finish();
  return {
    done,
    stop: () => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}
