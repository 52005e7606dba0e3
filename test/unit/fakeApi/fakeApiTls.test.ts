// The fake's opt-in TLS listener, which the fleet bench relies on to talk
// HTTPS as the real API does: pinned with plain fetch and an undici Agent, as
// the bench's peers use it, independent of our client code.

import assert from 'node:assert/strict';
import { Agent } from 'undici';
import { startFakeApi, TEST_CREDENTIALS, TEST_SERIALS, type FakeApi } from '../../support/fakeApi';
import { testPki } from '../../support/network/testPki';

describe('fake API over TLS (opt-in)', function () {
  this.timeout(20_000);
  const pki = testPki();
  let api: FakeApi;
  let trusting: Agent;

  beforeEach(async () => {
    api = await startFakeApi({ tls: pki.server });
    trusting = new Agent({ connect: { ca: pki.caPem } });
  });
  afterEach(async () => {
    await trusting.destroy();
    await api.close();
  });

  const through = (dispatcher: Agent): RequestInit => ({ dispatcher }) as RequestInit;

  it('serves token and events over HTTPS on loopback with a certificate from the test CA', async () => {
    assert.equal(api.baseUrl, `https://127.0.0.1:${api.port}`);
    assert.equal(api.authUrl, `https://127.0.0.1:${api.port}/oauth`);
    const basic = Buffer.from(
      `${encodeURIComponent(TEST_CREDENTIALS.clientId)}:${encodeURIComponent(TEST_CREDENTIALS.clientSecret)}`,
    ).toString('base64');
    const tokenResponse = await fetch(`${api.authUrl}/token`, {
      ...through(trusting),
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'password',
        username: TEST_CREDENTIALS.username,
        password: TEST_CREDENTIALS.password,
        scope: 'api',
      }),
    });
    assert.equal(tokenResponse.status, 200);
    const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
    const events = await fetch(`${api.baseUrl}/public/api/onboarding-events/events?serialNumber=${TEST_SERIALS.onboarded}`, {
      ...through(trusting),
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(events.status, 200);
    assert.equal(api.eventRequests(TEST_SERIALS.onboarded).length, 1);
  });

  it('is refused by a client that does not trust the test CA, and does not answer plain HTTP', async () => {
    const untrusting = new Agent();
    try {
      const refused = await fetch(`${api.baseUrl}/oauth/token`, through(untrusting)).then(
        () => undefined,
        (error: unknown) => (error as { cause?: { code?: string } }).cause?.code,
      );
      assert.equal(refused, 'UNABLE_TO_VERIFY_LEAF_SIGNATURE');
    } finally {
      await untrusting.destroy();
    }
    const plain = await fetch(`http://127.0.0.1:${api.port}/oauth/token`).then(
      (response) => response.status,
      () => 'failed',
    );
    assert.equal(plain, 'failed');
    assert.equal(api.requests.length, 0);
  });

  it('stays plain HTTP when not asked for TLS', async () => {
    const plain = await startFakeApi();
    try {
      assert.equal(plain.baseUrl, `http://127.0.0.1:${plain.port}`);
      assert.equal((await fetch(`${plain.baseUrl}/nowhere`)).status, 404);
    } finally {
      await plain.close();
    }
  });
});
