// Tree rows at the default sidebar width (about 300 px) show some twenty
// characters of a label before cutting it off: these hold the short texts that
// replaced a server's whole sentence and a raw event type there. They live in
// treeItems.ts with the rows that use them, so they are tested in the host.
import assert from 'node:assert/strict';
import { plainLocalize } from '../../../src/core/common/localize';
import type { ApiErrorKind } from '../../../src/core/client/errors';
import { errorRowLabel, firstSentence, groupAccessibilityLabel } from '../../../src/extension/machines/treeItems';

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

  it("describes an error row by the error's first sentence, in English and in Chinese (whose full stop has no space after it)", () => {
    assert.equal(
      firstSentence('The API had a problem answering (HTTP 500). Try again later.'),
      'The API had a problem answering (HTTP 500).',
    );
    assert.equal(firstSentence('API 响应时出现问题（HTTP 500）。请稍后重试。'), 'API 响应时出现问题（HTTP 500）。');
    assert.equal(firstSentence('Version 1.2 of the API answered'), 'Version 1.2 of the API answered');
  });

  it('gives a group a screen-reader label of its name and count, which a new scan does not change', () => {
    assert.equal(groupAccessibilityLabel('In This Workspace', '6'), 'In This Workspace, 6');
    assert.equal(groupAccessibilityLabel('In This Workspace', 'expand to scan'), 'In This Workspace, expand to scan');
    assert.equal(groupAccessibilityLabel('Pinned', undefined), 'Pinned');
    assert.equal(groupAccessibilityLabel('Pinned', ''), 'Pinned');
  });
});
