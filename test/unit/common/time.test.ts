// One way of writing a point in time for the tree, the hover, the look-up and
// the details panel: a machine must read the same age everywhere.
import assert from 'node:assert/strict';
import { plainLocalize, type Localize } from '../../../src/core/common/localize';
import {
  formatAbsolute,
  formatDuration,
  formatRaw,
  formatRelative,
  formatShort,
  formatUtcIso,
  safeLocale,
} from '../../../src/core/common/time';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const YEAR = 365 * DAY;
const NOW = Date.UTC(2025, 5, 2, 12, 0, 0);

describe('time formatting: relative', () => {
  const table: readonly [delta: number, expected: string][] = [
    [0, 'now'],
    [-400, 'now'],
    [-5 * SECOND, 'now'],
    [5 * SECOND, 'now'],
    [-30 * SECOND, '30 seconds ago'],
    [-59.6 * SECOND, '1 minute ago'],
    [-5 * MINUTE, '5 minutes ago'],
    [-50 * MINUTE, '50 minutes ago'],
    [-59.7 * MINUTE, '1 hour ago'],
    [-60 * MINUTE, '1 hour ago'],
    [-100 * MINUTE, '2 hours ago'],
    [-(3 * HOUR + 5 * MINUTE), '3 hours ago'],
    [-23.7 * HOUR, 'yesterday'],
    [-24 * HOUR, 'yesterday'],
    [-26 * HOUR, 'yesterday'],
    [-3 * DAY, '3 days ago'],
    [-6.6 * DAY, 'last week'],
    [-14 * DAY, '2 weeks ago'],
    [-40 * DAY, 'last month'],
    [-65 * DAY, '2 months ago'],
    [-359 * DAY, 'last year'],
    [-400 * DAY, 'last year'],
    // The case that used to differ between views: the hover said 2 years, the details panel 1.
    [-1.6 * YEAR, '2 years ago'],
    [-1.67 * YEAR, '2 years ago'],
    [2 * MINUTE, 'in 2 minutes'],
    [2 * HOUR, 'in 2 hours'],
    [2 * DAY, 'in 2 days'],
  ];
  for (const [delta, expected] of table) {
    it(`${delta} ms from now reads "${expected}"`, () => {
      assert.equal(formatRelative(NOW + delta, NOW, 'en'), expected);
    });
  }

  it('rounds halves away from zero, so the past and the future read alike', () => {
    assert.equal(formatRelative(NOW - 90 * MINUTE, NOW, 'en'), '2 hours ago');
    assert.equal(formatRelative(NOW + 90 * MINUTE, NOW, 'en'), 'in 2 hours');
  });

  it('has a short form for tree descriptions, where a sidebar at its default width has room for a few words', () => {
    assert.equal(formatRelative(NOW - 3 * 30 * DAY, NOW, 'en', 'short'), '3 mo. ago');
    assert.equal(formatRelative(NOW - 5 * MINUTE, NOW, 'en', 'short'), '5 min. ago');
    // The long form is still the default, and each style keeps its own formatter.
    assert.equal(formatRelative(NOW - 5 * MINUTE, NOW, 'en'), '5 minutes ago');
  });

  it('follows the locale, and falls back to English for one Intl rejects', () => {
    assert.equal(formatRelative(NOW - 3 * DAY, NOW, 'de'), 'vor 3 Tagen');
    assert.equal(formatRelative(NOW - DAY, NOW, 'de'), 'gestern');
    assert.equal(formatRelative(NOW - 3 * DAY, NOW, 'not a locale!'), '3 days ago');
  });

  it('returns nothing for an instant no JavaScript date can hold, instead of throwing', () => {
    assert.equal(formatRelative(Number.NaN, NOW, 'en'), undefined);
    assert.equal(formatRelative(Number.MAX_VALUE, NOW, 'en'), undefined);
  });
});

describe('time formatting: exact times', () => {
  const T_MS = Date.UTC(2025, 0, 15, 8, 1, 0);

  it('gives the local date and time with seconds, naming the zone', () => {
    assert.equal(formatAbsolute(T_MS, 'en-US', 'UTC'), 'Jan 15, 2025, 8:01:00 AM UTC');
    const berlin = formatAbsolute(T_MS, 'en-US', 'Europe/Berlin');
    assert.ok(berlin);
    assert.match(berlin, /Jan 15, 2025, 9:01:00 AM GMT\+1/);
    assert.match(formatAbsolute(T_MS, 'de', 'UTC') ?? '', /15\.01\.2025, 08:01:00 UTC/);
  });

  it('gives UTC as ISO 8601 with milliseconds', () => {
    assert.equal(formatUtcIso(T_MS), '2025-01-15T08:01:00.000Z');
  });

  it('gives only the time of day for today, and the date as well for another day', () => {
    const now = Date.UTC(2025, 0, 15, 12, 0, 0);
    assert.equal(formatShort(now - HOUR, now, 'en-US', 'UTC'), '11:00 AM');
    assert.equal(formatShort(now - 3 * DAY, now, 'en-US', 'UTC'), 'Jan 12, 2025, 12:00 PM');
  });

  it('groups the digits of a raw timestamp so seconds and milliseconds are told apart', () => {
    assert.equal(formatRaw(1736928060000, 'en'), '1,736,928,060,000');
    assert.equal(formatRaw(1736928060, 'de'), '1.736.928.060');
  });

  it('returns nothing for instants a JavaScript date cannot hold, instead of throwing', () => {
    assert.equal(formatUtcIso(9e15), undefined);
    assert.equal(formatAbsolute(-9e15, 'en'), undefined);
    assert.equal(formatAbsolute(Number.MAX_VALUE, 'en'), undefined);
    assert.equal(formatShort(Number.NaN, NOW, 'en'), undefined);
  });

  it('falls back to English for a locale Intl rejects', () => {
    assert.equal(safeLocale('not a locale!'), 'en');
    assert.equal(safeLocale('de-de'), 'de-DE');
    assert.equal(formatAbsolute(T_MS, 'not a locale!', 'UTC'), 'Jan 15, 2025, 8:01:00 AM UTC');
  });
});

describe('time formatting: durations (the one formatter: Test Connection, watches, progress)', () => {
  const SECOND = 1000;
  const MINUTE = 60 * SECOND;
  const HOUR = 60 * MINUTE;
  const DAY = 24 * HOUR;

  it('writes milliseconds, seconds, minutes, hours and days, each where it reads best', () => {
    const cases: [number, string][] = [
      [-5, '0 ms'],
      [0, '0 ms'],
      [849.6, '850 ms'],
      [999.4, '999 ms'],
      [SECOND, '1 s'],
      [1234, '1.2 s'],
      [9949, '9.9 s'],
      [10 * SECOND, '10 s'],
      [40 * SECOND, '40 s'],
      [59_499, '59 s'],
      [59_500, '1 min'],
      [46 * MINUTE, '46 min'],
      [2 * HOUR + 5 * MINUTE, '2 h 5 min'],
      [3 * HOUR, '3 h'],
      [DAY, '1 day'],
      [DAY + 4 * HOUR, '1 day 4 h'],
      [2 * DAY + 4 * HOUR + 20 * MINUTE, '2 days 4 h'],
      [141 * DAY + 5 * HOUR, '141 days'],
    ];
    assert.deepEqual(
      cases.map(([ms]) => formatDuration(ms)),
      cases.map(([, text]) => text),
    );
  });

  it("words it in the reader's language", () => {
    const german: Localize = (message, ...args) => plainLocalize(message === '1 day {0} h' ? '1 Tag {0} Std.' : message, ...args);
    assert.equal(formatDuration(DAY + 4 * HOUR, german), '1 Tag 4 Std.');
  });
});
