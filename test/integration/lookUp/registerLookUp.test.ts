// The look-up's event rows (step two of the quick pick). eventPickText lives
// in registerLookUp.ts with the quick pick that uses it, so it is tested in
// the extension host.
import assert from 'node:assert/strict';
import { validateEvent } from '../../../src/core/client/validateEvents';
import { eventPickText } from '../../../src/extension/lookUp/registerLookUp';
import { makeEvent } from '../../support/fakeApi';

describe('event pick text', () => {
  const now = Date.UTC(2025, 5, 2, 12, 0, 0);
  function event(type: string, message: string): ReturnType<typeof validateEvent> {
    return validateEvent(makeEvent({ type, message, timestamp: now - 2 * 86_400_000 }), 'MX-4711-A0023');
  }

  it('shows type, relative and absolute time, and the message as detail', () => {
    const e = event('ONBOARDING_COMPLETED', 'Done in\n42 min');
    assert.ok(typeof e !== 'string');
    assert.deepEqual(eventPickText(e, now, 'en', 'UTC'), {
      label: 'ONBOARDING_COMPLETED',
      description: '2 days ago · May 31, 2025, 12:00:00 PM UTC',
      detail: 'Done in 42 min',
      icon: 'pass-filled',
    });
  });

  it('marks failures and defuses theme icons in server text', () => {
    const e = event('ONBOARDING_FAILED', '$(alert) boom');
    assert.ok(typeof e !== 'string');
    const text = eventPickText(e, now, 'en');
    assert.equal(text.icon, 'error');
    assert.ok(!text.detail.includes('$('));
  });
});
