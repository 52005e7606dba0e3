import * as assert from 'node:assert/strict';
import {
  countStates,
  createdEventOf,
  labelOf,
  newestOf,
  stateOfEvent,
  stateOfResult,
} from '../../../src/domain/agentTools/onboardingState';
import { event, result } from './fixtures';

describe('agent tools: onboarding state', () => {
  const cases: readonly (readonly [string, string | undefined, string])[] = [
    ['ONBOARDING_FAILED', undefined, 'failed'],
    ['CERTIFICATE_REJECTED', undefined, 'failed'],
    ['device_error', undefined, 'failed'],
    ['ONBOARDING_COMPLETED', undefined, 'completed'],
    ['MACHINE_CREATED', '3f2b8c1e-7a4d-4e4b-9a6f-1c2d3e4f5a6b', 'completed'],
    ['DEVICE_REGISTERED', undefined, 'in-progress'],
  ];
  for (const [type, assetId, state] of cases) {
    it(`reads ${type} as ${state}`, () => {
      assert.equal(stateOfEvent(event({ minute: 1, type, ...(assetId === undefined ? {} : { assetId }) })), state);
    });
  }

  it('decides by the newest event, whatever order the events come in', () => {
    const failedThenDone = result('MX-4711-A0023', [
      event({ minute: 1, type: 'ONBOARDING_FAILED' }),
      event({ minute: 9, type: 'ONBOARDING_COMPLETED' }),
    ]);
    assert.equal(stateOfResult(failedThenDone), 'completed');
    const unsorted = { ...failedThenDone, events: [...failedThenDone.events].reverse() };
    assert.equal(stateOfResult(unsorted), 'completed');
    assert.equal(stateOfResult(result('MX-4711-A0023', [])), 'no-events');
  });

  it('takes the first of events with the same time as the newest (the client lists newest first)', () => {
    const first = event({ minute: 4, type: 'FIRST' });
    const second = event({ minute: 4, type: 'SECOND' });
    assert.equal(newestOf([first, second]), first);
    assert.equal(newestOf([second, first]), second);
    assert.equal(newestOf([]), undefined);
  });

  it('finds the machine-created event by its asset id, wherever it is', () => {
    const created = event({ minute: 2, type: 'MACHINE_CREATED', assetId: '3f2b8c1e-7a4d-4e4b-9a6f-1c2d3e4f5a6b' });
    assert.equal(createdEventOf([event({ minute: 3 }), created, event({ minute: 1 })]), created);
    assert.equal(createdEventOf([event({ minute: 3 })]), undefined);
  });

  it('words every state for the model', () => {
    assert.deepEqual((['failed', 'unavailable', 'in-progress', 'no-events', 'completed'] as const).map(labelOf), [
      'failed',
      'unavailable (the request failed)',
      'in progress',
      'no events',
      'completed',
    ]);
  });

  it('counts every state, with zeros', () => {
    const counts = countStates(['failed', 'failed', 'completed']);
    assert.deepEqual(
      [...counts.entries()],
      [
        ['failed', 2],
        ['unavailable', 0],
        ['in-progress', 0],
        ['no-events', 0],
        ['completed', 1],
      ],
    );
  });
});
