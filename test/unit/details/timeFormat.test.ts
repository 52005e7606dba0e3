import * as assert from 'node:assert/strict';
import { formatLocal, formatRaw, formatRelative, formatUtcIso, safeLocale } from '../../../src/details/timeFormat';
import { T_MS } from './fixtures';

describe('details: time formatting', () => {
  it('gives UTC as ISO 8601 with milliseconds', () => {
    assert.equal(formatUtcIso(T_MS), '2025-01-15T08:01:00.000Z');
  });

  it('gives local time in the requested zone, naming the zone', () => {
    const text = formatLocal(T_MS, 'en-US', 'Europe/Berlin');
    assert.ok(text);
    assert.match(text, /January 15, 2025/);
    assert.match(text, /09:01:00/);
    assert.match(text, /GMT\+1/);
  });

  it('says how long ago, or how far ahead, in the largest unit that fits', () => {
    assert.equal(formatRelative(T_MS, T_MS + 3 * 3600_000 + 5 * 60_000, 'en'), '3 hours ago');
    assert.equal(formatRelative(T_MS, T_MS - 2 * 86_400_000, 'en'), 'in 2 days');
    assert.equal(formatRelative(T_MS, T_MS + 400, 'en'), 'now');
    assert.equal(formatRelative(T_MS, T_MS + 40 * 86_400_000, 'en'), '1 month ago');
  });

  it('groups the digits of the raw value so seconds and milliseconds are told apart', () => {
    assert.equal(formatRaw(1736928060000, 'en'), '1,736,928,060,000');
    assert.equal(formatRaw(1736928060, 'de'), '1.736.928.060');
  });

  it('returns nothing for instants a JavaScript date cannot hold, instead of throwing', () => {
    assert.equal(formatUtcIso(9e15), undefined);
    assert.equal(formatLocal(-9e15, 'en'), undefined);
    assert.equal(formatRelative(Number.NaN, 0, 'en'), undefined);
  });

  it('falls back to English for a locale Intl rejects', () => {
    assert.equal(safeLocale('not a locale!'), 'en');
    assert.equal(safeLocale('de-de'), 'de-DE');
  });
});
