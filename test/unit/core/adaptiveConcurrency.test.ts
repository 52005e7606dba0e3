// The adaptive concurrency limit and the interactive-first queue, over real
// HTTP against the fake service with a capacity, a queue and a rate limit.

import * as assert from 'node:assert/strict';
import { DEFAULT_INITIAL_LIMIT } from '../../../src/core/client/http/adaptiveLimit';
import { createUndiciTransport } from '../../../src/core/client/http/undiciTransport';
import { parseRetryAfter } from '../../../src/core/client/http/retryPolicy';
import type { Transport } from '../../../src/core/client/http/transport';
import type { OnboardingClient } from '../../../src/core/client/onboardingClient';
import { makeClient, useFakeApi } from './testClient';

interface Sent {
  readonly at: number;
  readonly told?: { readonly at: number; readonly until: number };
}

/** The real transport, recording when each request left and, for a 429, until when it asked us to wait. */
function recordingTransport(): { transport: Transport; sent: Sent[]; inFlight: () => number; maxInFlight: () => number } {
  const inner = createUndiciTransport({ connectTimeoutMs: 5_000, connectionsPerOrigin: 64, env: {} });
  const sent: Sent[] = [];
  let inFlight = 0;
  let max = 0;
  return {
    sent,
    inFlight: () => inFlight,
    maxInFlight: () => max,
    transport: {
      async request(request) {
        const at = Date.now();
        inFlight++;
        max = Math.max(max, inFlight);
        try {
          const response = await inner.request(request);
          const arrived = Date.now();
          const wait = response.status === 429 ? parseRetryAfter(response.headers['retry-after'], arrived) : undefined;
          sent.push(wait === undefined ? { at } : { at, told: { at: arrived, until: arrived + wait } });
          return response;
        } finally {
          inFlight--;
        }
      },
      close: () => inner.close(),
    },
  };
}

const serials = (prefix: string, count: number): string[] =>
  Array.from({ length: count }, (_, index) => `${prefix}-${String(index).padStart(3, '0')}`);

async function refreshAll(client: OnboardingClient, list: readonly string[]): Promise<void> {
  await Promise.all(list.map((serial) => client.getEvents(serial, { priority: 'bulk' })));
}

describe('Adaptive concurrency over real HTTP', () => {
  const context = useFakeApi();

  it('grows beyond where it starts while the latency stays at its minimum, up to the ceiling', async () => {
    // The client measures latency on its own clock; here that clock stands still, so every answer
    // comes back at exactly the minimum latency however busy the test machine is. Real time used to
    // make a busy moment look like a queue (the test retried twice to hide it). What slow answers do
    // is the next test's and adaptiveLimit.test.ts's; this one is the growth, over real HTTP.
    const { api } = context();
    const recording = recordingTransport();
    const frozen = Date.now();
    const client = makeClient(api, { transport: recording.transport, http: { maxConcurrency: 48 }, now: () => frozen });
    try {
      // Answers that take a while on the server, so many are in flight at once.
      api.setLatency(250);
      await client.getEvents('WARM');
      await refreshAll(client, serials('GROW', 300));
      const learnt = client.concurrency();
      assert.ok(learnt.increases > 0, 'the limit never grew');
      assert.ok(
        recording.maxInFlight() > DEFAULT_INITIAL_LIMIT,
        `at most ${recording.maxInFlight()} were in flight, where the limit starts`,
      );
      assert.ok(recording.maxInFlight() <= 48, 'above the ceiling');
      assert.equal(learnt.limit, 48, 'it stopped short of the ceiling');
    } finally {
      client.dispose();
    }
  });

  it('shrinks when answers slow down because its requests queue on the server', async () => {
    const { api } = context();
    const client = makeClient(api, { http: { maxConcurrency: 64 } });
    try {
      api.setLatency(40);
      await client.getEvents('WARM');
      api.configure({ capacity: 3, queueLimit: 1000 });
      // Every answer waits behind earlier ones of ours: none comes near the minimum. That is our queue, not a slower network.
      await refreshAll(client, serials('QUEUE', 150));
      const learnt = client.concurrency();
      assert.ok(learnt.decreases > 0, 'never decreased');
      assert.ok(learnt.limit < 16, `still ${learnt.limit} at once against a server that serves 3`);
    } finally {
      client.dispose();
    }
  });

  it('shrinks on 429 and 503, and the requests still succeed', async () => {
    const { api } = context();
    const client = makeClient(api, { http: { maxConcurrency: 64 } });
    try {
      await client.getEvents('WARM');
      api.configure({ capacity: 4, queueLimit: 2, overflowRetryAfterSeconds: 0, latencyMs: 30 });
      // Some may run out of retries: this test is about the limit, not about every answer.
      await Promise.allSettled(serials('FULL', 40).map((serial) => client.getEvents(serial, { priority: 'bulk' })));
      const learnt = client.concurrency();
      assert.ok(api.loadStats().rejectedFull > 0, 'the server never refused: the test proves nothing');
      assert.ok(learnt.limit < 16, `still ${learnt.limit} after 429s`);
      api.clearRequests();
      api.configure({ capacity: 0 });
      api.addFault({ endpoint: 'events', kind: 'status', status: 503, times: 2 });
      const before = client.concurrency().decreases;
      await client.getEvents('AFTER-503');
      assert.ok(client.concurrency().decreases > before, '503 did not shrink the limit');
    } finally {
      client.dispose();
    }
  });

  it('holds every queued request until a Retry-After has passed, not only the one that got it', async () => {
    const { api } = context();
    const recording = recordingTransport();
    const client = makeClient(api, { transport: recording.transport, http: { maxConcurrency: 2 } });
    try {
      await client.getEvents('WARM');
      recording.sent.length = 0;
      api.configure({ rateLimit: 4, latencyMs: 10 });
      await refreshAll(client, serials('RATE', 12));
      const told = recording.sent.flatMap((sent) => (sent.told === undefined ? [] : [sent.told]));
      assert.ok(told.length > 0, 'no 429 arrived: the test proves nothing');
      // A request that left in the same millisecond the 429 was read had not been told yet.
      const early = recording.sent.filter((sent) => told.some((t) => sent.at > t.at && sent.at < t.until));
      assert.equal(early.length, 0, `${early.length} requests left before the Retry-After had passed`);
    } finally {
      client.dispose();
    }
  });

  it('sends an interactive request ahead of every queued bulk one, without waiting for a bulk slot', async () => {
    const { api } = context();
    const client = makeClient(api, { http: { maxConcurrency: 4 } });
    try {
      await client.getEvents('WARM');
      api.setLatency(100);
      const bulk = refreshAll(client, serials('BULK', 40));
      await new Promise((resolve) => setTimeout(resolve, 150));
      const started = Date.now();
      await client.getEvents('HOVER');
      const hoverMs = Date.now() - started;
      const bulkLeft = 40 - api.eventRequests().filter((request) => request.query['serialNumber']?.startsWith('BULK') === true).length;
      assert.ok(bulkLeft > 10, `only ${bulkLeft} bulk requests were still queued: the test proves nothing`);
      // One round trip of 100 ms, plus slack for a busy machine; behind the bulk queue it would take over a second.
      assert.ok(hoverMs < 190, `the interactive request took ${hoverMs} ms`);
      await bulk;
    } finally {
      client.dispose();
    }
  });
});
