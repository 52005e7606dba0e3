// The filter's start time as a command argument gives it: epoch milliseconds or an ISO 8601 date,
// null to clear it, absent to keep it, and anything else refused in the user's language.
import assert from 'node:assert/strict';
import { parseSince } from '../../../../../src/core/domain/events/eventFilter';
import { plainLocalize, type Localize } from '../../../../../src/core/common/localize';

describe('Event filter: the start time of a command argument', () => {
  it('keeps absent as absent and null as null (the caller keeps or clears the window)', () => {
    assert.equal(parseSince(undefined, plainLocalize), undefined);
    assert.equal(parseSince(null, plainLocalize), null);
  });

  it('takes epoch milliseconds as they are, and an ISO date or date-time as that instant', () => {
    assert.equal(parseSince(1_736_928_000_000, plainLocalize), 1_736_928_000_000);
    assert.equal(parseSince(0, plainLocalize), 0);
    assert.equal(parseSince('2025-01-31', plainLocalize), Date.UTC(2025, 0, 31));
    assert.equal(parseSince('2025-01-31T08:00:00Z', plainLocalize), Date.UTC(2025, 0, 31, 8));
  });

  it('refuses what is no date, saying what it got and what form to use, in the user’s language', () => {
    const german: Localize = (message, ...args) => `[de] ${plainLocalize(message, ...args)}`;
    assert.throws(
      () => parseSince('last tuesday', german),
      (error: unknown) =>
        error instanceof Error && error.message === '[de] "last tuesday" is not a date. Use a form like 2025-01-31 or 2025-01-31T08:00.',
    );
    assert.throws(() => parseSince(Number.NaN, plainLocalize), /"NaN" is not a date/);
    assert.throws(() => parseSince(Number.POSITIVE_INFINITY, plainLocalize), /"Infinity" is not a date/);
    assert.throws(() => parseSince('', plainLocalize), /"" is not a date/);
  });
});
