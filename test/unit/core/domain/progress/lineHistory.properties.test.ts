// Properties of the learner (fast-check, the shared seed of test/support/properties.ts).
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { serverTextData } from '../../../../../src/core/common/serverText';
import { DEFAULT_EVENT_STATE_RULES } from '../../../../../src/core/domain/events/eventState';
import { LineHistory, parseStepsSetting, stepKey, type LearnedSteps } from '../../../../../src/core/domain/progress/lineHistory';
import { holds } from '../../../../support/properties';
import { machine, MINUTE, onboarded, USUAL } from './fixtures';

/** A line: machines with their minutes between the usual steps, some with an extra step or a repeat, some not onboarded yet. */
const lineArb = fc.array(
  fc.record({
    gaps: fc.array(fc.integer({ min: 0, max: 240 }), { minLength: USUAL.length - 1, maxLength: USUAL.length - 1 }),
    extra: fc.option(fc.constantFrom('DIAGNOSTIC', 'FIRMWARE_CHECKED', 'CONFIG_APPLIED'), { nil: undefined }),
    finished: fc.boolean(),
  }),
  { minLength: 0, maxLength: 25 },
);

type Line = typeof lineArb extends fc.Arbitrary<infer T> ? T : never;

function eventsOf(index: number, spec: Line[number]): ReturnType<typeof machine> {
  const serial = `M-${index}`;
  let minute = 0;
  const steps: [string, number][] = [];
  USUAL.forEach((type, at) => {
    if (at > 0) minute += spec.gaps[at - 1] ?? 0;
    if (at === USUAL.length - 1 && !spec.finished) return;
    steps.push([type, minute]);
    if (at === 1 && spec.extra !== undefined) steps.push([spec.extra, minute]);
  });
  return machine(serial, steps);
}

function learn(line: Line, order: readonly number[]): LearnedSteps {
  const history = new LineHistory(DEFAULT_EVENT_STATE_RULES);
  for (const index of order) {
    const spec = line[index];
    if (spec !== undefined) history.learn(`M-${index}`, eventsOf(index, spec));
  }
  return history.steps();
}

/** Comparable: server text as its characters. */
function plain(learned: LearnedSteps): unknown {
  if (learned.kind !== 'steps') return learned;
  const { times, ...rest } = learned;
  // What the history says of time, asked for every step after a few stays, pooled and for the machines' kind.
  const stays = learned.steps.flatMap((step) =>
    [0, 1, 5, 30, 120, 500].flatMap((minutes) =>
      [undefined, 'M'].map((kind) => times.stay({ key: stepKey(step.type), kind, atMs: minutes * MINUTE, nowMs: 0 })),
    ),
  );
  const comparable = stays.map((stay) => ({
    ...stay,
    reasons: stay.reasons.map((reason) => (reason.kind === 'optional-step' ? { ...reason, type: serverTextData(reason.type) } : reason)),
  }));
  return {
    ...rest,
    steps: learned.steps.map((step) => ({ ...step, type: serverTextData(step.type) })),
    longestOnboardingMs: times.longestOnboardingMs,
    stays: comparable,
  };
}

/** Machines that spell the firmware check in one of three ways, and results that replace or forget one of them. */
const changesArb = fc.record({
  line: fc.array(
    fc.record({
      gaps: fc.array(fc.integer({ min: 0, max: 240 }), { minLength: USUAL.length - 1, maxLength: USUAL.length - 1 }),
      extra: fc.option(fc.constantFrom('DIAGNOSTIC', 'FIRMWARE_CHECKED'), { nil: undefined }),
      finished: fc.boolean(),
      firmware: fc.constantFrom('FIRMWARE_CHECKED', 'Firmware_Checked', 'firmware_checked'),
    }),
    { minLength: 1, maxLength: 12 },
  ),
  changes: fc.array(fc.record({ serial: fc.nat(), forget: fc.boolean(), becomes: fc.nat() }), { maxLength: 12 }),
});

type Spelled = (typeof changesArb extends fc.Arbitrary<infer T extends { line: unknown[] }> ? T['line'] : never)[number];

/** Like eventsOf, with the machine's own spelling of the firmware check. */
function spelledEvents(serial: string, spec: Spelled): ReturnType<typeof machine> {
  const spell = (type: string): string => (type === 'FIRMWARE_CHECKED' ? spec.firmware : type);
  let minute = 0;
  const steps: [string, number][] = [];
  USUAL.forEach((type, at) => {
    if (at > 0) minute += spec.gaps[at - 1] ?? 0;
    if (at === USUAL.length - 1 && !spec.finished) return;
    steps.push([spell(type), minute]);
    if (at === 1 && spec.extra !== undefined) steps.push([spell(spec.extra), minute]);
  });
  return machine(serial, steps);
}

describe('LineHistory properties', () => {
  it('replacing or forgetting machines leaves what learning the remaining ones from scratch gives', () =>
    holds(
      fc.property(changesArb, ({ line, changes }) => {
        const setting = parseStepsSetting([...USUAL, 'DIAGNOSTIC']);
        const history = new LineHistory(DEFAULT_EVENT_STATE_RULES);
        const now = new Map<string, Spelled>();
        line.forEach((spec, index) => {
          history.learn(`M-${index}`, spelledEvents(`M-${index}`, spec));
          now.set(`M-${index}`, spec);
        });
        for (const change of changes) {
          const serial = `M-${change.serial % line.length}`;
          const spec = line[change.becomes % line.length];
          if (change.forget || spec === undefined) {
            history.forget(serial);
            now.delete(serial);
          } else {
            history.learn(serial, spelledEvents(serial, spec));
            now.set(serial, spec);
          }
        }
        const fresh = new LineHistory(DEFAULT_EVENT_STATE_RULES);
        for (const [serial, spec] of now) fresh.learn(serial, spelledEvents(serial, spec));
        assert.deepEqual(plain(history.steps()), plain(fresh.steps()));
        history.setSetting(setting);
        fresh.setSetting(setting);
        assert.deepEqual(plain(history.steps()), plain(fresh.steps()), 'with a setting naming every type');
      }),
    ));

  it('the order in which machines arrive does not change what is learned', () =>
    holds(
      fc.property(
        lineArb.chain((line) =>
          fc.tuple(fc.constant(line), fc.shuffledSubarray([...line.keys()], { minLength: line.length, maxLength: line.length })),
        ),
        ([line, shuffled]) => {
          assert.deepEqual(plain(learn(line, shuffled)), plain(learn(line, [...line.keys()])));
        },
      ),
    ));

  it('no time is NaN or negative, and every figure rests on at least one machine', () =>
    holds(
      fc.property(lineArb, (line) => {
        const learned = learn(line, [...line.keys()]);
        if (learned.kind !== 'steps') return;
        for (const step of learned.steps) {
          assert.ok(step.machines >= 1 && step.machines <= learned.machines);
          for (const ms of [step.medianMs, step.p90Ms]) if (ms !== undefined) assert.ok(Number.isFinite(ms) && ms >= 0, String(ms));
          if (step.medianMs !== undefined && step.p90Ms !== undefined) assert.ok(step.medianMs <= step.p90Ms);
        }
      }),
    ));

  it('a machine that repeats the usual sequence moves no median outside the range observed', () =>
    holds(
      fc.property(
        fc.array(fc.array(fc.integer({ min: 1, max: 120 }), { minLength: USUAL.length - 1, maxLength: USUAL.length - 1 }), {
          minLength: 5,
          maxLength: 20,
        }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: USUAL.length - 1, maxLength: USUAL.length - 1 }),
        (gapsPerMachine, where) => {
          const history = new LineHistory(DEFAULT_EVENT_STATE_RULES);
          gapsPerMachine.forEach((gaps, i) => history.learn(`M-${i}`, onboarded(`M-${i}`, gaps)));
          const ranges = USUAL.slice(1).map((_, step) => {
            const seen = gapsPerMachine.map((gaps) => gaps[step] ?? 0);
            return { low: Math.min(...seen), high: Math.max(...seen) };
          });
          // The repeat takes, at each step, a time within what was observed.
          const repeat = ranges.map(({ low, high }, step) => Math.round(low + (high - low) * (where[step] ?? 0)));
          history.learn('REPEAT', onboarded('REPEAT', repeat));
          const learned = history.steps();
          assert.ok(learned.kind === 'steps');
          assert.deepEqual(
            learned.steps.map((step) => serverTextData(step.type)),
            USUAL,
          );
          learned.steps.slice(1).forEach((step, index) => {
            const range = ranges[index];
            assert.ok(range && step.medianMs !== undefined && step.p90Ms !== undefined);
            for (const ms of [step.medianMs, step.p90Ms])
              assert.ok(ms >= range.low * MINUTE && ms <= range.high * MINUTE, `${ms} outside ${range.low}–${range.high} min`);
          });
        },
      ),
    ));

  it('a steps setting wins over whatever was learned, in its own order', () =>
    holds(
      fc.property(lineArb, fc.uniqueArray(fc.constantFrom(...USUAL, 'OTHER_STEP'), { minLength: 1, maxLength: 7 }), (line, setting) => {
        const history = new LineHistory(DEFAULT_EVENT_STATE_RULES);
        line.forEach((spec, index) => history.learn(`M-${index}`, eventsOf(index, spec)));
        history.setSetting(parseStepsSetting(setting));
        const learned = history.steps();
        assert.ok(learned.kind === 'steps');
        assert.equal(learned.source, 'setting');
        assert.deepEqual(
          learned.steps.map((step) => serverTextData(step.type)),
          setting,
        );
      }),
    ));
});
