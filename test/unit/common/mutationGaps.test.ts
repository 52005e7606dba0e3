// Behaviours that mutation testing (npm run mutation) showed no test pinned
// down: boundaries, fallbacks and exact outputs of the small text helpers.
import * as assert from 'node:assert/strict';
import { defuseThemeIcons } from '../../../src/core/common/markdownText';
import { plainLocalize } from '../../../src/core/common/localize';
import { NOTIFICATION_LINK } from '../../../src/core/common/notificationText';
import { Redactor } from '../../../src/core/common/redact';
import { formatRaw, formatRelative, formatShort, isRepresentable } from '../../../src/core/common/time';

const SECOND = 1000;
const DAY = 86_400_000;
const NOW = Date.UTC(2025, 0, 15, 12, 0, 0);

describe('text helpers: exact outputs and boundaries', () => {
  it('defuseThemeIcons puts a hair space between "$" and "(", nothing else', () => {
    assert.equal(defuseThemeIcons('$(alert) x'), '$\u200a(alert) x');
  });

  it('plainLocalize fills placeholders with more than one digit', () => {
    assert.equal(plainLocalize('{0}-{10}', ...Array.from({ length: 11 }, (_, i) => `a${i}`)), 'a0-a10');
  });

  it('NOTIFICATION_LINK recognises what VS Code makes a link: http, https, command and file targets, with a quoted title', () => {
    const matches = (text: string): boolean => new RegExp(NOTIFICATION_LINK.source, NOTIFICATION_LINK.flags).test(text);
    assert.ok(matches('[a](http://x.test)'));
    assert.ok(matches('[a](https://x.test)'));
    assert.ok(matches('[a](command:x.y)'));
    const titled = new RegExp(NOTIFICATION_LINK.source, NOTIFICATION_LINK.flags).exec('[a](https://x.test "The title")');
    assert.ok(titled);
    assert.equal(titled[4], 'The title');
    assert.equal(titled[3], '"');
    assert.ok(!matches('[a](ftp://x.test)'));
  });

  it('redaction takes any run of white space after Bearer, and never a short value inside a word', () => {
    const redactor = new Redactor();
    assert.equal(redactor.redact('Authorization: Bearer   abc.DEF'), 'Authorization: Bearer [redacted]');
    redactor.addSecret('abc');
    assert.equal(redactor.redact('the abcdef of it'), 'the abcdef of it');
  });
});

describe('time: boundaries', () => {
  it('the last representable instant is representable', () => {
    assert.equal(isRepresentable(8.64e15), true);
    assert.equal(isRepresentable(-8.64e15), true);
    assert.equal(isRepresentable(8.64e15 + 1), false);
  });

  it('exactly 10 s away is no longer "now", and exactly 30 days is a month', () => {
    assert.equal(formatRelative(NOW - 10 * SECOND, NOW, 'en'), '10 seconds ago');
    assert.equal(formatRelative(NOW - 30 * DAY, NOW, 'en'), 'last month');
    assert.equal(formatRelative(NOW + 7 * DAY, NOW, 'en'), 'next week');
  });

  it("formatShort tells days apart in the given time zone, not the machine's", () => {
    // 09:00 and 11:00 UTC: the same day in UTC, the 15th and 16th at UTC+14.
    const morning = Date.UTC(2025, 0, 15, 9);
    const later = Date.UTC(2025, 0, 15, 11);
    assert.equal(formatShort(morning, later, 'en-US', 'UTC'), '9:00 AM');
    assert.equal(formatShort(morning, later, 'en-US', 'Pacific/Kiritimati'), 'Jan 15, 2025, 11:00 PM');
  });

  it('formatRaw groups every number, also where a locale would leave four digits ungrouped', () => {
    assert.equal(formatRaw(1234, 'es'), '1.234');
  });
});
