import assert from 'node:assert/strict';
import { ApiError } from '../../../src/core/client/errors';
import { beforePoll, judgePoll, pollFailureOf, type PollFailure, type PollVerdict } from '../../../src/extension/machines/pollPolicy';

const STARTED = 1_000_000;
const A = 'MX-4711-A0001';
const B = 'MX-4711-A0002';
const C = 'MX-4711-A0003';

/** A failure of this poll (at or after its start), or of an earlier one with `at`. */
function failure(errorKind: PollFailure['errorKind'], retryAfterMs?: number, at = STARTED + 10): PollFailure {
  return { errorKind, retryAfterMs, at };
}

describe('Auto-refresh poll policy', () => {
  describe('before refreshing', () => {
    const rows: readonly {
      readonly rule: string;
      readonly signedIn: boolean;
      readonly pinned: readonly string[];
      readonly expected: ReturnType<typeof beforePoll>;
    }[] = [
      { rule: 'signed out, polling cannot work: stop', signedIn: false, pinned: [A], expected: { kind: 'stop' } },
      { rule: 'signed out with nothing pinned: still stop', signedIn: false, pinned: [], expected: { kind: 'stop' } },
      { rule: 'nothing pinned: nothing to ask, a successful poll', signedIn: true, pinned: [], expected: { kind: 'ok' } },
      { rule: 'signed in with pins: refresh them (no verdict yet)', signedIn: true, pinned: [A, B], expected: undefined },
    ];
    for (const row of rows) {
      it(row.rule, () => {
        assert.deepEqual(beforePoll(row.signedIn, row.pinned), row.expected);
      });
    }
  });

  describe('after refreshing the pins', () => {
    const rows: readonly {
      readonly rule: string;
      readonly signedIn?: boolean;
      readonly pinned?: readonly string[];
      readonly failures: Readonly<Record<string, PollFailure>>;
      readonly expected: PollVerdict;
    }[] = [
      { rule: 'no machine failed: ok', failures: {}, expected: { kind: 'ok' } },
      { rule: 'signed out meanwhile (a rejected token signs out): stop', signedIn: false, failures: {}, expected: { kind: 'stop' } },
      {
        rule: 'signed out meanwhile, even with failures that ask to wait: stop',
        signedIn: false,
        failures: { [A]: failure('rate-limited', 5000) },
        expected: { kind: 'stop' },
      },
      {
        rule: 'a failure from before the poll started belongs to an earlier attempt: ok',
        failures: { [A]: failure('server', 5000, STARTED - 1) },
        expected: { kind: 'ok' },
      },
      {
        rule: 'a failure at the very start of the poll counts',
        failures: { [A]: failure('server', undefined, STARTED) },
        expected: { kind: 'failed', failed: 1 },
      },
      {
        rule: 'a failure without Retry-After: failed, with no wait',
        failures: { [A]: failure('network') },
        expected: { kind: 'failed', failed: 1 },
      },
      {
        rule: 'a failure that is no ApiError still counts',
        failures: { [A]: failure(undefined) },
        expected: { kind: 'failed', failed: 1 },
      },
      {
        rule: 'several failures: counted, and the longest Retry-After is honoured',
        failures: { [A]: failure('rate-limited', 2000), [B]: failure('rate-limited', 9000), [C]: failure('rate-limited', 4000) },
        expected: { kind: 'failed', failed: 3, retryAfterMs: 9000 },
      },
      {
        rule: 'only failures of this poll count towards the number and the wait',
        failures: { [A]: failure('rate-limited', 60_000, STARTED - 1), [B]: failure('rate-limited', 3000) },
        expected: { kind: 'failed', failed: 1, retryAfterMs: 3000 },
      },
      {
        rule: 'a Retry-After of zero is kept as zero',
        failures: { [A]: failure('rate-limited', 0) },
        expected: { kind: 'failed', failed: 1, retryAfterMs: 0 },
      },
      {
        rule: 'rejected credentials: stop, whatever the other machines asked',
        failures: { [A]: failure('rate-limited', 9000), [B]: failure('invalid-credentials') },
        expected: { kind: 'stop' },
      },
      {
        rule: 'credentials rejected before the poll started do not stop it',
        failures: { [A]: failure('invalid-credentials', undefined, STARTED - 1) },
        expected: { kind: 'ok' },
      },
      {
        rule: "only pinned machines are judged (a failed hover look-up is not the poll's)",
        pinned: [A],
        failures: { [B]: failure('invalid-credentials'), [C]: failure('server') },
        expected: { kind: 'ok' },
      },
    ];
    for (const row of rows) {
      it(row.rule, () => {
        const verdict = judgePoll({
          signedIn: row.signedIn ?? true,
          pinned: row.pinned ?? [A, B, C],
          startedAt: STARTED,
          failureOf: (serial) => row.failures[serial],
        });
        assert.deepEqual(verdict, row.expected);
      });
    }
  });

  describe('the facts of a recorded failure', () => {
    it('takes the kind and the Retry-After of an ApiError, and the time of the failure', () => {
      const error = new ApiError(
        'rate-limited',
        { kind: 'invalid-input', text: () => 'Too many requests' },
        { status: 429, retryAfterMs: 7000 },
      );
      assert.deepEqual(pollFailureOf({ error, at: 42 }), { errorKind: 'rate-limited', retryAfterMs: 7000, at: 42 });
    });

    it('gives any other error no kind and no wait', () => {
      assert.deepEqual(pollFailureOf({ error: new Error('boom'), at: 42 }), { errorKind: undefined, retryAfterMs: undefined, at: 42 });
    });

    it('is nothing for a machine that did not fail', () => {
      assert.equal(pollFailureOf(undefined), undefined);
    });
  });
});
