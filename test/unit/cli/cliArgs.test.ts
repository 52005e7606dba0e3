// oe's --since: the forms its help names and nothing else. A day is midnight
// UTC; a time needs its zone (the table's times are UTC, so a time without one
// could be meant two ways); a bare number or a day not in the calendar is bad
// input, not some date Date.parse makes of it.
import * as assert from 'node:assert/strict';
import { plainLocalize } from '../../../src/core/common/localize';
import { UsageError } from '../../../src/cli/cliCommand';
import { sinceArgument } from '../../../src/cli/cliArgs';

const NOW = Date.UTC(2025, 5, 1, 12, 0, 0);
const since = (text: string): number => sinceArgument(text, NOW, plainLocalize);

describe('oe --since', () => {
  it('a duration back from now', () => {
    assert.equal(since('30m'), NOW - 30 * 60_000);
    assert.equal(since('1h30m'), NOW - 90 * 60_000);
    assert.equal(since('7d'), NOW - 7 * 86_400_000);
  });

  it('a day from midnight UTC, a time with Z or an offset, seconds and milliseconds', () => {
    assert.equal(since('2025-01-31'), Date.UTC(2025, 0, 31));
    assert.equal(since('2024-02-29'), Date.UTC(2024, 1, 29));
    assert.equal(since('2025-01-31T08:00Z'), Date.UTC(2025, 0, 31, 8));
    assert.equal(since('2025-01-31t08:00z'), Date.UTC(2025, 0, 31, 8));
    assert.equal(since('2025-01-31T09:00+01:00'), Date.UTC(2025, 0, 31, 8));
    assert.equal(since('2025-01-31T03:30-04:30'), Date.UTC(2025, 0, 31, 8));
    assert.equal(since('2025-01-31T08:00:05.25Z'), Date.UTC(2025, 0, 31, 8, 0, 5, 250));
  });

  it('refuses a time without its zone, saying how to give one', () => {
    assert.throws(
      () => since('2025-01-31T08:00'),
      (error: unknown) => {
        assert.ok(error instanceof UsageError);
        assert.equal(
          error.message,
          '--since 2025-01-31T08:00 has no time zone: add Z for UTC, as the table shows times, or an offset such as +01:00.',
        );
        return true;
      },
    );
  });

  for (const text of [
    '5',
    '2025',
    '2025-01',
    '2025-1-31',
    '2025-02-29',
    '2025-02-30',
    '2025-13-01',
    '2025-01-31T24:00Z',
    '2025-01-31T08:60Z',
    '2025-01-31T08:00+24:00',
    '2025-01-31 08:00Z',
    'Jan 31 2025',
    '31.01.2025',
    'yesterday',
    '',
  ])
    it(`refuses ${JSON.stringify(text)}`, () => {
      assert.throws(
        () => since(text),
        (error: unknown) => {
          assert.ok(error instanceof UsageError);
          assert.match(
            error.message,
            /^--since takes a date such as 2025-01-31 or 2025-01-31T08:00Z, or a duration back from now such as 30m, 2h or 7d, not ".*"\.$/,
          );
          return true;
        },
      );
    });
});
