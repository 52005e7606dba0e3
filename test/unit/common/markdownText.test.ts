import assert from 'node:assert/strict';
import { commandUri, defuseThemeIcons, escapeMarkdown, markdownCell, toSingleLine, truncate } from '../../../src/core/common/markdownText';

describe('markdown text helpers', () => {
  const escapes: readonly [string, string][] = [
    ['plain words 123', 'plain words 123'],
    ['a|b', 'a\\|b'],
    ['`x`', '\\`x\\`'],
    ['<b>', '\\<b\\>'],
    ['[a](b)', '\\[a\\]\\(b\\)'],
    ['$(icon)', '\\$\\(icon\\)'],
    ['https://x', 'https\\:\\/\\/x'],
    ['a\\b', 'a\\\\b'],
    ['ümlaut — dash', 'ümlaut — dash'],
  ];
  for (const [input, expected] of escapes) {
    it(`escapeMarkdown(${JSON.stringify(input)}) → ${JSON.stringify(expected)}`, () => {
      assert.equal(escapeMarkdown(input), expected);
    });
  }

  it('toSingleLine folds whitespace and drops control and invisible characters', () => {
    assert.equal(toSingleLine('  a\r\n\tb\u0000c\u200bd\u202e  ', 100), 'a bcd');
  });

  it('truncate keeps short text and cuts long text on code points with an ellipsis', () => {
    assert.equal(truncate('abc', 3), 'abc');
    assert.equal(truncate('abcdef', 4), 'abc…');
    assert.equal(truncate('😀😀😀😀', 3), '😀😀…');
    assert.equal(truncate('ab   cdef', 5), 'ab…');
  });

  it('markdownCell gives a dash for empty text', () => {
    assert.equal(markdownCell(' \n ', 10), '—');
  });

  it('commandUri encodes JSON arguments', () => {
    assert.equal(commandUri('a.b', [{ serialNumber: 'MX-1 ?&' }]), `command:a.b?${encodeURIComponent('[{"serialNumber":"MX-1 ?&"}]')}`);
  });

  it('defuseThemeIcons breaks $( so quick picks show it as text', () => {
    assert.ok(!defuseThemeIcons('$(alert) x $(y)').includes('$('));
  });
});
