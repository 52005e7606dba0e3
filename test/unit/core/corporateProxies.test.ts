// The undici engine (the transport outside an extension host) against the
// same real Squid and mitmdump as test/integration/network/corporateProxies,
// case for case, so that a difference between VS Code's network path and
// undici in front of real proxies shows as one tier passing and the other not.
// The client resolves no name itself (loopbackLookup), except where a case
// sends the API direct.
import * as assert from 'node:assert/strict';
import { isApiError, type ApiError } from '../../../src/core/client/errors';
import type { HttpSettings } from '../../../src/core/client/onboardingClient';
import { startFakeApi, TEST_SERIALS, type FakeApi } from '../../support/fakeApi';
import {
  requireProxyBinaries,
  startMitmdump,
  startSquid,
  waitUntil,
  type Mitmdump,
  type Squid,
} from '../../support/network/corporateProxies';
import { startHttpsFront, type HttpsFront } from '../../support/network/httpsFront';
import { loopbackLookup } from '../../support/network/loopbackLookup';
import { PLANT_HOST, PROXY_HOST, testPki } from '../../support/network/testPki';
import { makeClient, rejectionOf, SECRETS } from './testClient';
import { extensionErrorText } from '../../../src/extension/workbench/remedies';
import { plainLocalize } from '../../../src/core/common/localize';

const PROXY_USER = 'plant-user';
const PROXY_PASSWORD = 'proxy-secret-7';
const LOG_WAIT_MS = 10_000;

describe('the undici engine through a real Squid and a real mitmdump', function () {
  this.timeout(60_000);
  const pki = testPki();
  let api: FakeApi | undefined;
  let front: HttpsFront | undefined;
  let squid: Squid | undefined;
  let httpsSquid: Squid | undefined;
  let mitm: Mitmdump | undefined;

  before(async function () {
    requireProxyBinaries();
    api = await startFakeApi();
    front = await startHttpsFront(api.port, pki.server);
    squid = await startSquid({ hosts: { [PLANT_HOST]: '127.0.0.1' }, user: PROXY_USER, password: PROXY_PASSWORD });
    mitm = await startMitmdump({ hosts: { [PLANT_HOST]: '127.0.0.1' }, upstreamCaFile: pki.caFile });
    httpsSquid = await startSquid({
      hosts: { [PLANT_HOST]: '127.0.0.1' },
      user: PROXY_USER,
      password: PROXY_PASSWORD,
      tls: { certFile: pki.proxy.certFile, keyFile: pki.proxy.keyFile },
    });
  });

  after(async () => {
    await httpsSquid?.close();
    await mitm?.close();
    await squid?.close();
    await front?.close();
    await api?.close();
  });

  const clientVia = (http: HttpSettings) => {
    assert.ok(api !== undefined && front !== undefined);
    const base = `https://${PLANT_HOST}:${front.port}`;
    return makeClient(api, {
      apiBaseUrl: base,
      authUrl: `${base}/oauth`,
      http: { lookup: loopbackLookup([]), systemCertificates: false, caCertificatesFile: pki.caFile, ...http },
    });
  };

  async function eventsVia(http: HttpSettings): Promise<number> {
    const client = clientVia(http);
    try {
      await client.verifyCredentials();
      return (await client.getEvents(TEST_SERIALS.onboarded)).events.length;
    } finally {
      client.dispose();
    }
  }

  async function failureVia(http: HttpSettings): Promise<ApiError> {
    const client = clientVia(http);
    try {
      const error = await rejectionOf(client.verifyCredentials());
      assert.ok(isApiError(error), `expected an ApiError, got ${String(error)}`);
      for (const secret of [...SECRETS, PROXY_PASSWORD, 'not-the-password'])
        assert.ok(!extensionErrorText(error, plainLocalize).includes(secret), 'a secret leaked into the message');
      return error;
    } finally {
      client.dispose();
    }
  }

  it('Squid with Basic authentication: signs in and reads events; Squid logged only an authenticated CONNECT to the API', async () => {
    assert.ok(squid !== undefined && front !== undefined);
    assert.equal(await eventsVia({ proxy: squid.urlWithCredentials(PROXY_USER, PROXY_PASSWORD) }), 3);
    front.dropConnections();
    const target = `CONNECT ${PLANT_HOST}:${front.port} ${PROXY_USER} `;
    assert.ok(
      await waitUntil(
        () => squid?.accessLog().some((line) => line.includes(` TCP_TUNNEL/200 `) && line.includes(target)) === true,
        LOG_WAIT_MS,
      ),
      `Squid logged the tunnel:\n${squid.accessLog().join('\n')}`,
    );
    // Only lines about the API: the start-up's readiness probe shows as a transaction without headers.
    for (const line of squid.accessLog().filter((entry) => entry.includes(PLANT_HOST)))
      assert.ok(line.includes(` CONNECT ${PLANT_HOST}:${front.port} `), `only CONNECT: ${line}`);
  });

  it('Squid with a wrong password: the proxy-authentication message, naming the proxy', async () => {
    assert.ok(squid !== undefined);
    const error = await failureVia({ proxy: squid.urlWithCredentials(PROXY_USER, 'not-the-password') });
    assert.equal(error.details.network, 'proxy-auth-required');
    assert.match(
      extensionErrorText(error, plainLocalize),
      new RegExp(`^The proxy 127\\.0\\.0\\.1:${squid.port} rejected the proxy credentials \\(HTTP 407\\)`),
    );
    // Squid writes its log behind the answer: wait for this refusal's line, so it cannot land in the next test's window.
    assert.ok(
      await waitUntil(
        () => squid?.accessLog().some((line) => line.includes(' TCP_DENIED/407 ') && line.includes(PLANT_HOST)) === true,
        LOG_WAIT_MS,
      ),
      `Squid logged the refusal:\n${squid.accessLog().join('\n')}`,
    );
  });

  it('http.noProxy sends the API direct, past Squid, whose log is unchanged', async () => {
    assert.ok(squid !== undefined && front !== undefined);
    const before = squid.accessLog().length;
    const handshakes = front.handshakes;
    const count = await eventsVia({
      proxy: squid.urlWithCredentials(PROXY_USER, PROXY_PASSWORD),
      noProxy: [PLANT_HOST],
      lookup: loopbackLookup([PLANT_HOST]),
    });
    assert.equal(count, 3);
    assert.ok(front.handshakes > handshakes);
    front.dropConnections();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    assert.deepEqual(squid.accessLog().slice(before), []);
  });

  it('mitmdump without its CA: the unknown-CA message for the API host, naming the setting', async () => {
    assert.ok(mitm !== undefined && front !== undefined);
    const error = await failureVia({ proxy: mitm.url });
    assert.match(
      extensionErrorText(error, plainLocalize),
      new RegExp(
        `^${PLANT_HOST.replace(/\./g, '\\.')}:${front.port} presented a certificate from a certificate authority this computer does not trust`,
      ),
    );
    assert.match(extensionErrorText(error, plainLocalize), /onboardingEvents\.caCertificatesFile/);
  });

  it('mitmdump with its CA in the CA file: signs in and reads events', async () => {
    assert.ok(mitm !== undefined);
    assert.equal(await eventsVia({ proxy: mitm.url, caCertificatesFile: mitm.caFile }), 3);
  });

  describe('an https:// Squid (TLS to the proxy itself, its certificate from the proxy CA, Basic authentication)', () => {
    /** The proxy's name resolves (to 127.0.0.1) only through the client's lookup; the API's name only through Squid. */
    const viaHttpsSquid = (host: string, caCertificatesFile: string): HttpSettings => {
      assert.ok(httpsSquid !== undefined);
      return {
        proxy: httpsSquid.urlWithCredentials(PROXY_USER, PROXY_PASSWORD, host),
        caCertificatesFile,
        lookup: loopbackLookup([PROXY_HOST]),
      };
    };

    it('with both CAs in the CA file: signs in and reads events; Squid logged an authenticated CONNECT to the API', async () => {
      assert.ok(httpsSquid !== undefined && front !== undefined);
      assert.equal(await eventsVia(viaHttpsSquid(PROXY_HOST, pki.bothCasFile)), 3);
      front.dropConnections();
      const target = `CONNECT ${PLANT_HOST}:${front.port} ${PROXY_USER} `;
      assert.ok(
        await waitUntil(
          () => httpsSquid?.accessLog().some((line) => line.includes(' TCP_TUNNEL/200 ') && line.includes(target)) === true,
          LOG_WAIT_MS,
        ),
        `Squid logged the tunnel:\n${httpsSquid.accessLog().join('\n')}`,
      );
    });

    it("without the proxy's CA: the message blames the proxy, names http.proxy and the CA setting, not the API", async () => {
      assert.ok(httpsSquid !== undefined && front !== undefined);
      const error = await failureVia(viaHttpsSquid(PROXY_HOST, pki.caFile));
      assert.equal(error.details.network, 'proxy-certificate');
      assert.match(
        extensionErrorText(error, plainLocalize),
        new RegExp(
          `^The proxy proxy\\.plant\\.test:${httpsSquid.port} presented a certificate from a certificate authority this computer does not trust \\(UNABLE_TO_VERIFY_LEAF_SIGNATURE\\)`,
        ),
      );
      assert.match(extensionErrorText(error, plainLocalize), /http\.proxy/);
      assert.match(extensionErrorText(error, plainLocalize), /onboardingEvents\.caCertificatesFile/);
      assert.ok(
        !extensionErrorText(error, plainLocalize).includes(PLANT_HOST),
        `the API is not blamed: ${extensionErrorText(error, plainLocalize)}`,
      );
    });

    it('addressed by a name its certificate lacks: the message says so about the proxy and points at http.proxy', async () => {
      assert.ok(httpsSquid !== undefined);
      const error = await failureVia(viaHttpsSquid('127.0.0.1', pki.bothCasFile));
      assert.equal(error.details.network, 'proxy-certificate');
      assert.match(
        extensionErrorText(error, plainLocalize),
        new RegExp(
          `^The certificate of the proxy 127\\.0\\.0\\.1:${httpsSquid.port} was issued for another host name \\(ERR_TLS_CERT_ALTNAME_INVALID\\)`,
        ),
      );
      assert.match(extensionErrorText(error, plainLocalize), /http\.proxy/);
      assert.ok(
        !extensionErrorText(error, plainLocalize).includes(PLANT_HOST) && !/API base URL/.test(extensionErrorText(error, plainLocalize)),
        `the API is not blamed: ${extensionErrorText(error, plainLocalize)}`,
      );
    });
  });
});
