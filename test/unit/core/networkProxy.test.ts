import * as assert from 'node:assert/strict';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { isApiError, type ApiError } from '../../../src/core/client/errors';
import type { RequestLogEntry } from '../../../src/core/client/http/httpClient';
import type { HttpSettings } from '../../../src/core/client/onboardingClient';
import { startFakeApi, TEST_SERIALS, type FakeApi } from '../../support/fakeApi';
import { startHttpsFront, type HttpsFront } from '../../support/network/httpsFront';
import { loopbackLookup } from '../../support/network/loopbackLookup';
import { startRecordingProxy, type RecordingProxy, type RecordingProxyOptions } from '../../support/network/recordingProxy';
import { PLANT_HOST, testPki } from '../../support/network/testPki';
import { makeClient, rejectionOf, SECRETS } from './testClient';
import { extensionErrorText } from '../../../src/extension/workbench/remedies';
import { plainLocalize } from '../../../src/core/common/localize';

const PROXY_USER = 'plant-user';
const PROXY_PASSWORD = 'pr0xy:p@ss';

describe('through a real recording proxy on 127.0.0.1 (the proxy package)', function () {
  this.timeout(20_000);
  const pki = testPki();
  let api: FakeApi;
  let front: HttpsFront;
  let proxy: RecordingProxy | undefined;

  beforeEach(async () => {
    api = await startFakeApi();
    front = await startHttpsFront(api.port, pki.server);
  });
  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
    await front.close();
    await api.close();
  });

  const startProxy = async (options: RecordingProxyOptions = {}): Promise<RecordingProxy> => {
    proxy = await startRecordingProxy({ hosts: [PLANT_HOST], ...options });
    return proxy;
  };
  const base = (): string => `https://${PLANT_HOST}:${front.port}`;
  /** No name resolves on the client side: through a proxy only the proxy resolves the API's host. */
  const clientVia = (http: HttpSettings, log: RequestLogEntry[] = []) =>
    makeClient(
      api,
      {
        apiBaseUrl: base(),
        authUrl: `${base()}/oauth`,
        http: { lookup: loopbackLookup([]), systemCertificates: false, caCertificatesFile: pki.caFile, ...http },
      },
      log,
    );

  async function failureOf(http: HttpSettings): Promise<ApiError> {
    const client = clientVia(http);
    try {
      const error = await rejectionOf(client.getEvents(TEST_SERIALS.onboarded));
      assert.ok(isApiError(error), `expected an ApiError, got ${String(error)}`);
      for (const secret of [...SECRETS, PROXY_PASSWORD])
        assert.ok(!extensionErrorText(error, plainLocalize).includes(secret), 'a secret leaked into the message');
      return error;
    } finally {
      client.dispose();
    }
  }

  it('signs in and reads events over HTTPS through the proxy, which saw only CONNECTs: no path, header or body', async () => {
    const { url, visits } = await startProxy();
    const client = clientVia({ proxy: url });
    try {
      await client.verifyCredentials();
      assert.equal((await client.getEvents(TEST_SERIALS.onboarded)).events.length, 3);
    } finally {
      client.dispose();
    }
    assert.ok(visits.length >= 1);
    for (const visit of visits) {
      assert.equal(visit.method, 'CONNECT');
      assert.equal(visit.target, `${PLANT_HOST}:${front.port}`);
      assert.equal(visit.bodyBytes, 0);
      assert.ok(!visit.headerNames.includes('authorization'));
    }
    assert.equal(api.tokenRequests().length, 1);
    assert.equal(api.eventRequests().length, 1);
  });

  it('takes the proxy from HTTPS_PROXY when http.proxy is not set', async () => {
    const { url, visits } = await startProxy();
    const client = clientVia({ env: { HTTPS_PROXY: url } });
    try {
      await client.getEvents(TEST_SERIALS.onboarded);
    } finally {
      client.dispose();
    }
    assert.ok(visits.length >= 1 && visits.every((visit) => visit.method === 'CONNECT'));
  });

  it('never sends a loopback API to the proxy, whether named 127.0.0.1 or localhost, so the password never reaches it', async () => {
    const { url, visits } = await startProxy();
    for (const host of ['127.0.0.1', 'localhost']) {
      const origin = `http://${host}:${api.port}`;
      const client = makeClient(api, {
        apiBaseUrl: origin,
        authUrl: `${origin}/oauth`,
        http: { proxy: url, env: { HTTP_PROXY: url, HTTPS_PROXY: url }, lookup: loopbackLookup(['localhost']) },
      });
      try {
        await client.verifyCredentials();
        await client.getEvents(TEST_SERIALS.onboarded);
      } finally {
        client.dispose();
      }
    }
    assert.deepEqual(visits, []);
    assert.equal(api.tokenRequests().length, 2);
  });

  it('authenticates to the proxy with the user and password in the proxy URL', async () => {
    const authenticating = await startProxy({ credentials: { user: PROXY_USER, password: PROXY_PASSWORD } });
    const { visits } = authenticating;
    const client = clientVia({ proxy: authenticating.urlWithCredentials(PROXY_USER, PROXY_PASSWORD) });
    try {
      assert.equal((await client.getEvents(TEST_SERIALS.onboarded)).events.length, 3);
    } finally {
      client.dispose();
    }
    assert.ok(visits.every((visit) => visit.method === 'CONNECT' && visit.headerNames.includes('proxy-authorization')));
  });

  it('authenticates to the proxy with http.proxyAuthorization', async () => {
    const { url } = await startProxy({ credentials: { user: PROXY_USER, password: PROXY_PASSWORD } });
    const header = `Basic ${Buffer.from(`${PROXY_USER}:${PROXY_PASSWORD}`).toString('base64')}`;
    const client = clientVia({ proxy: url, proxyAuthorization: header });
    try {
      assert.equal((await client.getEvents(TEST_SERIALS.onboarded)).events.length, 3);
    } finally {
      client.dispose();
    }
  });

  it('407 without credentials: says the proxy requires authentication and where to put it', async () => {
    const { port, url } = await startProxy({ credentials: { user: PROXY_USER, password: PROXY_PASSWORD } });
    const error = await failureOf({ proxy: url });
    assert.equal(error.kind, 'network');
    assert.equal(error.details.network, 'proxy-auth-required');
    assert.match(
      extensionErrorText(error, plainLocalize),
      new RegExp(`^The proxy 127\\.0\\.0\\.1:${port} requires authentication \\(HTTP 407\\)\\..*http\\.proxyAuthorization`),
    );
  });

  it('407 with wrong credentials: says the proxy rejected them, without quoting them', async () => {
    const authenticating = await startProxy({ credentials: { user: PROXY_USER, password: PROXY_PASSWORD } });
    const { port } = authenticating;
    const error = await failureOf({ proxy: authenticating.urlWithCredentials(PROXY_USER, 'wrong-password') });
    assert.equal(error.details.network, 'proxy-auth-required');
    assert.match(
      extensionErrorText(error, plainLocalize),
      new RegExp(`^The proxy 127\\.0\\.0\\.1:${port} rejected the proxy credentials \\(HTTP 407\\)`),
    );
    assert.ok(!extensionErrorText(error, plainLocalize).includes('wrong-password'));
  });

  it('502 on CONNECT: says the proxy refused the tunnel to the host, not "cancelled"', async () => {
    const { port, url } = await startProxy({ refuseConnectWith: 502 });
    const log: RequestLogEntry[] = [];
    const client = clientVia({ proxy: url }, log);
    let error: unknown;
    try {
      error = await rejectionOf(client.getEvents(TEST_SERIALS.onboarded));
    } finally {
      client.dispose();
    }
    assert.ok(isApiError(error));
    assert.equal(error.details.network, 'proxy-refused');
    assert.match(
      extensionErrorText(error, plainLocalize),
      new RegExp(`^The proxy 127\\.0\\.0\\.1:${port} refused to open a connection to ${PLANT_HOST}:${front.port} \\(HTTP 502\\)`),
    );
    assert.match(log[0]?.error ?? '', new RegExp(`^proxy-refused .* via proxy 127\\.0\\.0\\.1:${port} \\(HTTP 502\\)$`));
  });

  it('a proxy nobody listens on: says the proxy cannot be reached', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const error = await failureOf({ proxy: `http://${PROXY_USER}:${encodeURIComponent(PROXY_PASSWORD)}@127.0.0.1:${port}`, maxRetries: 0 });
    assert.equal(error.details.network, 'proxy-unreachable');
    assert.match(
      extensionErrorText(error, plainLocalize),
      new RegExp(`^Could not connect to the proxy 127\\.0\\.0\\.1:${port} \\(ECONNREFUSED\\)\\.`),
    );
  });

  it('without the CA, through the proxy: the unknown-CA error names the API host and the setting', async () => {
    const { url } = await startProxy();
    const error = await failureOf({ proxy: url, caCertificatesFile: '' });
    assert.equal(error.details.network, 'untrusted-certificate');
    assert.match(
      extensionErrorText(error, plainLocalize),
      new RegExp(
        `^${PLANT_HOST}:${front.port} presented a certificate from a certificate authority this computer does not trust.*onboardingEvents\\.caCertificatesFile`,
      ),
    );
  });

  describe('an https proxy whose certificate fails', () => {
    let proxyFront: HttpsFront | undefined;
    afterEach(async () => {
      await proxyFront?.close();
      proxyFront = undefined;
    });
    /** TLS to the recording proxy: an https:// proxy with the test server certificate (api.plant.test, localhost, 127.0.0.1). */
    const startHttpsProxy = async (): Promise<number> => {
      const { port } = await startProxy();
      proxyFront = await startHttpsFront(port, pki.server);
      return proxyFront.port;
    };

    it('from an untrusted CA: blames the proxy and names http.proxy and the CA setting, not the API', async () => {
      const port = await startHttpsProxy();
      const error = await failureOf({
        proxy: `https://${PROXY_USER}:${encodeURIComponent(PROXY_PASSWORD)}@127.0.0.1:${port}`,
        caCertificatesFile: '',
      });
      assert.equal(error.details.network, 'proxy-certificate');
      assert.match(
        extensionErrorText(error, plainLocalize),
        new RegExp(
          `^The proxy 127\\.0\\.0\\.1:${port} presented a certificate from a certificate authority this computer does not trust \\(UNABLE_TO_VERIFY_LEAF_SIGNATURE\\)\\. Check the address in the http\\.proxy setting.*onboardingEvents\\.caCertificatesFile`,
        ),
      );
      assert.ok(!extensionErrorText(error, plainLocalize).includes(PLANT_HOST), extensionErrorText(error, plainLocalize));
      assert.equal(api.tokenRequests().length, 0);
    });

    it('addressed by a name its certificate lacks: sends the user to http.proxy, not to the API URLs', async () => {
      const port = await startHttpsProxy();
      const error = await failureOf({ proxy: `https://proxy.plant.test:${port}`, lookup: loopbackLookup(['proxy.plant.test']) });
      assert.equal(error.details.network, 'proxy-certificate');
      assert.equal(
        extensionErrorText(error, plainLocalize),
        `The certificate of the proxy proxy.plant.test:${port} was issued for another host name (ERR_TLS_CERT_ALTNAME_INVALID). Use the host name the proxy's certificate names in the http.proxy setting (or HTTPS_PROXY).`,
      );
    });

    it('with the CA trusted and the right name, the same https proxy carries the request', async () => {
      const port = await startHttpsProxy();
      const client = clientVia({ proxy: `https://127.0.0.1:${port}` });
      try {
        const result = await client.getEvents(TEST_SERIALS.onboarded);
        assert.ok(result.events.length > 0);
      } finally {
        client.dispose();
      }
      assert.ok(proxy?.visits.some((visit) => visit.method === 'CONNECT' && visit.target === `${PLANT_HOST}:${front.port}`));
    });
  });
});
