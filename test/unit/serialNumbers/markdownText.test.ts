import assert from 'node:assert/strict';
import { commandUri, defuseThemeIcons, escapeMarkdown, markdownCell, toSingleLine, truncate } from '../../../src/serialNumbers/markdownText';
import { formatRelativeTime, formatUtc } from '../../../src/serialNumbers/relativeTime';
import { eventPickText } from '../../../src/serialNumbers/eventPickText';
import { validateEvent } from '../../../src/core/validateEvents';
import { makeEvent } from '../../support/fakeApi';

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
    assert.equal(toSingleLine('  a\r\n\tb\u0000c\u200bd\u202e  '), 'a bcd');
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

describe('relative time', () => {
  const now = Date.UTC(2025, 5, 2, 12, 0, 0);
  const table: readonly [number, string][] = [
    [0, 'now'],
    [-5_000, 'now'],
    [-30_000, '30 seconds ago'],
    [-50 * 60_000, '50 minutes ago'],
    [-100 * 60_000, '2 hours ago'],
    [-1.6 * 365 * 86_400_000, '2 years ago'],
    [-5 * 60_000, '5 minutes ago'],
    [-60 * 60_000, '1 hour ago'],
    [-26 * 3_600_000, 'yesterday'],
    [-3 * 86_400_000, '3 days ago'],
    [-14 * 86_400_000, '2 weeks ago'],
    [-65 * 86_400_000, '2 months ago'],
    [-400 * 86_400_000, 'last year'],
    [2 * 3_600_000, 'in 2 hours'],
  ];
  for (const [delta, expected] of table) {
    it(`${delta} ms → ${expected}`, () => {
      assert.equal(formatRelativeTime(now + delta, now, 'en'), expected);
    });
  }

  it('formatUtc gives an exact, sortable UTC time', () => {
    assert.equal(formatUtc(Date.UTC(2025, 3, 20, 20, 58, 46)), '2025-04-20 20:58:46 UTC');
    assert.equal(formatUtc(Number.NaN), 'NaN');
  });

  it('follows the locale, and falls back to English for an unknown one', () => {
    assert.equal(formatRelativeTime(now - 3 * 86_400_000, now, 'de'), 'vor 3 Tagen');
    assert.equal(formatRelativeTime(now - 3 * 86_400_000, now, 'not a locale!'), '3 days ago');
  });
});

describe('event pick text', () => {
  const now = Date.UTC(2025, 5, 2, 12, 0, 0);
  function event(type: string, message: string): ReturnType<typeof validateEvent> {
    return validateEvent(makeEvent({ type, message, timestamp: now - 2 * 86_400_000 }), 'MX-4711-A0023');
  }

  it('shows type, relative and absolute time, and the message as detail', () => {
    const e = event('ONBOARDING_COMPLETED', 'Done in\n42 min');
    assert.ok(typeof e !== 'string');
    assert.deepEqual(eventPickText(e, now, 'en'), {
      label: 'ONBOARDING_COMPLETED',
      description: '2 days ago · 2025-05-31 12:00:00 UTC',
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
