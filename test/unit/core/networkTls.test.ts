import * as assert from 'node:assert/strict';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { rootCertificates } from 'node:tls';
import { isApiError, type ApiError } from '../../../src/core/client/errors';
import { loadTrustedCertificates, pemCertificates } from '../../../src/core/client/http/trustedCertificates';
import type { RequestLogEntry } from '../../../src/core/client/http/httpClient';
import type { HttpSettings } from '../../../src/core/client/onboardingClient';
import { startFakeApi, TEST_SERIALS, type FakeApi } from '../../support/fakeApi';
import { startHttpsFront, type HttpsFront } from '../../support/network/httpsFront';
import { loopbackLookup } from '../../support/network/loopbackLookup';
import { PLANT_HOST, testPki } from '../../support/network/testPki';
import { makeClient, rejectionOf, SECRETS } from './testClient';
import { extensionErrorText } from '../../../src/extension/workbench/remedies';
import { plainLocalize } from '../../../src/core/common/localize';

function asApiError(error: unknown): ApiError {
  assert.ok(isApiError(error), `expected an ApiError, got ${String(error)}`);
  for (const secret of SECRETS) assert.ok(!extensionErrorText(error, plainLocalize).includes(secret), 'a secret leaked into the message');
  return error;
}

describe('HTTPS with a private CA (test CA made with openssl, HTTPS fake on 127.0.0.1)', function () {
  this.timeout(20_000);
  let api: FakeApi;
  let front: HttpsFront;
  const pki = testPki();

  beforeEach(async () => {
    api = await startFakeApi();
    front = await startHttpsFront(api.port, pki.server);
  });
  afterEach(async () => {
    await front.close();
    await api.close();
  });

  const base = (): string => `https://${PLANT_HOST}:${front.port}`;
  const clientWith = (http: HttpSettings, log: RequestLogEntry[] = []) =>
    makeClient(
      api,
      {
        apiBaseUrl: base(),
        authUrl: `${base()}/oauth`,
        http: { lookup: loopbackLookup([PLANT_HOST]), systemCertificates: false, ...http },
      },
      log,
    );

  async function failureOf(http: HttpSettings): Promise<ApiError> {
    const client = clientWith(http);
    try {
      return asApiError(await rejectionOf(client.getEvents(TEST_SERIALS.onboarded)));
    } finally {
      client.dispose();
    }
  }

  it('signs in and reads events when onboardingEvents.caCertificatesFile names the CA', async () => {
    const client = clientWith({ caCertificatesFile: pki.caFile });
    try {
      await client.verifyCredentials();
      assert.equal((await client.getEvents(TEST_SERIALS.onboarded)).events.length, 3);
      assert.equal(api.tokenRequests().length, 1);
      assert.equal(api.eventRequests().length, 1);
    } finally {
      client.dispose();
    }
  });

  it('also trusts the CA file with the operating system store on (http.systemCertificates default)', async () => {
    const client = clientWith({ caCertificatesFile: pki.caFile, systemCertificates: true });
    try {
      assert.equal((await client.getEvents(TEST_SERIALS.onboarded)).events.length, 3);
    } finally {
      client.dispose();
    }
  });

  it('without the CA: an unknown-CA error that names the host and the setting that adds a CA, and nothing reached the API', async () => {
    const error = await failureOf({});
    assert.equal(error.kind, 'network');
    assert.equal(error.details.network, 'untrusted-certificate');
    assert.match(
      extensionErrorText(error, plainLocalize),
      new RegExp(`^${PLANT_HOST}:${front.port} presented a certificate from a certificate authority this computer does not trust`),
    );
    assert.match(extensionErrorText(error, plainLocalize), /onboardingEvents\.caCertificatesFile/);
    assert.deepEqual(api.requests, []);
  });

  it('a self-signed certificate is called self-signed', async () => {
    front.useCertificate(pki.selfSigned);
    const error = await failureOf({ caCertificatesFile: pki.caFile });
    assert.equal(error.details.network, 'untrusted-certificate');
    assert.match(extensionErrorText(error, plainLocalize), /presented a self-signed certificate \(DEPTH_ZERO_SELF_SIGNED_CERT\)/);
  });

  it('an expired certificate says it expired', async () => {
    front.useCertificate(pki.expired);
    const error = await failureOf({ caCertificatesFile: pki.caFile });
    assert.equal(error.details.network, 'certificate-expired');
    assert.match(extensionErrorText(error, plainLocalize), new RegExp(`The certificate of ${PLANT_HOST}:${front.port} has expired`));
  });

  it('a certificate for another host name says so', async () => {
    front.useCertificate(pki.wrongName);
    const error = await failureOf({ caCertificatesFile: pki.caFile });
    assert.equal(error.details.network, 'certificate-name-mismatch');
    assert.match(extensionErrorText(error, plainLocalize), /was issued for another host name \(ERR_TLS_CERT_ALTNAME_INVALID\)/);
  });

  it('http.proxyStrictSSL false accepts the certificate, and every request is logged as unverified', async () => {
    const log: RequestLogEntry[] = [];
    const client = clientWith({ proxyStrictSSL: false }, log);
    try {
      assert.equal((await client.getEvents(TEST_SERIALS.onboarded)).events.length, 3);
      assert.ok(log.length >= 2);
      assert.ok(log.every((entry) => entry.certificateChecksOff === true));
    } finally {
      client.dispose();
    }
  });

  it('a CA file that cannot be read names the file and the setting', async () => {
    const error = await failureOf({ caCertificatesFile: `${pki.dir}/missing.pem` });
    assert.equal(error.details.network, 'ca-file');
    assert.match(
      extensionErrorText(error, plainLocalize),
      /missing\.pem" could not be used \(ENOENT\)\. Set onboardingEvents\.caCertificatesFile/,
    );
  });

  it('a CA file without PEM certificates is refused rather than ignored', async () => {
    const error = await failureOf({ caCertificatesFile: `${pki.dir}/server.key` });
    assert.equal(error.details.network, 'ca-file');
    assert.match(extensionErrorText(error, plainLocalize), /NO_PEM_CERTIFICATES/);
  });

  it('a host name that does not resolve gives a DNS error (resolved by an injected lookup: no DNS query leaves the machine)', async () => {
    const lookup = loopbackLookup([PLANT_HOST]);
    const client = makeClient(api, {
      apiBaseUrl: 'https://unknown.plant.test',
      authUrl: 'https://unknown.plant.test/oauth',
      http: { lookup, systemCertificates: false },
    });
    try {
      const error = asApiError(await rejectionOf(client.getEvents(TEST_SERIALS.onboarded)));
      assert.equal(error.details.network, 'dns');
      assert.match(extensionErrorText(error, plainLocalize), /^The host name unknown\.plant\.test could not be found \(ENOTFOUND\)\./);
      assert.ok(lookup.asked.includes('unknown.plant.test'));
    } finally {
      client.dispose();
    }
  });

  it('a port nobody listens on gives "refused the connection", naming the host and the SSH tunnel', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const client = makeClient(api, {
      apiBaseUrl: `http://127.0.0.1:${port}`,
      authUrl: `http://127.0.0.1:${port}/oauth`,
      http: { maxRetries: 0 },
    });
    try {
      const error = asApiError(await rejectionOf(client.getEvents(TEST_SERIALS.onboarded)));
      assert.equal(error.details.network, 'connection-refused');
      assert.match(
        extensionErrorText(error, plainLocalize),
        new RegExp(`^127\\.0\\.0\\.1:${port} refused the connection \\(ECONNREFUSED\\)\\..*SSH tunnel`),
      );
    } finally {
      client.dispose();
    }
  });
});

describe('transport errors across bundles', () => {
  it("recognises a failure thrown by the undici bundle's own copy of TransportError (instanceof fails across esbuild bundles)", async () => {
    const foreign = Object.assign(new Error('dns (ENOTFOUND)'), {
      failure: 'dns',
      code: 'ENOTFOUND',
      context: { causes: ['ENOTFOUND'] },
      [Symbol.for('onboardingEvents.TransportError')]: true,
    });
    const api = await startFakeApi();
    const client = makeClient(api, {
      apiBaseUrl: 'https://api.plant.test',
      authUrl: 'https://api.plant.test/oauth',
      transport: { request: () => Promise.reject(foreign), close: () => Promise.resolve() },
    });
    try {
      const error = asApiError(await rejectionOf(client.getEvents(TEST_SERIALS.onboarded)));
      assert.equal(error.details.network, 'dns');
      assert.match(extensionErrorText(error, plainLocalize), /^The host name api\.plant\.test could not be found \(ENOTFOUND\)/);
    } finally {
      client.dispose();
      await api.close();
    }
  });
});

describe('trusted certificates', () => {
  const pki = testPki();

  it("keeps Node's bundled roots and adds the CA file's certificates", async () => {
    const trusted = await loadTrustedCertificates({ systemCertificates: false, caCertificatesFile: pki.caFile }, {});
    assert.equal(trusted.fromFile, 1);
    assert.ok(trusted.ca.includes(pki.caPem.trim()));
    for (const root of rootCertificates.slice(0, 5)) assert.ok(trusted.ca.includes(root.trim()));
    assert.equal(trusted.systemStore, 'off');
  });

  it('reads the operating system store when http.systemCertificates is on', async () => {
    const trusted = await loadTrustedCertificates({}, {});
    assert.notEqual(trusted.systemStore, 'off');
    assert.ok(trusted.ca.length >= rootCertificates.length);
  });

  it('takes only the certificates out of a PEM file', () => {
    const text = `# company roots\n${pki.caPem}\n${pki.server.key}\n${pki.server.cert}`;
    assert.deepEqual(pemCertificates(text), [pki.caPem.trim(), pki.server.cert.trim()]);
  });
});
