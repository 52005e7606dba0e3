// oe through a real corporate proxy: Squid with Basic authentication
// (test/support/network/corporateProxies.ts), named by HTTPS_PROXY as any
// Node tool reads it, in front of the fake API over HTTPS with the test CA,
// trusted by --ca-file or NODE_EXTRA_CA_CERTS. oe resolves no name itself:
// Squid resolves api.plant.test to 127.0.0.1 from its own hosts file, so
// nothing leaves the machine.
import * as assert from 'node:assert/strict';
import { startFakeApi, TEST_SERIALS, type FakeApi } from '../support/fakeApi';
import { requireProxyBinaries, startSquid, waitUntil, type Squid } from '../support/network/corporateProxies';
import { startHttpsFront, type HttpsFront } from '../support/network/httpsFront';
import { PLANT_HOST, testPki } from '../support/network/testPki';
import { runOe, signedInEnv } from '../support/cli/runOe';

const PROXY_USER = 'plant-user';
const PROXY_PASSWORD = 'proxy-secret-7';

describe('oe through a real Squid', function () {
  this.timeout(90_000);
  const pki = testPki();
  let api: FakeApi | undefined;
  let front: HttpsFront | undefined;
  let squid: Squid | undefined;

  before(async () => {
    requireProxyBinaries();
    api = await startFakeApi();
    front = await startHttpsFront(api.port, pki.server);
    squid = await startSquid({ hosts: { [PLANT_HOST]: '127.0.0.1' }, user: PROXY_USER, password: PROXY_PASSWORD });
  });
  after(async () => {
    await squid?.close();
    await front?.close();
    await api?.close();
  });

  const env = (proxyPassword: string): Record<string, string> => {
    assert.ok(api !== undefined && front !== undefined && squid !== undefined);
    const base = `https://${PLANT_HOST}:${front.port}`;
    return {
      ...signedInEnv(api),
      OE_API_URL: base,
      OE_AUTH_URL: `${base}/oauth`,
      HTTPS_PROXY: squid.urlWithCredentials(PROXY_USER, proxyPassword),
    };
  };

  it('HTTPS_PROXY and --ca-file: reads the events through an authenticated CONNECT tunnel, exit 0', async () => {
    assert.ok(squid !== undefined && front !== undefined);
    const run = await runOe(['events', TEST_SERIALS.onboarded, '--ca-file', pki.caFile], { env: env(PROXY_PASSWORD) });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /ONBOARDING_COMPLETED/);
    const target = `CONNECT ${PLANT_HOST}:${front.port} ${PROXY_USER} `;
    assert.ok(
      await waitUntil(() => squid?.accessLog().some((line) => line.includes(' TCP_TUNNEL/200 ') && line.includes(target)) === true, 10_000),
      `Squid logged the tunnel:\n${squid.accessLog().join('\n')}`,
    );
  });

  it('NODE_EXTRA_CA_CERTS trusts the CA as for any Node tool; test-connection names the proxy, not its password', async () => {
    const run = await runOe(['test-connection'], { env: { ...env(PROXY_PASSWORD), NODE_EXTRA_CA_CERTS: pki.caFile } });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /Verdict: the connection works/);
    assert.match(run.stdout, /OK Proxy for the API and the authorization server .*127\.0\.0\.1/);
    assert.ok(!run.stdout.includes(PROXY_PASSWORD), 'the proxy password is not in the report');
  });

  it("a wrong proxy password: the proxy's refusal and oe's remedy (HTTPS_PROXY, not http.proxy), exit 3, no password in it", async () => {
    assert.ok(squid !== undefined);
    const run = await runOe(['events', TEST_SERIALS.onboarded, '--ca-file', pki.caFile], { env: env('not-the-password') });
    assert.equal(run.code, 3);
    assert.match(
      run.stderr,
      new RegExp(
        `^oe events: The proxy 127\\.0\\.0\\.1:${squid.port} rejected the proxy credentials \\(HTTP 407\\)\\. Correct the user and password in the proxy URL in HTTPS_PROXY\\.\n$`,
      ),
    );
    assert.ok(!run.stderr.includes('not-the-password') && !run.stdout.includes('not-the-password'));
  });

  it("without the CA: the certificate's cause and oe's remedy (--ca-file, NODE_EXTRA_CA_CERTS), exit 3", async () => {
    const run = await runOe(['events', TEST_SERIALS.onboarded], { env: env(PROXY_PASSWORD) });
    assert.equal(run.code, 3);
    assert.match(run.stderr, /certificate/i);
    assert.match(run.stderr, /pass it with --ca-file \(or NODE_EXTRA_CA_CERTS\)/);
    assert.doesNotMatch(run.stderr, /onboardingEvents\.|http\.proxy/);
  });
});
