import * as assert from 'node:assert/strict';
import { plainLocalize } from '../../../src/common/localize';
import { inlineStatusText, problemMessage, stateSummary } from '../../../src/editor/glanceText';

const DAY = 86_400_000;
const ctx = { now: 10 * DAY, locale: 'en', t: plainLocalize };

describe('glance text (inline status, Problems entries, completion details)', () => {
  it('says glyph, state and the age of the latest event', () => {
    assert.equal(inlineStatusText('onboarded', 7 * DAY, ctx), '\u2713 onboarded · 3 days ago');
    assert.equal(inlineStatusText('failed', 9 * DAY, ctx), '\u2717 failed · yesterday');
  });

  it('has no age when there is no event', () => {
    assert.equal(stateSummary('noEvents', undefined, ctx), 'no events');
    assert.equal(inlineStatusText('unknown', undefined, ctx), '? unknown');
  });

  it('words each problem', () => {
    assert.equal(problemMessage('MX-4711-A0023', 'failed', 'ONBOARDING_FAILED', ctx), 'Onboarding of MX-4711-A0023 failed: its latest event is ONBOARDING_FAILED.');
    assert.match(problemMessage('MX-4711-A0023', 'noEvents', undefined, ctx), /no onboarding events/);
    assert.match(problemMessage('MX-4711-A0023', 'unknown', undefined, ctx), /does not know/);
  });
});
