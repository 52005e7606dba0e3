import assert from 'node:assert/strict';
import { plainLocalize } from '../../../../src/common/localize';
import { lineText, serverText, serverTextData } from '../../../../src/common/serverText';
import { DEFAULT_EVENT_STATE_RULES } from '../../../../src/domain/events/eventState';
import { LineHistory, type LearnedSteps } from '../../../../src/domain/progress/lineHistory';
import { machineProgress, progressWords, stallNotice, type MachineProgress } from '../../../../src/domain/progress/machineProgress';
import { machine, MINUTE, onboarded, T0 } from './fixtures';

const t = plainLocalize;

/** Ten onboarded machines: 5 min to configure, 10–28 min for the firmware check (p90 26), 2, 3 and 1 min after. */
function line(): LineHistory {
  const history = new LineHistory(DEFAULT_EVENT_STATE_RULES);
  for (let i = 0; i < 10; i++) history.learn(`M-${i}`, onboarded(`M-${i}`, [5, 10 + 2 * i, 2, 3, 1]));
  return history;
}

function progressAt(events: ReturnType<typeof machine>, nowMinute: number, history = line()): MachineProgress {
  const answer = machineProgress(events, history.steps(), T0 + nowMinute * MINUTE, DEFAULT_EVENT_STATE_RULES);
  assert.ok(answer?.kind === 'progress', JSON.stringify(answer));
  return answer;
}

describe('machineProgress: where a machine in progress stands against its line', () => {
  it('names its step, how long it has been at it and the time to go as a range', () => {
    const events = machine('LSR-1', [
      ['ONBOARDING_STARTED', 0],
      ['CONFIG_APPLIED', 5],
    ]);
    const progress = progressAt(events, 9);
    assert.deepEqual(
      {
        step: progress.step,
        of: progress.of,
        type: serverTextData(progress.type),
        atItForMs: progress.atItForMs,
        stalled: progress.stalled,
      },
      { step: 2, of: 6, type: 'CONFIG_APPLIED', atItForMs: 4 * MINUTE, stalled: false },
    );
    // Firmware 18–26, certificate 2, registration 3, completion 1 minutes.
    assert.deepEqual(progress.timeToGo, { lowMs: 24 * MINUTE, highMs: 32 * MINUTE });
    const words = progressWords(progress, t, lineText);
    assert.equal(words.line, 'step 2 of 6 · CONFIG_APPLIED · usually 24–32 min more');
    assert.equal(words.restsOn, 'from 10 onboarded machines');
  });

  it('is stalled past twice the next step’s 90th percentile, and never under 10 minutes', () => {
    const events = machine('LSR-2', [
      ['ONBOARDING_STARTED', 0],
      ['CONFIG_APPLIED', 5],
    ]);
    assert.equal(progressAt(events, 5 + 52).stalled, false, 'at 2 × 26 min exactly: not yet');
    const stalled = progressAt(events, 5 + 53);
    assert.equal(stalled.stalled, true);
    assert.equal(
      stallNotice('LSR-2', stalled, t, lineText),
      'LSR-2 has been at CONFIG_APPLIED for 53 min; it usually takes under 26 min (from 10 onboarded machines).',
    );
    assert.equal(progressWords(stalled, t, lineText).line, 'stalled: at it for 53 min, usually under 26 min');
    // The last steps take 1–3 minutes: twice that is under the 10-minute floor.
    const late = machine('LSR-3', [
      ['ONBOARDING_STARTED', 0],
      ['CONFIG_APPLIED', 5],
      ['FIRMWARE_CHECKED', 20],
      ['CERTIFICATE_ISSUED', 22],
      ['MACHINE_REGISTERED', 25],
    ]);
    assert.equal(progressAt(late, 25 + 9).stalled, false);
    assert.equal(progressAt(late, 25 + 11).stalled, true);
  });

  it('names the usual steps it skipped and those it reached out of order', () => {
    const skipped = machine('LSR-4', [
      ['ONBOARDING_STARTED', 0],
      ['FIRMWARE_CHECKED', 15],
    ]);
    const progress = progressAt(skipped, 16);
    assert.deepEqual(progress.missing.map(serverTextData), ['CONFIG_APPLIED']);
    assert.equal(progress.step, 3);
    const swapped = machine('LSR-5', [
      ['ONBOARDING_STARTED', 0],
      ['FIRMWARE_CHECKED', 10],
      ['CONFIG_APPLIED', 12],
    ]);
    const odd = progressAt(swapped, 13);
    assert.deepEqual(odd.outOfOrder.map(serverTextData), ['FIRMWARE_CHECKED']);
    assert.equal(progressWords(odd, t, lineText).oddities, 'out of order: FIRMWARE_CHECKED');
  });

  it('says nothing for a machine that is not in progress, and "not enough history yet" with the count', () => {
    const done = onboarded('DONE', [1, 1, 1, 1, 1]);
    assert.equal(machineProgress(done, line().steps(), T0, DEFAULT_EVENT_STATE_RULES), undefined);
    const young = new LineHistory(DEFAULT_EVENT_STATE_RULES);
    for (let i = 0; i < 3; i++) young.learn(`M-${i}`, onboarded(`M-${i}`, [1, 1, 1, 1, 1]));
    const answer = machineProgress(machine('X', [['ONBOARDING_STARTED', 0]]), young.steps(), T0, DEFAULT_EVENT_STATE_RULES);
    assert.deepEqual(answer, { kind: 'notEnough', machines: 3 });
    assert.equal(progressWords(answer, t, lineText).line, 'not enough history yet (3 onboarded machines)');
  });

  it('renders server text through the surface’s renderer, never raw', () => {
    const hostile = machine('H-1', [
      ['ONBOARDING_STARTED', 0],
      ['CONFIG_APPLIED\nINJECTED', 5],
    ]);
    const history = line();
    const answer = machineProgress(hostile, history.steps(), T0 + 6 * MINUTE, DEFAULT_EVENT_STATE_RULES);
    assert.ok(answer?.kind === 'progress');
    assert.doesNotMatch(progressWords(answer, t, lineText).step, /\n/);
  });
});

/** Steps as a reader of the history would get them: [type, median, p90] in minutes. */
function learnedOf(
  figures: readonly (readonly [string, number | undefined, number | undefined])[],
  source: 'learned' | 'setting' = 'learned',
  machines = 10,
): LearnedSteps {
  return {
    kind: 'steps',
    source,
    machines,
    steps: figures.map(([type, median, p90]) => ({
      type: serverText(type),
      machines,
      medianMs: median === undefined ? undefined : median * MINUTE,
      p90Ms: p90 === undefined ? undefined : p90 * MINUTE,
    })),
  };
}

function answerOf(events: ReturnType<typeof machine>, learned: LearnedSteps, nowMs: number): MachineProgress {
  const answer = machineProgress(events, learned, nowMs, DEFAULT_EVENT_STATE_RULES);
  assert.ok(answer?.kind === 'progress', JSON.stringify(answer));
  return answer;
}

/** A machine at CONFIG_APPLIED as machineProgress gives it, for the words. */
const AT_CONFIG: MachineProgress = {
  kind: 'progress',
  step: 2,
  of: 6,
  type: serverText('CONFIG_APPLIED'),
  atItForMs: 4 * MINUTE,
  timeToGo: { lowMs: 24 * MINUTE, highMs: 32 * MINUTE },
  usuallyUnderMs: 26 * MINUTE,
  stalled: false,
  missing: [],
  outOfOrder: [],
  machines: 10,
  source: 'learned',
};

const LEARNED_HOW =
  'Learned from the 10 onboarded machines whose events are loaded: the usual order of their event types up to the outcome, each step’s median time and the time 90 % of them took at most.';

describe('machineProgress: the exact answer and its words (issue 38)', () => {
  it('answers nothing for a machine without events, onboarded or failed', () => {
    const steps = line().steps();
    assert.equal(machineProgress([], steps, T0, DEFAULT_EVENT_STATE_RULES), undefined);
    const failed = machine('F', [
      ['ONBOARDING_STARTED', 0],
      ['FIRMWARE_CHECK_FAILED', 3],
    ]);
    assert.equal(machineProgress(failed, steps, T0, DEFAULT_EVENT_STATE_RULES), undefined);
  });

  it('is at step 0 ("step ? of N") when it reached no usual step, and counts every step still to go', () => {
    const stranger = machine('S', [
      ['UNHEARD_OF', 0],
      ['ALSO_UNHEARD_OF', 1],
    ]);
    const progress = answerOf(
      stranger,
      learnedOf([
        ['A', undefined, undefined],
        ['B', 2, 4],
        ['C', 3, 5],
      ]),
      T0 + 2 * MINUTE,
    );
    assert.deepEqual(
      { ...progress, type: serverTextData(progress.type) },
      {
        kind: 'progress',
        step: 0,
        of: 3,
        type: 'ALSO_UNHEARD_OF',
        atItForMs: MINUTE,
        timeToGo: undefined,
        usuallyUnderMs: undefined,
        stalled: false,
        missing: [],
        outOfOrder: [],
        machines: 10,
        source: 'learned',
      },
    );
    const words = progressWords(progress, t, lineText);
    assert.equal(words.step, 'step ? of 3 · ALSO_UNHEARD_OF');
    assert.equal(words.line, 'step ? of 3 · ALSO_UNHEARD_OF');
  });

  it('names no oddity for a machine in order, even one that went back to an earlier step', () => {
    const redo = machine('R', [
      ['ONBOARDING_STARTED', 0],
      ['CONFIG_APPLIED', 5],
      ['FIRMWARE_CHECKED', 20],
      ['CONFIG_APPLIED', 22],
      ['UNHEARD_OF', 23],
    ]);
    const progress = progressAt(redo, 24);
    assert.deepEqual(
      { step: progress.step, missing: progress.missing, outOfOrder: progress.outOfOrder, type: serverTextData(progress.type) },
      { step: 3, missing: [], outOfOrder: [], type: 'UNHEARD_OF' },
    );
    assert.equal(progressWords(progress, t, lineText).oddities, undefined);
  });

  it('lists every missing step and every step reached out of order, in words joined by "; "', () => {
    const skipper = machine('K', [
      ['ONBOARDING_STARTED', 0],
      ['MACHINE_REGISTERED', 5],
      ['CERTIFICATE_ISSUED', 6],
    ]);
    const progress = progressAt(skipper, 7);
    assert.equal(progress.step, 5);
    assert.deepEqual(progress.missing.map(serverTextData), ['CONFIG_APPLIED', 'FIRMWARE_CHECKED']);
    assert.deepEqual(progress.outOfOrder.map(serverTextData), ['MACHINE_REGISTERED']);
    const bracket = (text: Parameters<typeof lineText>[0]): string => `[${lineText(text)}]`;
    assert.equal(
      progressWords(progress, t, bracket).oddities,
      'missing: [CONFIG_APPLIED], [FIRMWARE_CHECKED]; out of order: [MACHINE_REGISTERED]',
    );
    // Out of order in the order the machine reached them, not the usual one.
    const backwards = machine('W', [
      ['ONBOARDING_STARTED', 0],
      ['MACHINE_REGISTERED', 5],
      ['CERTIFICATE_ISSUED', 6],
      ['FIRMWARE_CHECKED', 7],
    ]);
    assert.equal(
      progressWords(progressAt(backwards, 8), t, lineText).oddities,
      'missing: CONFIG_APPLIED; out of order: MACHINE_REGISTERED, CERTIFICATE_ISSUED',
    );
    assert.equal(
      progressWords({ ...AT_CONFIG, missing: progress.missing }, t, lineText).oddities,
      'missing: CONFIG_APPLIED, FIRMWARE_CHECKED',
    );
  });

  it('has no time to go when a remaining step has no median or no 90th percentile', () => {
    const at = machine('A', [['A', 0]]);
    for (const [median, p90] of [
      [2, undefined],
      [undefined, 4],
    ] as const) {
      const progress = answerOf(
        at,
        learnedOf([
          ['A', undefined, undefined],
          ['B', 2, 4],
          ['C', median, p90],
        ]),
        T0,
      );
      assert.equal(progress.timeToGo, undefined, `${median}–${p90}`);
      assert.equal(progress.usuallyUnderMs, 4 * MINUTE);
      const words = progressWords(progress, t, lineText);
      assert.deepEqual([words.toGo, words.line], [undefined, 'step 1 of 3 · A']);
    }
  });

  it('has nothing to go and no usual time at the last usual step, and never stalls there', () => {
    const atEnd = machine('E', [
      ['A', 0],
      ['B', 1],
    ]);
    const progress = answerOf(
      atEnd,
      learnedOf(
        [
          ['A', undefined, undefined],
          ['B', 2, 4],
        ],
        'setting',
        0,
      ),
      T0 + 1000 * MINUTE,
    );
    assert.deepEqual(
      { step: progress.step, timeToGo: progress.timeToGo, usuallyUnderMs: progress.usuallyUnderMs, stalled: progress.stalled },
      { step: 2, timeToGo: { lowMs: 0, highMs: 0 }, usuallyUnderMs: undefined, stalled: false },
    );
  });

  it('stalls only past twice the next step’s 90th percentile and past 10 minutes, to the millisecond; never a negative time at it', () => {
    const at = machine('A', [['A', 0]]);
    const stalledAt = (p90: number, sinceMs: number): boolean =>
      answerOf(
        at,
        learnedOf([
          ['A', undefined, undefined],
          ['B', 1, p90],
        ]),
        T0 + sinceMs,
      ).stalled;
    assert.deepEqual([stalledAt(4, 10 * MINUTE), stalledAt(4, 10 * MINUTE + 1)], [false, true], 'the 10-minute floor');
    assert.deepEqual([stalledAt(6, 12 * MINUTE), stalledAt(6, 12 * MINUTE + 1)], [false, true], 'twice the 90th percentile');
    const early = answerOf(
      at,
      learnedOf([
        ['A', undefined, undefined],
        ['B', 1, 4],
      ]),
      T0 - 5 * MINUTE,
    );
    assert.equal(early.atItForMs, 0, 'a clock behind the newest event');
  });

  it('words the time to go as one figure under a minute apart, minutes under an hour, hours from an hour on', () => {
    const toGo = (lowMs: number, highMs: number): string | undefined =>
      progressWords({ ...AT_CONFIG, timeToGo: { lowMs, highMs } }, t, lineText).toGo;
    assert.equal(toGo(10 * MINUTE, 10 * MINUTE + 20_000), 'usually 10 min more');
    assert.equal(toGo(10 * MINUTE, 11 * MINUTE), 'usually 10–11 min more', 'exactly a minute apart');
    assert.equal(toGo(45 * MINUTE, 60 * MINUTE - 1), 'usually 45–60 min more');
    assert.equal(toGo(30 * MINUTE, 60 * MINUTE), 'usually 30 min–1 h more', 'exactly an hour');
    assert.equal(toGo(90 * MINUTE, 150 * MINUTE), 'usually 1 h 30 min–2 h 30 min more');
    assert.equal(toGo(120 * MINUTE, 120 * MINUTE + 20_000), 'usually 2 h more');
  });

  it('words every field of an answer from the learned history', () => {
    assert.deepEqual(progressWords(AT_CONFIG, t, lineText), {
      step: 'step 2 of 6 · CONFIG_APPLIED',
      toGo: 'usually 24–32 min more',
      stalled: undefined,
      restsOn: 'from 10 onboarded machines',
      how: LEARNED_HOW,
      oddities: undefined,
      line: 'step 2 of 6 · CONFIG_APPLIED · usually 24–32 min more',
    });
    const stalled = { ...AT_CONFIG, stalled: true, atItForMs: 53 * MINUTE };
    assert.deepEqual(progressWords(stalled, t, lineText), {
      step: 'step 2 of 6 · CONFIG_APPLIED',
      toGo: 'usually 24–32 min more',
      stalled: 'stalled: at it for 53 min, usually under 26 min',
      restsOn: 'from 10 onboarded machines',
      how: LEARNED_HOW,
      oddities: undefined,
      line: 'stalled: at it for 53 min, usually under 26 min',
    });
    // A stall is worded only with the time it is measured against.
    const unmeasured = { ...AT_CONFIG, stalled: true, usuallyUnderMs: undefined };
    assert.equal(progressWords(unmeasured, t, lineText).stalled, undefined);
    assert.equal(stallNotice('LSR-9', unmeasured, t, lineText), undefined);
    assert.equal(stallNotice('LSR-9', AT_CONFIG, t, lineText), undefined, 'not stalled');
  });

  it('says what the figures rest on and how they were found, for the setting and for the history', () => {
    const setting =
      'The steps are the onboardingEvents.steps setting; a time the setting does not give is what this environment’s onboarded machines took.';
    const bySetting = progressWords({ ...AT_CONFIG, source: 'setting', machines: 0 }, t, lineText);
    assert.deepEqual([bySetting.restsOn, bySetting.how], ['from the onboardingEvents.steps setting', setting]);
    const settingAndHistory = progressWords({ ...AT_CONFIG, source: 'setting', machines: 7 }, t, lineText);
    assert.deepEqual([settingAndHistory.restsOn, settingAndHistory.how], ['from 7 onboarded machines', setting]);
    const learnedNone = progressWords({ ...AT_CONFIG, machines: 0 }, t, lineText);
    assert.equal(learnedNone.restsOn, 'from 0 onboarded machines');
    assert.deepEqual(progressWords({ kind: 'notEnough', machines: 3 }, t, lineText), {
      step: 'not enough history yet (3 onboarded machines)',
      toGo: undefined,
      stalled: undefined,
      restsOn: 'not enough history yet (3 onboarded machines)',
      how: 'Progress is learned from the onboarded machines of this environment once at least 5 have onboarded; or name the steps in the onboardingEvents.steps setting.',
      oddities: undefined,
      line: 'not enough history yet (3 onboarded machines)',
    });
  });
});
