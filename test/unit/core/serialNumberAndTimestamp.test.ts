import * as assert from 'node:assert/strict';
import { isApiError } from '../../../src/core/client/errors';
import { MAX_SERIAL_NUMBER_LENGTH, normalizeSerialNumber } from '../../../src/core/client/serialNumber';
import { SECONDS_THRESHOLD, detectTimestampUnit, toEventTime } from '../../../src/core/client/timestamp';

function invalidInputMessage(input: string): string {
  try {
    normalizeSerialNumber(input);
  } catch (error) {
    assert.ok(isApiError(error));
    assert.equal(error.kind, 'invalid-input');
    return error.message;
  }
  assert.fail(`expected ${JSON.stringify(input)} to be refused`);
}

describe('serial numbers (spec §4.1 rule 1: serialNumber must be supplied)', () => {
  it('trims surrounding white space and keeps the inside as typed', () => {
    assert.equal(normalizeSerialNumber('  MX-4711 A0023\t'), 'MX-4711 A0023');
  });

  const refused: readonly [string, string, RegExp][] = [
    ['empty', '', /empty/],
    ['blank', '   \n', /empty/],
    ['too long', 'X'.repeat(MAX_SERIAL_NUMBER_LENGTH + 1), /at most 128/],
    ['a control character inside', 'MX\u00074711', /control character/],
    ['a line break inside', 'MX\n4711', /control character/],
    ['a right-to-left override', 'MX-4711\u202e', /an invisible or right-to-left formatting character/],
    ['a zero-width space', 'MX\u200b-4711', /an invisible or right-to-left formatting character/],
    ['a Markdown link opener', 'MX](https://x', /contains "\]\(" or "\$\(", which are never part of a serial number/],
    ['a codicon opener', '$(alert)MX', /contains "\]\(" or "\$\(", which are never part of a serial number/],
  ];
  for (const [name, input, message] of refused) {
    it(`refuses ${name} with a message saying what is wrong`, () => {
      assert.match(invalidInputMessage(input), message);
    });
  }

  it('accepts exactly the maximum length', () => {
    assert.equal(normalizeSerialNumber('X'.repeat(MAX_SERIAL_NUMBER_LENGTH)).length, MAX_SERIAL_NUMBER_LENGTH);
  });
});

describe('timestamps (spec §2.2: unit and epoch not shown)', () => {
  it('reads values below 1e11 as seconds and the rest as milliseconds', () => {
    assert.equal(detectTimestampUnit(1_736_928_000), 'seconds');
    assert.equal(detectTimestampUnit(1_736_928_000_000), 'milliseconds');
    assert.equal(detectTimestampUnit(SECONDS_THRESHOLD - 1), 'seconds');
    assert.equal(detectTimestampUnit(SECONDS_THRESHOLD), 'milliseconds');
  });

  it('reads millisecond timestamps from 1973 on as milliseconds, not as seconds thousands of years ahead', () => {
    // Literal values, not the exported constant: moving the threshold must fail here.
    assert.equal(SECONDS_THRESHOLD, 1e11);
    const y2000 = Date.UTC(2000, 0, 1);
    assert.deepEqual(toEventTime(y2000), { raw: y2000, epochMs: y2000, unit: 'milliseconds', detected: true });
    assert.equal(detectTimestampUnit(Date.UTC(1973, 2, 4)), 'milliseconds');
    assert.equal(detectTimestampUnit(99_999_999_999), 'seconds', 'year 5138 in seconds');
    assert.equal(detectTimestampUnit(-Date.UTC(2000, 0, 1)), 'milliseconds', 'the magnitude decides, also before 1970');
    assert.equal(detectTimestampUnit(-1_000_000_000), 'seconds');
  });

  it('converts to epoch milliseconds and keeps the raw value', () => {
    assert.deepEqual(toEventTime(1_736_928_000), { raw: 1_736_928_000, epochMs: 1_736_928_000_000, unit: 'seconds', detected: true });
    assert.deepEqual(toEventTime(1_736_928_000_000), {
      raw: 1_736_928_000_000,
      epochMs: 1_736_928_000_000,
      unit: 'milliseconds',
      detected: true,
    });
  });

  it('lets an explicit unit override detection', () => {
    assert.deepEqual(toEventTime(5_000, 'milliseconds'), { raw: 5_000, epochMs: 5_000, unit: 'milliseconds', detected: false });
    assert.deepEqual(toEventTime(1_736_928_000_000, 'seconds'), {
      raw: 1_736_928_000_000,
      epochMs: 1_736_928_000_000_000,
      unit: 'seconds',
      detected: false,
    });
  });
});
