import assert from 'node:assert/strict';
import { plainLocalize } from '../../../../src/common/localize';
import { lineText, serverTextData } from '../../../../src/common/serverText';
import { DEFAULT_EVENT_STATE_RULES } from '../../../../src/domain/events/eventState';
import { LineHistory } from '../../../../src/domain/progress/lineHistory';
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
