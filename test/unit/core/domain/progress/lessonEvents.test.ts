// The few events a lesson is made of, picked from a machine's events read one at a time: a history
// taught the picked events must answer as one taught every event.
import assert from 'node:assert/strict';
import type { OnboardingEvent } from '../../../../../src/core/client/model';
import { serverTextData } from '../../../../../src/core/common/serverText';
import { sortNewestFirst } from '../../../../../src/core/client/validateEvents';
import { DEFAULT_EVENT_STATE_RULES } from '../../../../../src/core/domain/events/eventState';
import { LessonEvents } from '../../../../../src/core/domain/progress/lessonEvents';
import { LineHistory, MAX_EVENTS_PER_MACHINE, type LearnedSteps } from '../../../../../src/core/domain/progress/lineHistory';
import { machineProgress } from '../../../../../src/core/domain/progress/machineProgress';
import { event } from '../../../machines/fixtures';
import { MINUTE, T0 } from './fixtures';

const rules = DEFAULT_EVENT_STATE_RULES;
const TYPES = ['ONBOARDING_STARTED', 'CONFIG_APPLIED', 'FIRMWARE_CHECKED', 'CONFIG_FAILED', 'CERTIFICATE_ISSUED', 'MACHINE_REGISTERED'];

/** A small deterministic generator, so a failure names its seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A machine's events in the order of its copy: some onboarded more than once, some not yet, times often equal. */
function copyOf(serial: string, next: () => number, shuffled: boolean): OnboardingEvent[] {
  const count = 1 + Math.floor(next() * (next() < 0.3 ? 400 : 40));
  let minute = Math.floor(next() * 600);
  const events: OnboardingEvent[] = [];
  for (let i = 0; i < count; i++) {
    minute += next() < 0.2 ? 0 : 1 + Math.floor(next() * 20);
    const type = next() < 0.03 ? 'ONBOARDING_COMPLETED' : (TYPES[Math.floor(next() * TYPES.length)] as string);
    events.push(event({ type, minute, message: `${serial} ${i}` }, serial));
  }
  if (next() < 0.6) events.splice(Math.floor(next() * events.length), 0, event({ type: 'ONBOARDING_COMPLETED', minute }, serial));
  if (!shuffled) return sortNewestFirst(events);
  for (let i = events.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [events[i], events[j]] = [events[j] as OnboardingEvent, events[i] as OnboardingEvent];
  }
  return events;
}

/** The events LessonEvents picks from `copy`, read as a stored copy is: once, and again when it asks. */
function picked(copy: readonly OnboardingEvent[]): { events: OnboardingEvent[]; readings: number } {
  const lesson = new LessonEvents(rules);
  for (const each of copy) lesson.add(each);
  if (!lesson.again) return { events: lesson.events(), readings: 1 };
  for (const each of copy) lesson.addAgain(each);
  return { events: lesson.events(), readings: 2 };
}

/** The steps, and of the times what a reader can ask of them without a question: the longest onboarding. */
function figures(steps: LearnedSteps): unknown {
  return steps.kind === 'steps' ? { ...steps, times: steps.times.longestOnboardingMs } : steps;
}

describe('LessonEvents: the events a lesson is made of, from a copy read one event at a time', () => {
  for (const seed of [1, 2, 3, 4]) {
    it(`teaches the history what all the events teach, newest first or in any order (seed ${seed})`, () => {
      const next = random(seed);
      const whole = new LineHistory(rules);
      const picking = new LineHistory(rules);
      const inProgress: OnboardingEvent[][] = [];
      let readTwice = 0;
      for (let m = 0; m < 80; m++) {
        const serial = `LSR-${seed}-${m}`;
        const copy = copyOf(serial, next, m % 2 === 1);
        const observedAt = T0 + 2000 * MINUTE;
        const { events, readings } = picked(copy);
        if (readings === 2) readTwice++;
        assert.ok(events.length <= MAX_EVENTS_PER_MACHINE + 2, `${events.length} events kept of ${copy.length}`);
        whole.learn(serial, sortNewestFirst(copy), { observedAt });
        picking.learn(serial, events, { observedAt });
        if (m % 5 === 0) inProgress.push(sortNewestFirst(copy).filter((e) => serverTextData(e.type) !== 'ONBOARDING_COMPLETED'));
      }
      assert.ok(readTwice > 0 && whole.machines >= 5, `${readTwice} copies read twice, ${whole.machines} machines onboarded`);
      assert.deepEqual(figures(picking.steps()), figures(whole.steps()));
      for (const events of inProgress)
        assert.deepEqual(
          machineProgress(events, picking.steps(), T0 + 2000 * MINUTE, rules),
          machineProgress(events, whole.steps(), T0 + 2000 * MINUTE, rules),
          'the times learned agree: the same time to go',
        );
    });
  }

  it('reads a copy that is newest first once, and one in another order twice', () => {
    const steps = Array.from({ length: 200 }, (_, i) => event({ type: TYPES[i % TYPES.length] as string, minute: i }, 'LSR-9'));
    const sorted = sortNewestFirst([...steps, event({ type: 'ONBOARDING_COMPLETED', minute: 150 }, 'LSR-9')]);
    assert.equal(picked(sorted).readings, 1);
    const reversed = [...sorted].reverse();
    assert.equal(picked(reversed).readings, 2);
    assert.deepEqual(picked(reversed).events, picked(sortNewestFirst(reversed)).events);
  });

  it('keeps a fixed number of events of a copy of any length', () => {
    const copy = Array.from({ length: 5000 }, (_, i) => event({ type: TYPES[i % TYPES.length] as string, minute: 5000 - i }, 'LSR-1'));
    assert.equal(picked(copy).events.length, MAX_EVENTS_PER_MACHINE, 'in progress: its newest events');
    const done = [event({ type: 'ONBOARDING_COMPLETED', minute: 6000 }, 'LSR-1'), ...copy];
    assert.equal(picked(done).events.length, MAX_EVENTS_PER_MACHINE + 2, 'onboarded: the outcome, the events before it and the first');
  });
});
