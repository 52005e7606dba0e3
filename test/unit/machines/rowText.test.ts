// Tree rows at the default sidebar width (about 300 px) show some twenty
// characters of a label before cutting it off: these hold the short texts that
// replaced a server's whole sentence and a raw event type there.
import assert from 'node:assert/strict';
import { plainLocalize } from '../../../src/common/localize';
import type { ApiErrorKind } from '../../../src/core/errors';
import { stateWord } from '../../../src/domain/events/stateWord';
import { errorRowLabel, groupAccessibilityLabel } from '../../../src/machines/rowText';
import { event } from './fixtures';

/** What fits beside the icon and the two inline actions of an error row at the default width. */
const ERROR_LABEL_MAX = 22;

describe('Tree row texts that fit a default-width sidebar', () => {
  const kinds: readonly (ApiErrorKind | undefined)[] = [
    'invalid-credentials',
    'permission-denied',
    'not-found',
    'rate-limited',
    'server',
    'network',
    'timeout',
    'protocol',
    'cancelled',
    'invalid-input',
    undefined,
  ];

  it("labels an error row with a few words per kind of failure, not the server's sentence", () => {
    assert.equal(errorRowLabel('server', plainLocalize), 'Server error');
    assert.equal(errorRowLabel('network', plainLocalize), 'API not reachable');
    assert.equal(errorRowLabel(undefined, plainLocalize), 'Could not load events');
    for (const kind of kinds) {
      const label = errorRowLabel(kind, plainLocalize);
      assert.ok(label.length <= ERROR_LABEL_MAX, `${String(kind)}: "${label}" is longer than ${ERROR_LABEL_MAX} characters`);
    }
  });

  it("says a machine's state in one short word from its newest event, whatever the event type is called", () => {
    assert.equal(stateWord(event({ type: 'ONBOARDING_COMPLETED', minute: 1 }), plainLocalize), 'completed');
    assert.equal(stateWord(event({ type: 'ONBOARDING_FAILED', minute: 1 }), plainLocalize), 'failed');
    assert.equal(stateWord(event({ type: 'CERTIFICATE_REJECTED', minute: 1 }), plainLocalize), 'failed');
    assert.equal(
      stateWord(event({ type: 'MACHINE_CREATED', assetId: '436db7ec-30c2-41dd-8b7a-2c3cb93cd609', minute: 1 }), plainLocalize),
      'completed',
    );
    assert.equal(stateWord(event({ type: 'DEVICE_REGISTERED', minute: 1 }), plainLocalize), 'in progress');
    assert.equal(stateWord(undefined, plainLocalize), 'no events');
  });

  it('gives a group a screen-reader label of its name and count, which a new scan does not change', () => {
    assert.equal(groupAccessibilityLabel('In This Workspace', '6'), 'In This Workspace, 6');
    assert.equal(groupAccessibilityLabel('In This Workspace', 'expand to scan'), 'In This Workspace, expand to scan');
    assert.equal(groupAccessibilityLabel('Pinned', undefined), 'Pinned');
    assert.equal(groupAccessibilityLabel('Pinned', ''), 'Pinned');
  });
});
