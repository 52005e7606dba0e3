// What each machine teaches LineHistory and takes back: forgetting, machines in progress (which
// ones teach), rework, failed events, and the order of equal steps.
import assert from 'node:assert/strict';
import { serverTextData } from '../../../../../src/core/common/serverText';
import { DEFAULT_EVENT_STATE_RULES } from '../../../../../src/core/domain/events/eventState';
import { IDLE_UNTAUGHT_MS, LineHistory, type LearnedSteps } from '../../../../../src/core/domain/progress/lineHistory';
import { machineProgress } from '../../../../../src/core/domain/progress/machineProgress';
import { machine, MINUTE, T0, USUAL } from './fixtures';

type Steps = readonly (readonly [string, number])[];

/** ONBOARDING_STARTED → CONFIG_APPLIED (5 min) → `more` (minutes after the one before) → FIRMWARE_CHECKED after `config` → 2, 3, 1 min to the outcome. */
function run(config: number, more: Steps = []): [string, number][] {
  const steps: [string, number][] = [
    ['ONBOARDING_STARTED', 0],
    ['CONFIG_APPLIED', 5],
  ];
  let at = 5;
  for (const [type, after] of more) steps.push([type, (at += after)]);
  steps.push(['FIRMWARE_CHECKED', (at += config)], ['CERTIFICATE_ISSUED', (at += 2)], ['MACHINE_REGISTERED', (at += 3)]);
  steps.push(['ONBOARDING_COMPLETED', (at += 1)]);
  return steps;
}

/** A machine still at CONFIG_APPLIED (since minute 5), after `more`. */
const open = (serial: string, more: Steps = [], start = 0): ReturnType<typeof machine> =>
  machine(serial, [['ONBOARDING_STARTED', 0], ...more, ['CONFIG_APPLIED', 5 + more.reduce((sum, [, m]) => sum + m, 0)]], start);

/** Everything a caller can read of a history: its steps and what its times say of every type, asked alike. */
function readOf(history: LineHistory): unknown {
  const learned = history.steps();
  if (learned.kind !== 'steps') return learned;
  const types = [...USUAL, 'EXTRA_STEP', 'FIRMWARE_CHECK_FAILED'];
  return {
    steps: learned.steps.map((step) => ({ ...step, type: serverTextData(step.type) })),
    machines: learned.machines,
    longest: learned.times.longestOnboardingMs,
    stays: types.flatMap((key) =>
      [0, 7, 30].map((atMinutes) =>
        learned.times.stay({ key, kind: undefined, atMs: atMinutes * MINUTE, nowMs: T0 + 10_000 * MINUTE + atMinutes * MINUTE }),
      ),
    ),
  };
}

function reasonsAtConfig(learned: LearnedSteps): unknown {
  const answer = machineProgress(open('Q-1', [], 1000), learned, T0 + 1006 * MINUTE, DEFAULT_EVENT_STATE_RULES);
  assert.ok(answer?.kind === 'progress', JSON.stringify(answer));
  return answer.reasons.map((reason) => (reason.kind === 'optional-step' ? { ...reason, type: serverTextData(reason.type) } : reason));
}

describe('LineHistory: what each machine teaches and takes back', () => {
  it('after forgetting machines, onboarded or in progress, reads as if it had never learned them, and so do machines learned later', () => {
    const observedAt = T0 + 200 * MINUTE;
    const kept: [string, ReturnType<typeof machine>][] = Array.from({ length: 8 }, (_, i) => [`K-${i}`, machine(`K-${i}`, run(10 + i))]);
    const forgotten: [string, ReturnType<typeof machine>][] = [
      ...Array.from({ length: 4 }, (_, i): [string, ReturnType<typeof machine>] => [
        `F-${i}`,
        machine(`F-${i}`, run(30 + i, [['EXTRA_STEP', 4]])),
      ]),
      ['F-OPEN', open('F-OPEN', [['EXTRA_STEP', 2]])],
    ];
    const both = new LineHistory(DEFAULT_EVENT_STATE_RULES);
    const only = new LineHistory(DEFAULT_EVENT_STATE_RULES);
    for (let i = 0; i < kept.length; i++) {
      const [serial, events] = kept[i] ?? ['', []];
      both.learn(serial, events, { observedAt });
      only.learn(serial, events, { observedAt });
      const [other, otherEvents] = forgotten[i] ?? ['', []];
      if (other !== '') both.learn(other, otherEvents, { observedAt });
    }
    for (const [serial] of forgotten) both.forget(serial);
    // Learned again as nothing it could teach: what it taught is taken back too.
    both.learn('K-0', machine('K-0', [['ONBOARDING_STARTED', 0]]), {});
    only.learn('K-0', machine('K-0', [['ONBOARDING_STARTED', 0]]), {});
    assert.deepEqual(readOf(both), readOf(only));
    // Machines in progress learned now are taught by the types the kept machines still name, and only those.
    for (const history of [both, only]) {
      history.learn('LATE-1', open('LATE-1', [['EXTRA_STEP', 2]], 300), { observedAt: T0 + 320 * MINUTE });
      history.learn('LATE-2', open('LATE-2', [], 300), { observedAt: T0 + 320 * MINUTE });
    }
    assert.deepEqual(readOf(both), readOf(only));
  });

  it('learns from a machine in progress only while it is in progress and not idle for longer than IDLE_UNTAUGHT_MS, at a type it knows', () => {
    const history = new LineHistory(DEFAULT_EVENT_STATE_RULES);
    for (let i = 0; i < 5; i++) history.learn(`M-${i}`, machine(`M-${i}`, run(10)));
    const atConfig = open('O-1');
    assert.equal(history.learn('O-1', atConfig, { observedAt: T0 + 5 * MINUTE + IDLE_UNTAUGHT_MS }), true, 'idle exactly as long');
    assert.equal(history.learn('O-2', open('O-2'), { observedAt: T0 + 5 * MINUTE + IDLE_UNTAUGHT_MS + 1 }), false, 'idle longer');
    const failed = machine('O-3', [
      ['ONBOARDING_STARTED', 0],
      ['CONFIG_APPLIED', 5],
      ['FIRMWARE_CHECK_FAILED', 6],
    ]);
    assert.equal(history.learn('O-3', failed, { observedAt: T0 + 7 * MINUTE }), false, 'failed is not in progress');
    const unknown = machine('O-4', [
      ['NEVER_SEEN', 0],
      ['NOR_THIS', 5],
    ]);
    assert.equal(history.learn('O-4', unknown, { observedAt: T0 + 7 * MINUTE }), false, 'no type it knows: nothing to teach');
    const partly = machine('O-5', [
      ['ONBOARDING_STARTED', 0],
      ['NEVER_SEEN', 3],
    ]);
    assert.equal(history.learn('O-5', partly, { observedAt: T0 + 7 * MINUTE }), true, 'its stay at a known type teaches');
  });

  it('counts a retry on the way, by a failed event alone or by a type come again alone, and never makes a failed type a step', () => {
    const learned = (rework: Steps, count = 10): LearnedSteps => {
      const history = new LineHistory(DEFAULT_EVENT_STATE_RULES);
      for (let i = 0; i < 30; i++) history.learn(`M-${i}`, machine(`M-${i}`, run(10, i < count ? rework : [])));
      return history.steps();
    };
    const byFailure = learned([['FIRMWARE_CHECK_FAILED', 30]]);
    assert.deepEqual(reasonsAtConfig(byFailure), [{ kind: 'rework', machines: 10, of: 30 }], 'a failed event, then on');
    const byRepeat = learned([['FIRMWARE_CHECKED', 25]]);
    assert.deepEqual(reasonsAtConfig(byRepeat), [{ kind: 'rework', machines: 10, of: 30 }], 'FIRMWARE_CHECKED twice');
    const everyFailed = learned([['FIRMWARE_CHECK_FAILED', 30]], 30);
    assert.ok(everyFailed.kind === 'steps');
    assert.deepEqual(
      everyFailed.steps.map((step) => serverTextData(step.type)),
      USUAL,
    );
  });

  it('names an optional step as its machines spell it', () => {
    const history = new LineHistory(DEFAULT_EVENT_STATE_RULES);
    for (let i = 0; i < 30; i++) history.learn(`M-${i}`, machine(`M-${i}`, run(10, i < 9 ? [['Firmware_Updated', 40]] : [])));
    assert.deepEqual(reasonsAtConfig(history.steps()), [{ kind: 'optional-step', type: 'Firmware_Updated', machines: 9, of: 30 }]);
  });

  it('orders steps at the same place and as common by their name, whatever order the machines came in', () => {
    const history = new LineHistory(DEFAULT_EVENT_STATE_RULES);
    for (const [type, serials] of [
      ['Y_STEP', [0, 1, 2, 3, 4]],
      ['X_STEP', [5, 6, 7, 8, 9]],
    ] as const)
      for (const i of serials) history.learn(`M-${i}`, machine(`M-${i}`, run(10, [[type, 1]])));
    const learned = history.steps();
    assert.ok(learned.kind === 'steps');
    assert.deepEqual(
      learned.steps.map((step) => serverTextData(step.type)),
      [
        'ONBOARDING_STARTED',
        'CONFIG_APPLIED',
        'X_STEP',
        'Y_STEP',
        'FIRMWARE_CHECKED',
        'CERTIFICATE_ISSUED',
        'MACHINE_REGISTERED',
        'ONBOARDING_COMPLETED',
      ],
    );
  });
});
