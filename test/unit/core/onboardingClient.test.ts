// The facade's own behaviour, over real HTTP against the fake service: how it
// follows links (resolution, Accept, what comes back, the errors), how a call
// ends when the caller cancels or the client is disposed, the token hooks,
// its string forms and the HTTP settings it hands down.
import * as assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { isApiError, type ApiError } from '../../../src/core/client/errors';
import { TransportError } from '../../../src/core/client/http/transport';
import type { RequestLogEntry } from '../../../src/core/client/http/httpClient';
import type { Transport } from '../../../src/core/client/http/transport';
import { OnboardingClient, type HttpSettings } from '../../../src/core/client/onboardingClient';
import { startForeignOrigin, TEST_ASSET_ID, TEST_SERIALS, type FakeApi } from '../../support/fakeApi';
import { loopbackLookup } from '../../support/network/loopbackLookup';
import { makeClient, rejectionOf, useFakeApi } from './testClient';
import { extensionErrorText } from '../../../src/extension/workbench/remedies';
import { plainLocalize } from '../../../src/core/common/localize';

const LINK_ACCEPT = 'application/hal+json, application/json;q=0.9, */*;q=0.5';
const MACHINE_PATH = `/public/api/machines/${TEST_ASSET_ID}`;
const CANCELLED = 'The request was cancelled.';
const DISPOSED = 'The request was cancelled because the extension is shutting down or reloading its settings.';

/** A client whose every request goes to `transport`, for links to another origin (no token asked for) and no retries. */
function overTransport(transport: Transport): OnboardingClient {
  return new OnboardingClient({
    apiBaseUrl: 'https://api.example.test',
    authUrl: 'https://auth.example.test/oauth',
    credentials: () => Promise.reject(new Error('no token is needed for another origin')),
    transport,
    http: { maxRetries: 0 },
  });
}

function apiError(error: unknown): ApiError {
  assert.ok(isApiError(error), `expected an ApiError, got ${String(error)}`);
  return error;
}

/** Resolves once the fake has received a request on `path`. */
async function received(api: FakeApi, path: string): Promise<void> {
  while (!api.requests.some((request) => request.path === path)) await new Promise((resolve) => setImmediate(resolve));
}

describe('OnboardingClient.fetchLink', () => {
  const context = useFakeApi();
  let foreign: FakeApi | undefined;
  afterEach(async () => {
    await foreign?.close();
    foreign = undefined;
  });

  it('resolves an href without a leading slash against an API base that ends in a slash', async () => {
    const { api } = context();
    const client = makeClient(api, { apiBaseUrl: `${api.baseUrl}/` });
    try {
      const resource = await client.fetchLink(MACHINE_PATH.slice(1));
      assert.equal(resource.url, `${api.baseUrl}${MACHINE_PATH}`);
    } finally {
      client.dispose();
    }
  });

  it('resolves an href without a leading slash against an API base path that does not end in a slash', async () => {
    const { api } = context();
    const client = makeClient(api, { apiBaseUrl: `${api.baseUrl}/public/api` });
    try {
      const resource = await client.fetchLink(`machines/${TEST_ASSET_ID}`);
      assert.equal(resource.url, `${api.baseUrl}${MACHINE_PATH}`);
    } finally {
      client.dispose();
    }
  });

  it('asks for HAL, then JSON, then anything, on the API origin and on another origin alike', async () => {
    const { api, client } = context();
    foreign = await startForeignOrigin();
    await client.fetchLink(MACHINE_PATH);
    await client.fetchLink(`${foreign.baseUrl}/elsewhere`);
    assert.equal(api.requests.at(-1)?.headers['accept'], LINK_ACCEPT);
    assert.equal(foreign.requests.at(-1)?.headers['accept'], LINK_ACCEPT);
  });

  it('says why it refuses a link that is not http(s)', async () => {
    const { client } = context();
    const error = apiError(await rejectionOf(client.fetchLink('ftp://127.0.0.1/file')));
    assert.equal(error.kind, 'invalid-input');
    assert.equal(extensionErrorText(error, plainLocalize), 'Only http and https links can be followed; this link is not one.');
  });

  it('returns the parsed JSON with its content type', async () => {
    const { client } = context();
    const resource = await client.fetchLink(MACHINE_PATH);
    assert.equal(resource.status, 200);
    assert.match(resource.contentType ?? '', /json/);
    assert.equal((resource.json as { assetId?: unknown }).assetId, TEST_ASSET_ID);
    assert.ok(!('text' in resource), 'a JSON body is not also returned as text');
  });

  it('has no contentType at all when the server sent none', async () => {
    const { api, client } = context();
    api.configure({ contentType: null });
    const resource = await client.fetchLink(`/public/api/onboarding-events/events?serialNumber=${TEST_SERIALS.onboarded}`);
    assert.ok(!('contentType' in resource), JSON.stringify(resource));
  });

  it('returns a body that is not JSON as text', async () => {
    const { api, client } = context();
    api.addFault({ endpoint: 'machines', kind: 'status', status: 200, body: 'Grüße, plain text' });
    const resource = await client.fetchLink(MACHINE_PATH);
    assert.equal(resource.text, 'Grüße, plain text');
    assert.ok(!('json' in resource));
  });

  it('any 2xx is a resource', async () => {
    const { api, client } = context();
    api.addFault({ endpoint: 'machines', kind: 'status', status: 299, body: { ok: true } });
    assert.equal((await client.fetchLink(MACHINE_PATH)).status, 299);
  });

  it('HTTP 300 is an unexpected status naming the request', async () => {
    const { api, client } = context();
    api.addFault({ endpoint: 'machines', kind: 'status', status: 300, body: { ok: true } });
    const error = apiError(await rejectionOf(client.fetchLink(MACHINE_PATH)));
    assert.equal(error.kind, 'protocol');
    assert.deepEqual(error.details, { status: 300, request: `GET ${MACHINE_PATH}` });
  });

  it('a missing linked resource says so in words', async () => {
    const { api, client } = context();
    api.addFault({ endpoint: 'machines', kind: 'status', status: 404 });
    const error = apiError(await rejectionOf(client.fetchLink(MACHINE_PATH)));
    assert.ok(
      extensionErrorText(error, plainLocalize).startsWith('The linked resource was not found (HTTP 404).'),
      extensionErrorText(error, plainLocalize),
    );
  });

  it('a 429 whose Retry-After is too long to wait out keeps the wait on the error', async () => {
    const { api, client } = context();
    api.addFault({ endpoint: 'machines', kind: 'rateLimit', retryAfter: 3600 });
    const error = apiError(await rejectionOf(client.fetchLink(MACHINE_PATH)));
    assert.equal(error.kind, 'rate-limited');
    assert.equal(error.details.retryAfterMs, 3_600_000);
  });
});

describe('OnboardingClient: cancelling and disposing', () => {
  const context = useFakeApi();
  const EVENTS = '/public/api/onboarding-events/events';

  it('after dispose every call says the extension is shutting down, and sends nothing', async () => {
    const { api, client } = context();
    client.dispose();
    for (const call of [client.getEvents(TEST_SERIALS.onboarded), client.fetchLink(MACHINE_PATH), client.verifyCredentials()]) {
      const error = apiError(await rejectionOf(call));
      assert.deepEqual([error.kind, extensionErrorText(error, plainLocalize)], ['cancelled', DISPOSED]);
    }
    assert.equal(api.requests.length, 0);
  });

  it('after dispose a call says the extension is shutting down even when its own signal is already aborted', async () => {
    const { api, client } = context();
    client.dispose();
    const error = apiError(await rejectionOf(client.getEvents(TEST_SERIALS.onboarded, { signal: AbortSignal.abort() })));
    assert.deepEqual([error.kind, extensionErrorText(error, plainLocalize)], ['cancelled', DISPOSED]);
    assert.equal(api.requests.length, 0);
  });

  it('a signal aborted before the call says cancelled, also for a link that would be refused', async () => {
    const { client } = context();
    const error = apiError(await rejectionOf(client.fetchLink('ftp://127.0.0.1/file', AbortSignal.abort())));
    assert.deepEqual([error.kind, extensionErrorText(error, plainLocalize)], ['cancelled', CANCELLED]);
  });

  it('a signal aborted before the call says cancelled, and sends nothing', async () => {
    const { api, client } = context();
    const error = apiError(await rejectionOf(client.getEvents(TEST_SERIALS.onboarded, { signal: AbortSignal.abort() })));
    assert.deepEqual([error.kind, extensionErrorText(error, plainLocalize)], ['cancelled', CANCELLED]);
    assert.equal(api.requests.length, 0);
  });

  it('dispose ends a call in flight that has no signal of its own, as a shutdown', async () => {
    const { api, client } = context();
    api.addFault({ endpoint: 'events', kind: 'latency', ms: 5_000 });
    const call = client.getEvents(TEST_SERIALS.onboarded);
    await received(api, EVENTS);
    client.dispose();
    assert.equal(extensionErrorText(apiError(await rejectionOf(call)), plainLocalize), DISPOSED);
  });

  it("dispose ends a call in flight that has the caller's signal too, as a shutdown", async () => {
    const { api, client } = context();
    api.addFault({ endpoint: 'events', kind: 'latency', ms: 5_000 });
    const call = client.getEvents(TEST_SERIALS.onboarded, { signal: new AbortController().signal });
    await received(api, EVENTS);
    client.dispose();
    assert.equal(extensionErrorText(apiError(await rejectionOf(call)), plainLocalize), DISPOSED);
  });

  it("the caller's signal ends a call in flight as cancelled", async () => {
    const { api, client } = context();
    api.addFault({ endpoint: 'events', kind: 'latency', ms: 5_000 });
    const controller = new AbortController();
    const call = client.getEvents(TEST_SERIALS.onboarded, { signal: controller.signal });
    await received(api, EVENTS);
    controller.abort();
    assert.equal(apiError(await rejectionOf(call)).message, CANCELLED);
  });

  it('cancelled by the caller and then disposed, a call says cancelled: the caller asked first', async () => {
    const { api, client } = context();
    api.addFault({ endpoint: 'events', kind: 'latency', ms: 5_000 });
    const controller = new AbortController();
    const call = client.getEvents(TEST_SERIALS.onboarded, { signal: controller.signal });
    await received(api, EVENTS);
    controller.abort();
    client.dispose();
    assert.equal(apiError(await rejectionOf(call)).message, CANCELLED);
  });

  it('dispose aborts a request in flight without a signal of its own, also on a transport whose close leaves it running', async () => {
    const signals: AbortSignal[] = [];
    const transport: Transport = {
      request: (request) =>
        new Promise((_resolve, reject) => {
          const { signal } = request;
          assert.ok(signal !== undefined, 'the transport is always given a signal');
          signals.push(signal);
          signal.addEventListener('abort', () => {
            reject(new TransportError('aborted', 'ABORT_ERR'));
          });
        }),
      close: () => Promise.resolve(),
    };
    const client = overTransport(transport);
    const call = client.fetchLink('https://elsewhere.example.test/x');
    while (signals.length === 0) await new Promise((resolve) => setImmediate(resolve));
    client.dispose();
    assert.equal(signals[0]?.aborted, true);
    assert.equal(extensionErrorText(apiError(await rejectionOf(call)), plainLocalize), DISPOSED);
  });

  it('dispose forgets the token', async () => {
    const { client } = context();
    await client.getEvents(TEST_SERIALS.onboarded);
    client.dispose();
    assert.match(String(client), /token: none\)$/);
  });
});

describe('OnboardingClient: tokens, string forms and settings', () => {
  const context = useFakeApi();

  it('hands each access token to onToken as it arrives', async () => {
    const { api } = context();
    const tokens: string[] = [];
    const client = makeClient(api, { onToken: (token) => tokens.push(token) });
    try {
      await client.getEvents(TEST_SERIALS.onboarded);
      assert.deepEqual(
        tokens.map((token) => `Bearer ${token}`),
        [api.eventRequests()[0]?.headers['authorization']],
      );
    } finally {
      client.dispose();
    }
  });

  it('invalidateToken makes the next call fetch a new token', async () => {
    const { api, client } = context();
    await client.getEvents(TEST_SERIALS.onboarded);
    client.invalidateToken();
    assert.match(String(client), /token: none\)$/);
    await client.getEvents(TEST_SERIALS.onboarded);
    assert.equal(api.tokenRequests().length, 2);
  });

  it('util.inspect and JSON.stringify show the same redacted string form', async () => {
    const { client } = context();
    await client.getEvents(TEST_SERIALS.onboarded);
    assert.equal(inspect(client), String(client));
    assert.equal(JSON.stringify(client), JSON.stringify(String(client)));
  });

  it('with http.proxyStrictSSL off, a plain http request is not logged as unverified: there was no certificate to check', async () => {
    const { api } = context();
    const log: RequestLogEntry[] = [];
    const client = makeClient(api, { http: { proxyStrictSSL: false } }, log);
    try {
      await client.getEvents(TEST_SERIALS.onboarded);
      assert.ok(log.length >= 2, JSON.stringify(log));
      assert.deepEqual(
        log.filter((entry) => 'certificateChecksOff' in entry),
        [],
      );
    } finally {
      client.dispose();
    }
  });

  it('concurrency() reports the configured ceiling and what was in flight', async () => {
    const { api } = context();
    const client = makeClient(api, { http: { maxConcurrency: 7 } });
    try {
      await client.getEvents(TEST_SERIALS.onboarded);
      const snapshot = client.concurrency();
      assert.equal(snapshot.ceiling, 7);
      assert.equal(snapshot.active, 0);
      assert.ok(snapshot.maxActive >= 1, JSON.stringify(snapshot));
      assert.ok(snapshot.limit >= 1, JSON.stringify(snapshot));
    } finally {
      client.dispose();
    }
  });

  it('an HTTP setting given as undefined keeps its default', async () => {
    const { api } = context();
    // As a JavaScript caller, or a spread of settings read without exactOptionalPropertyTypes, can pass it.
    const unset = { maxConcurrency: undefined, maxRetries: undefined } as unknown as HttpSettings;
    const client = makeClient(api, { http: unset });
    try {
      assert.equal(client.concurrency().ceiling, 64);
      api.addFault({ endpoint: 'events', kind: 'status', status: 503, times: 1 });
      assert.equal((await client.getEvents(TEST_SERIALS.onboarded)).events.length, 3);
    } finally {
      client.dispose();
    }
  });

  it('maxRetries 0 reports the first 503 instead of retrying', async () => {
    const { api } = context();
    const client = makeClient(api, { http: { maxRetries: 0 } });
    try {
      api.addFault({ endpoint: 'events', kind: 'status', status: 503, times: 1 });
      assert.equal(apiError(await rejectionOf(client.getEvents(TEST_SERIALS.onboarded))).kind, 'server');
    } finally {
      client.dispose();
    }
  });

  it('maxResponseBytes caps what is read', async () => {
    const { api } = context();
    const client = makeClient(api, { http: { maxResponseBytes: 64 } });
    try {
      const error = apiError(await rejectionOf(client.getEvents(TEST_SERIALS.onboarded)));
      assert.match(extensionErrorText(error, plainLocalize), /larger than the allowed maximum/);
    } finally {
      client.dispose();
    }
  });

  it('maxRetryAfterMs: a Retry-After longer than it is reported, not waited out', async () => {
    const { api } = context();
    const client = makeClient(api, { http: { maxRetryAfterMs: 500 } });
    try {
      api.addFault({ endpoint: 'events', kind: 'rateLimit', retryAfter: 5, times: 1 });
      const error = apiError(await rejectionOf(client.getEvents(TEST_SERIALS.onboarded)));
      assert.deepEqual([error.kind, error.details.retryAfterMs], ['rate-limited', 5_000]);
    } finally {
      client.dispose();
    }
  });

  it('requestTimeoutMs bounds one attempt', async () => {
    const { api } = context();
    const client = makeClient(api, { http: { requestTimeoutMs: 200, maxRetries: 0 } });
    try {
      api.addFault({ endpoint: 'events', kind: 'latency', ms: 5_000 });
      assert.equal(apiError(await rejectionOf(client.getEvents(TEST_SERIALS.onboarded))).kind, 'timeout');
    } finally {
      client.dispose();
    }
  });
});

describe('OnboardingClient.fetchLink: statuses no HTTP server sends over the wire', () => {
  it('a status below 200 from the transport is an unexpected status, not a resource', async () => {
    const transport: Transport = {
      request: () =>
        Promise.resolve({ status: 199, headers: { 'content-type': 'application/json' }, body: new TextEncoder().encode('{}') }),
      close: () => Promise.resolve(),
    };
    const client = overTransport(transport);
    try {
      const error = apiError(await rejectionOf(client.fetchLink('https://elsewhere.example.test/x')));
      assert.deepEqual([error.kind, error.details.status], ['protocol', 199]);
    } finally {
      client.dispose();
    }
  });
});

describe('OnboardingClient: settings handed to the transport', () => {
  const context = useFakeApi();

  it('http.noProxy sends a host listed there directly, past the proxy', async () => {
    const { api } = context();
    const base = `http://plant.test:${api.port}`;
    const client = makeClient(api, {
      apiBaseUrl: base,
      authUrl: `${base}/oauth`,
      http: { proxy: 'http://127.0.0.1:1', noProxy: ['plant.test'], lookup: loopbackLookup(['plant.test']), maxRetries: 0 },
    });
    try {
      assert.equal((await client.getEvents(TEST_SERIALS.onboarded)).events.length, 3);
    } finally {
      client.dispose();
    }
  });

  for (const [proxyStrictSSL, flagged] of [
    [undefined, false],
    [true, false],
    [false, true],
  ] as const) {
    it(`an https request is ${flagged ? '' : 'not '}logged as unverified with http.proxyStrictSSL ${String(proxyStrictSSL)}`, async () => {
      const log: RequestLogEntry[] = [];
      const transport: Transport = {
        request: (request) =>
          Promise.resolve({
            status: 200,
            headers: { 'content-type': 'application/json' },
            body: new TextEncoder().encode(
              request.url.endsWith('/token')
                ? JSON.stringify({ token_type: 'Bearer', access_token: 't', expires_in: 3600 })
                : '{"events":[]}',
            ),
          }),
        close: () => Promise.resolve(),
      };
      const client = new OnboardingClient({
        apiBaseUrl: 'https://api.example.test',
        authUrl: 'https://auth.example.test/oauth',
        credentials: () => Promise.resolve({ clientId: 'id', clientSecret: 'secret', username: 'u', password: 'p' }),
        transport,
        onRequest: (entry) => log.push(entry),
        http: proxyStrictSSL === undefined ? {} : { proxyStrictSSL },
      });
      try {
        await client.getEvents(TEST_SERIALS.onboarded);
        assert.equal(log.length, 2);
        assert.deepEqual(
          log.map((entry) => entry.certificateChecksOff === true),
          [flagged, flagged],
        );
      } finally {
        client.dispose();
      }
    });
  }
});
