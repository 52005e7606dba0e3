// The HTTP client over a scripted transport (the Transport seam any
// implementation may fill) on a clock the test moves: what it sends, what it
// logs, when it retries and how long it backs off, what it tells the limiter.
// httpBehaviour.test.ts covers the same client over real HTTP.

import * as assert from 'node:assert/strict';
import { isApiError, type ApiErrorKind } from '../../../src/core/client/errors';
import { HttpClient, type HttpClientOptions, type HttpRequest } from '../../../src/core/client/http/httpClient';
import type { RequestLogEntry } from '../../../src/core/client/http/httpClient';
import { DEFAULT_RETRY_POLICY } from '../../../src/core/client/http/retryPolicy';
import {
  TransportError,
  type Transport,
  type NetworkFailureContext,
  type TransportRequest,
  type TransportResponse,
} from '../../../src/core/client/http/transport';
import { rejectionOf } from './testClient';

/** One scripted answer: a response, a failure to throw, or a function of the request (and the test's clock). */
type Step = TransportResponse | Error | ((request: TransportRequest) => Promise<TransportResponse>);

const URL_ = 'https://api.example.test/events?serialNumber=SN-1';

function answer(status: number, headers: Record<string, string> = {}): TransportResponse {
  return { status, headers, body: new TextEncoder().encode(`answer ${status}`) };
}

interface Harness {
  readonly http: HttpClient;
  readonly clock: { now: number };
  /** What the transport was asked, in order. */
  readonly sent: TransportRequest[];
  readonly log: RequestLogEntry[];
  /** Every backoff the client waited out, in ms. */
  readonly waits: number[];
  readonly closed: () => boolean;
}

/** A client whose transport answers with `steps` in order, each taking `latencyMs` on the test's clock. */
function harness(steps: Step[], options: Partial<HttpClientOptions> & { latencyMs?: number } = {}): Harness {
  const clock = { now: 10_000 };
  const sent: TransportRequest[] = [];
  const log: RequestLogEntry[] = [];
  const waits: number[] = [];
  let closed = false;
  const { latencyMs = 25, ...overrides } = options;
  const transport: Transport = {
    request(request) {
      sent.push(request);
      const step = steps.shift();
      if (step === undefined) return Promise.reject(new Error('the script has no more answers'));
      clock.now += latencyMs;
      if (typeof step === 'function') return step(request);
      return step instanceof Error ? Promise.reject(step) : Promise.resolve(step);
    },
    close() {
      closed = true;
      return Promise.resolve();
    },
  };
  const http = new HttpClient({
    transport,
    maxConcurrency: 4,
    requestTimeoutMs: 7_000,
    maxResponseBytes: 2048,
    // random() = 1: every backoff is the top of its range, base·2^retry exactly.
    retry: { ...DEFAULT_RETRY_POLICY, baseDelayMs: 100, maxDelayMs: 10_000, maxRetryAfterMs: 5_000, random: () => 1 },
    onRequest: (entry) => log.push(entry),
    now: () => clock.now,
    sleep: (ms, signal) => {
      waits.push(ms);
      return Promise.resolve(signal?.aborted === true ? 'aborted' : 'slept');
    },
    ...overrides,
  });
  return { http, clock, sent, log, waits, closed: () => closed };
}

function get(overrides: Partial<HttpRequest> = {}): HttpRequest {
  return { method: 'GET', url: URL_, ...overrides };
}

function assertApiError(error: unknown, kind: ApiErrorKind, message?: RegExp): void {
  assert.ok(isApiError(error), `expected an ApiError, got ${String(error)}`);
  assert.equal(error.kind, kind, error.message);
  if (message !== undefined) assert.match(error.message, message);
}

const failure = (kind: TransportError['failure'], code: string, context: NetworkFailureContext = {}): TransportError =>
  new TransportError(kind, code, context);

describe('HTTP client (scripted transport, test clock)', () => {
  describe('what it sends', () => {
    it('hands the transport the request with its timeouts and size cap; a GET carries no body', async () => {
      const { http, sent } = harness([answer(200)]);
      const given = new AbortController().signal;
      const response = await http.send(get({ headers: { authorization: 'Bearer t' }, signal: given }));
      assert.equal(response.status, 200);
      assert.equal(response.url, URL_);
      assert.equal(new TextDecoder().decode(response.body), 'answer 200');
      const [{ signal, ...request } = { signal: undefined }] = sent;
      assert.equal(signal, given, "a GET is sent with its caller's signal");
      assert.equal(sent.length, 1);
      assert.deepEqual(request, {
        method: 'GET',
        url: URL_,
        headers: { authorization: 'Bearer t' },
        timeouts: { headersMs: 7_000, bodyMs: 7_000, totalMs: 7_000 },
        maxBytes: 2048,
      });
    });

    it('sends a POST with its body and signal, and no headers as an empty set', async () => {
      const { http, sent } = harness([answer(200)]);
      const signal = new AbortController().signal;
      await http.send({ method: 'POST', url: URL_, body: 'grant_type=password', signal });
      assert.deepEqual(sent, [
        {
          method: 'POST',
          url: URL_,
          headers: {},
          body: 'grant_type=password',
          signal,
          timeouts: { headersMs: 7_000, bodyMs: 7_000, totalMs: 7_000 },
          maxBytes: 2048,
        },
      ]);
    });

    it('identical concurrent POSTs are each sent', async () => {
      const { http, sent } = harness([answer(200), answer(201)]);
      const statuses = await Promise.all([http.send({ method: 'POST', url: URL_ }), http.send({ method: 'POST', url: URL_ })]);
      assert.equal(sent.length, 2);
      assert.deepEqual(statuses.map((response) => response.status).sort(), [200, 201]);
    });

    it('concurrent GETs of one URL with different Authorization are each sent, and so is one without', async () => {
      const { http, sent } = harness([answer(200), answer(200), answer(200)]);
      await Promise.all([
        http.send(get({ headers: { authorization: 'Bearer a' } })),
        http.send(get({ headers: { authorization: 'Bearer b' } })),
        http.send(get()),
      ]);
      assert.deepEqual(
        sent.map((request) => request.headers['authorization']),
        ['Bearer a', 'Bearer b', undefined],
      );
    });

    it('close() closes the transport', async () => {
      const { http, closed } = harness([]);
      await http.close();
      assert.equal(closed(), true);
    });
  });

  describe('retries and backoff', () => {
    it('backs off one step, then two, then four before retrying a temporary status', async () => {
      const { http, waits, log } = harness([answer(503), answer(502), answer(504), answer(200)]);
      assert.equal((await http.send(get())).status, 200);
      assert.deepEqual(waits, [100, 200, 400]);
      assert.deepEqual(
        log.map((entry) => [entry.attempt, entry.status]),
        [
          [1, 503],
          [2, 502],
          [3, 504],
          [4, 200],
        ],
      );
    });

    it('returns the last temporary status once the retries are used up', async () => {
      const { http, sent, waits } = harness([answer(503), answer(503)], {
        retry: { ...DEFAULT_RETRY_POLICY, maxRetries: 1, baseDelayMs: 100, random: () => 1 },
      });
      assert.equal((await http.send(get())).status, 503);
      assert.equal(sent.length, 2);
      assert.deepEqual(waits, [100]);
    });

    it('does not retry a status that is not temporary', async () => {
      const { http, sent } = harness([answer(500), answer(200)]);
      assert.equal((await http.send(get())).status, 500);
      assert.equal(sent.length, 1);
    });

    it('backs off one step, then two, before retrying a dropped connection', async () => {
      const { http, waits, log } = harness([
        failure('connection', 'ECONNRESET'),
        failure('connection-refused', 'ECONNREFUSED'),
        answer(200),
      ]);
      assert.equal((await http.send(get())).status, 200);
      assert.deepEqual(waits, [100, 200]);
      assert.deepEqual(
        log.map((entry) => [entry.attempt, entry.error ?? entry.status]),
        [
          [1, 'connection ECONNRESET'],
          [2, 'connection-refused ECONNREFUSED'],
          [3, 200],
        ],
      );
    });

    it('reports a dropped connection as a network error once the retries are used up', async () => {
      const { http, sent } = harness([failure('connection', 'ECONNRESET'), failure('connection', 'ECONNRESET')], {
        retry: { ...DEFAULT_RETRY_POLICY, maxRetries: 1, random: () => 1 },
      });
      assertApiError(await rejectionOf(http.send(get())), 'network', /^Could not reach api\.example\.test \(ECONNRESET\)/);
      assert.equal(sent.length, 2);
    });

    it('does not retry a failure that would fail the same way again', async () => {
      const { http, sent } = harness([failure('dns', 'ENOTFOUND'), answer(200)]);
      assertApiError(await rejectionOf(http.send(get())), 'network', /api\.example\.test could not be found \(ENOTFOUND\)/);
      assert.equal(sent.length, 1);
    });

    it('an error that is no transport failure (here from a broken clock) reaches the caller as it is', async () => {
      const failing = new RangeError('the clock failed');
      const { http } = harness([], {
        transport: {
          request: () => Promise.resolve(answer(200)),
          close: () => Promise.resolve(),
        },
        now: () => {
          throw failing;
        },
      });
      assert.equal(await rejectionOf(http.send(get())), failing);
    });

    it('an unknown error from the transport is a dropped connection, retried, and logged by code only', async () => {
      const { http, log, waits } = harness([new Error('socket hang up at https://user:secret@proxy.test'), answer(200)]);
      assert.equal((await http.send(get())).status, 200);
      assert.deepEqual(waits, [100]);
      assert.equal(log[0]?.error, 'connection TRANSPORT_FAILED');
    });
  });

  describe('Retry-After', () => {
    it('a Retry-After within the cap holds the whole queue until then, and the retry waits there instead of backing off', async () => {
      const { http, sent, waits } = harness([answer(429, { 'retry-after': '0' }), answer(200)]);
      assert.equal((await http.send(get())).status, 200);
      assert.equal(sent.length, 2);
      assert.deepEqual(waits, [], 'no backoff on top of the Retry-After');
      assert.equal(http.limiter.pausedUntil(), undefined);
    });

    it('a Retry-After of exactly the cap holds the queue', async () => {
      const { http, clock } = harness([answer(503, { 'retry-after': '1' })], {
        retry: { ...DEFAULT_RETRY_POLICY, maxRetries: 0, maxRetryAfterMs: 1_000 },
      });
      assert.equal((await http.send(get())).status, 503);
      assert.equal(http.limiter.pausedUntil(), clock.now + 1_000);
      // Ends the pause on the test clock, so its timer stops.
      clock.now += 1_000;
    });

    it('a Retry-After of exactly the cap is retried', async () => {
      const { http, sent } = harness([answer(429, { 'retry-after': '0' }), answer(200)], {
        retry: { ...DEFAULT_RETRY_POLICY, maxRetryAfterMs: 0 },
      });
      assert.equal((await http.send(get())).status, 200);
      assert.equal(sent.length, 2);
    });

    it('a Retry-After beyond the cap is returned at once and does not hold the queue', async () => {
      const { http, sent } = harness([answer(429, { 'retry-after': '6' }), answer(200)]);
      assert.equal((await http.send(get())).status, 429);
      assert.equal(sent.length, 1);
      assert.equal(http.limiter.pausedUntil(), undefined);
    });

    it('a Retry-After on a status that is not retried does not hold the queue', async () => {
      const { http } = harness([answer(500, { 'retry-after': '3' })]);
      assert.equal((await http.send(get())).status, 500);
      assert.equal(http.limiter.pausedUntil(), undefined);
    });

    it('an unreadable Retry-After falls back to the backoff', async () => {
      const { http, waits } = harness([answer(429, { 'retry-after': 'soon' }), answer(200)]);
      assert.equal((await http.send(get())).status, 200);
      assert.deepEqual(waits, [100]);
      assert.equal(http.limiter.pausedUntil(), undefined);
    });
  });

  describe('cancellation', () => {
    it('a failure after the caller cancelled is reported as cancelled, not as the failure', async () => {
      const controller = new AbortController();
      const { http } = harness(
        [
          () => {
            controller.abort();
            return Promise.reject(failure('dns', 'ENOTFOUND'));
          },
        ],
        {},
      );
      assertApiError(await rejectionOf(http.send({ method: 'POST', url: URL_, signal: controller.signal })), 'cancelled');
    });

    it('an unknown error after the caller cancelled is logged as aborted', async () => {
      const controller = new AbortController();
      const { http, log } = harness([
        () => {
          controller.abort();
          return Promise.reject(new Error('whatever the library says'));
        },
      ]);
      assertApiError(await rejectionOf(http.send({ method: 'POST', url: URL_, signal: controller.signal })), 'cancelled');
      assert.equal(log[0]?.error, 'aborted TRANSPORT_FAILED');
    });

    it('a request cancelled while it waits for a slot leaves the queue at once and is never sent', async () => {
      let answerFirst: (() => void) | undefined;
      const held = (): Promise<TransportResponse> =>
        new Promise((resolve) => {
          answerFirst = () => {
            resolve(answer(200));
          };
        });
      const { http, sent } = harness([held, answer(201)], { maxConcurrency: 1 });
      const first = http.send({ method: 'POST', url: URL_ });
      const controller = new AbortController();
      const queued = http.send({ method: 'POST', url: URL_, signal: controller.signal });
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(http.limiter.queued, 1);
      controller.abort();
      assert.equal(http.limiter.queued, 0, 'it left the queue while the first request still runs');
      assertApiError(await rejectionOf(queued), 'cancelled');
      answerFirst?.();
      assert.equal((await first).status, 200);
      assert.equal(sent.length, 1);
    });

    it('cancelling during a backoff stops it', async () => {
      const controller = new AbortController();
      const { http, sent } = harness([answer(503), answer(200)], {
        sleep: () => {
          controller.abort();
          return Promise.resolve('aborted');
        },
      });
      assertApiError(await rejectionOf(http.send(get({ signal: controller.signal }))), 'cancelled');
      assert.equal(sent.length, 1);
    });
  });

  describe('what the limiter learns', () => {
    const rows: readonly {
      readonly step: TransportResponse | TransportError;
      readonly decreases: number;
      readonly latencyLearnt: boolean;
    }[] = [
      { step: answer(200), decreases: 0, latencyLearnt: true },
      { step: answer(502), decreases: 0, latencyLearnt: true },
      // Its latency includes the handshake: no sign of the server's queue either way.
      { step: { ...answer(200), newConnection: true }, decreases: 0, latencyLearnt: false },
      { step: { ...answer(429), newConnection: true }, decreases: 1, latencyLearnt: false },
      { step: answer(429), decreases: 1, latencyLearnt: false },
      { step: answer(503), decreases: 1, latencyLearnt: false },
      { step: failure('headers-timeout', 'UND_ERR_HEADERS_TIMEOUT'), decreases: 1, latencyLearnt: false },
      { step: failure('connect-timeout', 'UND_ERR_CONNECT_TIMEOUT'), decreases: 1, latencyLearnt: false },
      { step: failure('connection-refused', 'ECONNREFUSED'), decreases: 0, latencyLearnt: false },
      { step: failure('dns', 'ENOTFOUND'), decreases: 0, latencyLearnt: false },
    ];
    for (const row of rows) {
      const what =
        row.step instanceof TransportError
          ? row.step.failure
          : `HTTP ${row.step.status}${row.step.newConnection === true ? ' on a new connection' : ''}`;
      it(`${what}: ${row.decreases > 0 ? 'overload, the limit shrinks' : row.latencyLearnt ? 'a latency sample' : 'nothing'}`, async () => {
        const { http } = harness([row.step], { retry: { ...DEFAULT_RETRY_POLICY, maxRetries: 0 } });
        await http.send(get()).catch(() => undefined);
        const learnt = http.limiter.snapshot();
        assert.equal(learnt.decreases, row.decreases);
        assert.equal(learnt.minLatencyMs, row.latencyLearnt ? 25 : undefined);
        assert.equal(http.limiter.active, 0, 'the slot was released');
      });
    }
  });

  describe('priority and the queue', () => {
    it('a retry goes ahead of requests that have not been sent yet', async () => {
      const answers: ((response: TransportResponse) => void)[] = [];
      const held = (): Promise<TransportResponse> =>
        new Promise((resolve) => {
          answers.push(resolve);
        });
      const { http, sent } = harness([held, held, held, held], { maxConcurrency: 1 });
      const settle = async (status: number): Promise<void> => {
        await new Promise((resolve) => setImmediate(resolve));
        answers.shift()?.(answer(status));
      };
      const all = ['A', 'B', 'C'].map((serial) => http.send(get({ url: `${URL_}${serial}` })));
      await settle(503);
      await settle(200);
      await settle(200);
      await settle(200);
      await Promise.all(all);
      assert.deepEqual(
        sent.map((request) => request.url.slice(-1)),
        ['A', 'B', 'A', 'C'],
      );
    });
  });

  describe('the request log', () => {
    it('reports method, redacted URL, status, duration on the clock and attempt', async () => {
      const { http, log } = harness([answer(200)], { latencyMs: 40 });
      await http.send({ method: 'POST', url: 'https://user:secret@auth.example.test/token?x=1' });
      assert.deepEqual(log, [{ method: 'POST', url: 'https://auth.example.test/token?x=1', status: 200, durationMs: 40, attempt: 1 }]);
    });

    const failures: readonly { readonly error: TransportError; readonly logged: string }[] = [
      { error: failure('connection-refused', 'ECONNREFUSED'), logged: 'connection-refused ECONNREFUSED' },
      // One cause: the failure's own code, which may name it better than the library did.
      {
        error: failure('total-timeout', 'TOTAL_TIMEOUT', { causes: ['UND_ERR_ABORTED'] }),
        logged: 'total-timeout TOTAL_TIMEOUT',
      },
      {
        error: failure('untrusted-certificate', 'UND_ERR_CONNECT', { causes: ['UND_ERR_CONNECT', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE'] }),
        logged: 'untrusted-certificate UND_ERR_CONNECT ← UNABLE_TO_VERIFY_LEAF_SIGNATURE',
      },
      {
        error: failure('proxy-unreachable', 'ECONNREFUSED', { proxyHost: 'proxy.test:3128' }),
        logged: 'proxy-unreachable ECONNREFUSED via proxy proxy.test:3128',
      },
      {
        error: failure('proxy-refused', 'PROXY_403', { causes: ['UND_ERR_ABORTED'], proxyHost: 'proxy.test:3128', proxyStatus: 403 }),
        logged: 'proxy-refused PROXY_403 via proxy proxy.test:3128 (HTTP 403)',
      },
    ];
    for (const row of failures)
      it(`logs a failure by its codes and proxy: "${row.logged}"`, async () => {
        const { http, log } = harness([row.error], { retry: { ...DEFAULT_RETRY_POLICY, maxRetries: 0 } });
        await rejectionOf(http.send(get()));
        assert.deepEqual(log, [{ method: 'GET', url: URL_, error: row.logged, durationMs: 25, attempt: 1 }]);
      });

    it('logs a URL it cannot parse as "(invalid URL)", never the text itself', async () => {
      const { http, log } = harness([answer(200)]);
      await http.send({ method: 'POST', url: 'not a url with a secret' });
      assert.equal(log[0]?.url, '(invalid URL)');
    });

    it('a logger that throws does not fail the request it describes', async () => {
      const { http } = harness([answer(200)], {
        onRequest: () => {
          throw new Error('the output channel is gone');
        },
      });
      assert.equal((await http.send(get())).status, 200);
    });
  });
});
