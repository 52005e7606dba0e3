import * as assert from 'node:assert/strict';
import type { EventsResult, OnboardingEvent } from '../../../../../src/core/client/model';
import { plainLocalize } from '../../../../../src/core/common/localize';
import {
  DEFAULT_EVENT_STATE_RULES,
  eventState,
  isProblemState,
  machineState,
  newestOf,
  parseEventStateRules,
  STATE_LOOKS,
  stateWord,
  type EventStateRules,
  type MachineState,
} from '../../../../../src/core/domain/events/eventState';
import { SETTING_RULES } from '../../../../../src/core/domain/settings/settingsRules';
import { event as timedEvent, result as resultOf } from '../agentTools/fixtures';
import { serverText } from '../../../../../src/core/common/serverText';

function event(type: string, assetId?: string): OnboardingEvent {
  return {
    serialNumber: 'MX-4711-A0023',
    type: serverText(type),
    message: serverText(''),
    time: { raw: 1, epochMs: 1000, unit: 'seconds', detected: true },
    ...(assetId === undefined ? {} : { assetId }),
    links: {},
    extra: {},
    raw: {},
    key: type,
  };
}

function result(...events: OnboardingEvent[]): EventsResult {
  return { serialNumber: 'MX-4711-A0023', events, invalid: [], fetchedAt: 0, truncated: false };
}

describe('event states (the one mapping of type names to states)', () => {
  const cases: [string, string | undefined, string][] = [
    ['ONBOARDING_COMPLETED', undefined, 'onboarded'],
    ['onboarding_success', undefined, 'onboarded'],
    ['ONBOARDING_FAILED', undefined, 'failed'],
    ['CERTIFICATE_REJECTED', undefined, 'failed'],
    ['COMPLETED_WITH_ERRORS', undefined, 'failed'],
    ['ONBOARDING_STARTED', undefined, 'in-progress'],
    ['DEVICE_REGISTERED', undefined, 'in-progress'],
    ['MACHINE_CREATED', 'a-uuid', 'onboarded'],
    ['WHATEVER_FAILED', 'a-uuid', 'onboarded'],
  ];
  for (const [type, assetId, expected] of cases) {
    it(`reads ${type}${assetId === undefined ? '' : ' with an asset id'} as ${expected}`, () => {
      assert.equal(eventState(event(type, assetId), DEFAULT_EVENT_STATE_RULES), expected);
    });
  }

  it('follows the setting: custom words, and an empty list means no type has that state', () => {
    const rules = parseEventStateRules({ failed: ['broken'], onboarded: [] });
    assert.equal(eventState(event('LINE_BROKEN'), rules), 'failed');
    assert.equal(eventState(event('ONBOARDING_FAILED'), rules), 'in-progress');
    assert.equal(eventState(event('ONBOARDING_COMPLETED'), rules), 'in-progress');
  });

  it('keeps the default of a list that is missing or of the wrong type, and drops blank and non-string words', () => {
    assert.deepEqual(parseEventStateRules(undefined), DEFAULT_EVENT_STATE_RULES);
    assert.deepEqual(parseEventStateRules(['FAIL']), DEFAULT_EVENT_STATE_RULES);
    const rules = parseEventStateRules({ failed: 'FAIL', onboarded: [' ok ', 7, '', 'x'.repeat(101)] });
    assert.deepEqual(rules.failed, DEFAULT_EVENT_STATE_RULES.failed);
    assert.deepEqual(rules.onboarded, ['OK']);
  });

  it('keeps words of up to 100 characters and the first 50 words of a list', () => {
    const long = 'x'.repeat(100);
    assert.deepEqual(parseEventStateRules({ failed: [long, `${long}y`] }).failed, [long.toUpperCase()]);
    const many = Array.from({ length: 51 }, (_, i) => `w${i}`);
    const rules = parseEventStateRules({ failed: many });
    assert.equal(rules.failed.length, 50);
    assert.equal(rules.failed[49], 'W49');
  });

  it('keeps both defaults for a setting that is no object', () => {
    for (const value of [null, 'FAIL', 42, true]) assert.deepEqual(parseEventStateRules(value), DEFAULT_EVENT_STATE_RULES);
    assert.deepEqual(parseEventStateRules({}), DEFAULT_EVENT_STATE_RULES);
  });

  const defaults: [string, string][] = [
    ['ROLLOUT_ABORTED', 'failed'],
    ['HANDSHAKE_ERROR', 'failed'],
    ['PROVISIONING_DONE', 'onboarded'],
    ['SETUP_FINISHED', 'onboarded'],
  ];
  for (const [type, expected] of defaults) {
    it(`reads ${type} as ${expected} by the default words`, () => {
      assert.equal(eventState(event(type), DEFAULT_EVENT_STATE_RULES), expected);
    });
  }

  it('is the rule of the eventStates setting', () => {
    assert.equal(SETTING_RULES.eventStates.default, DEFAULT_EVENT_STATE_RULES);
    assert.deepEqual(SETTING_RULES.eventStates.parse({ failed: ['x'] }).failed, ['X']);
  });

  it('gives a machine the state of its newest event, no events, unknown for not-found, unavailable for other failures', () => {
    const rules = DEFAULT_EVENT_STATE_RULES;
    assert.equal(machineState({ result: result(event('ONBOARDING_FAILED'), event('ONBOARDING_COMPLETED')) }, rules), 'failed');
    assert.equal(machineState({ result: result() }, rules), 'no-events');
    assert.equal(machineState({ errorKind: 'not-found' }, rules), 'unknown');
    assert.equal(machineState({ errorKind: 'server' }, rules), 'unavailable');
    assert.equal(machineState({}, rules), undefined);
    // A kept result beats the failure of its refresh.
    assert.equal(machineState({ result: result(event('ONBOARDING_COMPLETED')), errorKind: 'server' }, rules), 'onboarded');
  });

  it('raises problems only for failed, no events and unknown', () => {
    assert.deepEqual(
      (['onboarded', 'failed', 'in-progress', 'no-events', 'unknown', 'unavailable', undefined] as const).filter((state) =>
        isProblemState(state),
      ),
      ['failed', 'no-events', 'unknown'],
    );
  });

  it('has a look (icon, colour, glyph) for every state', () => {
    for (const look of Object.values(STATE_LOOKS)) {
      assert.match(look.icon, /^[a-z-]+$/);
      assert.ok(look.color.length > 0 && look.glyph.length > 0);
    }
  });
});

describe("a machine's state: the one mapping, always with the user's rules", () => {
  const custom = parseEventStateRules({ failed: ['BROKEN'], onboarded: ['FAILED'] });
  const ASSET = '3f2b8c1e-7a4d-4e4b-9a6f-1c2d3e4f5a6b';
  // [newest event type, its asset id, rules, state]: the rules decide, whatever a type name says in English.
  const table: readonly (readonly [string, string | undefined, EventStateRules, MachineState])[] = [
    ['ONBOARDING_FAILED', undefined, DEFAULT_EVENT_STATE_RULES, 'failed'],
    ['CERTIFICATE_REJECTED', undefined, DEFAULT_EVENT_STATE_RULES, 'failed'],
    ['device_error', undefined, DEFAULT_EVENT_STATE_RULES, 'failed'],
    ['ONBOARDING_COMPLETED', undefined, DEFAULT_EVENT_STATE_RULES, 'onboarded'],
    ['MACHINE_CREATED', ASSET, DEFAULT_EVENT_STATE_RULES, 'onboarded'],
    ['DEVICE_REGISTERED', undefined, DEFAULT_EVENT_STATE_RULES, 'in-progress'],
    ['LINE_BROKEN', undefined, DEFAULT_EVENT_STATE_RULES, 'in-progress'],
    ['ONBOARDING_FAILED', undefined, custom, 'onboarded'],
    ['LINE_BROKEN', undefined, custom, 'failed'],
    ['ONBOARDING_COMPLETED', undefined, custom, 'in-progress'],
    ['DEVICE_REGISTERED', undefined, custom, 'in-progress'],
    ['LINE_BROKEN', ASSET, custom, 'onboarded'],
  ];
  for (const [type, assetId, rules, expected] of table) {
    const how = `${assetId === undefined ? '' : ' with an asset id'} ${rules === custom ? 'by custom rules' : 'by default'}`;
    it(`reads a machine whose newest event is ${type}${how} as ${expected}`, () => {
      const newest = timedEvent({ minute: 2, type, ...(assetId === undefined ? {} : { assetId }) });
      const older = timedEvent({ minute: 1, type: 'ONBOARDING_COMPLETED' });
      assert.equal(machineState({ result: resultOf('MX-4711-A0023', [newest, older]) }, rules), expected);
    });
  }

  it('decides by the newest event, whatever order the events come in', () => {
    const failedThenDone = resultOf('MX-4711-A0023', [
      timedEvent({ minute: 1, type: 'ONBOARDING_FAILED' }),
      timedEvent({ minute: 9, type: 'ONBOARDING_COMPLETED' }),
    ]);
    assert.equal(machineState({ result: failedThenDone }, DEFAULT_EVENT_STATE_RULES), 'onboarded');
    const unsorted = { ...failedThenDone, events: [...failedThenDone.events].reverse() };
    assert.equal(machineState({ result: unsorted }, DEFAULT_EVENT_STATE_RULES), 'onboarded');
    assert.equal(machineState({ result: resultOf('MX-4711-A0023', []) }, DEFAULT_EVENT_STATE_RULES), 'no-events');
  });

  it('takes the first of events with the same time as the newest (the client lists newest first)', () => {
    const first = timedEvent({ minute: 4, type: 'FIRST' });
    const second = timedEvent({ minute: 4, type: 'SECOND' });
    assert.equal(newestOf([first, second]), first);
    assert.equal(newestOf([second, first]), second);
    assert.equal(newestOf([]), undefined);
  });
});

describe('state words: one per state, for every view and the agent tools', () => {
  const words: readonly (readonly [MachineState, string])[] = [
    ['onboarded', 'onboarded'],
    ['failed', 'failed'],
    ['in-progress', 'in progress'],
    ['no-events', 'no events'],
    ['unknown', 'unknown'],
    ['unavailable', 'unavailable'],
  ];
  for (const [state, word] of words) {
    it(`says ${state} as "${word}"`, () => {
      assert.equal(stateWord(state, plainLocalize), word);
    });
  }

  it('says every state through the Localize it is given, so the views can translate it', () => {
    const shout = (message: string): string => message.toUpperCase();
    assert.deepEqual(
      words.map(([state]) => stateWord(state, shout)),
      words.map(([, word]) => word.toUpperCase()),
    );
  });

  it("says a machine's state in one short word from its newest event, whatever the event type is called", () => {
    const say = (type: string, assetId?: string): string =>
      stateWord(
        machineState(
          { result: resultOf('MX-4711-A0023', [timedEvent({ type, minute: 1, ...(assetId === undefined ? {} : { assetId }) })]) },
          DEFAULT_EVENT_STATE_RULES,
        ),
        plainLocalize,
      );
    assert.equal(say('ONBOARDING_COMPLETED'), 'onboarded');
    assert.equal(say('ONBOARDING_FAILED'), 'failed');
    assert.equal(say('CERTIFICATE_REJECTED'), 'failed');
    assert.equal(say('MACHINE_CREATED', '436db7ec-30c2-41dd-8b7a-2c3cb93cd609'), 'onboarded');
    assert.equal(say('DEVICE_REGISTERED'), 'in progress');
    assert.equal(stateWord(machineState({ result: resultOf('MX-4711-A0023', []) }, DEFAULT_EVENT_STATE_RULES), plainLocalize), 'no events');
  });
});
