import * as assert from 'node:assert/strict';
import { isApiError, type ApiErrorKind } from '../../../src/core/client/errors';
import { HttpClient, type HttpClientOptions } from '../../../src/core/client/http/httpClient';
import { DEFAULT_RETRY_POLICY } from '../../../src/core/client/http/retryPolicy';
import { createUndiciTransport } from '../../../src/core/client/http/undiciTransport';
import type { Transport } from '../../../src/core/client/http/transport';
import { TEST_SERIALS } from '../../support/fakeApi';
import { delay, makeClient, rejectionOf, useFakeApi } from './testClient';
import { extensionErrorText } from '../../../src/extension/workbench/remedies';
import { plainLocalize } from '../../../src/core/common/localize';

function assertApiError(error: unknown, kind: ApiErrorKind, message?: RegExp): void {
  assert.ok(isApiError(error), `expected an ApiError, got ${String(error)}`);
  assert.equal(error.kind, kind, extensionErrorText(error, plainLocalize));
  if (message !== undefined) assert.match(extensionErrorText(error, plainLocalize), message);
}

/** Wraps the real undici transport to observe how many requests are in flight at once. */
function countingTransport(): { transport: Transport; maxInFlight: () => number } {
  const inner = createUndiciTransport({ connectTimeoutMs: 5_000, connectionsPerOrigin: 64, env: {} });
  let inFlight = 0;
  let max = 0;
  return {
    transport: {
      async request(request) {
        inFlight++;
        max = Math.max(max, inFlight);
        try {
          return await inner.request(request);
        } finally {
          inFlight--;
        }
      },
      close: () => inner.close(),
    },
    maxInFlight: () => max,
  };
}

const SERIAL = TEST_SERIALS.onboarded;

/** The HTTP client alone, over the real transport, for what OnboardingClient gives no handle on (headers, retry timing). */
function httpClient(options: Partial<HttpClientOptions> = {}): HttpClient {
  return new HttpClient({
    transport: createUndiciTransport({ connectTimeoutMs: 5_000, connectionsPerOrigin: 8, env: {} }),
    maxConcurrency: 8,
    requestTimeoutMs: 5_000,
    maxResponseBytes: 1024 * 1024,
    retry: { ...DEFAULT_RETRY_POLICY, baseDelayMs: 5 },
    now: Date.now,
    ...options,
  });
}

/** Rejects with `message` when `promise` has not settled within `ms`: a hang fails the test instead of timing it out. */
function within<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new Error(message));
    }, ms);
  });
  return Promise.race([promise, timeout]).finally(() => {
    clearTimeout(timer);
  });
}

describe('HTTP behaviour: retries, timeouts, size cap, cancellation, concurrency', () => {
  const context = useFakeApi();

  describe('retries with backoff', () => {
    for (const status of [502, 503, 504]) {
      it(`retries HTTP ${status} and then succeeds`, async () => {
        const { api, client, log } = context();
        api.addFault({ endpoint: 'events', kind: 'status', status, times: 2 });
        assert.equal((await client.getEvents(SERIAL)).events.length, 3);
        assert.deepEqual(
          log.filter((entry) => entry.url.includes('/events')).map((entry) => [entry.attempt, entry.status]),
          [
            [1, status],
            [2, status],
            [3, 200],
          ],
        );
      });
    }

    it('does not retry HTTP 500: it is a server bug, not a passing condition', async () => {
      const { api, client } = context();
      api.addFault({ endpoint: 'events', kind: 'status', status: 500 });
      assertApiError(await rejectionOf(client.getEvents(SERIAL)), 'server', /HTTP 500.*Try again later/);
      assert.equal(api.eventRequests().length, 1);
    });

    it('gives up after maxRetries and reports a server error', async () => {
      const { api } = context();
      const client = makeClient(api, { http: { maxRetries: 2 } });
      try {
        api.addFault({ endpoint: 'events', kind: 'status', status: 503 });
        assertApiError(await rejectionOf(client.getEvents(SERIAL)), 'server', /HTTP 503/);
        assert.equal(api.eventRequests().length, 3);
      } finally {
        client.dispose();
      }
    });

    it('honours Retry-After in seconds on a 429', async () => {
      const { api, client } = context();
      await client.getEvents(SERIAL);
      api.addFault({ endpoint: 'events', kind: 'rateLimit', retryAfter: 1, times: 1 });
      const started = Date.now();
      await client.getEvents(TEST_SERIALS.started);
      assert.ok(Date.now() - started >= 950, `waited only ${Date.now() - started} ms`);
      assert.equal(api.eventRequests().length, 3);
    });

    it('honours Retry-After as an HTTP-date on a 429', async () => {
      const { api, client } = context();
      await client.getEvents(SERIAL);
      // HTTP-dates have whole seconds: 2 s ahead is at least 1 s after truncation.
      api.addFault({ endpoint: 'events', kind: 'rateLimit', retryAfter: new Date(Date.now() + 2_000), times: 1 });
      const started = Date.now();
      await client.getEvents(TEST_SERIALS.started);
      assert.ok(Date.now() - started >= 900, `waited only ${Date.now() - started} ms`);
    });

    it('reports a Retry-After beyond the cap at once, with the wait, instead of freezing the view', async () => {
      const { api, client } = context();
      api.addFault({ endpoint: 'events', kind: 'rateLimit', retryAfter: 3600 });
      const error = await rejectionOf(client.getEvents(SERIAL));
      assertApiError(error, 'rate-limited', /Wait 3600 s and try again/);
      assert.equal(isApiError(error) ? error.details.retryAfterMs : undefined, 3_600_000);
      assert.equal(api.eventRequests().length, 1);
    });

    it('reports rate limiting after the retries are used up', async () => {
      const { api, client } = context();
      api.addFault({ endpoint: 'events', kind: 'rateLimit', retryAfter: 0 });
      assertApiError(await rejectionOf(client.getEvents(SERIAL)), 'rate-limited');
      assert.equal(api.eventRequests().length, 4);
    });

    it('doubles the backoff with each retry (first retry after one step, the second after two)', async () => {
      const { api } = context();
      const step = 150;
      // random() = 1 takes the top of each jitter range: exactly base·2^retry.
      const http = httpClient({ retry: { ...DEFAULT_RETRY_POLICY, baseDelayMs: step, random: () => 1 } });
      try {
        api.addFault({ endpoint: 'events', kind: 'status', status: 503, times: 2 });
        const response = await http.send({
          method: 'GET',
          url: `${api.baseUrl}/public/api/onboarding-events/events?serialNumber=${SERIAL}`,
        });
        assert.equal(response.status, 401, 'the third attempt reached the endpoint (no token: 401)');
        const [first, second, third] = api.eventRequests().map((request) => request.at);
        assert.ok(first !== undefined && second !== undefined && third !== undefined, 'three attempts');
        assert.ok(second - first >= step - 5, `first retry after ${second - first} ms, expected ≥ ${step}`);
        assert.ok(second - first < 2 * step - 5, `first retry after ${second - first} ms, expected one step (< ${2 * step})`);
        assert.ok(third - second >= 2 * step - 5, `second retry after ${third - second} ms, expected ≥ ${2 * step}`);
      } finally {
        await http.close();
      }
    });

    it('retries a connection reset and then succeeds', async () => {
      const { api, client } = context();
      api.addFault({ endpoint: 'events', kind: 'reset', times: 1 });
      assert.equal((await client.getEvents(SERIAL)).events.length, 3);
      assert.equal(api.eventRequests().length, 2);
    });

    it('reports a network error with the error code when resets persist', async () => {
      const { api, client, log } = context();
      api.addFault({ endpoint: 'events', kind: 'reset' });
      assertApiError(
        await rejectionOf(client.getEvents(SERIAL)),
        'network',
        /Could not reach 127\.0\.0\.1:\d+ \((ECONNRESET|UND_ERR_SOCKET)\)\. Check your network/,
      );
      assert.equal(log.filter((entry) => entry.error !== undefined).length, 4);
    });

    it('reports a network error when nothing listens', async () => {
      const { api } = context();
      const port = api.port;
      await api.close();
      const client = makeClient(
        { ...api, baseUrl: `http://127.0.0.1:${port}`, authUrl: `http://127.0.0.1:${port}/oauth` },
        { http: { maxRetries: 1 } },
      );
      try {
        assertApiError(await rejectionOf(client.getEvents(SERIAL)), 'network', /ECONNREFUSED/);
      } finally {
        client.dispose();
      }
    });
  });

  describe('timeouts and size cap', () => {
    it('times out when the headers do not arrive in time, without retrying', async () => {
      const { api } = context();
      const client = makeClient(api, { http: { requestTimeoutMs: 200 } });
      try {
        await client.getEvents(SERIAL);
        api.setLatency(1_000);
        const started = Date.now();
        assertApiError(await rejectionOf(client.getEvents(TEST_SERIALS.started)), 'timeout', /did not answer within/);
        assert.ok(Date.now() - started < 800);
        assert.equal(api.eventRequests().length, 2);
      } finally {
        client.dispose();
      }
    });

    it('times out on a body that trickles in too slowly', async () => {
      const { api } = context();
      const client = makeClient(api, { http: { requestTimeoutMs: 300 } });
      try {
        await client.getEvents(SERIAL);
        api.addFault({ endpoint: 'events', kind: 'slowBody', chunkBytes: 8, delayMs: 50 });
        assertApiError(await rejectionOf(client.getEvents(TEST_SERIALS.started)), 'timeout');
      } finally {
        client.dispose();
      }
    });

    it('a slow body within the time budget is read completely', async () => {
      const { api, client } = context();
      api.addFault({ endpoint: 'events', kind: 'slowBody', chunkBytes: 200, delayMs: 5 });
      assert.equal((await client.getEvents(SERIAL)).events.length, 3);
    });

    it('refuses a response larger than the cap as a protocol error', async () => {
      const { api } = context();
      const client = makeClient(api, { http: { maxResponseBytes: 64 * 1024 } });
      try {
        api.addFault({ endpoint: 'events', kind: 'hugeBody', bytes: 5 * 1024 * 1024 });
        assertApiError(await rejectionOf(client.getEvents(SERIAL)), 'protocol', /larger than the allowed maximum/);
      } finally {
        client.dispose();
      }
    });

    it('refuses a streamed response without Content-Length once more than the cap has been read', async () => {
      const { api } = context();
      const client = makeClient(api, { http: { maxResponseBytes: 64 * 1024 } });
      try {
        api.addFault({ endpoint: 'events', kind: 'hugeBody', bytes: 5 * 1024 * 1024, chunked: true });
        assertApiError(await rejectionOf(client.getEvents(SERIAL)), 'protocol', /larger than the allowed maximum/);
      } finally {
        client.dispose();
      }
    });

    it('reads a body of exactly the cap and refuses one byte more when streamed', async () => {
      const { api } = context();
      const cap = 16 * 1024;
      const client = makeClient(api, { http: { maxResponseBytes: cap } });
      try {
        for (const chunked of [false, true]) {
          api.addFault({ endpoint: 'events', kind: 'hugeBody', bytes: cap, chunked, times: 1 });
          assert.deepEqual((await client.getEvents(`CAP-${chunked}`)).events, [], `exactly the cap, chunked: ${chunked}`);
        }
        api.addFault({ endpoint: 'events', kind: 'hugeBody', bytes: cap + 1, chunked: true, times: 1 });
        assertApiError(await rejectionOf(client.getEvents('CAP-over')), 'protocol', /larger than the allowed maximum/);
      } finally {
        client.dispose();
      }
    });

    // Found by this test: a small body announced one byte over the cap arrives whole before readCapped()
    // (undiciTransport.ts) destroys it unread; undici then emitted RequestAbortedError on a stream nobody
    // listened to, an uncaught exception in the extension host.
    it('refuses a body announced one byte over the cap without an uncaught error', async () => {
      const { api } = context();
      const cap = 16 * 1024;
      const client = makeClient(api, { http: { maxResponseBytes: cap } });
      try {
        api.addFault({ endpoint: 'events', kind: 'hugeBody', bytes: cap + 1, times: 1 });
        assertApiError(await rejectionOf(client.getEvents('CAP-announced')), 'protocol', /larger than the allowed maximum/);
        await delay(50);
      } finally {
        client.dispose();
      }
    });
  });

  describe('cancellation', () => {
    it('a cancelled call rejects with cancelled at once and aborts the socket request', async () => {
      const { api, client, log } = context();
      await client.getEvents(SERIAL);
      api.setLatency(2_000);
      const controller = new AbortController();
      const pending = client.getEvents(TEST_SERIALS.started, { signal: controller.signal });
      await delay(100);
      const started = Date.now();
      controller.abort();
      assertApiError(await rejectionOf(pending), 'cancelled');
      assert.ok(Date.now() - started < 200);
      await delay(20);
      assert.match(log.at(-1)?.error ?? '', /^aborted/);
    });

    it('an already aborted signal sends nothing', async () => {
      const { api, client } = context();
      assertApiError(await rejectionOf(client.getEvents(SERIAL, { signal: AbortSignal.abort() })), 'cancelled');
      assert.equal(api.requests.length, 0);
    });

    it('cancelling while waiting out a Retry-After stops the wait', async () => {
      const { api, client } = context();
      api.addFault({ endpoint: 'events', kind: 'rateLimit', retryAfter: 20 });
      const controller = new AbortController();
      const pending = client.getEvents(SERIAL, { signal: controller.signal });
      await delay(200);
      controller.abort();
      assertApiError(await rejectionOf(pending), 'cancelled');
    });

    it('dispose cancels calls in flight and refuses new ones', async () => {
      const { api, client } = context();
      api.setLatency(2_000);
      const pending = client.getEvents(SERIAL);
      await delay(50);
      client.dispose();
      assertApiError(await rejectionOf(pending), 'cancelled', /shutting down/);
      assertApiError(await rejectionOf(client.getEvents(SERIAL)), 'cancelled');
    });
  });

  describe('concurrency limit', () => {
    it('never has more requests in flight than maxConcurrency', async () => {
      const { api } = context();
      const counting = countingTransport();
      const client = makeClient(api, { transport: counting.transport, http: { maxConcurrency: 3 } });
      try {
        await client.getEvents(SERIAL);
        api.setLatency(60);
        const started = Date.now();
        await Promise.all(Array.from({ length: 9 }, (_, index) => client.getEvents(`LIMIT-${index}`)));
        assert.equal(counting.maxInFlight(), 3);
        // Nine requests three at a time take three round trips.
        assert.ok(Date.now() - started >= 3 * 60 - 5);
      } finally {
        client.dispose();
      }
    });

    it('a caller cancelled while queued for a slot leaves the queue', async () => {
      const { api } = context();
      const client = makeClient(api, { http: { maxConcurrency: 1 } });
      try {
        await client.getEvents(SERIAL);
        api.setLatency(150);
        const first = client.getEvents('QUEUE-1');
        const controller = new AbortController();
        const queued = client.getEvents('QUEUE-2', { signal: controller.signal });
        controller.abort();
        assertApiError(await rejectionOf(queued), 'cancelled');
        await first;
        assert.equal(api.eventRequests('QUEUE-2').length, 0);
      } finally {
        client.dispose();
      }
    });

    it('a caller cancelled while queued gives its place back: every later request still runs', async () => {
      const { api } = context();
      const client = makeClient(api, { http: { maxConcurrency: 1 } });
      try {
        await client.getEvents(SERIAL);
        api.setLatency(150);
        const first = client.getEvents('QUEUE-1');
        const controller = new AbortController();
        const queued = client.getEvents('QUEUE-2', { signal: controller.signal });
        // Long enough for the second call to reach the queue behind the first (the token is cached).
        await delay(50);
        controller.abort();
        assertApiError(await rejectionOf(queued), 'cancelled');
        await first;
        api.setLatency(0);
        const later = Promise.all(['QUEUE-3', 'QUEUE-4', 'QUEUE-5'].map((serial) => client.getEvents(serial)));
        await within(later, 3_000, 'later requests hang: the cancelled caller kept its slot');
        assert.deepEqual(
          api.eventRequests().map((request) => request.query['serialNumber']),
          [SERIAL, 'QUEUE-1', 'QUEUE-3', 'QUEUE-4', 'QUEUE-5'],
        );
      } finally {
        client.dispose();
      }
    });
  });

  describe('identical GETs (shared only by the events cache: eventsCache/eventsCacheRequests.test.ts)', () => {
    it('lookups one after the other are not coalesced', async () => {
      const { api, client } = context();
      await client.getEvents(SERIAL);
      await client.getEvents(SERIAL);
      assert.equal(api.eventRequests().length, 2);
    });
  });

  describe('request log', () => {
    it('reports each attempt with method, URL, status, duration and attempt number', async () => {
      const { api, client, log } = context();
      await client.getEvents(SERIAL);
      assert.equal(log.length, 2);
      const token = log[0];
      const events = log[1];
      assert.ok(token && events);
      assert.deepEqual(
        { ...token, durationMs: 0 },
        { method: 'POST', url: `${api.authUrl}/token`, status: 200, durationMs: 0, attempt: 1 },
      );
      assert.equal(events.url, `${api.baseUrl}/public/api/onboarding-events/events?serialNumber=${SERIAL}`);
      assert.ok(events.durationMs >= 0);
    });
  });
});
