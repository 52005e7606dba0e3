import assert from 'node:assert/strict';
import { serverText, serverTextData } from '../../../../../src/core/common/serverText';
import { DEFAULT_EVENT_STATE_RULES } from '../../../../../src/core/domain/events/eventState';
import {
  LineHistory,
  MAX_EVENTS_PER_MACHINE,
  MAX_MACHINES,
  oldestFirst,
  parseStepsSetting,
  stepKey,
  type LearnedSteps,
} from '../../../../../src/core/domain/progress/lineHistory';
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
    assert.deepEqual(history.steps(), { kind: 'not-enough', machines: 4 });
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
    assert.deepEqual(history.steps(), { kind: 'not-enough', machines: 4 });
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
    assert.deepEqual(history.steps(), { kind: 'not-enough', machines: 0 }, 'LINE_READY is no outcome by default');
    history.setRules({ failed: [], onboarded: ['READY'] }, lines);
    assert.deepEqual(types(history.steps()), ['STARTED', 'CHECKED', 'LINE_READY']);
  });
});

/** A step's figures in minutes, the type as its characters: what a reader of the history compares. */
function figuresOf(learned: LearnedSteps): { type: string; machines: number; median?: number; p90?: number }[] {
  assert.ok(learned.kind === 'steps', JSON.stringify(learned));
  return learned.steps.map((step) => ({
    type: serverTextData(step.type),
    machines: step.machines,
    ...(step.medianMs === undefined ? {} : { median: step.medianMs / MINUTE }),
    ...(step.p90Ms === undefined ? {} : { p90: step.p90Ms / MINUTE }),
  }));
}

/** Machines that each go through `types` in order, a minute apart, up to ONBOARDING_COMPLETED. */
function learnAll(history: LineHistory, serials: readonly string[], types: readonly string[]): void {
  for (const serial of serials)
    history.learn(
      serial,
      machine(
        serial,
        [...types, 'ONBOARDING_COMPLETED'].map((type, minute) => [type, minute] as const),
      ),
    );
}

const serials = (prefix: string, count: number): string[] => Array.from({ length: count }, (_, i) => `${prefix}-${i}`);

describe('LineHistory: the exact figures and their edges (issue 38)', () => {
  it('reads setting names up to 256 characters, expected minutes above 0 up to a week, and a repeat in another case once', () => {
    const longest = 'L'.repeat(256);
    assert.deepEqual(
      parseStepsSetting([
        longest,
        'M'.repeat(257),
        ' padded ',
        { type: 'q' },
        'Q',
        { type: 'ZERO', expectedMinutes: 0 },
        { type: 'HALF', expectedMinutes: 0.5 },
        { type: 'WEEK', expectedMinutes: 7 * 24 * 60 },
        { type: 'OVER_A_WEEK', expectedMinutes: 7 * 24 * 60 + 1 },
        { type: 'TEXT', expectedMinutes: '12' },
        { type: 'NAN', expectedMinutes: Number.NaN },
        { type: 'INFINITE', expectedMinutes: Number.POSITIVE_INFINITY },
      ]),
      [
        { type: longest },
        { type: 'padded' },
        { type: 'q' },
        { type: 'ZERO' },
        { type: 'HALF', expectedMinutes: 0.5 },
        { type: 'WEEK', expectedMinutes: 7 * 24 * 60 },
        { type: 'OVER_A_WEEK' },
        { type: 'TEXT' },
        { type: 'NAN' },
        { type: 'INFINITE' },
      ],
    );
  });

  it('takes a step only from a name or a plain { type } object, and reads no further than 200 entries', () => {
    // A callable carrying `type` is no step object (settings are JSON, but the parser takes anything).
    const callable = Object.assign(() => undefined, { type: 'CALLABLE' });
    assert.deepEqual(parseStepsSetting([callable, ['ARRAY'], { type: 7 }, { type: 'OBJECT' }, 'NAME']), [
      { type: 'OBJECT' },
      { type: 'NAME' },
    ]);
    const junk = Array.from({ length: 199 }, () => 7);
    assert.deepEqual(parseStepsSetting([...junk, 'LAST_READ']), [{ type: 'LAST_READ' }]);
    assert.deepEqual(parseStepsSetting([...junk, 7, 'NOT_READ']), [], 'the 201st entry is not read');
    const many = parseStepsSetting(Array.from({ length: 500 }, (_, i) => `S${i}`));
    assert.deepEqual([many[0]?.type, many.at(-1)?.type], ['S0', 'S99']);
  });

  it('knows a type by its upper case', () => {
    assert.equal(stepKey(serverText('Firmware_checked')), 'FIRMWARE_CHECKED');
  });

  it('gives the nearest-rank median and 90th percentile whatever order the times arrive in, and takes back a replaced time', () => {
    const history = new LineHistory(DEFAULT_EVENT_STATE_RULES);
    // Configuration 1…5 minutes arriving in order, the firmware check 50…10 minutes arriving the other way round.
    for (let i = 0; i < 5; i++) assert.equal(history.learn(`M-${i}`, onboarded(`M-${i}`, [i + 1, 50 - 10 * i, 2, 3, 1])), true);
    const before = figuresOf(history.steps());
    assert.deepEqual(before.slice(0, 3), [
      { type: 'ONBOARDING_STARTED', machines: 5 },
      { type: 'CONFIG_APPLIED', machines: 5, median: 3, p90: 5 },
      { type: 'FIRMWARE_CHECKED', machines: 5, median: 30, p90: 50 },
    ]);
    // M-4 had the shortest firmware check (10, the first value once sorted) and the longest configuration (5).
    assert.equal(history.learn('M-4', onboarded('M-4', [0, 70, 2, 3, 1])), true);
    assert.equal(history.machines, 5);
    assert.deepEqual(figuresOf(history.steps()).slice(1, 3), [
      { type: 'CONFIG_APPLIED', machines: 5, median: 2, p90: 4 },
      { type: 'FIRMWARE_CHECKED', machines: 5, median: 40, p90: 70 },
    ]);
  });

  it('tells whether the figures may have changed: a machine that never onboarded teaches nothing, one that stops being onboarded is taken back', () => {
    const history = new LineHistory(DEFAULT_EVENT_STATE_RULES);
    const inProgress = (serial: string): ReturnType<typeof machine> =>
      machine(serial, [
        ['ONBOARDING_STARTED', 0],
        ['CONFIG_APPLIED', 4],
      ]);
    assert.equal(history.learn('NEW', inProgress('NEW')), false);
    for (let i = 0; i < 6; i++) assert.equal(history.learn(`M-${i}`, onboarded(`M-${i}`, [5, 10, 2, 3, 1])), true);
    assert.equal(history.learn('M-0', onboarded('M-0', [5, 10, 2, 3, 1])), true, 'the same lesson again');
    assert.equal(history.machines, 6);
    assert.equal(history.learn('M-0', inProgress('M-0')), true, 'onboarded before, in progress now');
    assert.equal(history.machines, 5);
    assert.equal(figuresOf(history.steps())[0]?.machines, 5);
    history.forget('NEVER-SEEN');
    assert.equal(history.machines, 5);
    history.clear();
    assert.deepEqual(history.steps(), { kind: 'not-enough', machines: 0 });
  });

  it('shows a type as the first of its spellings in code-point order, whoever came first, until that machine is forgotten', () => {
    const history = new LineHistory(DEFAULT_EVENT_STATE_RULES);
    const spelled = (serial: string, firmware: string): ReturnType<typeof machine> =>
      machine(serial, [
        ['ONBOARDING_STARTED', 0],
        [firmware, 5],
        ['ONBOARDING_COMPLETED', 6],
      ]);
    for (let i = 0; i < 5; i++) history.learn(`M-${i}`, spelled(`M-${i}`, 'Firmware_Checked'));
    history.learn('UPPER-1', spelled('UPPER-1', 'FIRMWARE_CHECKED'));
    history.learn('UPPER-2', spelled('UPPER-2', 'FIRMWARE_CHECKED'));
    assert.deepEqual(figuresOf(history.steps())[1], { type: 'FIRMWARE_CHECKED', machines: 7, median: 5, p90: 5 });
    history.forget('UPPER-1');
    assert.equal(figuresOf(history.steps())[1]?.type, 'FIRMWARE_CHECKED', 'UPPER-2 still spells it so');
    history.forget('UPPER-2');
    assert.deepEqual(figuresOf(history.steps())[1], { type: 'Firmware_Checked', machines: 5, median: 5, p90: 5 });
  });

  it('orders steps by median position, then more machines first, then by name; exactly half the machines is usual', () => {
    /** Groups of machines learned in the order given, then in the reverse order: the result must not move. */
    const learnedInBothOrders = (groups: readonly (readonly [readonly string[], readonly string[]])[]): LearnedSteps[] =>
      [groups, [...groups].reverse()].map((order) => {
        const history = new LineHistory(DEFAULT_EVENT_STATE_RULES);
        for (const [machines, steps] of order) learnAll(history, machines, steps);
        return history.steps();
      });
    for (const learned of learnedInBothOrders([
      [serials('B', 3), ['ONBOARDING_STARTED', 'B_STEP']],
      [serials('A', 3), ['ONBOARDING_STARTED', 'A_STEP']],
    ]))
      assert.deepEqual(figuresOf(learned), [
        { type: 'ONBOARDING_STARTED', machines: 6 },
        { type: 'A_STEP', machines: 3, median: 1, p90: 1 },
        { type: 'B_STEP', machines: 3, median: 1, p90: 1 },
        { type: 'ONBOARDING_COMPLETED', machines: 6, median: 1, p90: 1 },
      ]);
    // ZETA_STEP and ALPHA_STEP both sit half-way (median position 0.5); ZETA_STEP has more machines.
    for (const learned of learnedInBothOrders([
      [serials('Z', 3), ['ONBOARDING_STARTED', 'ZETA_STEP']],
      [serials('A', 2), ['ONBOARDING_STARTED', 'ALPHA_STEP']],
      [['BOTH'], ['ONBOARDING_STARTED', 'ZETA_STEP', 'ALPHA_STEP']],
    ]))
      assert.deepEqual(types(learned), ['ONBOARDING_STARTED', 'ZETA_STEP', 'ALPHA_STEP', 'ONBOARDING_COMPLETED']);
  });

  it('places a step by its share of each machine’s run (0 the first, 1 the outcome), however many steps that machine had', () => {
    const history = new LineHistory(DEFAULT_EVENT_STATE_RULES);
    learnAll(history, serials('LONG', 3), ['ONBOARDING_STARTED', 'A_STEP', 'B_STEP', 'C_STEP']); // A ¼, B ½, C ¾
    learnAll(history, serials('SHORT', 3), ['ONBOARDING_STARTED', 'X_STEP']); // X ½
    assert.deepEqual(types(history.steps()), ['ONBOARDING_STARTED', 'A_STEP', 'B_STEP', 'X_STEP', 'C_STEP', 'ONBOARDING_COMPLETED']);
  });

  it('gives the first step no time even when some machines reached it from another step', () => {
    const history = new LineHistory(DEFAULT_EVENT_STATE_RULES);
    for (let i = 0; i < 3; i++)
      history.learn(
        `AB-${i}`,
        machine(`AB-${i}`, [
          ['A_STEP', 0],
          ['B_STEP', i + 1],
          ['ONBOARDING_COMPLETED', 10],
        ]),
      );
    for (let i = 0; i < 2; i++)
      history.learn(
        `BA-${i}`,
        machine(`BA-${i}`, [
          ['B_STEP', 0],
          ['A_STEP', 4],
          ['ONBOARDING_COMPLETED', 10],
        ]),
      );
    // B_STEP is timed on the three machines that reached it from A_STEP (1, 2, 3 min), not on the two that began with it.
    assert.deepEqual(figuresOf(history.steps()), [
      { type: 'A_STEP', machines: 5 },
      { type: 'B_STEP', machines: 5, median: 2, p90: 3 },
      { type: 'ONBOARDING_COMPLETED', machines: 5, median: 7, p90: 9 },
    ]);
  });

  it('takes the setting’s steps with the machines and times measured, the setting’s minutes first, none for the first step', () => {
    const setting = parseStepsSetting([
      { type: 'CONFIG_APPLIED', expectedMinutes: 3 },
      'ONBOARDING_STARTED',
      { type: 'firmware_checked', expectedMinutes: 30 },
      'NEVER_SEEN',
      'ONBOARDING_COMPLETED',
    ]);
    const young = new LineHistory(DEFAULT_EVENT_STATE_RULES);
    for (let i = 0; i < 4; i++) young.learn(`M-${i}`, onboarded(`M-${i}`, [5, 10, 2, 3, 1]));
    young.setSetting(setting);
    const unmeasured = young.steps();
    assert.equal(unmeasured.kind === 'steps' && unmeasured.machines, 4);
    assert.deepEqual(figuresOf(unmeasured), [
      { type: 'CONFIG_APPLIED', machines: 0 },
      { type: 'ONBOARDING_STARTED', machines: 0 },
      { type: 'firmware_checked', machines: 0, median: 30, p90: 30 },
      { type: 'NEVER_SEEN', machines: 0 },
      { type: 'ONBOARDING_COMPLETED', machines: 0 },
    ]);
    young.learn('M-4', onboarded('M-4', [5, 10, 2, 3, 1]));
    // ONBOARDING_STARTED is always a machine's first step: measured on five machines, timed on none.
    assert.deepEqual(figuresOf(young.steps()), [
      { type: 'CONFIG_APPLIED', machines: 5 },
      { type: 'ONBOARDING_STARTED', machines: 5 },
      { type: 'firmware_checked', machines: 5, median: 30, p90: 30 },
      { type: 'NEVER_SEEN', machines: 0 },
      { type: 'ONBOARDING_COMPLETED', machines: 5, median: 1, p90: 1 },
    ]);
  });

  it('puts events oldest first, equal times in the reverse of the server’s newest-first order', () => {
    const tied = machine('TIE', [
      ['FIRST', 0],
      ['SECOND', 0],
      ['THIRD', 0],
      ['FOURTH', 0],
    ]);
    assert.deepEqual(
      oldestFirst(tied).map((event) => serverTextData(event.type)),
      ['FIRST', 'SECOND', 'THIRD', 'FOURTH'],
    );
    const [late, early, middle] = machine('MIXED', [
      ['EARLY', 0],
      ['MIDDLE', 5],
      ['LATE', 10],
    ]);
    assert.ok(late && early && middle);
    assert.deepEqual(
      oldestFirst([middle, late, early]).map((event) => serverTextData(event.type)),
      ['EARLY', 'MIDDLE', 'LATE'],
    );
  });

  it(`learns from a machine whose only event is its outcome, and reads at most ${MAX_EVENTS_PER_MACHINE} events of one machine: the last before its outcome`, () => {
    const history = new LineHistory(DEFAULT_EVENT_STATE_RULES);
    for (let i = 0; i < 5; i++) history.learn(`M-${i}`, machine(`M-${i}`, [['ONBOARDING_COMPLETED', 0]]));
    assert.deepEqual(figuresOf(history.steps()), [{ type: 'ONBOARDING_COMPLETED', machines: 5 }]);
    const long = new LineHistory(DEFAULT_EVENT_STATE_RULES);
    const names = Array.from({ length: 250 }, (_, i) => `T${String(i).padStart(3, '0')}`);
    learnAll(long, serials('LONG', 5), names);
    assert.deepEqual(
      types(long.steps()),
      [...names.slice(names.length - MAX_EVENTS_PER_MACHINE), 'ONBOARDING_COMPLETED'],
      'the last steps and the outcome, those before them unread',
    );
  });

  it(`remembers at most ${MAX_MACHINES} machines: a new one past that is refused, a known one is still replaced`, () => {
    const history = new LineHistory(DEFAULT_EVENT_STATE_RULES);
    const outcomeOnly = machine('ANY', [['ONBOARDING_COMPLETED', 0]]);
    for (let i = 0; i < MAX_MACHINES; i++) history.learn(`M-${i}`, outcomeOnly);
    history.learn('ONE-MORE', outcomeOnly);
    assert.equal(history.machines, MAX_MACHINES, 'one more is refused');
    history.setSetting(parseStepsSetting(['EXTRA_STEP', 'ONBOARDING_COMPLETED']));
    history.learn(
      'M-0',
      machine('M-0', [
        ['EXTRA_STEP', 0],
        ['ONBOARDING_COMPLETED', 1],
      ]),
    );
    assert.equal(history.machines, MAX_MACHINES);
    assert.deepEqual(
      figuresOf(history.steps()).map((step) => step.machines),
      [1, MAX_MACHINES],
      'M-0 replaced at the cap',
    );
    history.forget('M-1');
    history.learn('ONE-MORE', outcomeOnly);
    assert.equal(history.machines, MAX_MACHINES, 'room again after a machine is forgotten');
  });
});
