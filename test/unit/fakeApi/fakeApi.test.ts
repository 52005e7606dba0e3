// The fake service is test infrastructure other tests trust, so its own
// behaviour is pinned here with plain fetch, independent of our client code.

import assert from 'node:assert/strict';
import {
  DEMO_CREDENTIALS,
  DEMO_FAILING_SERIAL,
  DEMO_SERIALS,
  DEMO_SERIAL_PATTERN,
  EVENTS_PATH,
  demoData,
  LOGIN_PAGE_HTML,
  TEST_ASSET_ID,
  TEST_CREDENTIALS,
  TEST_NO_PERMISSION_USER,
  TEST_SERIALS,
  makeEvent,
  startFakeApi,
  startForeignOrigin,
  type FakeApi,
} from '../../support/fakeApi';

interface Credentials {
  clientId: string;
  clientSecret: string;
  username: string;
  password: string;
}

function basic(clientId: string, clientSecret: string): string {
  const pair = `${new URLSearchParams({ a: clientId }).toString().slice(2)}:${new URLSearchParams({ a: clientSecret }).toString().slice(2)}`;
  return `Basic ${Buffer.from(pair).toString('base64')}`;
}

function requestToken(api: FakeApi, credentials: Credentials = TEST_CREDENTIALS, grantType = 'password'): Promise<Response> {
  return fetch(`${api.authUrl}/token`, {
    method: 'POST',
    headers: {
      authorization: basic(credentials.clientId, credentials.clientSecret),
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({
      grant_type: grantType,
      username: credentials.username,
      password: credentials.password,
      scope: 'api',
    }).toString(),
  });
}

async function token(api: FakeApi): Promise<string> {
  const response = await requestToken(api);
  assert.equal(response.status, 200);
  const body = (await response.json()) as { access_token: string };
  return body.access_token;
}

function getEvents(api: FakeApi, accessToken: string | undefined, query: Record<string, string>): Promise<Response> {
  const headers: Record<string, string> = accessToken === undefined ? {} : { authorization: `Bearer ${accessToken}` };
  return fetch(`${api.baseUrl}${EVENTS_PATH}?${new URLSearchParams(query).toString()}`, { headers });
}

function timestampsOf(body: unknown): number[] {
  const events = (body as { events: { timestamp: number }[] }).events;
  return events.map((e) => e.timestamp);
}

describe('fake Onboarding Events API', () => {
  let api: FakeApi;

  beforeEach(async () => {
    api = await startFakeApi();
  });

  afterEach(async () => {
    await api.close();
  });

  describe('token endpoint', () => {
    it('grants a JWT-shaped bearer token for url-encoded Basic client credentials and the password grant', async () => {
      const response = await requestToken(api);
      assert.equal(response.status, 200);
      const body = (await response.json()) as Record<string, unknown>;
      assert.equal(body['token_type'], 'Bearer');
      assert.equal(body['expires_in'], 3600);
      assert.equal(body['scope'], 'api');
      assert.match(String(body['access_token']), /^[\w-]+\.[\w-]+\.[\w-]+$/);
      assert.notEqual(body['access_token'], await token(api));
    });

    it('rejects a client secret sent without url-encoding as invalid_client with 401', async () => {
      const raw = `${TEST_CREDENTIALS.clientId}:${TEST_CREDENTIALS.clientSecret}`;
      const response = await fetch(`${api.authUrl}/token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(raw).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ grant_type: 'password', username: 'u', password: 'p', scope: 'api' }).toString(),
      });
      assert.equal(response.status, 401);
      assert.deepEqual(await response.json(), { error: 'invalid_client', error_description: 'Client authentication failed.' });
    });

    it('answers a wrong password with 400 invalid_grant', async () => {
      const response = await requestToken(api, { ...TEST_CREDENTIALS, password: 'wrong' });
      assert.equal(response.status, 400);
      assert.equal(((await response.json()) as { error: string }).error, 'invalid_grant');
    });

    it('answers another grant type with 400 unsupported_grant_type', async () => {
      const response = await requestToken(api, TEST_CREDENTIALS, 'client_credentials');
      assert.equal(response.status, 400);
      assert.equal(((await response.json()) as { error: string }).error, 'unsupported_grant_type');
    });

    it('answers a user without permission with 403 access_denied', async () => {
      const response = await requestToken(api, { ...TEST_CREDENTIALS, ...TEST_NO_PERMISSION_USER });
      assert.equal(response.status, 403);
      assert.equal(((await response.json()) as { error: string }).error, 'access_denied');
    });

    it('stops accepting the old password after setPassword', async () => {
      api.setPassword(TEST_CREDENTIALS.username, 'new password');
      assert.equal((await requestToken(api)).status, 400);
      assert.equal((await requestToken(api, { ...TEST_CREDENTIALS, password: 'new password' })).status, 200);
    });
  });

  describe('events endpoint', () => {
    it('returns the events of a serial in ascending order with a resolved machine link', async () => {
      const response = await getEvents(api, await token(api), { serialNumber: TEST_SERIALS.onboarded });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('content-type'), 'application/json');
      const body = (await response.json()) as { events: Record<string, unknown>[] };
      assert.equal(body.events.length, 3);
      const created = body.events[1] as { assetId: string; _links: { machine: { href: string } } };
      assert.equal(created.assetId, TEST_ASSET_ID);
      assert.equal(created._links.machine.href, `${api.baseUrl}/public/api/machines/${TEST_ASSET_ID}`);
      const ts = timestampsOf(body);
      assert.deepEqual(
        ts,
        [...ts].sort((a, b) => a - b),
      );
    });

    it('answers 401 with an invalid_token challenge once the token has expired', async () => {
      api.configure({ tokenLifetimeSeconds: 0.2 });
      const accessToken = await token(api);
      assert.equal((await getEvents(api, accessToken, { serialNumber: TEST_SERIALS.started })).status, 200);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const response = await getEvents(api, accessToken, { serialNumber: TEST_SERIALS.started });
      assert.equal(response.status, 401);
      assert.match(response.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
    });

    it('answers 401 without a token and after revokeAllTokens', async () => {
      const accessToken = await token(api);
      assert.equal((await getEvents(api, undefined, { serialNumber: TEST_SERIALS.started })).status, 401);
      api.revokeAllTokens();
      assert.equal((await getEvents(api, accessToken, { serialNumber: TEST_SERIALS.started })).status, 401);
    });

    it('answers 400 when serialNumber is missing', async () => {
      assert.equal((await getEvents(api, await token(api), {})).status, 400);
    });

    it('returns an empty list for an unknown serial by default, and 404 when configured', async () => {
      const accessToken = await token(api);
      const empty = await getEvents(api, accessToken, { serialNumber: 'NOPE-0000-X0000' });
      assert.deepEqual(await empty.json(), { events: [] });
      api.configure({ unknownSerial: '404' });
      assert.equal((await getEvents(api, accessToken, { serialNumber: 'NOPE-0000-X0000' })).status, 404);
    });

    it('filters by timestamp as configured: inclusive lower bound by default', async () => {
      const accessToken = await token(api);
      const query = { serialNumber: 'S-1', timestamp: '200' };
      api.setMachineEvents(
        'S-1',
        [100, 200, 300].map((t) => makeEvent({ type: 'T', message: 'm', timestamp: t })),
      );
      assert.deepEqual(timestampsOf(await (await getEvents(api, accessToken, query)).json()), [200, 300]);
      api.configure({ timestampFilter: 'after-exclusive', order: 'desc' });
      assert.deepEqual(timestampsOf(await (await getEvents(api, accessToken, query)).json()), [300]);
      api.configure({ timestampFilter: 'before-inclusive' });
      assert.deepEqual(timestampsOf(await (await getEvents(api, accessToken, query)).json()), [200, 100]);
    });

    it('never returns a shuffled list in sorted order', async () => {
      api.configure({ order: 'shuffled' });
      api.setMachineEvents(
        'S-2',
        [1, 2].map((t) => makeEvent({ type: 'T', message: 'm', timestamp: t })),
      );
      const body: unknown = await (await getEvents(api, await token(api), { serialNumber: 'S-2' })).json();
      assert.deepEqual(timestampsOf(body), [2, 1]);
    });

    it('pages with size and page in the page envelope', async () => {
      api.configure({ envelope: 'page' });
      api.setMachineEvents(
        'S-3',
        [1, 2, 3, 4, 5].map((t) => makeEvent({ type: 'T', message: 'm', timestamp: t })),
      );
      const response = await getEvents(api, await token(api), { serialNumber: 'S-3', size: '2', page: '2' });
      const body = (await response.json()) as Record<string, unknown>;
      assert.deepEqual(
        { ...body, content: undefined },
        { content: undefined, totalPages: 3, totalElements: 5, number: 2, size: 2, numberOfElements: 1 },
      );
    });

    it('follows after-cursors in the cursor envelope and omits after on the last page', async () => {
      api.configure({ envelope: 'cursor' });
      api.setMachineEvents(
        'S-4',
        [1, 2, 3].map((t) => makeEvent({ type: 'T', message: 'm', timestamp: t })),
      );
      const accessToken = await token(api);
      const first = (await (await getEvents(api, accessToken, { serialNumber: 'S-4', limit: '2' })).json()) as {
        content: unknown[];
        after?: string;
        limit: number;
      };
      assert.equal(first.content.length, 2);
      assert.equal(first.limit, 2);
      assert.ok(first.after !== undefined);
      const second = (await (await getEvents(api, accessToken, { serialNumber: 'S-4', limit: '2', after: first.after })).json()) as Record<
        string,
        unknown
      >;
      assert.deepEqual(second['content'], [makeEvent({ type: 'T', message: 'm', timestamp: 3 })]);
      assert.equal('after' in second, false);
    });
  });

  describe('faults', () => {
    it('answers 503 for the scoped serial only, and only as many times as asked', async () => {
      const accessToken = await token(api);
      api.addFault({ kind: 'status', status: 503, endpoint: 'events', serialNumber: TEST_SERIALS.started, times: 1 });
      assert.equal((await getEvents(api, accessToken, { serialNumber: TEST_SERIALS.onboarded })).status, 200);
      assert.equal((await getEvents(api, accessToken, { serialNumber: TEST_SERIALS.started })).status, 503);
      assert.equal((await getEvents(api, accessToken, { serialNumber: TEST_SERIALS.started })).status, 200);
    });

    it('sends 429 with a Retry-After header', async () => {
      api.addFault({ kind: 'rateLimit', retryAfter: 7, endpoint: 'events' });
      const response = await getEvents(api, await token(api), { serialNumber: 'S' });
      assert.equal(response.status, 429);
      assert.equal(response.headers.get('retry-after'), '7');
    });

    it('resets the connection', async () => {
      api.addFault({ kind: 'reset', endpoint: 'token' });
      await assert.rejects(requestToken(api), (error: unknown) => {
        const cause = (error as { cause?: { code?: string } }).cause;
        return cause?.code === 'ECONNRESET';
      });
    });

    it('serves an HTML login page with status 200', async () => {
      api.addFault({ kind: 'html', endpoint: 'events' });
      const response = await getEvents(api, await token(api), { serialNumber: 'S' });
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
      assert.equal(await response.text(), LOGIN_PAGE_HTML);
    });

    it('trickles the normal body when slowBody is set', async () => {
      api.addFault({ kind: 'slowBody', chunkBytes: 64, delayMs: 20, endpoint: 'events' });
      const started = Date.now();
      const response = await getEvents(api, await token(api), { serialNumber: TEST_SERIALS.onboarded });
      const body = (await response.json()) as { events: unknown[] };
      assert.equal(body.events.length, 3);
      assert.ok(Date.now() - started >= 100);
    });

    it('sends a huge body of exactly the requested size', async () => {
      api.addFault({ kind: 'hugeBody', bytes: 1_000_000, endpoint: 'events' });
      const response = await getEvents(api, await token(api), { serialNumber: 'S' });
      assert.equal((await response.arrayBuffer()).byteLength, 1_000_000);
    });
  });

  describe('recording and other origins', () => {
    it('records requests with lower-cased headers and the query as an object', async () => {
      await getEvents(api, await token(api), { serialNumber: TEST_SERIALS.started, timestamp: '5' });
      assert.equal(api.tokenRequests().length, 1);
      const [request, ...others] = api.eventRequests(TEST_SERIALS.started);
      assert.ok(request !== undefined && others.length === 0);
      assert.deepEqual(request.query, { serialNumber: TEST_SERIALS.started, timestamp: '5' });
      assert.match(request.headers['authorization'] ?? '', /^Bearer /);
      api.clearRequests();
      assert.equal(api.requests.length, 0);
    });

    it('serves the machine resource behind an event link, with a bearer token only', async () => {
      const url = `${api.baseUrl}/public/api/machines/${TEST_ASSET_ID}`;
      assert.equal((await fetch(url)).status, 401);
      const response = await fetch(url, { headers: { authorization: `Bearer ${await token(api)}` } });
      assert.equal(response.status, 200);
      assert.equal(((await response.json()) as { serialNumber: string }).serialNumber, TEST_SERIALS.onboarded);
    });

    it('lets a foreign origin report whether an Authorization header reached it', async () => {
      const foreign = await startForeignOrigin();
      try {
        assert.equal((await fetch(`${foreign.baseUrl}/anything`)).status, 200);
        assert.equal(foreign.receivedAuthorization(), false);
        await fetch(`${foreign.baseUrl}/anything`, { headers: { authorization: 'Bearer leaked' } });
        assert.equal(foreign.receivedAuthorization(), true);
      } finally {
        await foreign.close();
      }
    });
  });

  describe('demo data', () => {
    let demo: FakeApi;
    let demoToken: string;

    beforeEach(async () => {
      demo = await startFakeApi({ data: demoData() });
      const response = await requestToken(demo, DEMO_CREDENTIALS);
      demoToken = ((await response.json()) as { access_token: string }).access_token;
    });

    afterEach(async () => {
      await demo.close();
    });

    it('has about 40 machines and line 4, whose serials all match DEMO_SERIAL_PATTERN, and is deterministic for one start', () => {
      const serials = Object.keys(demoData().machines);
      const line4 = serials.filter((s) => s.startsWith('ASM-8800-H'));
      assert.equal(line4.length, 29);
      assert.ok(serials.length - line4.length >= 35 && serials.length - line4.length <= 45);
      const pattern = new RegExp(`^${DEMO_SERIAL_PATTERN}$`);
      assert.deepEqual(
        serials.filter((s) => !pattern.test(s)),
        [],
      );
      const start = Date.now();
      assert.deepEqual(demoData(undefined, start), demoData(undefined, start));
    });

    it('has a machine for every state the inline status shows, and an unknown serial that is not in the data', () => {
      const machines = demoData().machines;
      const latestType = (serial: string): unknown => {
        const events = (machines[serial] ?? []) as Record<string, unknown>[];
        return [...events].sort((a, b) => Number(b['timestamp']) - Number(a['timestamp']))[0]?.['type'];
      };
      assert.equal(latestType(DEMO_SERIALS.completed), 'ONBOARDING_COMPLETED');
      assert.equal(latestType(DEMO_SERIALS.failed), 'ONBOARDING_FAILED');
      assert.ok(
        ['ONBOARDING_STARTED', 'DEVICE_REGISTERED', 'CERTIFICATE_ISSUED', 'FIRMWARE_CHECKED'].includes(
          String(latestType(DEMO_SERIALS.inProgress)),
        ),
      );
      assert.deepEqual(machines[DEMO_SERIALS.empty], []);
      assert.equal(machines[DEMO_SERIALS.unknown], undefined);
    });

    it('always answers 500 for the failing serial, even after clearFaults', async () => {
      demo.clearFaults();
      assert.equal((await getEvents(demo, demoToken, { serialNumber: DEMO_FAILING_SERIAL })).status, 500);
      assert.equal((await getEvents(demo, demoToken, { serialNumber: DEMO_SERIALS.completed })).status, 200);
    });

    it('serves the hostile event unchanged, for security demos', async () => {
      const body = await (await getEvents(demo, demoToken, { serialNumber: DEMO_SERIALS.hostile })).text();
      assert.ok(body.includes('<img src=x onerror=alert(1)>'));
      assert.ok(body.includes('javascript:alert'));
    });

    it('resolves hrefs to its own origin and serves the machine behind a link', async () => {
      const body = (await (await getEvents(demo, demoToken, { serialNumber: DEMO_SERIALS.completed })).json()) as {
        events: { _links?: { machine?: { href: string } } }[];
      };
      const href = body.events.find((e) => e._links?.machine !== undefined)?._links?.machine?.href ?? '';
      assert.ok(href.startsWith(`${demo.baseUrl}/public/api/machines/`));
      const machine = await fetch(href, { headers: { authorization: `Bearer ${demoToken}` } });
      assert.equal(machine.status, 200);
      assert.equal(machine.headers.get('content-type'), 'application/hal+json');
    });
  });
});
