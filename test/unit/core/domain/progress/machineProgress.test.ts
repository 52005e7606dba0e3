import assert from 'node:assert/strict';
import { plainLocalize } from '../../../../../src/core/common/localize';
import { lineText, serverText, serverTextData } from '../../../../../src/core/common/serverText';
import { DEFAULT_EVENT_STATE_RULES } from '../../../../../src/core/domain/events/eventState';
import { LineHistory, type LearnedSteps } from '../../../../../src/core/domain/progress/lineHistory';
import { LineTimes } from '../../../../../src/core/domain/progress/lineTimes';
import {
  ABANDONED_AFTER_MS,
  machineProgress,
  progressWords,
  stallNotice,
  type MachineProgress,
} from '../../../../../src/core/domain/progress/machineProgress';
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
  it('names its step, how long it has been at it and the time to go: what the machines at the same step as long still took', () => {
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
        atStepMs: progress.atStepMs,
        stalled: progress.stalled,
        abandoned: progress.abandoned,
        stillAtStepShare: progress.stillAtStepShare,
      },
      { step: 2, of: 6, type: 'CONFIG_APPLIED', atStepMs: 4 * MINUTE, stalled: false, abandoned: false, stillAtStepShare: 1 },
    );
    // From CONFIG_APPLIED the ten machines took 16, 18, … 34 minutes to the outcome: 4 of them are behind this one.
    assert.deepEqual(progress.timeToGo, { ms: 20 * MINUTE, lowMs: 12 * MINUTE, highMs: 28 * MINUTE, machines: 10 });
    const words = progressWords(progress, t, lineText);
    assert.equal(words.line, 'step 2 of 6 · CONFIG_APPLIED · likely 20 min more (80 %: 12–28 min)');
    assert.equal(words.restsOn, 'from 10 onboarded machines');
  });

  it('gives a machine long at its step another future than one just there: only the machines that stayed as long count', () => {
    // Fifty machines: CONFIG_APPLIED took 2, 3, … 51 minutes, then six minutes to the outcome.
    const history = new LineHistory(DEFAULT_EVENT_STATE_RULES);
    for (let i = 0; i < 50; i++) history.learn(`M-${i}`, onboarded(`M-${i}`, [5, i + 2, 2, 3, 1]));
    const events = machine('LSR-1', [
      ['ONBOARDING_STARTED', 0],
      ['CONFIG_APPLIED', 5],
    ]);
    const early = progressAt(events, 5 + 2, history);
    const late = progressAt(events, 5 + 20, history);
    assert.deepEqual(early.timeToGo, { ms: 31 * MINUTE, lowMs: 11 * MINUTE, highMs: 51 * MINUTE, machines: 49 });
    assert.deepEqual(late.timeToGo, { ms: 22 * MINUTE, lowMs: 10 * MINUTE, highMs: 34 * MINUTE, machines: 31 });
    assert.equal(late.stillAtStepShare, (31 + 1) / (50 + 1), 'this machine counted among them');
  });

  it('says too few machines were at the step as long, not that the history is thin, when only few of its ten stayed as long', () => {
    const events = machine('LSR-1', [
      ['ONBOARDING_STARTED', 0],
      ['CONFIG_APPLIED', 5],
    ]);
    // Four of the ten stayed at CONFIG_APPLIED longer than 20 minutes.
    const fewAsLong = progressAt(events, 5 + 20);
    assert.deepEqual([fewAsLong.timeToGo, fewAsLong.stillAtStepShare, fewAsLong.stalled], [undefined, 5 / 11, false]);
    assert.equal(
      progressWords(fewAsLong, t, lineText).line,
      'step 2 of 6 · CONFIG_APPLIED · time to go unknown (too few machines of the history were at this step as long)',
      'ten machines at the step are history enough; only those that stayed as long are too few',
    );
  });

  it('says the history is too thin when too few of its machines were ever at the step', () => {
    // Ten onboarded machines, only three of them through CONFIG_APPLIED.
    const history = new LineHistory(DEFAULT_EVENT_STATE_RULES);
    for (let i = 0; i < 10; i++)
      history.learn(
        `M-${i}`,
        i < 3
          ? onboarded(`M-${i}`, [5, 10, 2, 3, 1])
          : machine(`M-${i}`, [
              ['ONBOARDING_STARTED', 0],
              ['FIRMWARE_CHECKED', 5],
              ['CERTIFICATE_ISSUED', 7],
              ['MACHINE_REGISTERED', 10],
              ['ONBOARDING_COMPLETED', 11],
            ]),
      );
    const events = machine('LSR-1', [
      ['ONBOARDING_STARTED', 0],
      ['CONFIG_APPLIED', 5],
    ]);
    const thin = progressAt(events, 5 + 1, history);
    assert.deepEqual([thin.timeToGo, thin.stillAtStepShare], [undefined, undefined]);
    assert.match(progressWords(thin, t, lineText).line, /· time to go unknown \(too little history\)$/);
  });

  it('is stalled once fewer than 1 % of the machines at its step, this one counted, stayed as long', () => {
    // 150 machines: CONFIG_APPLIED took 10 to 159 minutes.
    const history = new LineHistory(DEFAULT_EVENT_STATE_RULES);
    for (let i = 0; i < 150; i++) history.learn(`M-${i}`, onboarded(`M-${i}`, [5, 10 + i, 2, 3, 1]));
    const events = machine('LSR-2', [
      ['ONBOARDING_STARTED', 0],
      ['CONFIG_APPLIED', 5],
    ]);
    const oneStill = progressAt(events, 5 + 158, history);
    assert.deepEqual([oneStill.stalled, oneStill.stillAtStepShare], [false, 2 / 151], 'one of 150 stayed longer: 2 in 151');
    const stalled = progressAt(events, 5 + 159, history);
    assert.deepEqual([stalled.stalled, stalled.stillAtStepShare, stalled.stallThreshold], [true, 1 / 151, 0.01]);
    assert.equal(
      stallNotice('LSR-2', stalled, t, lineText),
      'LSR-2 has been at CONFIG_APPLIED for 2 h 39 min; it usually takes under 2 h 24 min (from 150 onboarded machines).',
    );
    const words = progressWords(stalled, t, lineText);
    assert.equal(words.line, 'stalled: at it for 2 h 39 min, usually under 2 h 24 min');
    assert.equal(
      words.stallRule,
      '0.7 % of the machines at this step, this one counted, were still at it after as long; below 1 %, or past twice the longest stay (2 h 39 min), a machine counts as stalled.',
    );
  });

  it('is stalled, however few machines the history has, past twice the longest stay, and never under 10 minutes', () => {
    const events = machine('LSR-2', [
      ['ONBOARDING_STARTED', 0],
      ['CONFIG_APPLIED', 5],
    ]);
    // CONFIG_APPLIED took 10 to 28 minutes: ten machines cannot tell a 1 % chance, but twice 28 minutes is a stall.
    const longest = progressAt(events, 5 + 56);
    assert.deepEqual([longest.stalled, longest.stillAtStepShare, longest.longestAtStepMs], [false, 1 / 11, 28 * MINUTE]);
    assert.equal(progressAt(events, 5 + 57).stalled, true);
    // The last steps take 1–3 minutes: past all of them, but under the 10-minute floor.
    const late = machine('LSR-3', [
      ['ONBOARDING_STARTED', 0],
      ['CONFIG_APPLIED', 5],
      ['FIRMWARE_CHECKED', 20],
      ['CERTIFICATE_ISSUED', 22],
      ['MACHINE_REGISTERED', 25],
    ]);
    assert.equal(progressAt(late, 25 + 10).stalled, false);
    assert.equal(progressAt(late, 25 + 11).stalled, true);
  });

  it('is abandoned, not stalled and with no time to go, past the longest onboarding in the history and three days', () => {
    const events = machine('LSR-2', [
      ['ONBOARDING_STARTED', 0],
      ['CONFIG_APPLIED', 5],
    ]);
    const atThreeDays = progressAt(events, 5 + ABANDONED_AFTER_MS / MINUTE);
    assert.deepEqual([atThreeDays.abandoned, atThreeDays.stalled], [false, true]);
    const gone = progressAt(events, 5 + 141 * 24 * 60);
    assert.deepEqual([gone.abandoned, gone.stalled, gone.timeToGo], [true, false, undefined]);
    const words = progressWords(gone, t, lineText);
    assert.equal(words.abandoned, 'abandoned: no event for 141 days, longer than any onboarding took');
    assert.deepEqual([words.line, words.toGo], ['abandoned: no event for 141 days, longer than any onboarding took', undefined]);
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
    assert.deepEqual(answer, { kind: 'not-enough', machines: 3 });
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
    times: new LineTimes(),
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
  atStepMs: 4 * MINUTE,
  timeToGo: { ms: 20 * MINUTE, lowMs: 12 * MINUTE, highMs: 28 * MINUTE, machines: 10 },
  usuallyUnderMs: 26 * MINUTE,
  stalled: false,
  stallThreshold: 0.01,
  longestAtStepMs: 28 * MINUTE,
  stillAtStepShare: 1,
  abandoned: false,
  reasons: [],
  cohort: undefined,
  missing: [],
  outOfOrder: [],
  machines: 10,
  source: 'learned',
};

const LEARNED_HOW =
  'Learned from the 10 onboarded machines whose events are loaded: the usual order of their event types up to the outcome; the time to go is what those that had been at the same step as long still took: its median, and the range 80 % of them fell in.';

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
        atStepMs: MINUTE,
        timeToGo: undefined,
        usuallyUnderMs: undefined,
        stalled: false,
        stallThreshold: 0.01,
        longestAtStepMs: undefined,
        stillAtStepShare: undefined,
        abandoned: false,
        reasons: [],
        cohort: undefined,
        missing: [],
        outOfOrder: [],
        machines: 10,
        source: 'learned',
      },
    );
    const words = progressWords(progress, t, lineText);
    assert.equal(words.step, 'step ? of 3 · ALSO_UNHEARD_OF');
    assert.equal(words.line, 'step ? of 3 · ALSO_UNHEARD_OF · time to go unknown (too little history)');
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

  it('sums the setting’s times when the history cannot say, and has none when a step ahead has no time', () => {
    const at = machine('A', [['A', 0]]);
    const withTimes = answerOf(
      at,
      learnedOf(
        [
          ['A', undefined, undefined],
          ['B', 2, 2],
          ['C', 3, 3],
        ],
        'setting',
        0,
      ),
      T0,
    );
    assert.deepEqual(withTimes.timeToGo, { ms: 5 * MINUTE, lowMs: 5 * MINUTE, highMs: 5 * MINUTE, machines: 0 });
    assert.equal(progressWords(withTimes, t, lineText).toGo, 'likely 5 min more');
    for (const [median, p90] of [
      [2, undefined],
      [undefined, 4],
    ] as const) {
      const progress = answerOf(
        at,
        learnedOf(
          [
            ['A', undefined, undefined],
            ['B', 2, 4],
            ['C', median, p90],
          ],
          'setting',
        ),
        T0,
      );
      assert.equal(progress.timeToGo, undefined, `${median}–${p90}`);
      assert.equal(progress.usuallyUnderMs, 4 * MINUTE);
      const words = progressWords(progress, t, lineText);
      assert.deepEqual(
        [words.toGo, words.line],
        ['time to go unknown (too little history)', 'step 1 of 3 · A · time to go unknown (too little history)'],
      );
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
      { step: 2, timeToGo: { ms: 0, lowMs: 0, highMs: 0, machines: 0 }, usuallyUnderMs: undefined, stalled: false },
    );
  });

  it('never has a negative time at its step', () => {
    const early = answerOf(machine('A', [['A', 0]]), learnedOf([['A', undefined, undefined]]), T0 - 5 * MINUTE);
    assert.equal(early.atStepMs, 0, 'a clock behind the newest event');
  });

  it('words the time to go: its median, then its 80 % range in minutes under an hour and in hours from an hour on', () => {
    const toGo = (ms: number, lowMs: number, highMs: number): string | undefined =>
      progressWords({ ...AT_CONFIG, timeToGo: { ms, lowMs, highMs, machines: 10 } }, t, lineText).toGo;
    assert.equal(toGo(10 * MINUTE, 10 * MINUTE, 10 * MINUTE + 20_000), 'likely 10 min more');
    assert.equal(toGo(15 * MINUTE, 8 * MINUTE, 40 * MINUTE), 'likely 15 min more (80 %: 8–40 min)');
    assert.equal(toGo(10 * MINUTE, 10 * MINUTE, 11 * MINUTE), 'likely 10 min more (80 %: 10–11 min)', 'exactly a minute apart');
    assert.equal(toGo(50 * MINUTE, 45 * MINUTE, 60 * MINUTE - 1), 'likely 50 min more (80 %: 45–60 min)');
    assert.equal(toGo(40 * MINUTE, 30 * MINUTE, 60 * MINUTE), 'likely 40 min more (80 %: 30 min–1 h)', 'exactly an hour');
    assert.equal(toGo(2 * 60 * MINUTE, 90 * MINUTE, 150 * MINUTE), 'likely 2 h more (80 %: 1 h 30 min–2 h 30 min)');
    assert.equal(toGo(30 * 60 * MINUTE, 26 * 60 * MINUTE, 50 * 60 * MINUTE), 'likely 1 day 6 h more (80 %: 1 day 2 h–2 days 2 h)');
  });

  it('words every field of an answer from the learned history', () => {
    assert.deepEqual(progressWords(AT_CONFIG, t, lineText), {
      step: 'step 2 of 6 · CONFIG_APPLIED',
      toGo: 'likely 20 min more (80 %: 12–28 min)',
      stalled: undefined,
      abandoned: undefined,
      stallRule:
        '100 % of the machines at this step, this one counted, were still at it after as long; below 1 %, or past twice the longest stay (28 min), a machine counts as stalled.',
      reasons: undefined,
      cohort: 'learned from every machine of this environment',
      restsOn: 'from 10 onboarded machines',
      how: LEARNED_HOW,
      oddities: undefined,
      line: 'step 2 of 6 · CONFIG_APPLIED · likely 20 min more (80 %: 12–28 min)',
    });
    const stalled = { ...AT_CONFIG, stalled: true, atStepMs: 53 * MINUTE, stillAtStepShare: 0.004 };
    assert.deepEqual(progressWords(stalled, t, lineText), {
      step: 'step 2 of 6 · CONFIG_APPLIED',
      toGo: 'likely 20 min more (80 %: 12–28 min)',
      stalled: 'stalled: at it for 53 min, usually under 26 min',
      abandoned: undefined,
      stallRule:
        '0.4 % of the machines at this step, this one counted, were still at it after as long; below 1 %, or past twice the longest stay (28 min), a machine counts as stalled.',
      reasons: undefined,
      cohort: 'learned from every machine of this environment',
      restsOn: 'from 10 onboarded machines',
      how: LEARNED_HOW,
      oddities: undefined,
      line: 'stalled: at it for 53 min, usually under 26 min',
    });
    // A stall without a measured usual time says how long, and the watch's notice needs the usual time.
    const unmeasured = { ...AT_CONFIG, stalled: true, usuallyUnderMs: undefined };
    assert.equal(progressWords(unmeasured, t, lineText).stalled, 'stalled: at it for 4 min');
    assert.equal(stallNotice('LSR-9', unmeasured, t, lineText), undefined);
    assert.equal(stallNotice('LSR-9', AT_CONFIG, t, lineText), undefined, 'not stalled');
    const reasons = progressWords(
      {
        ...AT_CONFIG,
        cohort: { label: 'LSR-7000', machines: 48 },
        reasons: [
          { kind: 'rework', machines: 12, of: 40 },
          { kind: 'optional-step', type: serverText('FIRMWARE_UPDATED'), machines: 9, of: 40 },
          { kind: 'night', machines: 14 },
        ],
      },
      t,
      (text) => `[${lineText(text)}]`,
    );
    assert.deepEqual(
      [reasons.reasons, reasons.cohort],
      [
        'a retry on the way for 12 of 40 machines from here; [FIRMWARE_UPDATED] ahead for 9 of 40 machines from here; slower at night (from 14 machines at it at night)',
        'learned from the 48 machines of kind LSR-7000',
      ],
    );
  });

  it('says what the figures rest on and how they were found, for the setting and for the history', () => {
    const setting =
      'The steps are the onboardingEvents.steps setting; the time to go is what this environment’s onboarded machines took from the same step after as long, else the setting’s times.';
    const bySetting = progressWords({ ...AT_CONFIG, source: 'setting', machines: 0 }, t, lineText);
    assert.deepEqual([bySetting.restsOn, bySetting.how], ['from the onboardingEvents.steps setting', setting]);
    const settingAndHistory = progressWords({ ...AT_CONFIG, source: 'setting', machines: 7 }, t, lineText);
    assert.deepEqual([settingAndHistory.restsOn, settingAndHistory.how], ['from 7 onboarded machines', setting]);
    const learnedNone = progressWords({ ...AT_CONFIG, machines: 0 }, t, lineText);
    assert.equal(learnedNone.restsOn, 'from 0 onboarded machines');
    assert.deepEqual(progressWords({ kind: 'not-enough', machines: 3 }, t, lineText), {
      step: 'not enough history yet (3 onboarded machines)',
      toGo: undefined,
      stalled: undefined,
      abandoned: undefined,
      stallRule: undefined,
      reasons: undefined,
      cohort: undefined,
      restsOn: 'not enough history yet (3 onboarded machines)',
      how: 'Progress is learned from the onboarded machines of this environment once at least 5 have onboarded; or name the steps in the onboardingEvents.steps setting.',
      oddities: undefined,
      line: 'not enough history yet (3 onboarded machines)',
    });
  });
});
