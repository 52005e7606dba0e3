import * as assert from 'node:assert/strict';
import { plainLocalize } from '../../../../../src/core/common/localize';
import { DEFAULT_EVENT_STATE_RULES } from '../../../../../src/core/domain/events/eventState';
import {
  afterPoll,
  DEFAULT_WATCH_TIMING,
  MAX_OUTCOME_MESSAGE,
  NO_HISTORY,
  nextPollDelay,
  readWatch,
  unreachableForLong,
  type PollHistory,
} from '../../../../../src/core/domain/watch/watchRules';
import { event, MINUTE, result, T0 } from '../../../machines/fixtures';
import { serverTextData } from '../../../../../src/core/common/serverText';
import { formatDuration } from '../../../../../src/core/common/time';

const rules = DEFAULT_EVENT_STATE_RULES;

function historyAfter(...polls: ('new-event' | 'quiet' | 'failed')[]): PollHistory {
  return polls.reduce<PollHistory>((history, poll) => afterPoll(history, poll), NO_HISTORY);
}

describe('watch rules', () => {
  describe('nextPollDelay', () => {
    it('starts at 15 s and backs off by half again per quiet poll, up to 5 min', () => {
      const delays = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((quiet) => nextPollDelay({ quietPolls: quiet, failedPolls: 0 }, true));
      assert.deepEqual(delays.slice(0, 4), [15_000, 22_500, 33_750, 50_625]);
      assert.equal(delays.at(-1), 300_000);
      for (let i = 1; i < delays.length; i++) assert.ok((delays[i] ?? 0) >= (delays[i - 1] ?? 0));
    });

    it('goes back to the first interval when a new step appears', () => {
      assert.equal(nextPollDelay(historyAfter('quiet', 'quiet', 'quiet', 'new-event'), true), 15_000);
    });

    it('backs off on errors: 30 s, 60 s, 120 s … up to 5 min, and a success ends it', () => {
      assert.equal(nextPollDelay(historyAfter('failed'), true), 30_000);
      assert.equal(nextPollDelay(historyAfter('failed', 'failed'), true), 60_000);
      assert.equal(nextPollDelay(historyAfter('failed', 'failed', 'failed'), true), 120_000);
      assert.equal(nextPollDelay(historyAfter(...Array<'failed'>(40).fill('failed')), true), 300_000);
      assert.equal(nextPollDelay(historyAfter('failed', 'failed', 'quiet'), true), 22_500);
    });

    it('polls twice as slowly in an unfocused window, and keeps polling', () => {
      assert.equal(nextPollDelay(NO_HISTORY, false), 30_000);
      assert.equal(nextPollDelay({ quietPolls: 99, failedPolls: 0 }, false), 600_000);
    });

    it('never computes an infinite delay after a very long quiet spell', () => {
      assert.equal(nextPollDelay({ quietPolls: Number.MAX_SAFE_INTEGER, failedPolls: Number.MAX_SAFE_INTEGER }, true), 300_000);
    });

    it('follows a shorter first interval (the setting), never below it', () => {
      const timing = { ...DEFAULT_WATCH_TIMING, firstMs: 1000, errorFloorMs: 500 };
      assert.equal(nextPollDelay(NO_HISTORY, true, timing), 1000);
      assert.equal(nextPollDelay(historyAfter('failed'), true, timing), 1000);
    });
  });

  describe('readWatch', () => {
    it('reads the newest event on the way, with its type and time', () => {
      const reading = readWatch(
        result([event({ minute: 5, type: 'DEVICE_REGISTERED' }), event({ minute: 0, type: 'STARTED' })]),
        rules,
        undefined,
      );
      assert.deepEqual(reading, { kind: 'newest', newest: { type: 'DEVICE_REGISTERED', at: T0 + 5 * MINUTE } });
    });

    it('reads onboarded by the eventStates rules, with how long it took from the first event', () => {
      const reading = readWatch(
        result([event({ minute: 46, type: 'ONBOARDING_COMPLETED', message: 'done' }), event({ minute: 0, type: 'STARTED' })]),
        rules,
        undefined,
      );
      assert.ok(reading.kind === 'outcome');
      assert.deepEqual(reading.outcome, {
        state: 'onboarded',
        type: 'ONBOARDING_COMPLETED',
        at: T0 + 46 * MINUTE,
        message: 'done',
        tookMs: 46 * MINUTE,
      });
      assert.equal(formatDuration(46 * MINUTE, plainLocalize), '46 min');
    });

    it('reads failed, keeping the failing message bounded', () => {
      const long = 'x'.repeat(MAX_OUTCOME_MESSAGE + 50);
      const reading = readWatch(result([event({ minute: 9, type: 'CERT_ERROR', message: long })]), rules, undefined);
      assert.equal(reading.kind === 'outcome' ? reading.outcome.state : reading.kind, 'failed');
      assert.equal(reading.kind === 'outcome' ? serverTextData(reading.outcome.message).length : 0, MAX_OUTCOME_MESSAGE);
    });

    it('a failure no newer than the watch started from does not end it (watching a failed machine waits for its retry)', () => {
      const failed = result([event({ minute: 9, type: 'CERT_ERROR' })]);
      assert.equal(readWatch(failed, rules, T0 + 9 * MINUTE).kind, 'newest');
      const retried = result([event({ minute: 20, type: 'ONBOARDING_FAILED' }), event({ minute: 9, type: 'CERT_ERROR' })]);
      assert.equal(readWatch(retried, rules, T0 + 9 * MINUTE).kind, 'outcome');
    });

    it('honours the user eventStates rules', () => {
      const custom = { failed: ['BROKEN'], onboarded: ['LIVE'] };
      assert.equal(readWatch(result([event({ minute: 1, type: 'ONBOARDING_COMPLETED' })]), custom, undefined).kind, 'newest');
      assert.equal(readWatch(result([event({ minute: 1, type: 'MACHINE_LIVE' })]), custom, undefined).kind, 'outcome');
    });

    it('no events yet is a newest event of nothing to show', () => {
      assert.deepEqual(readWatch(result([]), rules, undefined), { kind: 'newest', newest: undefined });
    });
  });

  it('says unreachable after 15 minutes of failed polls', () => {
    assert.equal(unreachableForLong(undefined, T0, DEFAULT_WATCH_TIMING), false);
    assert.equal(unreachableForLong(T0, T0 + 14 * MINUTE), false);
    assert.equal(unreachableForLong(T0, T0 + 15 * MINUTE), true);
  });

  it('formats durations', () => {
    assert.equal(formatDuration(40_000, plainLocalize), '40 s');
    assert.equal(formatDuration(125 * MINUTE, plainLocalize), '2 h 5 min');
    assert.equal(formatDuration(120 * MINUTE, plainLocalize), '2 h');
  });
});
