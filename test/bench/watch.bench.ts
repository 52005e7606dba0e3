// Issue 26: 50 watched machines for a simulated hour. The real watch list
// (src/extension/watch/watchList.ts) polls through the real events cache, on a fake
// clock, against machines whose onboarding is scripted in time; every request
// that reaches the API is counted, beside a naive fixed 15-second poll
// (50 × 240 = 12,000). Three fleets: onboardings as the demo's data has them
// (a step every few minutes, onboarded or failed 46–51 minutes after the
// start, watched from the start), machines stuck on one step for the whole
// hour (the back-off's worst case: nothing ever changes), and the stuck fleet
// in a window without focus.
import type { EventsResult, OnboardingEvent } from '../../src/core/client/model';
import { validateEvent } from '../../src/core/client/validateEvents';
import { DEFAULT_EVENT_STATE_RULES } from '../../src/core/domain/events/eventState';
import { DEFAULT_WATCH_TIMING, MAX_WATCHES, nextPollDelay } from '../../src/core/domain/watch/watchRules';
import { EventsCache } from '../../src/core/eventsCache/eventsCache';
import type { Claims } from '../../src/core/common/claims';
import { WatchList, type WatchStore } from '../../src/extension/watch/watchList';
import { makeEvent } from '../support/fakeApi';
import { FakeClock } from '../support/watch/fakeClock';
import type { Benchmark } from './index';

const HOUR = 60 * 60_000;
const MINUTE = 60_000;
const T0 = Date.UTC(2025, 5, 2, 8, 0, 0);
const NAIVE = MAX_WATCHES * (HOUR / 15_000);

const serialOf = (i: number): string => `MX-4711-B${String(i).padStart(4, '0')}`;

interface Step {
  readonly at: number;
  readonly type: string;
}

/** A deterministic spread (no Math.random: the figure must not move between runs). */
function spread(i: number, salt: number, span: number): number {
  return (((i * 7919 + salt * 104_729) % 1000) / 1000) * span;
}

/** An onboarding as the demo's data has them: steps minutes apart, ending 46–51 min after the start; every seventh fails. */
function realisticSteps(i: number): Step[] {
  const end = 46 * MINUTE + spread(i, 1, 5 * MINUTE);
  const types = ['DEVICE_REGISTERED', 'CERTIFICATE_REQUESTED', 'CERTIFICATE_ISSUED', 'FIRMWARE_CHECKED', 'CONFIGURATION_APPLIED'];
  const steps: Step[] = [{ at: 0, type: 'ONBOARDING_STARTED' }];
  types.forEach((type, k) => steps.push({ at: ((k + 1) / (types.length + 1)) * end + spread(i, k + 2, 2 * MINUTE) - MINUTE, type }));
  steps.push({ at: end, type: i % 7 === 3 ? 'ONBOARDING_FAILED' : 'ONBOARDING_COMPLETED' });
  return steps;
}

const stuckSteps = (): Step[] => [{ at: 0, type: 'ONBOARDING_STARTED' }];

class MemoryStore implements WatchStore {
  private readonly values = new Map<string, unknown>();
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the shape of vscode.Memento.get
  get<T>(key: string): T | undefined {
    return this.values.get(key) as T | undefined;
  }
  update(key: string, value: unknown): Thenable<void> {
    this.values.set(key, value);
    return Promise.resolve();
  }
}

const claims: Claims = { claim: () => Promise.resolve(true) };

async function settle(): Promise<void> {
  for (let i = 0; i < 4; i++) await new Promise((resolve) => setImmediate(resolve));
}

async function simulate(scripts: (i: number) => Step[], focused: boolean): Promise<{ requests: number; ended: number }> {
  const clock = new FakeClock(T0);
  let requests = 0;
  const eventsOf = new Map<string, OnboardingEvent[]>();
  for (let i = 0; i < MAX_WATCHES; i++)
    eventsOf.set(
      serialOf(i),
      scripts(i).map((step) => {
        const event = validateEvent(makeEvent({ type: step.type, message: step.type, timestamp: T0 + Math.round(step.at) }), serialOf(i));
        if (typeof event === 'string') throw new Error(event);
        return event;
      }),
    );
  const source = {
    getEvents: (serialNumber: string): Promise<EventsResult> => {
      requests++;
      const events = (eventsOf.get(serialNumber) ?? []).filter((event) => event.time.epochMs <= clock.now()).reverse();
      return Promise.resolve({ serialNumber, events, invalid: [], fetchedAt: clock.now(), truncated: false });
    },
  };
  const cache = new EventsCache({ source: () => source, freshForMs: () => 60_000, now: () => clock.now() });
  const list = new WatchList({
    events: cache,
    store: new MemoryStore(),
    claims,
    environment: () => 'bench',
    rules: () => DEFAULT_EVENT_STATE_RULES,
    timing: () => DEFAULT_WATCH_TIMING,
    focused: () => focused,
    clock,
  });
  let ended = 0;
  list.onDidEnd(() => ended++);
  for (let i = 0; i < MAX_WATCHES; i++) await list.start(serialOf(i));
  await clock.advance(HOUR, settle);
  list.dispose();
  return { requests, ended };
}

/** What the schedule alone allows one machine on which nothing changes for an hour: the start's read and every due poll. */
function stuckBound(focused: boolean): number {
  let polls = 1;
  let at = 0;
  for (let quiet = 0; ; quiet++) {
    at += nextPollDelay({ quietPolls: quiet, failedPolls: 0 }, focused);
    if (at > HOUR) return polls;
    polls++;
  }
}

export const watchBench: Benchmark = {
  name: 'watch (50 watched machines, a simulated hour)',
  async run() {
    const realistic = await simulate(realisticSteps, true);
    const stuck = await simulate(stuckSteps, true);
    const unfocused = await simulate(stuckSteps, false);
    const bound = MAX_WATCHES * stuckBound(true);
    const unfocusedBound = MAX_WATCHES * stuckBound(false);
    const line = (label: string, requests: number): void => {
      console.log(`${label.padEnd(58)} ${String(requests).padStart(6)} requests  (${((requests / NAIVE) * 100).toFixed(1)}% of naive)`);
    };
    console.log(`naive fixed 15-s poll, 50 machines × 1 h                    ${String(NAIVE).padStart(6)} requests`);
    line(`ours, onboardings ending in 46–51 min (${realistic.ended} outcomes)`, realistic.requests);
    line('ours, nothing changes all hour (focused window)', stuck.requests);
    line('ours, nothing changes all hour (window without focus)', unfocused.requests);
    console.log(`the back-off allows at most ${bound} (focused) and ${unfocusedBound} (without focus) when nothing changes`);
    const met =
      stuck.requests <= bound && unfocused.requests <= unfocusedBound && realistic.requests < NAIVE / 4 && realistic.ended === MAX_WATCHES;
    console.log(met ? 'target met: within what the back-off allows, under a quarter of naive' : 'TARGET MISSED');
    return met;
  },
};
