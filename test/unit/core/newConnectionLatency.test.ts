// What the adaptive limit learns from a burst of new connections, over real HTTP against the fake
// service: on a busy machine their handshakes finish one after the other, and that slowness is ours,
// not the server's queue.

import * as assert from 'node:assert/strict';
import type { LookupFunction } from 'node:net';
import { HttpClient } from '../../../src/core/client/http/httpClient';
import { DEFAULT_RETRY_POLICY } from '../../../src/core/client/http/retryPolicy';
import { createUndiciTransport } from '../../../src/core/client/http/undiciTransport';
import { EVENTS_PATH, TEST_SERIALS } from '../../support/fakeApi';
import { loopbackLookup } from '../../support/network/loopbackLookup';
import { useFakeApi } from './testClient';

const HOST = 'plant.test';

/** Resolves HOST to 127.0.0.1, each new connection later than the one before: handshakes queued on a busy CPU. */
function everSlowerConnects(stepMs: number): LookupFunction & { readonly connects: () => number } {
  const inner = loopbackLookup([HOST]);
  let connects = 0;
  const lookup: LookupFunction = (hostname, options, callback) => {
    const wait = 10 + stepMs * connects++;
    setTimeout(() => {
      inner(hostname, options, callback);
    }, wait);
  };
  return Object.assign(lookup, { connects: () => connects });
}

describe('adaptive limit: new connections are not server queueing', () => {
  const context = useFakeApi();

  it('a burst whose new connections open ever later does not cut the limit, and answers on reused ones still grow it', async () => {
    const { api } = context();
    const lookup = everSlowerConnects(4);
    const http = new HttpClient({
      transport: createUndiciTransport({ connectTimeoutMs: 5_000, connectionsPerOrigin: 64, env: {}, lookup }),
      maxConcurrency: 64,
      requestTimeoutMs: 5_000,
      maxResponseBytes: 1024 * 1024,
      retry: { ...DEFAULT_RETRY_POLICY, maxRetries: 0 },
      now: Date.now,
    });
    try {
      const url = new URL(`${EVENTS_PATH}?serialNumber=${TEST_SERIALS.onboarded}`, api.baseUrl);
      url.hostname = HOST;
      const answers = await Promise.all(Array.from({ length: 160 }, () => http.send({ method: 'GET', url: url.href })));
      assert.ok(answers.every((answer) => answer.status > 0));
      assert.ok(lookup.connects() >= 32, `the first round opened its own connections (${lookup.connects()})`);
      const learnt = http.limiter.snapshot();
      assert.equal(learnt.decreases, 0, `the handshakes were taken for queueing: ${JSON.stringify(learnt)}`);
      assert.ok(learnt.increases >= 1, `answers on reused connections grow the limit: ${JSON.stringify(learnt)}`);
      assert.ok(
        learnt.minLatencyMs !== undefined && learnt.minLatencyMs < 10,
        `the minimum comes from reused connections: ${JSON.stringify(learnt)}`,
      );
    } finally {
      await http.close();
    }
  });
});
