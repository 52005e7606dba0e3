// The token client on its own, over the real HTTP client and a fake
// authorization server on 127.0.0.1, with a clock the test moves: what it
// sends, what it accepts, how long it keeps a token, and what each refusal
// tells the user. AuthorizedRequests on top of it: the bearer header and the
// one retry after a 401.

import * as assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { AuthorizedRequests } from '../../../src/core/client/auth/authorizedRequests';
import { TokenClient, type TokenClientOptions } from '../../../src/core/client/auth/tokenClient';
import {
  invalidCredentialsError,
  isApiError,
  permissionDeniedError,
  serverError,
  unexpectedStatusError,
  type ApiError,
  type ApiErrorKind,
} from '../../../src/core/client/errors';
import { HttpClient } from '../../../src/core/client/http/httpClient';
import { DEFAULT_RETRY_POLICY } from '../../../src/core/client/http/retryPolicy';
import { createUndiciTransport } from '../../../src/core/client/http/undiciTransport';
import { EVENTS_PATH, startFakeApi, TEST_CREDENTIALS, TEST_SERIALS, type FakeApi } from '../../support/fakeApi';
import { rejectionOf } from './testClient';
import { extensionErrorText } from '../../../src/extension/workbench/remedies';
import { plainLocalize } from '../../../src/core/common/localize';

const TOKEN_REQUEST = 'POST /oauth/token';
const CHECK_SETTINGS = 'Check the API base URL and authorization URL settings, and any proxy in between.';
const START = 1_700_000_000_000;

interface Rig {
  readonly api: FakeApi;
  readonly http: HttpClient;
  readonly tokens: TokenClient;
  readonly requests: AuthorizedRequests;
  /** Tokens handed to onToken, in order. */
  readonly seen: string[];
  advance(ms: number): void;
}

describe('token client over HTTP (spec §5)', () => {
  let rig: Rig | undefined;
  const opened: HttpClient[] = [];

  async function start(options: Partial<TokenClientOptions> = {}, maxConcurrency = 8): Promise<Rig> {
    const api = await startFakeApi();
    let now = START;
    const http = new HttpClient({
      transport: createUndiciTransport({ connectTimeoutMs: 5_000, connectionsPerOrigin: 8, env: {} }),
      maxConcurrency,
      requestTimeoutMs: 5_000,
      maxResponseBytes: 1024 * 1024,
      // No retries: every answer of the fake reaches the token client as it was sent.
      retry: { ...DEFAULT_RETRY_POLICY, maxRetries: 0, baseDelayMs: 5 },
      now: () => now,
    });
    opened.push(http);
    const seen: string[] = [];
    const tokens = new TokenClient({
      http,
      authUrl: api.authUrl,
      credentials: () => Promise.resolve({ ...TEST_CREDENTIALS }),
      now: () => now,
      onToken: (value) => seen.push(value),
      ...options,
    });
    rig = { api, http, tokens, requests: new AuthorizedRequests(http, tokens), seen, advance: (ms) => (now += ms) };
    return rig;
  }

  afterEach(async () => {
    for (const http of opened.splice(0)) await http.close();
    await rig?.api.close();
    rig = undefined;
  });

  function shapeOf(error: ApiError): { kind: ApiErrorKind; message: string; details: ApiError['details'] } {
    return { kind: error.kind, message: extensionErrorText(error, plainLocalize), details: { ...error.details } };
  }

  async function apiError(promise: Promise<unknown>): Promise<ApiError> {
    const error = await rejectionOf(promise);
    assert.ok(isApiError(error), `expected an ApiError, got ${String(error)}`);
    return error;
  }

  describe('the token URL', () => {
    for (const [authUrl, expected] of [
      ['https://login.example.com/oauth', 'https://login.example.com/oauth/token'],
      ['https://login.example.com/oauth/', 'https://login.example.com/oauth/token'],
      ['https://login.example.com/oauth//', 'https://login.example.com/oauth/token'],
    ] as const) {
      it(`is ${expected} for ${authUrl}`, async () => {
        const { tokens } = await start({ authUrl });
        assert.equal(tokens.tokenUrl, expected);
      });
    }
  });

  it('asks for JSON, and counts each grant it sends', async () => {
    const { api, tokens } = await start();
    assert.equal(api.tokenRequests().length, 0);
    await tokens.getToken();
    await tokens.getToken();
    assert.equal(api.tokenRequests().length, 1);
    assert.equal(api.tokenRequests()[0]?.headers['accept'], 'application/json');
    await tokens.grantFresh();
    assert.equal(api.tokenRequests().length, 2);
  });

  it('says whether a token is cached, and until when, without ever showing it', async () => {
    const { api, tokens, seen } = await start();
    const url = `${api.authUrl}/token`;
    assert.equal(tokens.hasToken, false);
    assert.equal(String(tokens), `TokenClient(${url}, token: none)`);
    const token = await tokens.getToken();
    assert.deepEqual(seen, [token]);
    assert.equal(tokens.hasToken, true);
    assert.equal(String(tokens), `TokenClient(${url}, token: cached)`);
    assert.equal(inspect(tokens), `TokenClient(${url}, token: cached)`);
    assert.equal(inspect({ nested: tokens }, { depth: 5 }).includes(token), false);
    // The fake issues one-hour tokens: used until 30 s before they expire.
    rig?.advance(3_570_000 - 1);
    assert.equal(tokens.hasToken, true);
    rig?.advance(1);
    assert.equal(tokens.hasToken, false);
    assert.equal(String(tokens), `TokenClient(${url}, token: none)`);
  });

  it('keeps a token of an absurd lifetime for at most a day', async () => {
    const { api, tokens } = await start();
    api.addFault({ endpoint: 'token', kind: 'status', status: 200, body: { token_type: 'Bearer', access_token: 'long', expires_in: 1e9 } });
    await tokens.getToken();
    rig?.advance(24 * 3_600_000 - 30_000 - 1);
    assert.equal(tokens.hasToken, true);
    rig?.advance(1);
    assert.equal(tokens.hasToken, false);
  });

  it('forgets only the token a request was rejected with, or any token when none is named', async () => {
    const { api, tokens } = await start();
    const token = await tokens.getToken();
    tokens.invalidate('some-older-token');
    assert.equal(tokens.hasToken, true);
    tokens.invalidate(token);
    assert.equal(tokens.hasToken, false);
    await tokens.getToken();
    tokens.invalidate();
    assert.equal(tokens.hasToken, false);
    assert.equal(api.tokenRequests().length, 2);
  });

  it('a fresh grant that fails leaves no token cached: credentials just rejected are not covered by an older token', async () => {
    const { api, tokens } = await start();
    await tokens.getToken();
    api.addFault({ endpoint: 'token', kind: 'status', status: 400, body: { error: 'invalid_grant' }, times: 1 });
    assert.equal((await apiError(tokens.grantFresh())).kind, 'invalid-credentials');
    assert.equal(tokens.hasToken, false);
  });

  describe('access tokens it accepts (RFC 6750 b64token)', () => {
    for (const value of ['x', 'AZaz09-._~+/', 'abc==', 'eyJhbGciOi.eyJzdWIi.c2ln']) {
      it(`accepts ${JSON.stringify(value)}`, async () => {
        const { api, tokens, seen } = await start();
        api.addFault({ endpoint: 'token', kind: 'status', status: 200, body: { token_type: 'Bearer', access_token: value } });
        assert.equal(await tokens.getToken(), value);
        assert.deepEqual(seen, [value]);
      });
    }
  });

  describe('token responses it refuses, and what it says', () => {
    const NOT_OBJECT = 'The token response is not a JSON object.';
    const NOT_BEARER = 'The authorization server did not issue a Bearer token (spec §5.4 expects token_type "Bearer").';
    const NO_TOKEN = 'The token response has no usable access_token.';
    const BAD_EXPIRY = 'The token response has an expires_in that is not a positive number of seconds.';
    const cases: readonly [string, unknown, string, readonly string[]][] = [
      ['null', null, NOT_OBJECT, []],
      ['a JSON string', 'token', NOT_OBJECT, []],
      ['a number', 42, NOT_OBJECT, []],
      ['an array', [{ token_type: 'Bearer', access_token: 'abc' }], NOT_OBJECT, []],
      ['a MAC token', { token_type: 'mac', access_token: 'abc', expires_in: 60 }, NOT_BEARER, ['abc']],
      ['no token type', { access_token: 'abc' }, NOT_BEARER, ['abc']],
      ['a token type that is not a string', { token_type: 1, access_token: 'abc' }, NOT_BEARER, ['abc']],
      ['no access_token', { token_type: 'Bearer' }, NO_TOKEN, []],
      ['an empty access_token', { token_type: 'Bearer', access_token: '' }, NO_TOKEN, []],
      ['a numeric access_token', { token_type: 'Bearer', access_token: 12345 }, NO_TOKEN, []],
      ['an access_token with a space', { token_type: 'Bearer', access_token: 'ab c' }, NO_TOKEN, ['ab c']],
      ['an access_token with a leading space', { token_type: 'Bearer', access_token: ' abc' }, NO_TOKEN, [' abc']],
      ['an access_token with a line break', { token_type: 'Bearer', access_token: 'abc\r\nX-Evil: 1' }, NO_TOKEN, ['abc\r\nX-Evil: 1']],
      ['an access_token with "=" before its end', { token_type: 'Bearer', access_token: 'ab=c' }, NO_TOKEN, ['ab=c']],
      ['an expires_in of 0', { token_type: 'Bearer', access_token: 'abc', expires_in: 0 }, BAD_EXPIRY, ['abc']],
      ['a negative expires_in', { token_type: 'Bearer', access_token: 'abc', expires_in: -60 }, BAD_EXPIRY, ['abc']],
      ['a fractional expires_in', { token_type: 'Bearer', access_token: 'abc', expires_in: 59.5 }, BAD_EXPIRY, ['abc']],
      ['an expires_in given as a string', { token_type: 'Bearer', access_token: 'abc', expires_in: '3600' }, BAD_EXPIRY, ['abc']],
      ['an expires_in of null', { token_type: 'Bearer', access_token: 'abc', expires_in: null }, BAD_EXPIRY, ['abc']],
    ];
    for (const [name, body, problem, told] of cases) {
      it(`${name}: a protocol error, and the log is told of any token it carried`, async () => {
        const { api, tokens, seen } = await start();
        api.addFault({
          endpoint: 'token',
          kind: 'status',
          status: 200,
          body: JSON.stringify(body),
          headers: { 'content-type': 'application/json' },
        });
        const error = await apiError(tokens.getToken());
        assert.deepEqual(
          { kind: error.kind, message: extensionErrorText(error, plainLocalize), details: { ...error.details } },
          { kind: 'protocol', message: `${problem} ${CHECK_SETTINGS}`, details: { request: TOKEN_REQUEST } },
        );
        assert.deepEqual(seen, told);
        assert.equal(tokens.hasToken, false);
      });
    }

    it('an HTML page names the authorization server and the status', async () => {
      const { api, tokens } = await start();
      api.addFault({ endpoint: 'token', kind: 'html' });
      const error = await apiError(tokens.getToken());
      assert.equal(
        extensionErrorText(error, plainLocalize),
        `The authorization server answered with an HTML page instead of JSON; a sign-in page of a proxy or single sign-on gateway often does this. ${CHECK_SETTINGS}`,
      );
      assert.deepEqual(error.details, { request: TOKEN_REQUEST, status: 200 });
    });
  });

  describe('refusals of the token endpoint (RFC 6749 §5.2)', () => {
    const MALFORMED = `The authorization server refused the token request as malformed (HTTP 400). ${CHECK_SETTINGS}`;
    const denied = (status: number): ApiError => permissionDeniedError(TOKEN_REQUEST, status);
    const rejected = (status: number): ApiError => invalidCredentialsError(TOKEN_REQUEST, status);
    const cases: readonly [string, number, unknown, ApiError][] = [
      ['access_denied', 400, { error: 'access_denied' }, denied(400)],
      ['unauthorized_client', 400, { error: 'unauthorized_client' }, denied(400)],
      ['invalid_scope', 400, { error: 'invalid_scope' }, denied(400)],
      ['access_denied on a 401', 401, { error: 'access_denied' }, denied(401)],
      ['a bare 403', 403, 'Forbidden', denied(403)],
      ['invalid_grant on a 403', 403, { error: 'invalid_grant' }, denied(403)],
      ['invalid_grant', 400, { error: 'invalid_grant' }, rejected(400)],
      ['invalid_client', 400, { error: 'invalid_client' }, rejected(400)],
      ['a bare 401', 401, 'Unauthorized', rejected(401)],
      ['invalid_grant on a 500', 500, { error: 'invalid_grant' }, rejected(500)],
      ['a 500', 500, { error: 'server_error' }, serverError(TOKEN_REQUEST, 500)],
      ['a 502 page', 502, '<html>Bad gateway</html>', serverError(TOKEN_REQUEST, 502)],
      ['a 499', 499, 'odd', unexpectedStatusError(TOKEN_REQUEST, 499)],
      ['a 302', 302, 'moved', unexpectedStatusError(TOKEN_REQUEST, 302)],
    ];
    for (const [name, status, body, expected] of cases) {
      it(`${name} means ${expected.kind}`, async () => {
        const { api, tokens } = await start();
        api.addFault({ endpoint: 'token', kind: 'status', status, body });
        assert.deepEqual(shapeOf(await apiError(tokens.getToken())), shapeOf(expected));
      });
    }

    for (const [name, body] of [
      ['an unknown error code', { error: 'unsupported_grant_type' }],
      ['an error code that is not a string', { error: ['access_denied'] }],
      ['a JSON null', null],
      ['an HTML page', '<html>Bad request</html>'],
      ['no body', ''],
    ] as const) {
      it(`a 400 with ${name} is a malformed request`, async () => {
        const { api, tokens } = await start();
        api.addFault({
          endpoint: 'token',
          kind: 'status',
          status: 400,
          body: typeof body === 'string' ? body : JSON.stringify(body),
          headers: { 'content-type': typeof body === 'string' ? 'text/html' : 'application/json' },
        });
        const error = await apiError(tokens.getToken());
        assert.deepEqual(
          { kind: error.kind, message: extensionErrorText(error, plainLocalize), details: { ...error.details } },
          { kind: 'protocol', message: MALFORMED, details: { request: TOKEN_REQUEST, status: 400 } },
        );
      });
    }

    it('a 404 says the token endpoint was not found and where to fix it', async () => {
      const { api, tokens } = await start();
      api.addFault({ endpoint: 'token', kind: 'status', status: 404 });
      const error = await apiError(tokens.getToken());
      assert.equal(
        extensionErrorText(error, plainLocalize),
        'The token endpoint (check the authorization URL setting) was not found (HTTP 404). Check the serial number and the API base URL setting.',
      );
      assert.deepEqual(error.details, { request: TOKEN_REQUEST, status: 404 });
    });

    it("a 429 passes on the server's Retry-After", async () => {
      const { api, tokens } = await start();
      api.addFault({ endpoint: 'token', kind: 'rateLimit', retryAfter: 7 });
      const error = await apiError(tokens.getToken());
      assert.equal(error.kind, 'rate-limited');
      assert.match(extensionErrorText(error, plainLocalize), /\(HTTP 429\)\. Wait 7 s and try again\.$/);
      assert.deepEqual(error.details, { request: TOKEN_REQUEST, status: 429, retryAfterMs: 7_000 });
    });
  });

  describe('authorized requests (spec §5.6)', () => {
    it('send the token as a bearer token, and ask for JSON unless told otherwise', async () => {
      const { api, requests, tokens } = await start();
      const url = `${api.baseUrl}${EVENTS_PATH}?serialNumber=${TEST_SERIALS.onboarded}`;
      assert.equal((await requests.get(url, undefined)).status, 200);
      assert.equal((await requests.get(`${url}&x=1`, undefined, 'application/hal+json')).status, 200);
      const [first, second] = api.eventRequests();
      assert.ok(first !== undefined && second !== undefined);
      assert.equal(first.headers['authorization'], `Bearer ${await tokens.getToken()}`);
      assert.equal(first.headers['accept'], 'application/json');
      assert.equal(second.headers['accept'], 'application/hal+json');
    });

    it('pass on a bulk priority: with one slot, an interactive request queued later is sent before a bulk one', async () => {
      const { api, requests, tokens } = await start({}, 1);
      await tokens.getToken();
      const url = (serial: string): string => `${api.baseUrl}${EVENTS_PATH}?serialNumber=${serial}`;
      api.addFault({ endpoint: 'events', serialNumber: 'HOLDS-THE-SLOT', kind: 'latency', ms: 100 });
      const holding = requests.get(url('HOLDS-THE-SLOT'), undefined);
      const bulk = requests.get(url('BULK'), undefined, 'application/json', 'bulk');
      const interactive = requests.get(url('INTERACTIVE'), undefined, 'application/json', 'interactive');
      await Promise.all([holding, bulk, interactive]);
      assert.deepEqual(
        api.eventRequests().map((request) => request.query['serialNumber']),
        ['HOLDS-THE-SLOT', 'INTERACTIVE', 'BULK'],
      );
    });

    it("pass on the caller's signal: a request cancelled before it is sent is never sent", async () => {
      const { api, requests, tokens } = await start();
      await tokens.getToken();
      const controller = new AbortController();
      const pending = requests.get(`${api.baseUrl}${EVENTS_PATH}?serialNumber=A-1`, controller.signal);
      controller.abort();
      assert.equal((await apiError(pending)).kind, 'cancelled');
      assert.equal(api.eventRequests().length, 0);
    });

    it('a 401 for a fresh token too is reported with the request, not retried again', async () => {
      const { api, requests } = await start();
      api.addFault({ endpoint: 'events', kind: 'status', status: 401 });
      const error = await apiError(requests.get(`${api.baseUrl}${EVENTS_PATH}?serialNumber=A-1`, undefined));
      assert.equal(error.kind, 'invalid-credentials');
      assert.deepEqual(error.details, { status: 401, request: `GET ${EVENTS_PATH}` });
      assert.equal(api.eventRequests().length, 2);
      assert.equal(api.tokenRequests().length, 2);
    });
  });
});
