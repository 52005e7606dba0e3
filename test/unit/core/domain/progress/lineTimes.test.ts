// What the history says of time (domain/progress/lineTimes.ts), asked as a view
// asks: machineProgress on a machine in progress, against a LineHistory.
import assert from 'node:assert/strict';
import { plainLocalize } from '../../../../../src/core/common/localize';
import { lineText, serverTextData } from '../../../../../src/core/common/serverText';
import { DEFAULT_EVENT_STATE_RULES } from '../../../../../src/core/domain/events/eventState';
import { LineHistory } from '../../../../../src/core/domain/progress/lineHistory';
import { machineProgress, progressWords, type MachineProgress } from '../../../../../src/core/domain/progress/machineProgress';
import { machine, MINUTE, T0 } from './fixtures';

type Steps = readonly (readonly [string, number])[];

/** A machine that went ONBOARDING_STARTED → CONFIG_APPLIED (5 min) → FIRMWARE_CHECKED after `config` minutes → `more` → 6 minutes to the end. */
function run(config: number, more: Steps = []): [string, number][] {
  const steps: [string, number][] = [
    ['ONBOARDING_STARTED', 0],
    ['CONFIG_APPLIED', 5],
    ['FIRMWARE_CHECKED', 5 + config],
  ];
  let at = 5 + config;
  for (const [type, after] of more) steps.push([type, (at += after)]);
  steps.push(['CERTIFICATE_ISSUED', (at += 2)], ['MACHINE_REGISTERED', (at += 3)], ['ONBOARDING_COMPLETED', (at += 1)]);
  return steps;
}

/** The progress of `serial`, at CONFIG_APPLIED since `start + 5` minutes, `atMinutes` later. */
function atConfig(history: LineHistory, serial: string, atMinutes: number, start = 0): MachineProgress {
  const events = machine(
    serial,
    [
      ['ONBOARDING_STARTED', 0],
      ['CONFIG_APPLIED', 5],
    ],
    start,
  );
  const answer = machineProgress(events, history.steps(), T0 + (start + 5 + atMinutes) * MINUTE, DEFAULT_EVENT_STATE_RULES);
  assert.ok(answer?.kind === 'progress', JSON.stringify(answer));
  return answer;
}

describe('lineTimes: what the history says of time', () => {
  it('learns a kind apart once 20 of its machines went through the step, else pools every machine and says so', () => {
    const history = new LineHistory(DEFAULT_EVENT_STATE_RULES);
    for (let i = 0; i < 25; i++) history.learn(`ASM-8800-H${i}`, machine(`ASM-8800-H${i}`, run(40)));
    for (let i = 0; i < 15; i++) history.learn(`LSR-7000-G${i}`, machine(`LSR-7000-G${i}`, run(10)));
    const pooled = atConfig(history, 'LSR-7000-G99', 1);
    assert.deepEqual([pooled.cohort, pooled.timeToGo?.ms], [undefined, 45 * MINUTE], 'fifteen presses: pooled with the robots');
    assert.equal(progressWords(pooled, plainLocalize, lineText).cohort, 'learned from every machine of this environment');
    for (let i = 15; i < 25; i++) history.learn(`LSR-7000-G${i}`, machine(`LSR-7000-G${i}`, run(10)));
    const apart = atConfig(history, 'LSR-7000-G99', 1);
    assert.deepEqual([apart.cohort, apart.timeToGo?.ms], [{ label: 'LSR-7000', machines: 25 }, 15 * MINUTE], 'its own kind');
    assert.equal(progressWords(apart, plainLocalize, lineText).cohort, 'learned from the 25 machines of kind LSR-7000');
    const named = machineProgress(
      machine('X-1', [
        ['ONBOARDING_STARTED', 0],
        ['CONFIG_APPLIED', 5],
      ]),
      history.steps(),
      T0 + 6 * MINUTE,
      DEFAULT_EVENT_STATE_RULES,
      { kind: 'ASM-8800' },
    );
    assert.ok(named?.kind === 'progress');
    assert.deepEqual([named.cohort?.label, named.timeToGo?.ms], ['ASM-8800', 45 * MINUTE], 'the kind a caller names');
  });

  it('names rework on the way where the machines with a retry took measurably longer', () => {
    const history = new LineHistory(DEFAULT_EVENT_STATE_RULES);
    for (let i = 0; i < 30; i++) {
      const rework: Steps =
        i < 10
          ? [
              ['FIRMWARE_CHECK_FAILED', 5],
              ['FIRMWARE_CHECKED', 25],
            ]
          : [];
      history.learn(`M-${i}`, machine(`M-${i}`, run(10, rework)));
    }
    const progress = atConfig(history, 'LSR-1', 1);
    assert.deepEqual(progress.reasons, [{ kind: 'rework', machines: 10, of: 30 }]);
    assert.equal(progressWords(progress, plainLocalize, lineText).reasons, 'a retry on the way for 10 of 30 machines from here');
  });

  it('names an optional step ahead that the machines through it took measurably longer for', () => {
    const history = new LineHistory(DEFAULT_EVENT_STATE_RULES);
    for (let i = 0; i < 30; i++) history.learn(`M-${i}`, machine(`M-${i}`, run(10, i < 9 ? [['FIRMWARE_UPDATED', 40]] : [])));
    const progress = atConfig(history, 'LSR-1', 1);
    assert.deepEqual(
      progress.reasons.map((reason) => (reason.kind === 'optional-step' ? { ...reason, type: serverTextData(reason.type) } : reason)),
      [{ kind: 'optional-step', type: 'FIRMWARE_UPDATED', machines: 9, of: 30 }],
    );
    // Once past it, the time to go rests on the machines that went through it.
    assert.equal(progressWords(progress, plainLocalize, lineText).reasons, 'FIRMWARE_UPDATED ahead for 9 of 30 machines from here');
  });

  it('learns night and day apart where the step measurably takes longer at night, and says so at night', () => {
    // Local midnight of a day after T0, so the night is the host's whatever its time zone.
    const midnight = new Date(T0 + 2 * 24 * 60 * MINUTE);
    midnight.setHours(0, 0, 0, 0);
    const minuteAt = (hour: number, minute = 0): number => (midnight.getTime() - T0) / MINUTE + hour * 60 + minute;
    const history = new LineHistory(DEFAULT_EVENT_STATE_RULES);
    for (let i = 0; i < 10; i++) {
      history.learn(`D-${i}`, machine(`D-${i}`, run(10), minuteAt(10, i * 10)));
      history.learn(`N-${i}`, machine(`N-${i}`, run(40), minuteAt(22, 30 + i * 5)));
    }
    const byDay = atConfig(history, 'LSR-1', 1, minuteAt(12));
    assert.deepEqual([byDay.timeToGo?.ms, byDay.reasons], [15 * MINUTE, []]);
    const atNight = atConfig(history, 'LSR-2', 1, minuteAt(23));
    assert.deepEqual([atNight.timeToGo?.ms, atNight.reasons], [45 * MINUTE, [{ kind: 'night', machines: 10, withinMs: 120 * MINUTE }]]);
    assert.equal(
      progressWords(atNight, plainLocalize, lineText).reasons,
      'slower at night (from 10 machines that began this step within 2 h of the same time of night)',
    );
  });

  it('at night, reads the time to go from the machines that began the step near the same hour: as much of their way lay at night', () => {
    const midnight = new Date(T0 + 2 * 24 * 60 * MINUTE);
    midnight.setHours(0, 0, 0, 0);
    const minuteAt = (hour: number, minute = 0): number => (midnight.getTime() - T0) / MINUTE + hour * 60 + minute;
    const history = new LineHistory(DEFAULT_EVENT_STATE_RULES);
    for (let i = 0; i < 10; i++) {
      history.learn(`D-${i}`, machine(`D-${i}`, run(10), minuteAt(10, i * 10)));
      // Early in the night the whole way ahead is night; late in it, the day shift soon takes over.
      history.learn(`E-${i}`, machine(`E-${i}`, run(60), minuteAt(22, 30 + i * 5)));
      history.learn(`L-${i}`, machine(`L-${i}`, run(20), minuteAt(4, 30 + i * 5)));
    }
    const late = atConfig(history, 'LSR-1', 1, minuteAt(4));
    assert.deepEqual(
      [late.timeToGo?.ms, late.timeToGo?.machines, late.reasons],
      [25 * MINUTE, 10, [{ kind: 'night', machines: 10, withinMs: 120 * MINUTE }]],
      'at 04:05 only the ten that began the step between 02:05 and 06:05 compare, not those of 22:35',
    );
    const early = atConfig(history, 'LSR-2', 1, minuteAt(23));
    assert.equal(early.timeToGo?.ms, 65 * MINUTE, 'at 23:05 those of 22:35 compare');
    // None began between 00:05 and 04:05: the whole night's machines then, still not the day's.
    const noneNear = atConfig(history, 'LSR-3', 1, minuteAt(2));
    assert.deepEqual(noneNear.reasons, [{ kind: 'night', machines: 20 }], 'too few near the hour: every machine at it at night');
  });

  it('counts the machines still on their way, for as long as they are known to have been: else only the quick ones are in the history', () => {
    const onboardedOnly = new LineHistory(DEFAULT_EVENT_STATE_RULES);
    const withOpen = new LineHistory(DEFAULT_EVENT_STATE_RULES);
    for (const history of [onboardedOnly, withOpen])
      for (let i = 0; i < 20; i++) history.learn(`M-${i}`, machine(`M-${i}`, run(i < 10 ? 9 : 84)));
    // Ten more have been at CONFIG_APPLIED for an hour when last fetched.
    for (let i = 0; i < 10; i++) {
      const open = machine(`O-${i}`, [
        ['ONBOARDING_STARTED', 0],
        ['CONFIG_APPLIED', 5],
      ]);
      onboardedOnly.learn(`O-${i}`, open);
      withOpen.learn(`O-${i}`, open, { observedAt: T0 + 65 * MINUTE });
    }
    // Left after a minute at CONFIG_APPLIED: 14 minutes for ten machines, 89 for ten; and ten still going after 59.
    assert.deepEqual(atConfig(onboardedOnly, 'LSR-1', 1).timeToGo, {
      ms: 14 * MINUTE,
      lowMs: 14 * MINUTE,
      highMs: 89 * MINUTE,
      machines: 20,
    });
    assert.deepEqual(atConfig(withOpen, 'LSR-1', 1).timeToGo, { ms: 89 * MINUTE, lowMs: 14 * MINUTE, highMs: 89 * MINUTE, machines: 30 });
    assert.equal(withOpen.machines, 20, 'the machines in progress are not onboarded ones');
  });

  it('reads the chance of still being at a step from the stays that began at least as long ago: younger ones could not have lasted as long yet', () => {
    const history = new LineHistory(DEFAULT_EVENT_STATE_RULES);
    // 150 machines long done: 147 left CONFIG_APPLIED after 10 minutes, 3 after two hours.
    for (let i = 0; i < 150; i++) history.learn(`OLD-${i}`, machine(`OLD-${i}`, run(i < 3 ? 120 : 10)));
    // 300 machines at CONFIG_APPLIED from minute 1015 on: the 10 minutes each stayed tell nothing of an hour.
    for (let i = 0; i < 300; i++) history.learn(`NEW-${i}`, machine(`NEW-${i}`, run(10), 1010));
    // An hour at CONFIG_APPLIED at minute 1065: 3 of the 150 stays that began an hour ago or earlier lasted as long.
    const answer = atConfig(history, 'LSR-1', 60, 1000);
    assert.deepEqual(
      [answer.stillAtStepShare, answer.stalled],
      [(3 + 1) / (150 + 1), false],
      'an hour at a step that 3 of 150 machines stayed as long is no stall',
    );
  });
});
