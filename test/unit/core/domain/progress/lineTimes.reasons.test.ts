// LineTimes' reasons at their edges beside lineTimes.bounds: a share under 10 %, a step behind the
// machine, and night told only by machines whose stay ended.
import assert from 'node:assert/strict';
import { serverTextData } from '../../../../../src/core/common/serverText';
import {
  dayMinuteOf,
  LineTimes,
  type StayAnswer,
  type TimedEvent,
  type TimedLesson,
} from '../../../../../src/core/domain/progress/lineTimes';

const MINUTE = 60_000;
const DAY0 = new Date(2026, 0, 5).getTime();
const ASKED = DAY0 + 3 * 24 * 60 * MINUTE;

/** A machine's lesson: `keys[i]` stayed the newest for `minutes[i]`, then the outcome (or, when open, still going). */
function lesson(
  keys: readonly string[],
  minutes: readonly number[],
  options: { open?: boolean; reworkBefore?: number; startMinute?: number } = {},
): TimedLesson {
  const total = minutes.reduce((sum, m) => sum + m, 0);
  const start = DAY0 + (options.startMinute ?? 600) * MINUTE;
  const events: TimedEvent[] = [];
  const timed: TimedLesson = {
    kind: undefined,
    keys,
    reworkBefore: options.reworkBefore ?? 0,
    totalMs: options.open === true ? undefined : total * MINUTE,
    open: options.open === true,
    events,
  };
  let at = 0;
  keys.forEach((_, index) => {
    const atMs = start + at * MINUTE;
    events.push({
      gapMs: (minutes[index] ?? 0) * MINUTE,
      remainingMs: (total - at) * MINUTE,
      dayMinute: dayMinuteOf(atMs),
      atMs,
      lesson: timed,
      index,
    });
    at += minutes[index] ?? 0;
  });
  return timed;
}

function reasons(lessons: readonly TimedLesson[], key: string, beganMinute = 720): unknown[] {
  const times = new LineTimes();
  for (const each of lessons) times.add(each);
  const answer: StayAnswer = times.stay({ key, kind: undefined, atMs: MINUTE, nowMs: ASKED + beganMinute * MINUTE + MINUTE });
  return answer.reasons.map((reason) => (reason.kind === 'optional-step' ? { ...reason, type: serverTextData(reason.type) } : reason));
}

const times = (count: number, make: (i: number) => TimedLesson): TimedLesson[] => Array.from({ length: count }, (_, i) => make(i));

describe('lineTimes: reasons at their edges', () => {
  it('names no rework for under 10 % of the machines, however many', () => {
    const lessons = times(40, (i) =>
      i < 3 ? lesson(['A', 'B', 'C'], [5, 40, 5], { reworkBefore: 1 }) : lesson(['A', 'B', 'C'], [5, 30, 5]),
    );
    assert.deepEqual(reasons(lessons, 'A'), [], '3 of 40');
  });

  it('names no optional step the machines went through before the step asked of', () => {
    // Nine went through X before B and took longer from B; from B all go to Z.
    const lessons = times(30, (i) => (i < 9 ? lesson(['A', 'X', 'B', 'Z'], [5, 5, 60, 5]) : lesson(['A', 'B', 'Z'], [5, 30, 5])));
    assert.deepEqual(reasons(lessons, 'B'), []);
  });

  it('tells night slower from the machines whose stay ended: one still on its way makes no median', () => {
    // By night 40 minutes from A for five, 60 for five, and one still going after 100; by day 40.
    const lessons = [
      ...times(5, () => lesson(['A', 'B'], [10, 30], { startMinute: 23 * 60 })),
      ...times(5, () => lesson(['A', 'B'], [10, 50], { startMinute: 23 * 60 })),
      lesson(['A', 'B'], [10, 90], { startMinute: 23 * 60, open: true }),
      ...times(5, () => lesson(['A', 'B'], [10, 30], { startMinute: 12 * 60 })),
    ];
    assert.deepEqual(reasons(lessons, 'A', 23 * 60), []);
  });
});
