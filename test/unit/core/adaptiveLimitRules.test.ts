// The adaptive limit's rules one answer at a time, with exact latencies and
// times: when an answer counts as queued, when the limit grows, doubles or adds
// one, when it is cut and by how much, when a slower network is learnt again,
// and when the minimum latency is forgotten. adaptiveLimit.test.ts drives the
// same class against a simulated server.

import * as assert from 'node:assert/strict';
import {
  AdaptiveLimit,
  DEFAULT_INITIAL_LIMIT,
  type AdaptiveLimitOptions,
  type SentRequest,
} from '../../../src/core/client/http/adaptiveLimit';

/** Sends `count` requests, each with `inFlight` out (the limit when absent). */
function send(limit: AdaptiveLimit, count: number, inFlight?: number): SentRequest[] {
  return Array.from({ length: count }, () => limit.onSend(inFlight ?? limit.limit));
}

/** A limit whose minimum latency is 100 ms, learnt from one answer that does not count toward growth. */
function warmed(options: Partial<AdaptiveLimitOptions> & { initial: number }): AdaptiveLimit {
  const limit = new AdaptiveLimit({ ceiling: 64, ...options });
  limit.onSample(limit.onSend(1), 100, 'ok', 0);
  return limit;
}

function answer(limit: AdaptiveLimit, sent: SentRequest | undefined, latencyMs: number, now = 0): void {
  assert.ok(sent, 'no request to answer');
  limit.onSample(sent, latencyMs, 'ok', now);
}

describe('Adaptive limit rules (one answer at a time)', () => {
  describe('construction', () => {
    for (const ceiling of [0, -1, 1.5, Number.NaN])
      it(`refuses a ceiling of ${ceiling}`, () => {
        assert.throws(
          () => new AdaptiveLimit({ ceiling }),
          (error: unknown) =>
            error instanceof RangeError && error.message === `The concurrency ceiling must be a positive integer, not ${ceiling}.`,
        );
      });

    const starts: readonly { readonly ceiling: number; readonly initial?: number; readonly limit: number }[] = [
      { ceiling: 64, limit: DEFAULT_INITIAL_LIMIT },
      { ceiling: 10, limit: 10 },
      { ceiling: 1, limit: 1 },
      { ceiling: 64, initial: 5, limit: 5 },
      { ceiling: 64, initial: 0, limit: 1 },
      { ceiling: 64, initial: 2.7, limit: 2 },
      { ceiling: 3, initial: 5, limit: 3 },
    ];
    for (const row of starts)
      it(`ceiling ${row.ceiling}, initial ${String(row.initial)}: starts at ${row.limit}`, () => {
        const limit = new AdaptiveLimit(
          row.initial === undefined ? { ceiling: row.ceiling } : { ceiling: row.ceiling, initial: row.initial },
        );
        assert.equal(limit.ceiling, row.ceiling);
        assert.equal(limit.limit, row.limit);
        assert.deepEqual(limit.snapshot(), { limit: row.limit, minLatencyMs: undefined, slowStart: true, increases: 0, decreases: 0 });
      });
  });

  it('numbers what it sends, and marks as probing only requests sent with at least half the limit out', () => {
    const limit = new AdaptiveLimit({ ceiling: 64, initial: 8 });
    assert.deepEqual(limit.onSend(4), { seq: 0, probing: true, inFlight: 4 });
    assert.deepEqual(limit.onSend(3), { seq: 1, probing: false, inFlight: 3 });
    assert.deepEqual(limit.onSend(8), { seq: 2, probing: true, inFlight: 8 });
  });

  it('an ignored answer teaches nothing', () => {
    const limit = new AdaptiveLimit({ ceiling: 64, initial: 4 });
    limit.onSample(limit.onSend(4), 100, 'ignore', 0);
    assert.deepEqual(limit.snapshot(), { limit: 4, minLatencyMs: undefined, slowStart: true, increases: 0, decreases: 0 });
  });

  describe('growth', () => {
    it('doubles in slow start once a whole limit of probing answers came at the minimum latency', () => {
      const limit = warmed({ initial: 4 });
      const sent = send(limit, 4);
      for (const request of sent.slice(0, 3)) answer(limit, request, 100);
      assert.equal(limit.limit, 4, 'three good answers of four');
      answer(limit, sent[3], 100);
      assert.equal(limit.limit, 8);
      assert.equal(limit.snapshot().increases, 1);
    });

    it('answers to requests sent with less than half the limit out do not grow it', () => {
      const limit = warmed({ initial: 4 });
      for (const request of send(limit, 8, 1)) answer(limit, request, 100);
      assert.equal(limit.limit, 4);
      for (const request of send(limit, 4, 2)) answer(limit, request, 100);
      assert.equal(limit.limit, 8);
    });

    it('grows no higher than the ceiling', () => {
      const limit = warmed({ ceiling: 6, initial: 4 });
      for (const request of send(limit, 4)) answer(limit, request, 100);
      assert.equal(limit.limit, 6);
    });

    it('after a cut it adds one per round instead of doubling', () => {
      const limit = warmed({ initial: 8 });
      limit.onSample(limit.onSend(8), 100, 'overload', 0);
      // 8 × 0.9 = 7.2: seven requests at once.
      assert.equal(limit.limit, 7);
      assert.equal(limit.snapshot().slowStart, false);
      for (const request of send(limit, 7)) answer(limit, request, 100);
      // 7.2 + 1 = 8.2
      assert.equal(limit.limit, 8);
    });
  });

  describe('when an answer counts as queued: slower than min × 1.5 + 5 ms + 0.5 ms per request in flight', () => {
    // Minimum 100 ms, 2 in flight: the line is 100 × 1.5 + 5 + 2 × 0.5 = 156 ms.
    for (const [latencyMs, queued] of [
      [156, false],
      [157, true],
    ] as const)
      it(`${latencyMs} ms with 2 in flight ${queued ? 'is queued: no growth' : 'is not queued: the limit grows'}`, () => {
        const limit = warmed({ initial: 2 });
        // The warm-up answer was sent with half the limit out: one more good answer makes a round.
        answer(limit, limit.onSend(2), latencyMs);
        assert.equal(limit.limit, queued ? 2 : 4);
      });

    it('a custom tolerance and slack move the line', () => {
      // 100 × 2 + 10 + 2 × 0.5 = 211 ms.
      const grows = (latencyMs: number): boolean => {
        const limit = warmed({ initial: 2, latencyTolerance: 2, latencySlackMs: 10 });
        answer(limit, limit.onSend(2), latencyMs);
        return limit.limit > 2;
      };
      assert.equal(grows(211), true);
      assert.equal(grows(212), false);
    });
  });

  describe('cuts', () => {
    it('an overload cuts by overloadBackoff, never below one, and only once per round', () => {
      const limit = new AdaptiveLimit({ ceiling: 64, initial: 10, overloadBackoff: 0.5 });
      const [first, second] = send(limit, 2);
      assert.ok(first && second);
      limit.onSample(first, 100, 'overload', 0);
      assert.equal(limit.limit, 5);
      // Sent before the cut: it answered the old level.
      limit.onSample(second, 100, 'overload', 0);
      assert.equal(limit.limit, 5);
      for (const expected of [2, 1, 1]) {
        limit.onSample(limit.onSend(1), 100, 'overload', 0);
        assert.equal(limit.limit, expected);
      }
      assert.deepEqual(limit.snapshot(), { limit: 1, minLatencyMs: undefined, slowStart: false, increases: 0, decreases: 4 });
    });

    it('an overload cuts by 0.9 by default', () => {
      const limit = new AdaptiveLimit({ ceiling: 64, initial: 20 });
      limit.onSample(limit.onSend(20), 100, 'overload', 0);
      assert.equal(limit.limit, 18);
    });

    it('two queued answers cut a limit of 8 to what the server served (by half at most)', () => {
      const limit = warmed({ initial: 8 });
      const sent = send(limit, 8);
      answer(limit, sent[0], 300);
      assert.equal(limit.limit, 8, 'one late answer may be a pause of this process');
      answer(limit, sent[1], 300);
      // Mean (100 + 300 + 300) / 3 = 233 ms against a minimum of 100: at most halved.
      assert.equal(limit.limit, 4);
      assert.equal(limit.snapshot().decreases, 1);
      assert.equal(limit.snapshot().slowStart, false);
    });

    it("cuts by Little's law, min / mean of the round, when that is between a half and latencyBackoff", () => {
      const limit = warmed({ initial: 8 });
      const sent = send(limit, 7);
      for (const request of sent.slice(0, 5)) answer(limit, request, 100);
      answer(limit, sent[5], 170);
      assert.equal(limit.limit, 8);
      answer(limit, sent[6], 170);
      // Mean (6 × 100 + 2 × 170) / 8 = 117.5 ms: 8 × 100 / 117.5 = 6.8.
      assert.equal(limit.limit, 6);
    });

    it('cuts by latencyBackoff at least', () => {
      const limit = warmed({ initial: 8, latencyBackoff: 0.75 });
      const sent = send(limit, 7);
      for (const request of sent.slice(0, 5)) answer(limit, request, 100);
      answer(limit, sent[5], 170);
      answer(limit, sent[6], 170);
      // min / mean = 0.85 would keep 6.8; latencyBackoff 0.75 cuts to 6.
      assert.equal(limit.limit, 6);
      const fresh = warmed({ initial: 20, latencyBackoff: 0.75 });
      const more = send(fresh, 19);
      for (const request of more.slice(0, 14)) answer(fresh, request, 100);
      for (const request of more.slice(14)) answer(fresh, request, 200);
      // The round is whole at twenty answers, five queued. Mean 125 ms: min/mean 0.8, so latencyBackoff decides: 20 × 0.75 = 15.
      assert.equal(fresh.limit, 15);
    });

    it('late answers to requests sent before a cut do not cut the new limit again', () => {
      const limit = warmed({ initial: 16 });
      const sent = send(limit, 16);
      // Four of the first five answers queued: a quarter of 16, so the limit is cut at once.
      for (const request of sent.slice(0, 4)) answer(limit, request, 300);
      // Mean (100 + 4 × 300) / 5 = 260 ms against a minimum of 100: halved.
      assert.equal(limit.limit, 8);
      for (const request of sent.slice(4)) answer(limit, request, 300);
      assert.equal(limit.limit, 8, 'they answered the old level');
      assert.equal(limit.snapshot().decreases, 1);
    });

    it('a few late answers early in a large round wait for the whole round, which then cuts by what queued', () => {
      const limit = warmed({ initial: 20 });
      const sent = send(limit, 19);
      for (const request of sent.slice(0, 3)) answer(limit, request, 100);
      for (const request of sent.slice(3, 5)) answer(limit, request, 200);
      assert.equal(limit.limit, 20, 'two late answers of six: too early to tell how much of 20 queued');
      for (const request of sent.slice(5, 18)) answer(limit, request, 100);
      assert.equal(limit.limit, 20, 'nineteen answers of twenty');
      answer(limit, sent[18], 100);
      // The round is whole, two of twenty queued. Mean 110 ms: min / mean 0.91, so latencyBackoff decides: 20 × 0.9 = 18.
      assert.equal(limit.limit, 18);
    });

    it('good answers in a round that already had a late one do not count toward growth', () => {
      const limit = warmed({ initial: 4 });
      const sent = send(limit, 7);
      answer(limit, sent[0], 300);
      // The round (the warm-up answer and these three) is whole with one late answer: it starts over.
      answer(limit, sent[1], 100);
      answer(limit, sent[2], 100);
      for (const request of sent.slice(3, 6)) answer(limit, request, 100);
      assert.equal(limit.limit, 4, 'three good answers since the round started over');
      answer(limit, sent[6], 100);
      assert.equal(limit.limit, 8);
    });

    it('one late answer in a whole round is not a queue: the round starts over and its good answers still count', () => {
      const limit = warmed({ initial: 4 });
      const sent = send(limit, 5);
      answer(limit, sent[0], 100);
      answer(limit, sent[1], 100);
      answer(limit, sent[2], 300);
      assert.equal(limit.limit, 4);
      answer(limit, sent[3], 100);
      assert.equal(limit.limit, 4, 'three good answers of four');
      answer(limit, sent[4], 100);
      assert.equal(limit.limit, 8);
      assert.equal(limit.snapshot().decreases, 0);
    });
  });

  describe('learning a slower network again', () => {
    /** A limit of 3 after a cut, minimum 100 ms. */
    function lowLimit(): AdaptiveLimit {
      const limit = warmed({ initial: 4 });
      limit.onSample(limit.onSend(4), 100, 'overload', 0);
      assert.equal(limit.limit, 3);
      return limit;
    }

    it('after three whole rounds at a low limit in which every answer was slow, the slowest round minimum is the new minimum', () => {
      const limit = lowLimit();
      const latencies = [420, 400, 410];
      for (let round = 1; round <= 3; round++) {
        const sent = send(limit, 3);
        answer(limit, sent[0], latencies[0] ?? 0);
        answer(limit, sent[1], latencies[1] ?? 0);
        assert.equal(limit.minLatencyMs, 100, `round ${round} is not over after two answers`);
        answer(limit, sent[2], latencies[2] ?? 0);
        assert.equal(limit.limit, 3, 'not cut: so few requests do not queue behind each other');
        assert.equal(limit.minLatencyMs, round < 3 ? 100 : 400, `after round ${round}`);
      }
      assert.equal(limit.snapshot().slowStart, true, 'it probes again from there');
      for (const request of send(limit, 3)) answer(limit, request, 400);
      // 3.6 × 2
      assert.equal(limit.limit, 7);
    });

    it('a good answer in a round starts the count of slow rounds over', () => {
      const limit = lowLimit();
      const slowRound = (): void => {
        for (const request of send(limit, 3)) answer(limit, request, 400);
      };
      slowRound();
      slowRound();
      const sent = send(limit, 3);
      // One late answer in a whole round: not enough to call it slow.
      answer(limit, sent[0], 400);
      answer(limit, sent[1], 100);
      answer(limit, sent[2], 100);
      assert.equal(limit.limit, 3);
      slowRound();
      slowRound();
      assert.equal(limit.minLatencyMs, 100);
      slowRound();
      assert.equal(limit.minLatencyMs, 400);
    });

    it('a limit of exactly four is low too: three slow rounds learn the minimum again instead of cutting', () => {
      const limit = warmed({ initial: 5 });
      limit.onSample(limit.onSend(5), 100, 'overload', 0);
      assert.equal(limit.limit, 4);
      for (let round = 1; round <= 3; round++) for (const request of send(limit, 4)) answer(limit, request, 400);
      assert.equal(limit.limit, 4);
      assert.equal(limit.minLatencyMs, 400);
      assert.equal(limit.snapshot().decreases, 1);
    });

    it('at a low limit, a round in which late answers queued but not every answer was late is cut like any queue', () => {
      const limit = lowLimit();
      const sent = send(limit, 3);
      answer(limit, sent[0], 400);
      answer(limit, sent[1], 400);
      assert.equal(limit.limit, 3, 'every answer so far was late, and the round is not whole');
      answer(limit, sent[2], 100);
      // Mean 300 ms against a minimum of 100: halved, 3.6 × 0.5 = 1.8.
      assert.equal(limit.limit, 1);
      assert.equal(limit.minLatencyMs, 100);
    });

    it('above the low limit, slow rounds are cut like any queue', () => {
      const limit = warmed({ initial: 5 });
      const sent = send(limit, 5);
      for (const request of sent.slice(0, 2)) answer(limit, request, 400);
      assert.ok(limit.limit < 5);
      assert.equal(limit.minLatencyMs, 100);
    });
  });

  describe('the minimum latency window', () => {
    it('forgets a minimum after two windows (30 s by default), not before', () => {
      const limit = new AdaptiveLimit({ ceiling: 64, initial: 1 });
      limit.onSample(limit.onSend(1), 100, 'ok', 0);
      limit.onSample(limit.onSend(1), 300, 'ok', 29_999);
      assert.equal(limit.minLatencyMs, 100);
      limit.onSample(limit.onSend(1), 300, 'ok', 30_000);
      assert.equal(limit.minLatencyMs, 100, 'the previous window still counts');
      limit.onSample(limit.onSend(1), 300, 'ok', 59_999);
      assert.equal(limit.minLatencyMs, 100);
      limit.onSample(limit.onSend(1), 300, 'ok', 60_000);
      assert.equal(limit.minLatencyMs, 300);
    });

    it('a custom window', () => {
      const limit = new AdaptiveLimit({ ceiling: 64, initial: 1, minLatencyWindowMs: 1_000 });
      limit.onSample(limit.onSend(1), 100, 'ok', 5_000);
      limit.onSample(limit.onSend(1), 200, 'ok', 6_000);
      limit.onSample(limit.onSend(1), 250, 'ok', 6_999);
      assert.equal(limit.minLatencyMs, 100);
      limit.onSample(limit.onSend(1), 300, 'ok', 7_000);
      assert.equal(limit.minLatencyMs, 200);
    });
  });
});
