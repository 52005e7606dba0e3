// LineHistory's bounds: at most MAX_TYPES event types are learned, the known ones still are; past MAX_MACHINES a machine is refused and counted.
import assert from 'node:assert/strict';
import { serverTextData } from '../../../../../src/core/common/serverText';
import { DEFAULT_EVENT_STATE_RULES } from '../../../../../src/core/domain/events/eventState';
import { LineHistory, MAX_MACHINES } from '../../../../../src/core/domain/progress/lineHistory';
import { MAX_TYPES } from '../../../../../src/core/domain/progress/lineTimes';
import { machine, MINUTE, onboarded, T0, USUAL } from './fixtures';

describe('LineHistory: bounds', () => {
  it('learns at most MAX_TYPES event types: past them a new type is no step, the known ones still are', () => {
    const history = new LineHistory(DEFAULT_EVENT_STATE_RULES);
    for (let i = 0; i < 5; i++) history.learn(`U-${i}`, onboarded(`U-${i}`, [5, 10, 2, 3, 1]));
    // Machines through one-off types, until the history knows exactly MAX_TYPES of them.
    let known = USUAL.length;
    for (let m = 0; known < MAX_TYPES; m++) {
      const fillers = Array.from({ length: Math.min(50, MAX_TYPES - known) }, (_, i): [string, number] => [`FILLER_${m}_${i}`, i + 1]);
      known += fillers.length;
      history.learn(`F-${m}`, machine(`F-${m}`, [['ONBOARDING_STARTED', 0], ...fillers, ['ONBOARDING_COMPLETED', 60]]));
    }
    for (let i = 0; i < 40; i++)
      history.learn(
        `N-${i}`,
        machine(`N-${i}`, [
          ['ONBOARDING_STARTED', 0],
          ['CONFIG_APPLIED', 5],
          ['NEW_STEP', 8],
          ['FIRMWARE_CHECKED', 15],
          ['CERTIFICATE_ISSUED', 17],
          ['MACHINE_REGISTERED', 20],
          ['ONBOARDING_COMPLETED', 21],
        ]),
      );
    const learned = history.steps();
    assert.ok(learned.kind === 'steps');
    assert.deepEqual(
      learned.steps.map((step) => serverTextData(step.type)),
      USUAL,
    );
  });

  it(`counts the machines it refuses once it holds MAX_MACHINES (${MAX_MACHINES.toLocaleString('en')}), and a known one is no new machine`, () => {
    const history = new LineHistory(DEFAULT_EVENT_STATE_RULES);
    const [done] = machine('D', [['ONBOARDING_COMPLETED', 0]]);
    assert.ok(done !== undefined);
    for (let i = 0; i < MAX_MACHINES; i++) history.learn(`D-${i}`, [done]);
    assert.deepEqual({ machines: history.machines, refused: history.refused }, { machines: MAX_MACHINES, refused: 0 });
    history.learn('D-0', [done]);
    assert.equal(history.refused, 0, 'a machine it holds is learned again');
    history.learn(`D-${MAX_MACHINES}`, [done]);
    history.learn(`D-${MAX_MACHINES + 1}`, [done]);
    assert.deepEqual({ machines: history.machines, refused: history.refused }, { machines: MAX_MACHINES, refused: 2 });
  }).timeout(30_000);

  it('learns nothing from a machine without events', () => {
    const history = new LineHistory(DEFAULT_EVENT_STATE_RULES);
    assert.equal(history.learn('E-1', [], { observedAt: T0 + MINUTE }), false);
  });
});
