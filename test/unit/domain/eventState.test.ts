import * as assert from 'node:assert/strict';
import type { EventsResult, OnboardingEvent } from '../../../src/core/model';
import {
  DEFAULT_EVENT_STATE_RULES,
  eventState,
  isProblemState,
  machineState,
  parseEventStateRules,
  STATE_LOOKS,
} from '../../../src/domain/events/eventState';
import { SETTING_RULES } from '../../../src/domain/settings/settingsRules';

function event(type: string, assetId?: string): OnboardingEvent {
  return {
    serialNumber: 'MX-4711-A0023',
    type,
    message: '',
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
    ['ONBOARDING_STARTED', undefined, 'inProgress'],
    ['DEVICE_REGISTERED', undefined, 'inProgress'],
    ['MACHINE_CREATED', 'a-uuid', 'onboarded'],
    ['WHATEVER_FAILED', 'a-uuid', 'onboarded'],
  ];
  for (const [type, assetId, expected] of cases) {
    it(`reads ${type}${assetId === undefined ? '' : ' with an asset id'} as ${expected}`, () => {
      assert.equal(eventState(event(type, assetId)), expected);
    });
  }

  it('follows the setting: custom words, and an empty list means no type has that state', () => {
    const rules = parseEventStateRules({ failed: ['broken'], onboarded: [] });
    assert.equal(eventState(event('LINE_BROKEN'), rules), 'failed');
    assert.equal(eventState(event('ONBOARDING_FAILED'), rules), 'inProgress');
    assert.equal(eventState(event('ONBOARDING_COMPLETED'), rules), 'inProgress');
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
      assert.equal(eventState(event(type)), expected);
    });
  }

  it('is the rule of the eventStates setting', () => {
    assert.equal(SETTING_RULES.eventStates.default, DEFAULT_EVENT_STATE_RULES);
    assert.deepEqual(SETTING_RULES.eventStates.parse({ failed: ['x'] }).failed, ['X']);
  });

  it('gives a machine the state of its newest event, no events, unknown for not-found, unavailable for other failures', () => {
    assert.equal(machineState({ result: result(event('ONBOARDING_FAILED'), event('ONBOARDING_COMPLETED')) }), 'failed');
    assert.equal(machineState({ result: result() }), 'noEvents');
    assert.equal(machineState({ errorKind: 'not-found' }), 'unknown');
    assert.equal(machineState({ errorKind: 'server' }), 'unavailable');
    assert.equal(machineState({}), undefined);
    // A kept result beats the failure of its refresh.
    assert.equal(machineState({ result: result(event('ONBOARDING_COMPLETED')), errorKind: 'server' }), 'onboarded');
  });

  it('raises problems only for failed, no events and unknown', () => {
    assert.deepEqual(
      (['onboarded', 'failed', 'inProgress', 'noEvents', 'unknown', 'unavailable', undefined] as const).filter((state) =>
        isProblemState(state),
      ),
      ['failed', 'noEvents', 'unknown'],
    );
  });

  it('has a look (icon, colour, glyph) for every state', () => {
    for (const look of Object.values(STATE_LOOKS)) {
      assert.match(look.icon, /^[a-z-]+$/);
      assert.ok(look.color.length > 0 && look.glyph.length > 0);
    }
  });
});
