// The events cache over the real client: the one place requests are shared.
// One request per machine however many callers wait, each caller cancelling
// only its own wait, the request aborted when nobody waits any more, and a
// hover joining a refresh-all's queued request moving it ahead of the bulk
// queue. (These moved here from the HTTP client, which no longer shares GETs.)

import * as assert from 'node:assert/strict';
import { isApiError, type ApiErrorKind } from '../../../src/core/client/errors';
import type { Transport, TransportRequest, TransportResponse } from '../../../src/core/client/http/transport';
import { EventsCache } from '../../../src/core/eventsCache/eventsCache';
import { TEST_SERIALS } from '../../support/fakeApi';
import { delay, makeClient, rejectionOf, useFakeApi } from '../core/testClient';
import { OnboardingClient } from '../../../src/core/client/onboardingClient';

const SERIAL = TEST_SERIALS.onboarded;

function assertApiError(error: unknown, kind: ApiErrorKind): void {
  assert.ok(isApiError(error), `expected an ApiError, got ${String(error)}`);
  assert.equal(error.kind, kind, error.message);
}

function cacheOver(client: OnboardingClient): EventsCache {
  return new EventsCache({ source: () => client, freshForMs: () => 60_000 });
}

describe('Events cache over the real client and the fake API', () => {
  const context = useFakeApi();

  it('identical concurrent lookups share one request', async () => {
    const { api, client } = context();
    const cache = cacheOver(client);
    api.setLatency(50);
    const results = await Promise.all(Array.from({ length: 5 }, () => cache.get(SERIAL)));
    assert.equal(api.eventRequests().length, 1);
    for (const result of results)
      assert.deepEqual(
        result.events.map((event) => event.key),
        results[0]?.events.map((event) => event.key),
      );
  });

  it('requests of another sign-in are never shared: after clear() a lookup sends its own, with its own credentials', async () => {
    const { api, client } = context();
    const other = makeClient(api);
    let source = client;
    const cache = new EventsCache({ source: () => source, freshForMs: () => 60_000 });
    try {
      api.setLatency(100);
      const first = cache.get(SERIAL);
      cache.clear();
      source = other;
      const second = cache.get(SERIAL);
      await Promise.all([first, second]);
      const authorizations = api.eventRequests().map((request) => request.headers['authorization']);
      assert.equal(authorizations.length, 2);
      assert.notEqual(authorizations[0], authorizations[1]);
    } finally {
      other.dispose();
    }
  });

  it('one waiter cancelling does not cancel the shared request for the others', async () => {
    const { api, client } = context();
    const cache = cacheOver(client);
    await cache.get(SERIAL);
    api.setLatency(150);
    const controller = new AbortController();
    const cancelled = cache.get(TEST_SERIALS.started, { signal: controller.signal });
    const kept = cache.get(TEST_SERIALS.started);
    await delay(30);
    controller.abort();
    assertApiError(await rejectionOf(cancelled), 'cancelled');
    assert.equal((await kept).events.length, 1);
    assert.equal(api.eventRequests(TEST_SERIALS.started).length, 1);
  });

  it('the shared request is aborted once every waiter has cancelled, and remembered as no failure', async () => {
    const { api, client, log } = context();
    const cache = cacheOver(client);
    await cache.get(SERIAL);
    api.setLatency(1_000);
    const first = new AbortController();
    const second = new AbortController();
    const outcomes = [
      cache.get(TEST_SERIALS.started, { signal: first.signal }),
      cache.get(TEST_SERIALS.started, { signal: second.signal }),
    ].map((call) => rejectionOf(call));
    await delay(50);
    first.abort();
    await delay(20);
    assert.equal(log.length, 2, 'the request is still running for the second waiter');
    second.abort();
    for (const outcome of outcomes) assertApiError(await outcome, 'cancelled');
    await delay(20);
    assert.match(log.at(-1)?.error ?? '', /^aborted/);
    assert.equal(cache.failure(TEST_SERIALS.started), undefined);
    assert.equal(cache.loading(TEST_SERIALS.started), false, 'a new caller starts afresh');
  });
});

const json = (body: unknown): TransportResponse => ({
  status: 200,
  headers: { 'content-type': 'application/json' },
  body: new TextEncoder().encode(JSON.stringify(body)),
});

/** Grants a token at once; holds every events request until the test releases it, recording which machine it asked for. */
function holdingTransport(): { transport: Transport; sent: string[]; releaseAll: () => void } {
  const sent: string[] = [];
  const held: (() => void)[] = [];
  const transport: Transport = {
    request(request: TransportRequest) {
      if (request.method === 'POST') return Promise.resolve(json({ access_token: 'token', token_type: 'Bearer', expires_in: 3600 }));
      sent.push(new URL(request.url).searchParams.get('serialNumber') ?? '');
      return new Promise((resolve) => {
        held.push(() => {
          resolve(json({ events: [] }));
        });
      });
    },
    close: () => Promise.resolve(),
  };
  return {
    transport,
    sent,
    releaseAll: () => {
      for (const release of held.splice(0)) release();
    },
  };
}

/** Waits (a few event-loop turns at most) until `sent` has `count` entries. */
async function sentCount(sent: readonly string[], count: number): Promise<void> {
  for (let turn = 0; turn < 50 && sent.length < count; turn++) await new Promise((resolve) => setImmediate(resolve));
}

describe('Events cache: priority of shared requests (scripted transport)', () => {
  const [A, B] = [TEST_SERIALS.onboarded, TEST_SERIALS.started];

  function setUp(): { cache: EventsCache; sent: string[]; releaseAll: () => void; client: OnboardingClient } {
    const { transport, sent, releaseAll } = holdingTransport();
    // Ceiling 2, reserve 1: one bulk request runs at a time.
    const client = new OnboardingClient({
      apiBaseUrl: 'https://api.example.test',
      authUrl: 'https://auth.example.test',
      credentials: () => Promise.resolve({ clientId: 'c', clientSecret: 's', username: 'u', password: 'p' }),
      transport,
      http: { maxConcurrency: 2, env: {} },
    });
    return { cache: cacheOver(client), sent, releaseAll, client };
  }

  it('an interactive lookup joining a queued bulk request moves it ahead of the bulk queue', async () => {
    const { cache, sent, releaseAll, client } = setUp();
    try {
      const bulk = [A, B].map((serial) => cache.get(serial, { priority: 'bulk' }));
      await sentCount(sent, 2);
      assert.equal(sent.length, 1);
      const joined = cache.get(B);
      await sentCount(sent, 2);
      assert.deepEqual(sent, [A, B], 'the joined request went ahead into the reserve');
      releaseAll();
      await Promise.all([...bulk, joined]);
      assert.equal(sent.length, 2);
    } finally {
      client.dispose();
    }
  });

  it('a bulk lookup joining a queued bulk request leaves it queued', async () => {
    const { cache, sent, releaseAll, client } = setUp();
    try {
      const first = cache.get(A, { priority: 'bulk' });
      const second = cache.get(B, { priority: 'bulk' });
      const joined = cache.get(B, { priority: 'bulk' });
      await sentCount(sent, 2);
      assert.equal(sent.length, 1);
      releaseAll();
      await first;
      await sentCount(sent, 2);
      releaseAll();
      await Promise.all([second, joined]);
      assert.equal(sent.length, 2);
    } finally {
      client.dispose();
    }
  });
});
