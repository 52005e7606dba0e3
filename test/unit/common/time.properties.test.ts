// Properties of time formatting over any timestamp the API may send: no
// "NaN" or "Invalid Date" anywhere, and a timestamp in seconds is never shown
// as a moment of January 1970 (the bug of reading seconds as milliseconds).
import * as assert from 'node:assert/strict';
import { formatAbsolute, formatRaw, formatRelative, formatShort, formatUtcIso } from '../../../src/core/common/time';
import { toEventTime } from '../../../src/core/client/timestamp';
import { fc, holds } from '../../support/properties';

const LOCALES = ['en', 'de', 'ja', 'ar', 'x-invalid', ''];
const MAX_DATE_MS = 8.64e15;
/** Seconds since 1971 up to where auto-detection switches to milliseconds (1e11 s, the year 5138). */
const seconds = fc.integer({ min: 31_536_000, max: 99_999_999_999 });
const anyInstant = fc.oneof(
  fc.integer({ min: -MAX_DATE_MS, max: MAX_DATE_MS }),
  fc.maxSafeInteger(),
  fc.constantFrom(NaN, Infinity, -Infinity, MAX_DATE_MS + 1),
);

const BROKEN = /NaN|Invalid|undefined|Infinity/;

describe('time formatting: properties', () => {
  it('an instant in range always reads as words and a date, never NaN or Invalid Date; out of range, as nothing', () =>
    holds(
      fc.property(
        anyInstant,
        fc.integer({ min: 0, max: 4_102_444_800_000 }),
        fc.constantFrom(...LOCALES),
        fc.constantFrom(undefined, 'UTC', 'Asia/Kolkata'),
        (epochMs, nowMs, locale, timeZone) => {
          const inRange = Number.isFinite(epochMs) && Math.abs(epochMs) <= MAX_DATE_MS;
          for (const text of [
            formatRelative(epochMs, nowMs, locale),
            formatAbsolute(epochMs, locale, timeZone),
            formatShort(epochMs, nowMs, locale, timeZone),
            formatUtcIso(epochMs),
          ]) {
            if (!inRange) assert.equal(text, undefined);
            else assert.ok(text !== undefined && text !== '' && !BROKEN.test(text), JSON.stringify(text));
          }
        },
      ),
    ));

  it('a raw number always reads as digits, whatever the locale', () =>
    holds(
      fc.property(fc.maxSafeInteger(), fc.constantFrom(...LOCALES), (raw, locale) => {
        assert.ok(!BROKEN.test(formatRaw(raw, locale)));
      }),
    ));

  it('a timestamp in seconds is never shown in 1970, read by detection or by the seconds setting', () =>
    holds(
      fc.property(seconds, fc.constantFrom<'auto' | 'seconds'>('auto', 'seconds'), (raw, unit) => {
        const { epochMs } = toEventTime(raw, unit);
        assert.ok(!(formatUtcIso(epochMs) ?? '').startsWith('1970'), `${raw} s read as ${formatUtcIso(epochMs)}`);
        assert.ok(!(formatAbsolute(epochMs, 'en', 'UTC') ?? '').includes('1970'));
      }),
    ));

  it('relative wording never says "now" for an instant a minute or more away', () =>
    holds(
      fc.property(fc.integer({ min: 60_000, max: 10 * 365 * 86_400_000 }), fc.boolean(), (distance, future) => {
        const now = Date.UTC(2025, 0, 15);
        const text = formatRelative(now + (future ? distance : -distance), now, 'en') ?? '';
        assert.notEqual(text, 'now');
        assert.match(text, future ? /^in |^tomorrow$|^next / : / ago$|^yesterday$|^last /);
      }),
    ));
});
