import * as assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { basicClientAuthorization } from '../../../src/core/client/auth/tokenClient';
import { isApiError } from '../../../src/core/client/errors';
import { expandLink } from '../../../src/core/client/hal';
import { startForeignOrigin, TEST_ASSET_ID, TEST_CREDENTIALS, TEST_SERIALS, type FakeApi } from '../../support/fakeApi';
import { SECRETS, makeClient, rejectionOf, useFakeApi } from './testClient';

describe('following HAL links (fetchLink)', () => {
  const context = useFakeApi();
  let foreign: FakeApi | undefined;
  afterEach(async () => {
    await foreign?.close();
    foreign = undefined;
  });

  it("follows an event's machine link on the API origin with the bearer token", async () => {
    const { api, client } = context();
    const { events } = await client.getEvents(TEST_SERIALS.onboarded);
    const href = events.find((event) => event.assetId !== undefined)?.links['machine']?.[0]?.href;
    assert.ok(href !== undefined);
    const resource = await client.fetchLink(href);
    assert.equal(resource.status, 200);
    assert.equal((resource.json as { assetId?: string }).assetId, TEST_ASSET_ID);
    assert.match(api.requests.at(-1)?.headers['authorization'] ?? '', /^Bearer /);
  });

  it('resolves a relative href against the API base', async () => {
    const { api, client } = context();
    const resource = await client.fetchLink(`/public/api/machines/${TEST_ASSET_ID}`);
    assert.equal(resource.url, `${api.baseUrl}/public/api/machines/${TEST_ASSET_ID}`);
  });

  it('expands a templated link before following it', async () => {
    const { client } = context();
    const href = expandLink({ href: '/public/api/machines/{assetId}', templated: true }, { assetId: TEST_ASSET_ID });
    assert.ok(href !== undefined);
    assert.equal((await client.fetchLink(href)).status, 200);
  });

  it('never sends the bearer token to another origin', async () => {
    const { client } = context();
    foreign = await startForeignOrigin();
    await client.getEvents(TEST_SERIALS.onboarded);
    const resource = await client.fetchLink(`${foreign.baseUrl}/somewhere`);
    assert.equal(resource.status, 200);
    assert.equal(foreign.requests.length, 1);
    assert.equal(foreign.receivedAuthorization(), false);
  });

  it('never follows a redirect, so the bearer token cannot be carried to another origin', async () => {
    const { api, client } = context();
    foreign = await startForeignOrigin();
    api.addFault({ kind: 'status', status: 302, headers: { location: `${foreign.baseUrl}/stolen` }, endpoint: 'events' });
    const error = await rejectionOf(client.getEvents(TEST_SERIALS.onboarded));
    assert.ok(isApiError(error), 'a redirect is reported, not followed');
    assert.equal(foreign.requests.length, 0, 'nothing reached the other origin');
    assert.equal(foreign.receivedAuthorization(), false);
  });

  for (const href of ['javascript:alert(1)', 'file:///etc/passwd', 'command:workbench.action.reloadWindow', 'data:text/plain,x']) {
    it(`refuses to follow ${href.split(':')[0] ?? ''}: links without any request`, async () => {
      const { api, client } = context();
      const error = await rejectionOf(client.fetchLink(href));
      assert.ok(isApiError(error) && error.kind === 'invalid-input');
      assert.equal(api.requests.length, 0);
    });
  }

  it('a link to a missing resource is not-found', async () => {
    const { client } = context();
    const error = await rejectionOf(client.fetchLink('/public/api/machines/00000000-0000-4000-8000-000000000000'));
    assert.ok(isApiError(error) && error.kind === 'not-found', String(error));
  });
});

describe('no secret ever appears in errors, logs or string forms (issue 3 item 6)', () => {
  const context = useFakeApi();

  it('searches every error message, log entry and string form produced across failures', async () => {
    const { api, client, log } = context();
    const texts: string[] = [];
    const collect = async (call: Promise<unknown>): Promise<void> => {
      const error = await rejectionOf(call);
      texts.push(String(error), error instanceof Error ? (error.stack ?? '') : '', JSON.stringify(error), inspect(error, { depth: 5 }));
    };

    await client.getEvents(TEST_SERIALS.onboarded);
    const token = /^Bearer (\S+)$/.exec(api.eventRequests()[0]?.headers['authorization'] ?? '')?.[1];
    assert.ok(token !== undefined);
    texts.push(String(client), JSON.stringify(client), inspect(client, { depth: 10, showHidden: true }));

    api.addFault({ endpoint: 'events', kind: 'status', status: 401, times: 2 });
    await collect(client.getEvents(TEST_SERIALS.onboarded));
    for (const kind of ['html', 'malformedJson', 'reset'] as const) {
      api.clearFaults();
      api.addFault({ endpoint: 'events', kind });
      await collect(client.getEvents(TEST_SERIALS.started));
    }
    api.clearFaults();
    api.addFault({ endpoint: 'token', kind: 'status', status: 200, body: { token_type: 'mac', access_token: token, expires_in: 60 } });
    await collect(client.verifyCredentials());
    api.clearFaults();
    api.setPassword(TEST_CREDENTIALS.username, 'something-else');
    await collect(client.verifyCredentials());

    const proxied = makeClient(api, { http: { proxy: 'http://proxyuser:proxy-secret-1@127.0.0.1:1', maxRetries: 0 } }, log);
    await collect(proxied.getEvents(TEST_SERIALS.onboarded));
    texts.push(String(proxied), inspect(proxied));
    proxied.dispose();

    texts.push(...log.map((entry) => JSON.stringify(entry)));
    const haystack = texts.join('\n');
    assert.ok(texts.length > 20);
    for (const secret of [...SECRETS, token, 'proxy-secret-1', encodeURIComponent(TEST_CREDENTIALS.password)]) {
      assert.ok(!haystack.includes(secret), `a secret leaked: ${secret.slice(0, 3)}…`);
    }
    assert.ok(
      !haystack.includes(basicClientAuthorization(TEST_CREDENTIALS.clientId, TEST_CREDENTIALS.clientSecret).slice('Basic '.length)),
      'the Basic header leaked',
    );
  });

  it('toString says whether a token is cached, never what it is', async () => {
    const { client } = context();
    assert.match(String(client), /token: none/);
    await client.getEvents(TEST_SERIALS.onboarded);
    assert.match(
      String(client),
      /^OnboardingClient\(api: http:\/\/127\.0\.0\.1:\d+\/, auth: http:\/\/127\.0\.0\.1:\d+\/oauth, token: cached\)$/,
    );
  });
});
