// The renderers of server text, one per kind of surface, against the hostile
// strings of issue 34: `$(…)` that VS Code would draw as icons, a right-to-left
// override that reverses what follows, line breaks, links and a long string.
import * as assert from 'node:assert/strict';
import {
  clipboardText,
  lineText,
  markdownText,
  MAX_LINE,
  notificationText,
  pageText,
  serverText,
  serverTextData,
  tooltipText,
} from '../../../src/core/common/serverText';
import { NOTIFICATION_LINK } from '../../../src/core/common/notificationText';

const ICONS = 'FAILED $(pass-filled) $(loading~spin) all checks';
const REVERSED = 'STEP \u202eDELIAF\u202c';
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const hostile = serverText(`${ICONS}\n${REVERSED} [Retry](command:workbench.action.terminal.new)`);

describe('server text renderers', () => {
  it('keeps the characters as sent for data and for the clipboard', () => {
    const text = `${ICONS} ${REVERSED}`;
    assert.equal(serverTextData(serverText(text)), text);
    assert.equal(clipboardText(serverText(text)), text);
  });

  it('lineText: one line, no bidi control, no $( left for an icon, bounded', () => {
    const shown = lineText(hostile);
    assert.equal(
      shown,
      'FAILED $\u200a(pass-filled) $\u200a(loading~spin) all checks STEP DELIAF [Retry](command:workbench.action.terminal.new)',
    );
    assert.doesNotMatch(shown, BIDI);
    assert.equal(Array.from(lineText(serverText('x'.repeat(10_000)))).length, MAX_LINE);
    assert.match(lineText(serverText('x'.repeat(10_000))), /…$/);
  });

  it('tooltipText: keeps line breaks, shows bidi controls as �, no icon', () => {
    const shown = tooltipText(hostile);
    assert.match(shown, /all checks\nSTEP \ufffdDELIAF\ufffd/);
    assert.doesNotMatch(shown, /\$\(/);
    assert.ok(Array.from(tooltipText(serverText('y'.repeat(10_000)), 50)).length <= 50);
  });

  it('notificationText: no link VS Code would make clickable, no icon, no bidi control', () => {
    const shown = notificationText(hostile);
    assert.deepEqual([...shown.matchAll(NOTIFICATION_LINK)], []);
    assert.doesNotMatch(shown, /\$\(/);
    assert.doesNotMatch(shown, BIDI);
  });

  it('markdownText: one line, every Markdown character literal (no link, HTML or icon)', () => {
    const shown = markdownText(serverText('<img src=x> [a](command:x) $(alert) **b**\u202e'));
    assert.equal(shown, '\\<img src\\=x\\> \\[a\\]\\(command\\:x\\) \\$\\(alert\\) \\*\\*b\\*\\*');
  });

  it('pageText: the text a page sets as textContent, with bidi controls shown as �', () => {
    assert.equal(pageText(serverText(REVERSED)), 'STEP \ufffdDELIAF\ufffd');
    assert.equal(pageText(serverText('<b>x</b>')), '<b>x</b>', 'a page sets text, so nothing needs escaping');
  });
});
