import * as assert from 'node:assert/strict';
import { formUrlEncode } from '../../../src/core/client/auth/tokenClient';
import { isApiError, type ApiErrorKind } from '../../../src/core/client/errors';
import { TEST_CREDENTIALS, TEST_NO_PERMISSION_USER, TEST_SERIALS } from '../../support/fakeApi';
import { delay, makeClient, rejectionOf, useFakeApi } from './testClient';
import { extensionErrorText } from '../../../src/extension/workbench/remedies';
import { plainLocalize } from '../../../src/core/common/localize';

function assertApiError(error: unknown, kind: ApiErrorKind, message?: RegExp): void {
  assert.ok(isApiError(error), `expected an ApiError, got ${String(error)}`);
  assert.equal(error.kind, kind, extensionErrorText(error, plainLocalize));
  if (message !== undefined) assert.match(extensionErrorText(error, plainLocalize), message);
}

describe('token client (spec §5)', () => {
  const context = useFakeApi();

  it('§5.3 POSTs to {auth_url}/token as application/x-www-form-urlencoded with grant_type, username, password and scope', async () => {
    const { api, client } = context();
    await client.verifyCredentials();
    const [request] = api.tokenRequests();
    assert.ok(request);
    assert.equal(request.method, 'POST');
    assert.equal(request.path, '/oauth/token');
    assert.equal(request.headers['content-type'], 'application/x-www-form-urlencoded');
    const form = new URLSearchParams(request.body);
    assert.deepEqual(Object.fromEntries(form), {
      grant_type: 'password',
      username: TEST_CREDENTIALS.username,
      password: TEST_CREDENTIALS.password,
      scope: 'api',
    });
  });

  it('§5.3 sends Basic client credentials, both parts form-urlencoded first (RFC 6749 §2.3.1)', async () => {
    const { api, client } = context();
    await client.verifyCredentials();
    const header = api.tokenRequests()[0]?.headers['authorization'] ?? '';
    const decoded = Buffer.from(header.replace(/^Basic /, ''), 'base64').toString('utf8');
    // Test credentials contain ":", "/", "+", " ", "&", "=", "%" and "ü": each must be encoded.
    assert.equal(decoded, 'test-client%3A1:s3cr%3At%2F%C3%BC%2B+%26%3D%25');
    assert.equal(decoded, `${formUrlEncode(TEST_CREDENTIALS.clientId)}:${formUrlEncode(TEST_CREDENTIALS.clientSecret)}`);
  });

  it('form-encodes like the WHATWG serialiser: only ALPHA, DIGIT and *-._ stay', () => {
    assert.equal(formUrlEncode("a b!'()~*-._"), 'a+b%21%27%28%29%7E*-._');
  });

  it('§5.6 sends the token as a bearer token to the events operation', async () => {
    const { api, client } = context();
    await client.getEvents(TEST_SERIALS.onboarded);
    assert.match(api.eventRequests()[0]?.headers['authorization'] ?? '', /^Bearer \S+$/);
  });

  it('reads the credentials only when a grant is needed', async () => {
    const { api } = context();
    let reads = 0;
    const client = makeClient(api, {
      credentials: () => {
        reads++;
        return Promise.resolve({ ...TEST_CREDENTIALS });
      },
    });
    try {
      assert.equal(reads, 0);
      await client.getEvents(TEST_SERIALS.onboarded);
      await client.getEvents(TEST_SERIALS.started);
      assert.equal(reads, 1);
    } finally {
      client.dispose();
    }
  });

  it('§5.4 caches the token for its lifetime: three lookups, one grant', async () => {
    const { api, client } = context();
    await client.getEvents(TEST_SERIALS.onboarded);
    await client.getEvents(TEST_SERIALS.started);
    await client.getEvents(TEST_SERIALS.empty);
    assert.equal(api.tokenRequests().length, 1);
  });

  it('concurrent callers share one in-flight grant', async () => {
    const { api, client } = context();
    api.setLatency(50);
    await Promise.all(['A-1', 'A-2', 'A-3', 'A-4', 'A-5', 'A-6'].map((serial) => client.getEvents(serial)));
    assert.equal(api.tokenRequests().length, 1);
  });

  it('§5.8 obtains a new token shortly before the old one expires, without waiting for a 401', async () => {
    const { api, client } = context();
    api.configure({ tokenLifetimeSeconds: 1 });
    await client.getEvents(TEST_SERIALS.onboarded);
    await delay(950);
    await client.getEvents(TEST_SERIALS.onboarded);
    assert.equal(api.tokenRequests().length, 2);
    assert.equal(api.eventRequests().length, 2, 'no request was rejected and retried');
  });

  describe('renewal before expiry, on an injected clock', () => {
    /** A client whose clock moves only when the test moves it; returns the clock's setter. */
    function clockedClient(api: ReturnType<typeof context>['api']): {
      client: ReturnType<typeof makeClient>;
      advance: (ms: number) => void;
    } {
      let now = 1_700_000_000_000;
      return { client: makeClient(api, { now: () => now }), advance: (ms) => (now += ms) };
    }

    it('uses a one-hour token until 30 s before it expires, then gets a new one', async () => {
      const { api } = context();
      const { client, advance } = clockedClient(api);
      try {
        await client.getEvents(TEST_SERIALS.onboarded);
        advance(3_600_000 - 30_000 - 1);
        await client.getEvents(TEST_SERIALS.onboarded);
        assert.equal(api.tokenRequests().length, 1, 'still valid 30 s + 1 ms before expiry');
        advance(1);
        await client.getEvents(TEST_SERIALS.onboarded);
        assert.equal(api.tokenRequests().length, 2, 'renewed 30 s before expiry');
      } finally {
        client.dispose();
      }
    });

    it('caps the margin at a tenth of a short lifetime, so a 20 s token is used for 18 s, not asked for on every request', async () => {
      const { api } = context();
      api.configure({ tokenLifetimeSeconds: 20 });
      const { client, advance } = clockedClient(api);
      try {
        await client.getEvents(TEST_SERIALS.onboarded);
        await client.getEvents(TEST_SERIALS.started);
        advance(18_000 - 1);
        await client.getEvents(TEST_SERIALS.onboarded);
        assert.equal(api.tokenRequests().length, 1, 'one grant for three requests within 18 s');
        advance(1);
        await client.getEvents(TEST_SERIALS.onboarded);
        assert.equal(api.tokenRequests().length, 2, 'renewed 2 s (a tenth) before expiry');
      } finally {
        client.dispose();
      }
    });

    it("assumes the spec's one hour when the token response has no expires_in", async () => {
      const { api } = context();
      api.addFault({ endpoint: 'token', kind: 'status', status: 200, body: { token_type: 'Bearer', access_token: 'no.expiry' }, times: 1 });
      const { client, advance } = clockedClient(api);
      try {
        await client.verifyCredentials();
        advance(3_570_000 - 1);
        await client.getEvents(TEST_SERIALS.onboarded);
        assert.equal(api.tokenRequests().length, 1 + 1, 'the fake rejects "no.expiry": one more grant after the 401, none before');
        assert.equal(api.eventRequests()[0]?.headers['authorization'], 'Bearer no.expiry', 'the cached token was still used');
      } finally {
        client.dispose();
      }
    });
  });

  it('a 401 from the API causes exactly one new grant and one retry', async () => {
    const { api, client } = context();
    await client.getEvents(TEST_SERIALS.onboarded);
    api.revokeAllTokens();
    const result = await client.getEvents(TEST_SERIALS.onboarded);
    assert.equal(result.events.length, 3);
    assert.equal(api.tokenRequests().length, 2);
    assert.equal(api.eventRequests().length, 3);
  });

  it('several requests rejected with the same token still cause only one new grant', async () => {
    const { api, client } = context();
    await client.getEvents(TEST_SERIALS.onboarded);
    api.revokeAllTokens();
    api.setLatency(30);
    await Promise.all(['B-1', 'B-2', 'B-3', 'B-4'].map((serial) => client.getEvents(serial)));
    assert.equal(api.tokenRequests().length, 2);
  });

  it('a late 401 for a token already replaced does not cause another grant (only the rejected token is forgotten)', async () => {
    const { api, client } = context();
    await client.getEvents(TEST_SERIALS.onboarded);
    api.revokeAllTokens();
    // The fake checks the token after the delay, so this 401 arrives once the replacement is cached.
    api.addFault({ endpoint: 'events', serialNumber: 'LATE-1', kind: 'latency', ms: 300, times: 1 });
    const late = client.getEvents('LATE-1');
    await delay(50);
    await client.getEvents('EARLY-1');
    assert.equal(api.tokenRequests().length, 2, 'the early 401 got the replacement');
    await late;
    assert.equal(api.tokenRequests().length, 2, 'the late 401 reused the replacement');
    const [, retried] = api.eventRequests('LATE-1');
    assert.equal(
      retried?.headers['authorization'],
      api.eventRequests('EARLY-1')[1]?.headers['authorization'],
      'retried with the replacement token',
    );
  });

  it('a 401 for a freshly granted token is reported, not retried again', async () => {
    const { api, client } = context();
    api.addFault({ endpoint: 'events', kind: 'status', status: 401 });
    const error = await rejectionOf(client.getEvents(TEST_SERIALS.onboarded));
    // Its own message: the credentials worked at the token endpoint, so the likely cause is a mismatched environment.
    assertApiError(
      error,
      'invalid-credentials',
      /rejected a freshly issued access token \(HTTP 401\)\. Check that the API base URL and the authorization URL belong to the same environment/,
    );
    assert.equal(isApiError(error) ? error.details.status : undefined, 401);
    assert.equal(api.tokenRequests().length, 2);
    assert.equal(api.eventRequests().length, 2);
  });

  it('§7 invalid_grant (wrong password) means invalid credentials, with what to do', async () => {
    const { api, client } = context();
    api.setPassword(TEST_CREDENTIALS.username, 'changed');
    assertApiError(
      await rejectionOf(client.verifyCredentials()),
      'invalid-credentials',
      /The API rejected the credentials\. Run 'Onboarding Events: Sign In' again\./,
    );
  });

  it('§7 invalid_client (HTTP 401 from the token endpoint) means invalid credentials', async () => {
    const { api } = context();
    const client = makeClient(api, { credentials: () => Promise.resolve({ ...TEST_CREDENTIALS, clientSecret: 'wrong' }) });
    try {
      const error = await rejectionOf(client.getEvents(TEST_SERIALS.onboarded));
      assertApiError(error, 'invalid-credentials');
      assert.equal(isApiError(error) ? error.details.status : undefined, 401);
    } finally {
      client.dispose();
    }
  });

  it('a removed API user means invalid credentials', async () => {
    const { api, client } = context();
    api.removeUser(TEST_CREDENTIALS.username);
    assertApiError(await rejectionOf(client.getEvents(TEST_SERIALS.onboarded)), 'invalid-credentials');
  });

  for (const status of [403, 400] as const) {
    it(`§5.5 access_denied (HTTP ${status}) means permission denied`, async () => {
      const { api } = context();
      api.configure({ noPermissionStatus: status });
      const client = makeClient(api, { credentials: () => Promise.resolve({ ...TEST_CREDENTIALS, ...TEST_NO_PERMISSION_USER }) });
      try {
        assertApiError(await rejectionOf(client.verifyCredentials()), 'permission-denied', /administrator/);
      } finally {
        client.dispose();
      }
    });
  }

  const malformed: readonly [string, unknown][] = [
    ['a non-Bearer token type', { token_type: 'mac', access_token: 'abc', expires_in: 3600 }],
    ['no access_token', { token_type: 'Bearer', expires_in: 3600 }],
    ['an access_token with spaces', { token_type: 'Bearer', access_token: 'a b', expires_in: 3600 }],
    ['a negative expires_in', { token_type: 'Bearer', access_token: 'abc', expires_in: -1 }],
    ['an array', [1, 2]],
  ];
  for (const [name, body] of malformed) {
    it(`§5.4 a token response with ${name} is a protocol error`, async () => {
      const { api, client } = context();
      api.addFault({ endpoint: 'token', kind: 'status', status: 200, body });
      assertApiError(await rejectionOf(client.verifyCredentials()), 'protocol');
    });
  }

  it('accepts "bearer" in any case (RFC 6749 §5.1 token_type is case-insensitive)', async () => {
    const { api, client } = context();
    api.addFault({
      endpoint: 'token',
      kind: 'status',
      status: 200,
      body: { token_type: 'bEaReR', access_token: 'abc.def', expires_in: 60 },
      times: 1,
    });
    await client.verifyCredentials();
    await client.getEvents(TEST_SERIALS.onboarded);
    // The fake API did not issue "abc.def": its 401 is answered by one more grant, so the first events request shows the token was taken.
    assert.equal(api.eventRequests()[0]?.headers['authorization'], 'Bearer abc.def', 'the "bEaReR" token was used, not refused');
    assert.equal(api.tokenRequests().length, 2, 'one grant accepted, one more after the 401');
  });

  it('an HTML page from the token endpoint is a protocol error that says so', async () => {
    const { api, client } = context();
    api.addFault({ endpoint: 'token', kind: 'html' });
    assertApiError(await rejectionOf(client.verifyCredentials()), 'protocol', /HTML page/);
  });

  it('a token answer marked text/html is called an HTML page even when it does not start with <', async () => {
    const { api, client } = context();
    api.addFault({
      endpoint: 'token',
      kind: 'status',
      status: 200,
      body: 'Please sign in first.',
      headers: { 'Content-Type': 'text/html' },
    });
    assertApiError(await rejectionOf(client.verifyCredentials()), 'protocol', /HTML page/);
  });

  it('retries a 503 from the token endpoint', async () => {
    const { api, client } = context();
    api.addFault({ endpoint: 'token', kind: 'status', status: 503, times: 1 });
    await client.verifyCredentials();
    assert.equal(api.tokenRequests().length, 2);
  });

  it('verifyCredentials does a fresh grant even when a token is cached', async () => {
    const { api, client } = context();
    await client.getEvents(TEST_SERIALS.onboarded);
    await client.verifyCredentials();
    await client.getEvents(TEST_SERIALS.onboarded);
    assert.equal(api.tokenRequests().length, 2);
  });

  it('invalidateToken makes the next call grant again', async () => {
    const { api, client } = context();
    await client.getEvents(TEST_SERIALS.onboarded);
    client.invalidateToken();
    await client.getEvents(TEST_SERIALS.onboarded);
    assert.equal(api.tokenRequests().length, 2);
  });
});
