// The adaptive limit alone, against a simulated server in simulated time: the
// same decisions as over real HTTP (adaptiveConcurrency.test.ts), but with
// exact latencies, so a busy test machine cannot blur them.

import * as assert from 'node:assert/strict';
import { AdaptiveLimit, RELEARN_AT_LIMIT, type SentRequest } from '../../../src/core/client/http/adaptiveLimit';

interface SimulatedServer {
  /** Requests served at once; Infinity = unlimited. */
  readonly capacity: number;
  /** The latency of a request that did not wait for a slot, by when it arrives. */
  readonly latencyAt: (now: number) => number;
}

/**
 * A client that keeps `limit.limit` requests out until `count` are answered,
 * against a server that serves `capacity` at once first come, first served
 * (the others wait for a slot: their wait adds to their latency).
 */
function simulate(limit: AdaptiveLimit, server: SimulatedServer, count: number, startAt = 0): { now: number; limits: number[] } {
  const slotsFreeAt: number[] = [];
  const inFlight: { sent: SentRequest; at: number; done: number }[] = [];
  const limits: number[] = [];
  let now = startAt;
  let sent = 0;
  let answered = 0;
  while (answered < count) {
    while (sent < count && inFlight.length < limit.limit) {
      sent++;
      const slot =
        Number.isFinite(server.capacity) && slotsFreeAt.length >= server.capacity ? Math.max(now, slotsFreeAt.shift() ?? now) : now;
      const done = slot + server.latencyAt(slot);
      if (Number.isFinite(server.capacity)) {
        slotsFreeAt.push(done);
        slotsFreeAt.sort((a, b) => a - b);
      }
      inFlight.push({ sent: limit.onSend(inFlight.length + 1), at: now, done });
    }
    inFlight.sort((a, b) => a.done - b.done);
    const next = inFlight.shift();
    if (next === undefined) break;
    now = next.done;
    answered++;
    limit.onSample(next.sent, next.done - next.at, 'ok', now);
    limits.push(limit.limit);
  }
  return { now, limits };
}

/** One request alone first, as the client's first look-up: the minimum latency is learnt from it. */
function warmedUp(ceiling: number, latencyMs: number, minLatencyWindowMs?: number): AdaptiveLimit {
  const limit = new AdaptiveLimit(minLatencyWindowMs === undefined ? { ceiling } : { ceiling, minLatencyWindowMs });
  limit.onSample(limit.onSend(1), latencyMs, 'ok', 0);
  return limit;
}

describe('Adaptive limit (simulated server and time)', () => {
  it('grows to the ceiling while every answer comes at the minimum latency', () => {
    const limit = warmedUp(64, 40);
    simulate(limit, { capacity: Number.POSITIVE_INFINITY, latencyAt: () => 40 }, 1000);
    assert.equal(limit.limit, 64);
  });

  it('takes a standing queue of its own requests (every answer slow) for a queue, and shrinks to what the server serves', () => {
    const limit = warmedUp(64, 40);
    const { limits } = simulate(limit, { capacity: 3, latencyAt: () => 40 }, 600);
    // Every answer waits behind earlier ones once the limit is above 3: none comes near 40 ms.
    // A limiter that reads that as "the network got slower" learns the queue as the minimum and climbs.
    assert.ok(Math.max(...limits.slice(100)) <= 8, `the limit went back up to ${Math.max(...limits.slice(100))}`);
    assert.ok(limit.limit <= 6, `still ${limit.limit} at once against a server that serves 3`);
    assert.equal(limit.minLatencyMs, 40, 'the queue was learnt as the minimum latency');
  });

  it('learns a slower network again once the limit is low and every answer stays slow, then grows back to the ceiling', () => {
    // The old minimum is not forgotten by time here (an hour's window): only the rule can learn the new one.
    const limit = warmedUp(64, 40, 3_600_000);
    let slowerFrom = Number.POSITIVE_INFINITY;
    const server = { capacity: Number.POSITIVE_INFINITY, latencyAt: (now: number) => (now >= slowerFrom ? 400 : 40) };
    const before = simulate(limit, server, 500);
    assert.equal(limit.limit, 64);
    slowerFrom = before.now;
    const after = simulate(limit, server, 3000, before.now);
    assert.ok(Math.min(...after.limits) <= RELEARN_AT_LIMIT, 'never shrank: the test proves nothing');
    assert.equal(limit.minLatencyMs, 400, 'the slower network was not learnt');
    assert.equal(limit.limit, 64, `stayed at ${limit.limit} on a network that is slower for everyone`);
  });
});
