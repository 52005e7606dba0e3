// What LineTimes answers at its edges, asked directly with timed lessons as the history builds them:
// the sample thresholds, the kinds' bounds, what forgetting a machine takes back, the reasons'
// thresholds and the night window.
import assert from 'node:assert/strict';
import { serverTextData } from '../../../../../src/core/common/serverText';
import {
  atNight,
  dayMinuteOf,
  KIND_MINIMUM,
  LineTimes,
  MAX_KINDS,
  MIN_SAMPLE,
  serialFamily,
  type StayAnswer,
  type TimedEvent,
  type TimedLesson,
} from '../../../../../src/core/domain/progress/lineTimes';

const MINUTE = 60_000;
/** Local midnight of a day: the history's machines run on it, the questions are asked three days later. */
const DAY0 = new Date(2026, 0, 5).getTime();
const ASKED = DAY0 + 3 * 24 * 60 * MINUTE;

interface LessonOptions {
  readonly kind?: string;
  /** Still in progress: its last stay is going on, and it has no whole onboarding. */
  readonly open?: boolean;
  readonly reworkBefore?: number;
  /** Local minute of the day its first event came. */
  readonly startMinute?: number;
}

/** A machine's lesson: `keys[i]` stayed the newest for `minutes[i]`, then the outcome (or, when open, still going). */
function lesson(keys: readonly string[], minutes: readonly number[], options: LessonOptions = {}): TimedLesson {
  const total = minutes.reduce((sum, m) => sum + m, 0);
  const start = DAY0 + (options.startMinute ?? 600) * MINUTE;
  const events: TimedEvent[] = [];
  const timed: TimedLesson = {
    kind: options.kind,
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

function timesOf(lessons: readonly TimedLesson[]): LineTimes {
  const times = new LineTimes();
  for (const each of lessons) times.add(each);
  return times;
}

/** The answer for a machine at `key` for `atMinutes`, that began it at local minute `beganMinute` of the day asked. */
function ask(
  times: LineTimes,
  key: string,
  atMinutes: number,
  options: { kind?: string | undefined; beganMinute?: number } = {},
): StayAnswer {
  const atMs = atMinutes * MINUTE;
  return times.stay({ key, kind: options.kind, atMs, nowMs: ASKED + (options.beganMinute ?? 720) * MINUTE + atMs });
}

const range = (count: number): number[] => Array.from({ length: count }, (_, i) => i);

describe('lineTimes: bounds, thresholds and the night window', () => {
  it('counts 22:00 to 06:00 local time as night: 21:59 and 06:00 are day', () => {
    const at = (hour: number, minute: number): number => new Date(2026, 0, 5, hour, minute).getTime();
    assert.deepEqual([at(21, 59), at(22, 0), at(5, 59), at(6, 0)].map(atNight), [false, true, true, false]);
  });

  it('reads a serial number’s family before its last block, however many separators, and none past 64 characters', () => {
    assert.equal(serialFamily('LSR-7000--G0101'), 'LSR-7000');
    assert.equal(serialFamily(`${'A'.repeat(64)}-G1`), 'A'.repeat(64));
    assert.equal(serialFamily(`${'A'.repeat(65)}-G1`), undefined, 'a family is at most 64 characters');
  });

  it('says nothing of a step until MIN_SAMPLE stays of it ended, then its 90th percentile and longest; a stay still going is no ended one', () => {
    const done = (gap: number): TimedLesson => lesson(['A', 'B'], [gap, 10]);
    const four = timesOf([1, 2, 3, 4].map(done));
    assert.deepEqual(
      [ask(four, 'A', 0).stillShare, ask(four, 'A', 0).usuallyUnderMs, ask(four, 'A', 0).longestMs, ask(four, 'A', 0).toGo],
      [undefined, undefined, undefined, undefined],
    );
    assert.deepEqual(ask(four, 'A', 0).reasons, []);
    const ten = timesOf(range(10).map((i) => done(i + 1)));
    assert.deepEqual(
      [ask(ten, 'A', 0).compared, ask(ten, 'A', 0).usuallyUnderMs, ask(ten, 'A', 0).longestMs],
      [10, 9 * MINUTE, 10 * MINUTE],
      'of stays of 1 to 10 minutes, 9 of 10 ended within 9',
    );
    // Five ended, and one machine whose stay at A ended (60 min) and whose stay at B is going on (90 min).
    const five = timesOf([...[1, 2, 3, 4, 5].map(done), lesson(['A', 'B'], [60, 90], { open: true })]);
    const atA = ask(five, 'A', 0);
    assert.equal(MIN_SAMPLE, 5);
    assert.deepEqual([atA.compared, atA.longestMs], [6, 60 * MINUTE], 'its ended stay at A counts');
    const atB = ask(five, 'B', 0);
    assert.deepEqual([atB.compared, atB.longestMs, atB.usuallyUnderMs], [5, 10 * MINUTE, 10 * MINUTE], 'its stay at B is still going');
    assert.notEqual(atB.stillShare, undefined);
    // From A after 0 minutes, the five onboarded had 11 to 15 minutes left: median 13, 10th–90th 11–15.
    const toGo = timesOf([1, 2, 3, 4, 5].map(done));
    assert.deepEqual(ask(toGo, 'A', 0).toGo, { ms: 13 * MINUTE, lowMs: 11 * MINUTE, highMs: 15 * MINUTE, machines: 5 });
  });

  it('gives no time to go from fewer than MIN_SAMPLE onboarded machines: one still on its way does not make the fifth', () => {
    const four = [1, 2, 3, 4].map((gap) => lesson(['A', 'B'], [gap, 10]));
    // The one in progress left A long ago, and is known to have been on its way 2 minutes.
    const withOpen = timesOf([...four, lesson(['A', 'B'], [1, 1], { open: true })]);
    assert.equal(ask(withOpen, 'A', 0).toGo, undefined);
    // Five onboarded and fifty still going far longer: the median is past what the history knows.
    const mostlyOpen = timesOf([
      ...[1, 2, 3, 4, 5].map((gap) => lesson(['A', 'B'], [gap, 10])),
      ...range(50).map(() => lesson(['A', 'B'], [5, 500], { open: true })),
    ]);
    assert.equal(ask(mostlyOpen, 'A', 0).toGo, undefined);
  });

  it('keeps the longest whole onboarding, and takes it back when its machine is forgotten', () => {
    const times = new LineTimes();
    assert.equal(times.longestOnboardingMs, undefined);
    const long = lesson(['A'], [90]);
    const open = lesson(['A'], [500], { open: true });
    for (const each of [lesson(['A'], [30]), long, lesson(['A'], [60]), lesson(['A'], [45]), open]) times.add(each);
    assert.equal(times.longestOnboardingMs, 90 * MINUTE);
    times.remove(open);
    assert.equal(times.longestOnboardingMs, 90 * MINUTE, 'a machine in progress has no whole onboarding to take back');
    times.remove(long);
    assert.equal(times.longestOnboardingMs, 60 * MINUTE);
    const two = timesOf([lesson(['A'], [30]), lesson(['A'], [90])]);
    two.remove(open);
    assert.equal(two.longestOnboardingMs, 90 * MINUTE, 'a machine it never learned takes nothing back');
    times.clear();
    assert.deepEqual([times.longestOnboardingMs, ask(times, 'A', 0).compared], [undefined, 0]);
  });

  it(`learns at most MAX_KINDS kinds apart; a kind forgotten by all its machines frees its place`, () => {
    const times = new LineTimes();
    const first = range(MAX_KINDS).map((i) => lesson(['A'], [5], { kind: `K${i}` }));
    for (const each of first) times.add(each);
    const roomy = timesOf([...first.slice(1), lesson(['A'], [5])]);
    assert.equal(roomy.kindFor('NEW'), 'NEW', 'a machine of no kind takes no place');
    const second = lesson(['A'], [5], { kind: 'K0' });
    times.add(second);
    assert.deepEqual([times.kindFor('K0'), times.kindFor('NEW'), times.kindFor(undefined)], ['K0', undefined, undefined]);
    times.remove(first[0] as TimedLesson);
    assert.equal(times.kindFor('NEW'), undefined, 'K0 still has a machine');
    times.remove(second);
    assert.equal(times.kindFor('NEW'), 'NEW', 'K0 is gone');
  });

  it(`learns a kind apart once KIND_MINIMUM of its machines onboarded through the step; machines in progress do not count`, () => {
    const kind = (gap: number): TimedLesson => lesson(['A', 'B'], [gap, 5], { kind: 'K' });
    const pool = range(20).map(() => lesson(['A', 'B'], [1, 100]));
    const ofKind = range(KIND_MINIMUM - 1).map(() => kind(2));
    const open = lesson(['A', 'B'], [2, 3], { kind: 'K', open: true });
    const times = timesOf([...pool, ...ofKind, open]);
    assert.equal(ask(times, 'A', 0, { kind: 'K' }).cohort, undefined, '19 onboarded and one in progress: pooled');
    const last = kind(2);
    times.add(last);
    const apart = ask(times, 'A', 0, { kind: 'K' });
    assert.deepEqual([apart.cohort, apart.toGo?.ms], [{ label: 'K', machines: KIND_MINIMUM }, 7 * MINUTE]);
    times.remove(open);
    assert.deepEqual(
      ask(times, 'A', 0, { kind: 'K' }).cohort,
      { label: 'K', machines: KIND_MINIMUM },
      'the one in progress was never counted',
    );
    times.remove(last);
    assert.equal(ask(times, 'A', 0, { kind: 'K' }).cohort, undefined, '19 again');
    // Twenty onboarded of the kind, but only 19 went through C: C is read from the pool.
    const throughC = timesOf([...pool, ...range(19).map(() => lesson(['A', 'C'], [2, 5], { kind: 'K' })), kind(2)]);
    assert.deepEqual([ask(throughC, 'A', 0, { kind: 'K' }).cohort?.machines, ask(throughC, 'C', 0, { kind: 'K' }).cohort], [20, undefined]);
  });

  it('after forgetting machines answers as if it had never learned them', () => {
    // Stays of equal length but different times left, kinds learned apart, machines in progress.
    const kept = [
      ...range(22).map((i) => lesson(['A', 'B', 'C'], [10, 5 + (i % 4), 3], { kind: 'K', startMinute: 300 + i * 40 })),
      ...range(12).map((i) => lesson(['A', 'B', 'C'], [10, 20 + i, 3], { startMinute: 100 + i * 90 })),
      ...range(3).map((i) => lesson(['A', 'B'], [10, 50 + i], { kind: 'K', open: true })),
    ];
    const forgotten = [
      ...range(6).map((i) => lesson(['A', 'B', 'C'], [10, 60 + i, 9], { kind: 'K', startMinute: 1300 + i })),
      ...range(4).map((i) => lesson(['A', 'B', 'C', 'D'], [10, 7, 3, 40 + i], { kind: 'Q' })),
      ...range(2).map(() => lesson(['A', 'B'], [10, 80], { kind: 'K', open: true })),
      lesson(['A', 'E'], [10, 200]),
    ];
    const both = new LineTimes();
    for (let i = 0; i < Math.max(kept.length, forgotten.length); i++)
      for (const each of [kept[i], forgotten[i]]) if (each !== undefined) both.add(each);
    const questions = ['A', 'B', 'C', 'D', 'E'].flatMap((key) =>
      [undefined, 'K', 'Q'].flatMap((kind) => [0, 6, 12, 30].map((atMinutes) => ({ key, kind, atMinutes }))),
    );
    // Asked once before: no answer kept from then may outlive the machines forgotten.
    for (const { key, kind, atMinutes } of questions) ask(both, key, atMinutes, { kind });
    for (const each of forgotten) both.remove(each);
    const only = timesOf(kept);
    assert.equal(both.longestOnboardingMs, only.longestOnboardingMs);
    for (const { key, kind, atMinutes } of questions)
      assert.deepEqual(ask(both, key, atMinutes, { kind }), ask(only, key, atMinutes, { kind }), `${key} ${kind} after ${atMinutes} min`);
  });

  describe('reasons', () => {
    /** `withIt` of `of` machines had a retry ahead of A and `longer` minutes from it; the others 40. */
    function rework(withIt: number, of: number, longer: number): StayAnswer['reasons'] {
      const lessons = range(of).map((i) =>
        i < withIt ? lesson(['A', 'B', 'C'], [5, longer - 10, 5], { reworkBefore: 1 }) : lesson(['A', 'B', 'C'], [5, 30, 5]),
      );
      return ask(timesOf(lessons), 'A', 1).reasons;
    }

    it('names rework from 10 % of the machines, at least 3, that took at least 1.25 times as long', () => {
      assert.deepEqual(rework(3, 30, 50), [{ kind: 'rework', machines: 3, of: 30 }], '3 of 30, 50 minutes against 40');
      assert.deepEqual(rework(3, 30, 49), [], '49 minutes against 40 is not measurably longer');
      assert.deepEqual(rework(2, 20, 50), [], 'two machines are no reason');
      assert.deepEqual(rework(2, 30, 50), [], 'under 10 %');
      // Four with a retry: 10, 50, 50, 50 minutes; their median is 50, not their quickest.
      const lessons = range(30).map((i) =>
        i < 4 ? lesson(['A', 'B', 'C'], [5, i === 0 ? 0 : 40, 5], { reworkBefore: 1 }) : lesson(['A', 'B', 'C'], [5, 30, 5]),
      );
      assert.deepEqual(ask(timesOf(lessons), 'A', 1).reasons, [{ kind: 'rework', machines: 4, of: 30 }]);
    });

    it('names rework up to 90 % of the machines, compared with the others only', () => {
      assert.deepEqual(rework(27, 30, 50), [{ kind: 'rework', machines: 27, of: 30 }], '27 of 30 against the 3 others');
      assert.deepEqual(rework(28, 30, 50), [], 'all but a few is how the step goes, not a reason');
    });

    it('names no rework for a retry already behind the machine', () => {
      const lessons = range(30).map((i) =>
        i < 10 ? lesson(['A', 'B', 'C'], [5, 60, 5], { reworkBefore: 1 }) : lesson(['A', 'B', 'C'], [5, 30, 5]),
      );
      assert.deepEqual(ask(timesOf(lessons), 'B', 1).reasons, []);
    });

    /** Optional steps ahead of S: `[key, machines]`, each on the first machines; those through any took 60 minutes, the others 40. */
    function optional(ahead: readonly (readonly [string, number])[], repeat = false): unknown[] {
      const lessons = range(30).map((i) => {
        const through = ahead.filter(([, count]) => i < count).map(([key]) => key);
        const keys = ['S', ...through.flatMap((key) => (repeat ? [key, key] : [key])), 'Z'];
        // 40 minutes from S, or 60 through an optional step.
        const middle = keys.length - 2;
        return lesson(keys, middle === 0 ? [35, 5] : [5, ...keys.slice(1, -1).map(() => 50 / middle), 5]);
      });
      return ask(timesOf(lessons), 'S', 1).reasons.map((reason) =>
        reason.kind === 'optional-step' ? { ...reason, type: serverTextData(reason.type) } : reason,
      );
    }

    it('names the optional step ahead for the most machines, and the first by name of equals: whatever order they came in', () => {
      assert.deepEqual(
        optional([
          ['X', 9],
          ['Y', 12],
        ]),
        [{ kind: 'optional-step', type: 'Y', machines: 12, of: 30 }],
      );
      assert.deepEqual(
        optional([
          ['Y', 12],
          ['X', 9],
        ]),
        [{ kind: 'optional-step', type: 'Y', machines: 12, of: 30 }],
      );
      assert.deepEqual(
        optional([
          ['X', 12],
          ['Y', 9],
        ]),
        [{ kind: 'optional-step', type: 'X', machines: 12, of: 30 }],
      );
      assert.deepEqual(
        optional([
          ['Y', 9],
          ['X', 9],
        ]),
        [{ kind: 'optional-step', type: 'X', machines: 9, of: 30 }],
      );
    });

    it('counts a step a machine went through twice once', () => {
      assert.deepEqual(optional([['X', 2]], true), []);
    });
  });

  describe('the night window', () => {
    /** `count` machines that began A at local minute `startMinute` of the day and stayed `minutes`. */
    const at = (count: number, startMinute: number, minutes: readonly number[]): TimedLesson[] =>
      range(count).map(() => lesson(['A', 'B'], minutes, { startMinute }));
    const night = (machines: number, withinMs?: number): StayAnswer['reasons'][number] =>
      withinMs === undefined ? { kind: 'night', machines } : { kind: 'night', machines, withinMs };

    it('learns night apart from MIN_SAMPLE machines each by night and by day, once the night’s median is 1.25 times the day’s', () => {
      // 50 minutes from A at 23:00, 40 at noon.
      const times = timesOf([...at(5, 23 * 60, [10, 40]), ...at(5, 12 * 60, [10, 30])]);
      const atNightAnswer = ask(times, 'A', 1, { beganMinute: 23 * 60 });
      assert.deepEqual(
        [atNightAnswer.toGo, atNightAnswer.reasons],
        [{ ms: 49 * MINUTE, lowMs: 49 * MINUTE, highMs: 49 * MINUTE, machines: 5 }, [night(5, 120 * MINUTE)]],
      );
      assert.deepEqual([ask(times, 'A', 1).toGo?.ms, ask(times, 'A', 1).reasons], [39 * MINUTE, []], 'by day, the day’s');
      // 49 minutes at night is under 1.25 times 40: one measure for all.
      const close = timesOf([...at(5, 23 * 60, [10, 39]), ...at(5, 12 * 60, [10, 30])]);
      assert.deepEqual(ask(close, 'A', 1, { beganMinute: 23 * 60 }).reasons, []);
      const fourByNight = timesOf([...at(4, 23 * 60, [10, 40]), ...at(5, 12 * 60, [10, 30])]);
      assert.deepEqual(ask(fourByNight, 'A', 1, { beganMinute: 23 * 60 }).reasons, [], 'four by night are too few to tell');
      const fourByDay = timesOf([...at(5, 23 * 60, [10, 40]), ...at(4, 12 * 60, [10, 30])]);
      assert.deepEqual(ask(fourByDay, 'A', 1, { beganMinute: 23 * 60 }).reasons, [], 'four by day are too few to tell');
      // By night 45 minutes against 40 by day; six at night still on their way tell no median of their own.
      const stillGoing = timesOf([
        ...at(5, 23 * 60, [10, 35]),
        ...range(6).map(() => lesson(['A', 'B'], [10, 90], { startMinute: 23 * 60, open: true })),
        ...at(5, 12 * 60, [10, 30]),
      ]);
      assert.deepEqual(ask(stillGoing, 'A', 1, { beganMinute: 23 * 60 }).reasons, [], 'those still on their way do not make night slower');
    });

    it('reads the time to go from those that began within 2 hours of the same time of night, across midnight', () => {
      // At 22:30 (two hours before 00:30) 60 minutes from A; at 03:00 100; by day 40.
      const times = timesOf([...at(5, 22 * 60 + 30, [10, 50]), ...at(5, 3 * 60, [10, 90]), ...at(10, 12 * 60, [10, 30])]);
      const answer = ask(times, 'A', 1, { beganMinute: 30 });
      assert.deepEqual(
        [answer.toGo, answer.reasons],
        [{ ms: 59 * MINUTE, lowMs: 59 * MINUTE, highMs: 59 * MINUTE, machines: 5 }, [night(5, 120 * MINUTE)]],
      );
    });

    it('goes by when the machine began the step, not by now: a stay begun at 23:00 is a night one at 07:00', () => {
      // Eight hours at A, begun at 23:00: those that began at night had 640 minutes from A, by day 510.
      const times = timesOf([...at(5, 23 * 60, [500, 140]), ...at(5, 12 * 60, [500, 10])]);
      const answer = ask(times, 'A', 480, { beganMinute: 23 * 60 });
      assert.deepEqual([answer.toGo?.ms, answer.reasons], [160 * MINUTE, [night(5, 120 * MINUTE)]]);
    });

    it('where none of the night stayed as long, reads every part of the day and says no night', () => {
      // At night A lasted 20 minutes, by day 40: after 30 minutes only the day's compare.
      const times = timesOf([...at(5, 23 * 60, [20, 40]), ...at(5, 12 * 60, [40, 8])]);
      const answer = ask(times, 'A', 30, { beganMinute: 23 * 60 });
      assert.deepEqual([answer.toGo?.ms, answer.reasons], [18 * MINUTE, []]);
    });

    it('where night and day do not differ, compares machines of every hour', () => {
      const times = timesOf([...at(10, 8 * 60, [10, 10]), ...at(10, 16 * 60, [10, 50])]);
      assert.deepEqual(ask(times, 'A', 1, { beganMinute: 8 * 60 }).toGo, {
        ms: 19 * MINUTE,
        lowMs: 19 * MINUTE,
        highMs: 59 * MINUTE,
        machines: 20,
      });
    });
  });
});
