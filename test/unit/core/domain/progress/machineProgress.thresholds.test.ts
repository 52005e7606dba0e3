// Where machineProgress draws its lines: the stall thresholds (the history's 1 %, twice the longest,
// twice the setting's time), abandonment past the longest onboarding, and the machine's standing
// whatever order its events come in.
import assert from 'node:assert/strict';
import { plainLocalize } from '../../../../../src/core/common/localize';
import { lineText, serverText, serverTextData } from '../../../../../src/core/common/serverText';
import { DEFAULT_EVENT_STATE_RULES } from '../../../../../src/core/domain/events/eventState';
import { LineHistory, type LearnedSteps } from '../../../../../src/core/domain/progress/lineHistory';
import { LineTimes } from '../../../../../src/core/domain/progress/lineTimes';
import {
  ABANDONED_AFTER_MS,
  LONGEST_STALL_FACTOR,
  machineProgress,
  progressWords,
  STALL_SHARE,
  type MachineProgress,
} from '../../../../../src/core/domain/progress/machineProgress';
import { machine, MINUTE, onboarded, T0 } from './fixtures';

const DAY = 24 * 60 * MINUTE;

function progressOf(events: ReturnType<typeof machine>, learned: LearnedSteps, nowMs: number): MachineProgress {
  const answer = machineProgress(events, learned, nowMs, DEFAULT_EVENT_STATE_RULES);
  assert.ok(answer?.kind === 'progress', JSON.stringify(answer));
  return answer;
}

/** Steps A, B, C (from `from` on) with B's time (median and 90th percentile, minutes) as a setting or a reader of the history gives them. */
function stepsOf(source: 'learned' | 'setting', b: number | undefined, from = 0): LearnedSteps {
  const figures: [string, number | undefined][] = [
    ['A', undefined],
    ['B', b],
    ['C', 1],
  ];
  return {
    kind: 'steps',
    source,
    machines: 0,
    times: new LineTimes(),
    steps: figures.slice(from).map(([type, minutes]) => ({
      type: serverText(type),
      machines: 0,
      medianMs: minutes === undefined ? undefined : minutes * MINUTE,
      p90Ms: minutes === undefined ? undefined : minutes * MINUTE,
    })),
  };
}

/** `count` onboarded machines that stayed 10 minutes at CONFIG_APPLIED, but the first, which stayed `first`. */
function history(count: number, first = 10, total?: number): LineHistory {
  const line = new LineHistory(DEFAULT_EVENT_STATE_RULES);
  for (let i = 0; i < count; i++) {
    const gaps = [5, i === 0 ? first : 10, 2, 3, 1];
    if (i === 0 && total !== undefined) gaps[2] = total - 5 - first - 3 - 1;
    line.learn(`M-${i}`, onboarded(`M-${i}`, gaps));
  }
  return line;
}

/** A machine at CONFIG_APPLIED since minute 5 of `start`, asked `atMinutes` later. */
function atConfig(line: LineHistory, atMinutes: number, start = 10_000): MachineProgress {
  const events = machine(
    'Q-1',
    [
      ['ONBOARDING_STARTED', 0],
      ['CONFIG_APPLIED', 5],
    ],
    start,
  );
  return progressOf(events, line.steps(), T0 + (start + 5 + atMinutes) * MINUTE);
}

describe('machineProgress: thresholds', () => {
  it('without history of the step, stalls past twice the setting’s time for it; never on a history reader’s, nor without a time', () => {
    const atA = machine('S-1', [['A', 0]]);
    assert.equal(LONGEST_STALL_FACTOR, 2);
    const stalledAt = (learned: LearnedSteps, minutes: number): boolean => progressOf(atA, learned, T0 + minutes * MINUTE).stalled;
    // B is expected within 15 minutes: 30 at A is not yet a stall, 31 is.
    assert.deepEqual([stalledAt(stepsOf('setting', 15), 30), stalledAt(stepsOf('setting', 15), 31)], [false, true]);
    assert.equal(stalledAt(stepsOf('learned', 15), 31), false, 'figures read from a thin history are no setting');
    assert.equal(stalledAt(stepsOf('setting', undefined), 1000), false, 'the setting gives no time for B');
    const words = progressWords(progressOf(atA, stepsOf('setting', 15), T0 + 31 * MINUTE), plainLocalize, lineText);
    assert.equal(words.stallRule, undefined, 'no share of a history to tell');
  });

  it('stalls when fewer than 1 % of the history’s machines at the step stayed as long, this one counted', () => {
    assert.equal(STALL_SHARE, 0.01);
    // 99 machines, none longer than 60 minutes: one in a hundred, this one, at it after 60 minutes.
    const hundredth = atConfig(history(99, 60), 60);
    assert.deepEqual([hundredth.stillAtStepShare, hundredth.stalled], [1 / 100, false]);
    const fewer = atConfig(history(199, 60), 60);
    assert.deepEqual([fewer.stillAtStepShare, fewer.stalled], [1 / 200, true]);
    assert.match(
      progressWords(fewer, plainLocalize, lineText).stallRule ?? '',
      /^0\.5 % of the machines at this step, this one counted, were still at it after as long; below 1 %, /,
    );
  });

  it('stalls past twice the longest stay at the step, however few machines', () => {
    // Six machines, at most 10 minutes at CONFIG_APPLIED: a seventh after 20 minutes is slow, after 21 stalled.
    const few = history(6);
    assert.deepEqual([atConfig(few, 20).stalled, atConfig(few, 21).stalled], [false, true]);
    assert.equal(atConfig(few, 21).longestAtStepMs, 10 * MINUTE);
  });

  it('is abandoned only past the longest onboarding the history saw, when that took longer than the days it waits anyway', () => {
    // One machine took five days from start to outcome: four days without an event is slow, not given up.
    const slowLine = history(6, 10, (5 * DAY) / MINUTE);
    assert.ok(5 * DAY > ABANDONED_AFTER_MS);
    const fourDays = atConfig(slowLine, (4 * DAY) / MINUTE);
    assert.equal(fourDays.abandoned, false);
    const sixDays = atConfig(slowLine, (6 * DAY) / MINUTE);
    assert.deepEqual(
      [sixDays.abandoned, sixDays.stalled, sixDays.timeToGo, sixDays.reasons],
      [true, false, undefined, []],
      'given up: no stall, no time to go, no reasons',
    );
  });

  it('reads the steps a machine reached in the order they happened, whatever order its events come in', () => {
    const line = history(10);
    const newestFirst = machine('O-1', [
      ['CERTIFICATE_ISSUED', 0],
      ['ONBOARDING_STARTED', 1],
      ['CONFIG_APPLIED', 2],
    ]);
    const answer = progressOf(newestFirst, line.steps(), T0 + 5 * MINUTE);
    assert.deepEqual(answer.outOfOrder.map(serverTextData), ['CERTIFICATE_ISSUED'], 'reached before the steps it usually follows');
    const oldestFirst = [...newestFirst].reverse();
    assert.deepEqual(progressOf(oldestFirst, line.steps(), T0 + 5 * MINUTE), answer);
  });

  it('answers one machine against the steps it is asked with, when the steps change', () => {
    const events = machine('O-2', [
      ['A', 0],
      ['B', 1],
    ]);
    const first = progressOf(events, stepsOf('setting', 15), T0 + 2 * MINUTE);
    const again = progressOf(events, stepsOf('setting', 15, 1), T0 + 2 * MINUTE);
    assert.deepEqual([first.step, first.of, again.step, again.of], [2, 3, 1, 2]);
  });
});
