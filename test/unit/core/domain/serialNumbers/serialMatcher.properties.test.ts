// Properties of serial-number matching over any text: every match is what the
// pattern matches at that place, respects the minimum length, the deny list
// and the length cap, and matches come in order without overlapping.
import * as assert from 'node:assert/strict';
import { MAX_SERIAL_NUMBER_LENGTH } from '../../../../../src/core/client/serialNumber';
import { createSerialMatcher, DEFAULT_SERIAL_PATTERN, type SerialMatch } from '../../../../../src/core/domain/serialNumbers/serialMatcher';
import { fc, holds } from '../../../../support/properties';

/** Control, bidi and zero-width characters: a match spanning one would read differently from what is looked up. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_OR_BIDI = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/;

const PATTERNS = [DEFAULT_SERIAL_PATTERN, '\\b[A-Z]{2}\\d{6}\\b', 'SN-\\d+', '[A-Z]+-\\d{2,}'];

/** Text around serial-shaped tokens: letters, digits, dashes, separators, and the odd control or bidi character. */
const token = fc.oneof(
  fc.constantFrom(
    'MX-4711-A0023',
    'mx-4711-a0023',
    'WELD-3100-D0007',
    'AB123456',
    'SN-42',
    'SN-000000',
    'XMX-4711-A0023X',
    'KRP-0815-B0042',
  ),
  fc.stringMatching(/^[A-Z]{1,5}-?\d{0,7}(-[A-Z0-9]{0,6})?$/),
);
const glue = fc.oneof(
  fc.constantFrom(' ', '\n', ', ', '"', '-', '_', '\u202e', '\u200b', '\t', '\u0000', 'é'),
  fc.string({ maxLength: 3 }),
);
const text = fc.array(fc.tuple(glue, token), { maxLength: 8 }).map((parts) => parts.map(([before, serial]) => before + serial).join(''));

function assertSound(found: readonly SerialMatch[], source: string, haystack: string, minLength: number, deny: readonly string[]): void {
  let previousEnd = 0;
  for (const match of found) {
    assert.equal(haystack.slice(match.start, match.end), match.serialNumber, 'offsets point at the match');
    assert.ok(match.start >= previousEnd, 'in order, without overlap');
    previousEnd = match.end;
    const sticky = new RegExp(source, 'y');
    sticky.lastIndex = match.start;
    assert.equal(sticky.exec(haystack)?.[0], match.serialNumber, 'the pattern matches exactly this at this place');
    assert.ok(match.serialNumber.length >= minLength && match.serialNumber.length <= MAX_SERIAL_NUMBER_LENGTH);
    assert.ok(!deny.some((entry) => entry.trim().toUpperCase() === match.serialNumber.toUpperCase()), `${match.serialNumber} is denied`);
  }
}

describe('serial-number matching: properties', () => {
  it('every match satisfies the pattern, the minimum length and the deny list, in order and without overlap', () =>
    holds(
      fc.property(
        text,
        fc.constantFrom(...PATTERNS),
        fc.integer({ min: 1, max: 14 }),
        fc.array(fc.oneof(token, fc.constantFrom(' mx-4711-a0023 ')), { maxLength: 3 }),
        (haystack, pattern, minLength, deny) => {
          const matcher = createSerialMatcher({ pattern, minLength, denyList: deny });
          assert.equal(matcher.problem, undefined);
          const found = matcher.findAll(haystack);
          assertSound(found, matcher.source, haystack, minLength, deny);
          assert.deepEqual(matcher.findAll(haystack, 2), found.slice(0, 2), 'a limit keeps the first matches');
          for (const match of found) {
            assert.ok(matcher.isSerialNumber(match.serialNumber) || pattern !== DEFAULT_SERIAL_PATTERN, 'a match alone is a serial number');
            // Inside the match (its first and last offsets may be shared with a neighbour, and the first match wins there).
            if (match.end - match.start >= 2)
              assert.deepEqual(matcher.matchAt(haystack, match.start + 1), match, 'matchAt finds it from inside');
          }
        },
      ),
    ));

  it('the default pattern never matches across a control, bidi or zero-width character', () =>
    holds(
      fc.property(text, (haystack) => {
        for (const match of createSerialMatcher().findAll(haystack))
          assert.ok(!CONTROL_OR_BIDI.test(match.serialNumber), JSON.stringify(match.serialNumber));
      }),
    ));

  // Since issue 12 the matcher refuses matches of a user's pattern that hold such characters.
  it('no pattern a user may set matches across a control, bidi or zero-width character', () =>
    holds(
      fc.property(text, fc.constantFrom('[^\\s,"]+', '\\S{6,}', '.{6,20}', 'MX.{5,12}'), (haystack, pattern) => {
        for (const match of createSerialMatcher({ pattern }).findAll(haystack))
          assert.ok(!CONTROL_OR_BIDI.test(match.serialNumber), JSON.stringify(match.serialNumber));
      }),
    ));
});
