// The extension's client factory against the fake API: a sign-in (verify, then
// the session's client) makes one password grant, and the verification's token
// starts the session's client only where it was granted.
import * as assert from 'node:assert/strict';
import type { ClientSettings } from '../../../src/core/domain/settings/clientSettings';
import { onboardingClients } from '../../../src/extension/session/clientFactory';
import { startFakeApi, TEST_CREDENTIALS, TEST_SERIALS, type FakeApi } from '../../support/fakeApi';

describe('client factory: one password grant per sign-in', () => {
  let api: FakeApi;
  beforeEach(async () => {
    api = await startFakeApi();
  });
  afterEach(async () => {
    await api.close();
  });

  const factory = () =>
    onboardingClients({ settings: (): ClientSettings => ({ timestampUnit: 'auto', http: {} }), onRequest: () => undefined });

  it('verify, then the session client and its first look-up: one grant, and no other', async () => {
    const clients = factory();
    const endpoints = { apiBaseUrl: api.baseUrl, authUrl: api.authUrl };
    const verified = await clients.verify(endpoints, TEST_CREDENTIALS);
    const client = clients.create(
      endpoints,
      () => Promise.resolve(TEST_CREDENTIALS),
      () => undefined,
      verified,
    );
    try {
      const result = await client.getEvents(TEST_SERIALS.onboarded);
      assert.ok(result.events.length > 0);
      assert.equal(api.tokenRequests().length, 1, 'the session reused the verified token');
      assert.equal(String(verified), 'VerifiedGrant', 'the grant never prints its token');
      assert.equal(JSON.stringify({ verified }), '{"verified":"VerifiedGrant"}');
    } finally {
      client.dispose();
    }
  });

  it('a grant from another authorization URL is not used: the client makes its own', async () => {
    const other = await startFakeApi();
    const clients = factory();
    try {
      const verified = await clients.verify({ apiBaseUrl: other.baseUrl, authUrl: other.authUrl }, TEST_CREDENTIALS);
      const client = clients.create(
        { apiBaseUrl: api.baseUrl, authUrl: api.authUrl },
        () => Promise.resolve(TEST_CREDENTIALS),
        () => undefined,
        verified,
      );
      try {
        await client.getEvents(TEST_SERIALS.onboarded);
      } finally {
        client.dispose();
      }
      assert.equal(api.tokenRequests().length, 1);
      assert.equal(other.tokenRequests().length, 1);
    } finally {
      await other.close();
    }
  });
});
