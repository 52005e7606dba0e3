// Property of OnboardingClient.fetchLink for any href a server may put in a
// link: the bearer token goes only to the API's own origin, and nothing but
// http(s) is ever requested. A recording transport stands in for the network
// (fetchLink's HTTP behaviour is tested over real HTTP in linksAndSecrets).
import * as assert from 'node:assert/strict';
import { OnboardingClient } from '../../../src/core/client/onboardingClient';
import type { Transport, TransportRequest, TransportResponse } from '../../../src/core/client/http/transport';
import { API_ORIGIN, hostileHref } from '../../support/hostileHrefs';
import { fc, holds } from '../../support/properties';

const AUTH_URL = 'https://auth.example.test/oauth';
const TOKEN = 'tok.EN-123';

function recordingTransport(seen: TransportRequest[]): Transport {
  const json = (status: number, value: unknown): TransportResponse => ({
    status,
    headers: { 'content-type': 'application/json' },
    body: new TextEncoder().encode(JSON.stringify(value)),
  });
  return {
    request(request) {
      seen.push(request);
      if (request.url === `${AUTH_URL}/token`)
        return Promise.resolve(json(200, { token_type: 'Bearer', access_token: TOKEN, expires_in: 3600 }));
      return Promise.resolve(json(200, { ok: true }));
    },
    close: () => Promise.resolve(),
  };
}

describe('fetchLink: properties', () => {
  it('sends the bearer token only to the API origin and requests nothing but http(s), for any href', () =>
    holds(
      fc.asyncProperty(
        fc.array(hostileHref, { minLength: 1, maxLength: 4 }),
        fc.constantFrom(API_ORIGIN, `${API_ORIGIN}/base`, `${API_ORIGIN}/base/`),
        async (hrefs, apiBaseUrl) => {
          const seen: TransportRequest[] = [];
          const client = new OnboardingClient({
            apiBaseUrl,
            authUrl: AUTH_URL,
            credentials: () => Promise.resolve({ clientId: 'id', clientSecret: 'secret', username: 'u', password: 'p' }),
            transport: recordingTransport(seen),
            http: { maxRetries: 0 },
          });
          try {
            for (const href of hrefs) await client.fetchLink(href).catch(() => undefined);
          } finally {
            client.dispose();
          }
          for (const request of seen) {
            const url = new URL(request.url);
            assert.ok(url.protocol === 'https:' || url.protocol === 'http:', `requested ${request.url}`);
            const authorization = request.headers['authorization'] ?? '';
            if (request.url === `${AUTH_URL}/token`) continue;
            if (authorization !== '') assert.equal(url.origin, API_ORIGIN, `the token went to ${request.url}`);
            assert.ok(
              !JSON.stringify(request.headers).includes(TOKEN) || url.origin === API_ORIGIN,
              `the token is in a header to ${request.url}`,
            );
            assert.ok(!request.url.includes(TOKEN), `the token is in the URL ${request.url}`);
          }
        },
      ),
      { numRuns: 150 },
    ));
});
