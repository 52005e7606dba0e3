// The watch rules at their edges, beside watchRules.test.ts: a first interval under the error
// floor, settings out of order, rounding, the first event of a result listed out of order, and
// the duration text's unit boundaries.
import * as assert from 'node:assert/strict';
import { plainLocalize } from '../../../../../src/core/common/localize';
import { DEFAULT_EVENT_STATE_RULES } from '../../../../../src/core/domain/events/eventState';
import {
  afterPoll,
  DEFAULT_WATCH_TIMING,
  NO_HISTORY,
  nextPollDelay,
  readWatch,
  type PollHistory,
} from '../../../../../src/core/domain/watch/watchRules';
import { event, MINUTE, result, T0 } from '../../../machines/fixtures';
import { formatDuration } from '../../../../../src/core/common/time';

const SECOND = 1000;

function historyAfter(...polls: ('new-event' | 'quiet' | 'failed')[]): PollHistory {
  return polls.reduce<PollHistory>((history, poll) => afterPoll(history, poll), NO_HISTORY);
}

describe('watch rules at their edges', () => {
  describe('nextPollDelay', () => {
    it('with a first interval under 15 s, a watch that never failed waits that interval, not the error back-off', () => {
      const timing = { ...DEFAULT_WATCH_TIMING, firstMs: 5 * SECOND };
      assert.equal(nextPollDelay(NO_HISTORY, true, timing), 5 * SECOND);
      assert.equal(nextPollDelay(historyAfter('quiet'), true, timing), 7.5 * SECOND);
      assert.equal(nextPollDelay(historyAfter('failed'), true, timing), 30 * SECOND, 'after a failure the floor of 30 s holds');
      assert.equal(nextPollDelay(historyAfter('failed', 'new-event'), true, timing), 5 * SECOND, 'and ends with a success');
    });

    it('a failed poll keeps the quiet back-off it had reached', () => {
      // Two quiet polls: 33.75 s, above the first error interval of 30 s.
      assert.equal(nextPollDelay(historyAfter('quiet', 'quiet', 'failed'), true), 33_750);
      assert.deepEqual(historyAfter('quiet', 'quiet', 'failed', 'failed'), { quietPolls: 2, failedPolls: 2 });
    });

    it('reads settings out of order safely: a first interval of 0 is 1 ms, a maximum below the first is the first', () => {
      assert.equal(nextPollDelay(NO_HISTORY, true, { ...DEFAULT_WATCH_TIMING, firstMs: 0 }), 1);
      const inverted = { ...DEFAULT_WATCH_TIMING, firstMs: 20 * SECOND, maxMs: 10 * SECOND };
      assert.equal(nextPollDelay(NO_HISTORY, true, inverted), 20 * SECOND);
      assert.equal(nextPollDelay(historyAfter('quiet', 'quiet'), true, inverted), 20 * SECOND);
      assert.equal(nextPollDelay(historyAfter('failed', 'failed'), true, inverted), 20 * SECOND);
    });

    it('an unfocused factor under 1 never polls faster than a focused window', () => {
      const timing = { ...DEFAULT_WATCH_TIMING, unfocusedFactor: 0.5 };
      assert.equal(nextPollDelay(NO_HISTORY, false, timing), 15 * SECOND);
      assert.equal(nextPollDelay(NO_HISTORY, false, { ...DEFAULT_WATCH_TIMING, unfocusedFactor: 3 }), 45 * SECOND);
    });

    it('waits whole milliseconds', () => {
      const timing = { ...DEFAULT_WATCH_TIMING, firstMs: 1001 };
      assert.equal(nextPollDelay(historyAfter('quiet'), true, timing), 1502);
      assert.equal(nextPollDelay(historyAfter('quiet'), false, { ...timing, unfocusedFactor: 1.5 }), 2252);
    });
  });

  describe('readWatch', () => {
    it('measures "took" from the earliest event, wherever the result lists it', () => {
      const reading = readWatch(
        result([
          event({ minute: 46, type: 'ONBOARDING_COMPLETED' }),
          event({ minute: 3, type: 'STARTED' }),
          event({ minute: 20, type: 'DEVICE_REGISTERED' }),
          event({ minute: 10, type: 'CERTIFICATE_ISSUED' }),
        ]),
        DEFAULT_EVENT_STATE_RULES,
        undefined,
      );
      assert.equal(reading.kind === 'outcome' ? reading.outcome.tookMs : reading.kind, 43 * MINUTE);
    });

    it('an outcome newer than the start ends the watch, one at the start does not', () => {
      const done = result([event({ minute: 30, type: 'ONBOARDING_COMPLETED' }), event({ minute: 0, type: 'STARTED' })]);
      assert.equal(readWatch(done, DEFAULT_EVENT_STATE_RULES, T0 + 30 * MINUTE - 1).kind, 'outcome');
      assert.equal(readWatch(done, DEFAULT_EVENT_STATE_RULES, T0 + 30 * MINUTE).kind, 'newest');
    });
  });

  it('writes durations with their unit changing exactly at 60 s, 60 min, a day and a week', () => {
    const cases: [number, string][] = [
      [-5 * SECOND, '0 ms'],
      [59_499, '59 s'],
      [59_500, '1 min'],
      [60 * SECOND, '1 min'],
      [89 * SECOND, '1 min'],
      [90 * SECOND, '2 min'],
      [59 * MINUTE + 29 * SECOND, '59 min'],
      [59 * MINUTE + 30 * SECOND, '1 h'],
      [60 * MINUTE, '1 h'],
      [61 * MINUTE, '1 h 1 min'],
      [119 * MINUTE, '1 h 59 min'],
      [24 * 60 * MINUTE - 31 * SECOND, '23 h 59 min'],
      [24 * 60 * MINUTE - 30 * SECOND, '1 day'],
      [25 * 60 * MINUTE, '1 day 1 h'],
      [48 * 60 * MINUTE, '2 days'],
      [(6 * 24 + 23) * 60 * MINUTE, '6 days 23 h'],
      [7 * 24 * 60 * MINUTE, '7 days'],
      [(3396 * 60 + 1) * MINUTE, '141 days'],
    ];
    assert.deepEqual(
      cases.map(([ms]) => formatDuration(ms, plainLocalize)),
      cases.map(([, text]) => text),
    );
  });
});
