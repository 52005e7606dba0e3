import assert from 'node:assert/strict';
import { serverTextData } from '../../../../src/common/serverText';
import { DEFAULT_EVENT_STATE_RULES } from '../../../../src/domain/events/eventState';
import { LineHistory, parseStepsSetting, type LearnedSteps } from '../../../../src/domain/progress/lineHistory';
import { machine, MINUTE, onboarded, USUAL } from './fixtures';

function types(learned: LearnedSteps): string[] {
  assert.ok(learned.kind === 'steps', JSON.stringify(learned));
  return learned.steps.map((step) => serverTextData(step.type));
}

describe('LineHistory: the usual steps, learned from the onboarded machines', () => {
  it('says "not enough" below five onboarded machines, counting only onboarded ones', () => {
    const history = new LineHistory(DEFAULT_EVENT_STATE_RULES);
    for (let i = 0; i < 4; i++) history.learn(`M-${i}`, onboarded(`M-${i}`, [5, 10, 2, 3, 1]));
    history.learn(
      'IN-PROGRESS',
      machine('IN-PROGRESS', [
        ['ONBOARDING_STARTED', 0],
        ['CONFIG_APPLIED', 4],
      ]),
    );
    assert.deepEqual(history.steps(), { kind: 'notEnough', machines: 4 });
    history.learn('M-4', onboarded('M-4', [5, 10, 2, 3, 1]));
    assert.equal(history.steps().kind, 'steps');
  });

  it('learns the order and each step’s median and 90th percentile from the step before', () => {
    const history = new LineHistory(DEFAULT_EVENT_STATE_RULES);
    // The firmware check takes 10, 12, 14, … 28 minutes on ten machines.
    for (let i = 0; i < 10; i++) history.learn(`M-${i}`, onboarded(`M-${i}`, [5, 10 + 2 * i, 2, 3, 1]));
    const learned = history.steps();
    assert.deepEqual(types(learned), USUAL);
    assert.ok(learned.kind === 'steps');
    const firmware = learned.steps[2];
    assert.deepEqual(
      { machines: firmware?.machines, medianMs: firmware?.medianMs, p90Ms: firmware?.p90Ms },
      { machines: 10, medianMs: 18 * MINUTE, p90Ms: 26 * MINUTE },
    );
    assert.equal(learned.steps[0]?.medianMs, undefined, 'the first step has no time from a step before');
    assert.equal(learned.machines, 10);
  });

  it('leaves out rare types and failed retries, and stops at the first onboarded event', () => {
    const history = new LineHistory(DEFAULT_EVENT_STATE_RULES);
    for (let i = 0; i < 6; i++) {
      const steps: [string, number][] = [
        ['ONBOARDING_STARTED', 0],
        ['CONFIG_APPLIED', 5],
        ['FIRMWARE_CHECK_FAILED', 6],
        ['FIRMWARE_CHECKED', 9],
      ];
      if (i === 0) steps.push(['RARE_DIAGNOSTIC', 10]);
      steps.push(['ONBOARDING_COMPLETED', 12], ['AUDIT_LOGGED', 20]);
      history.learn(`M-${i}`, machine(`M-${i}`, steps));
    }
    assert.deepEqual(types(history.steps()), ['ONBOARDING_STARTED', 'CONFIG_APPLIED', 'FIRMWARE_CHECKED', 'ONBOARDING_COMPLETED']);
  });

  it('replaces a machine’s lesson when its result changes, and forgets it', () => {
    const history = new LineHistory(DEFAULT_EVENT_STATE_RULES);
    for (let i = 0; i < 5; i++) history.learn(`M-${i}`, onboarded(`M-${i}`, [5, 10, 2, 3, 1]));
    history.learn('M-0', onboarded('M-0', [5, 100, 2, 3, 1]));
    assert.equal(history.machines, 5);
    history.forget('M-0');
    assert.deepEqual(history.steps(), { kind: 'notEnough', machines: 4 });
  });

  it('lets the steps setting replace the learned order, with its own expected minutes', () => {
    const history = new LineHistory(DEFAULT_EVENT_STATE_RULES);
    for (let i = 0; i < 5; i++) history.learn(`M-${i}`, onboarded(`M-${i}`, [5, 10, 2, 3, 1]));
    history.setSetting(
      parseStepsSetting(['ONBOARDING_STARTED', { type: 'firmware_checked', expectedMinutes: 30 }, 'ONBOARDING_COMPLETED']),
    );
    const learned = history.steps();
    assert.ok(learned.kind === 'steps');
    assert.equal(learned.source, 'setting');
    assert.deepEqual(types(learned), ['ONBOARDING_STARTED', 'firmware_checked', 'ONBOARDING_COMPLETED']);
    assert.equal(learned.steps[1]?.p90Ms, 30 * MINUTE);
    assert.equal(learned.steps[2]?.medianMs, 1 * MINUTE, 'a step without expected minutes takes what the history measured');
    history.setSetting([]);
    const again = history.steps();
    assert.equal(again.kind === 'steps' ? again.source : again.kind, 'learned');
  });

  it('reads the setting as written by hand: names or { type, expectedMinutes }, nothing else', () => {
    assert.deepEqual(
      parseStepsSetting(['A', ' ', 'a', 7, null, { type: 'B', expectedMinutes: -1 }, { type: 'C', expectedMinutes: 12 }, { kind: 'D' }]),
      [{ type: 'A' }, { type: 'B' }, { type: 'C', expectedMinutes: 12 }],
    );
    assert.deepEqual(parseStepsSetting('A,B'), []);
    assert.equal(parseStepsSetting(Array.from({ length: 500 }, (_, i) => `S${i}`)).length, 100);
  });

  it('reads every lesson again when the eventStates rules change', () => {
    const history = new LineHistory(DEFAULT_EVENT_STATE_RULES);
    const lines = new Map<string, ReturnType<typeof machine>>();
    for (let i = 0; i < 5; i++) {
      const events = machine(`M-${i}`, [
        ['STARTED', 0],
        ['CHECKED', 5],
        ['LINE_READY', 9],
      ]);
      lines.set(`M-${i}`, events);
      history.learn(`M-${i}`, events);
    }
    assert.deepEqual(history.steps(), { kind: 'notEnough', machines: 0 }, 'LINE_READY is no outcome by default');
    history.setRules({ failed: [], onboarded: ['READY'] }, lines);
    assert.deepEqual(types(history.steps()), ['STARTED', 'CHECKED', 'LINE_READY']);
  });
});
