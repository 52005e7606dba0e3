// A row's progress as the board shows it: what an answer and its words become (known or not yet,
// stalled or abandoned, the time to go, why), the usual steps behind the lanes, and which rows carry it.
import * as assert from 'node:assert/strict';
import { boardRow, rowProgress, usualSteps } from '../../../../../src/core/domain/board/boardRows';
import { DEFAULT_EVENT_STATE_RULES } from '../../../../../src/core/domain/events/eventState';
import type { MachineProgress, ProgressWords } from '../../../../../src/core/domain/progress/machineProgress';
import type { LearnedSteps } from '../../../../../src/core/domain/progress/lineHistory';
import { serverText } from '../../../../../src/core/common/serverText';
import { BOARD_T0, fixtureResult, onboarding, progressResults } from '../../../../support/board/boardFixtures';

const rules = DEFAULT_EVENT_STATE_RULES;
const MINUTE = 60_000;

function answer(overrides: Partial<MachineProgress> = {}): MachineProgress {
  return {
    kind: 'progress',
    step: 3,
    of: 5,
    type: serverText('FIRMWARE_CHECKED'),
    atStepMs: 40 * MINUTE,
    timeToGo: { ms: 20 * MINUTE, lowMs: 10 * MINUTE, highMs: 35 * MINUTE, machines: 6 },
    usuallyUnderMs: 9 * MINUTE,
    stalled: false,
    stallThreshold: 0.1,
    longestAtStepMs: 12 * MINUTE,
    stillAtStepShare: 0,
    abandoned: false,
    reasons: [],
    cohort: { label: 'LSR', machines: 6 },
    missing: [],
    outOfOrder: [],
    machines: 6,
    source: 'learned',
    ...overrides,
  };
}

const allWords: ProgressWords = {
  step: 'step 3 of 5 · FIRMWARE_CHECKED',
  toGo: 'about 20 min to go',
  stalled: 'stalled for 40 min',
  abandoned: 'no event for 5 months',
  stallRule: 'fewer than 10 % stayed as long',
  reasons: 'rework seen on this line',
  cohort: 'learned from 6 LSR machines',
  restsOn: '6 onboarded machines',
  how: 'learned from the history',
  oddities: 'step 2 missing',
  line: 'step 3 of 5',
};

const noWords: ProgressWords = {
  ...allWords,
  toGo: undefined,
  stalled: undefined,
  abandoned: undefined,
  stallRule: undefined,
  reasons: undefined,
  cohort: undefined,
  oddities: undefined,
};

describe('a board row’s progress', () => {
  it('shows a stalled machine with its time to go, its rule and why, in the words the host chose', () => {
    assert.deepEqual(rowProgress(answer({ stalled: true }), allWords), {
      known: true,
      step: 3,
      of: 5,
      stalled: true,
      abandoned: false,
      toGoMs: 20 * MINUTE,
      toGoLowMs: 10 * MINUTE,
      toGoHighMs: 35 * MINUTE,
      stepText: allWords.step,
      toGoText: allWords.toGo,
      stalledText: allWords.stalled,
      abandonedText: allWords.abandoned,
      stallRule: allWords.stallRule,
      why: `${allWords.reasons}\n${allWords.cohort}`,
      restsOn: allWords.restsOn,
      how: allWords.how,
      oddities: allWords.oddities,
    });
  });

  it('shows an abandoned machine without a time to go, a stall rule or anything the words leave out', () => {
    assert.deepEqual(rowProgress(answer({ abandoned: true, timeToGo: undefined }), noWords), {
      known: true,
      step: 3,
      of: 5,
      stalled: false,
      abandoned: true,
      toGoMs: null,
      toGoLowMs: null,
      toGoHighMs: null,
      stepText: noWords.step,
      toGoText: null,
      stalledText: null,
      abandonedText: null,
      stallRule: null,
      why: null,
      restsOn: noWords.restsOn,
      how: noWords.how,
      oddities: null,
    });
  });

  it('gives no stall rule to a machine that is not stalled, whatever the words say', () => {
    assert.equal(rowProgress(answer({ stalled: false }), allWords).stallRule, null);
    assert.equal(rowProgress(answer({ stalled: true }), noWords).stallRule, null);
  });

  it('says why from the reasons alone when the steps come from the setting rather than a learned kind', () => {
    assert.equal(rowProgress(answer({ source: 'setting' }), allWords).why, allWords.reasons);
    assert.equal(rowProgress(answer({ source: 'setting' }), { ...allWords, reasons: undefined }).why, null);
    assert.equal(rowProgress(answer(), { ...allWords, reasons: undefined }).why, allWords.cohort);
  });

  it('knows nothing yet of a line with too short a history: no step, no stall, no time to go, no why', () => {
    const progress = rowProgress({ kind: 'not-enough', machines: 2 }, allWords);
    assert.deepEqual(
      {
        known: progress.known,
        step: progress.step,
        of: progress.of,
        stalled: progress.stalled,
        abandoned: progress.abandoned,
        toGo: [progress.toGoMs, progress.toGoLowMs, progress.toGoHighMs],
        stallRule: progress.stallRule,
        why: progress.why,
      },
      {
        known: false,
        step: 0,
        of: 0,
        stalled: false,
        abandoned: false,
        toGo: [null, null, null],
        stallRule: null,
        why: allWords.reasons,
      },
    );
  });

  it('lays out the usual steps of a learned line, and none while the history is too short', () => {
    // A real line's history, with its steps' figures as a server could send them.
    const line = progressResults().learned;
    assert.equal(line.kind, 'steps');
    const learned: LearnedSteps = {
      kind: 'steps',
      source: 'learned',
      machines: 6,
      times: line.times,
      steps: [
        { type: serverText('MACHINE_REGISTERED'), machines: 6, medianMs: undefined, p90Ms: undefined },
        { type: serverText('<b>CERT</b>'), machines: 6, medianMs: 7 * MINUTE, p90Ms: 9 * MINUTE },
      ],
    };
    assert.deepEqual(usualSteps(learned), [
      { type: 'MACHINE_REGISTERED', medianMs: null, p90Ms: null },
      { type: '<b>CERT</b>', medianMs: 7 * MINUTE, p90Ms: 9 * MINUTE },
    ]);
    assert.deepEqual(usualSteps({ kind: 'not-enough', machines: 2 }), []);
  });

  it('carries progress only on a machine in progress', () => {
    const progress = rowProgress(answer(), allWords);
    const inProgress = fixtureResult('A', onboarding(BOARD_T0, 3, 'in-progress'));
    const onboarded = fixtureResult('B', onboarding(BOARD_T0, 3, 'onboarded'));
    assert.deepEqual(boardRow('A', { result: inProgress, progress }, rules).progress, progress);
    assert.equal(boardRow('A', { result: inProgress }, rules).progress, null);
    assert.equal(boardRow('B', { result: onboarded, progress }, rules).progress, null);
  });

  it('draws no lane and names no failing step for a machine not loaded yet', () => {
    const row = boardRow('A', { stale: true }, rules);
    assert.deepEqual([row.points, row.failingPoint, row.durationMs], [[], -1, null]);
  });
});
