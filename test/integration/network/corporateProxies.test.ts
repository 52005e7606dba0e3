// The real parts of a corporate network in the extension host, all on
// 127.0.0.1: Squid with Basic proxy authentication and mitmproxy's mitmdump
// as a TLS-inspecting proxy, in front of the fake API behind HTTPS with a test
// CA, at a name (api.plant.test) only the proxies resolve. The proxies are the
// Debian packages' binaries (npm test installs them first); a machine without
// them fails this suite with a message saying what to install.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EVENTS_PATH, startFakeApi, TEST_CREDENTIALS, TEST_SERIALS, TOKEN_PATH, type FakeApi } from '../../support/fakeApi';
import {
  addHostsEntry,
  delay,
  requireProxyBinaries,
  startMitmdump,
  startSquid,
  waitUntil,
  type Mitmdump,
  type Squid,
} from '../../support/network/corporateProxies';
import { startHttpsFront, type HttpsFront } from '../../support/network/httpsFront';
import { DIRECT_HOST, PLANT_HOST, PROXY_HOST, testPki } from '../../support/network/testPki';
import { activateExtension, signOutIfSignedIn, type TestedApi } from '../support/extension';

const PROXY_USER = 'plant-user';
const PROXY_PASSWORD = 'proxy-secret-7';
const ENVIRONMENTS = {
  squid: 'Plant via Squid',
  wrongPassword: 'Plant via Squid, wrong password',
  direct: 'Plant direct (http.noProxy)',
  mitmNoCa: 'Plant via mitmproxy, CA missing',
  mitm: 'Plant via mitmproxy',
  httpsSquid: 'Plant via https Squid',
  httpsSquidNoCa: 'Plant via https Squid, its CA missing',
  httpsSquidWrongName: 'Plant via https Squid, by a name its certificate lacks',
  httpsSquidNoCredentials: 'Plant via https Squid, no credentials',
  httpsSquidHeader: 'Plant via https Squid, http.proxyAuthorization',
};
/** How long a proxy may take to write a finished tunnel to its log on a busy machine. */
const LOG_WAIT_MS = 10_000;

async function update(section: string, key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration(section).update(key, value, vscode.ConfigurationTarget.Global);
}

function signInArgs(host: string, port: number, environment: string) {
  const origin = `https://${host}:${port}`;
  return { apiBaseUrl: origin, authUrl: `${origin}/oauth`, ...TEST_CREDENTIALS, environment };
}

describe('Networks: a real Squid and a real mitmproxy in front of the HTTPS API', function () {
  // Two proxies start here, on a machine that may be busy: generous, but bounded.
  this.timeout(90_000);
  const pki = testPki();
  let api: TestedApi;
  let fake: FakeApi | undefined;
  let front: HttpsFront | undefined;
  let squid: Squid | undefined;
  let httpsSquid: Squid | undefined;
  let mitm: Mitmdump | undefined;

  before(async function () {
    requireProxyBinaries();
    for (const name of ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy']) {
      if (process.env[name] !== undefined) {
        console.log(`  skipped: ${name} is set in the environment, and these tests set http.proxy themselves`);
        this.skip();
      }
    }
    api = await activateExtension();
    fake = await startFakeApi();
    front = await startHttpsFront(fake.port, pki.server);
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
    for (const environment of Object.values(ENVIRONMENTS)) await signOutIfSignedIn(environment);
    await update('http', 'proxy', undefined);
    await update('http', 'proxyAuthorization', undefined);
    await update('http', 'noProxy', undefined);
    await update('onboardingEvents', 'caCertificatesFile', undefined);
    await httpsSquid?.close();
    await mitm?.close();
    await squid?.close();
    await front?.close();
    await fake?.close();
  });

  /** Squid's log lines that name a host (as the CONNECT target or inside a URL). */
  const squidLinesFor = (host: string): string[] => (squid?.accessLog() ?? []).filter((line) => line.includes(host));

  async function signInAndLookUp(host: string, environment: string): Promise<void> {
    assert.ok(fake !== undefined && front !== undefined);
    const eventsBefore = fake.eventRequests(TEST_SERIALS.onboarded).length;
    await vscode.commands.executeCommand('onboardingEvents.signIn', signInArgs(host, front.port, environment));
    await vscode.commands.executeCommand('onboardingEvents.lookUpMachine', TEST_SERIALS.onboarded);
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.equal(api.machines.recent()[0], TEST_SERIALS.onboarded);
    const result = await api.testHooks.getEvents(TEST_SERIALS.onboarded, { force: true });
    assert.equal(result.events.length, 3);
    assert.ok(fake.eventRequests(TEST_SERIALS.onboarded).length > eventsBefore, 'the events requests reached the API');
  }

  describe('Squid with Basic proxy authentication', () => {
    before(async () => {
      assert.ok(squid !== undefined);
      await update('onboardingEvents', 'caCertificatesFile', pki.caFile);
      await update('http', 'noProxy', undefined);
      await update('http', 'proxy', squid.urlWithCredentials(PROXY_USER, PROXY_PASSWORD));
    });

    it('signs in and looks up a machine through Squid; Squid’s own log shows only CONNECT for the API host', async () => {
      assert.ok(squid !== undefined && front !== undefined && fake !== undefined);
      const tokensBefore = fake.tokenRequests().length;
      await signInAndLookUp(PLANT_HOST, ENVIRONMENTS.squid);
      assert.equal(fake.tokenRequests().length, tokensBefore + 1, 'one password grant');
      // Squid writes a tunnel to its log when the tunnel ends: end them as an idle timeout would.
      front.dropConnections();
      const tunnel = new RegExp(` TCP_TUNNEL/200 \\d+ CONNECT ${PLANT_HOST.replace(/\./g, '\\.')}:${front.port} ${PROXY_USER} `);
      const logged = await waitUntil(() => squidLinesFor(PLANT_HOST).some((line) => tunnel.test(line)), LOG_WAIT_MS);
      const lines = squidLinesFor(PLANT_HOST);
      assert.ok(logged, `Squid logged an authenticated tunnel to the API:\n${lines.join('\n')}`);
      for (const line of lines) {
        assert.match(
          line,
          new RegExp(` CONNECT ${PLANT_HOST.replace(/\./g, '\\.')}:${front.port} `),
          `only CONNECT for the API host: ${line}`,
        );
        assert.ok(!line.includes('/oauth') && !line.includes(EVENTS_PATH), `no path of ours in Squid's log: ${line}`);
      }
      assert.ok(front.handshakes >= 1, 'TLS ran end to end through the tunnel');
    });

    it('a wrong proxy password gives the proxy-authentication message, naming the proxy, and nothing reaches the API', async () => {
      assert.ok(squid !== undefined && front !== undefined && fake !== undefined);
      const tokensBefore = fake.tokenRequests().length;
      await update('http', 'proxy', squid.urlWithCredentials(PROXY_USER, 'not-the-password'));
      try {
        await assert.rejects(
          Promise.resolve(
            vscode.commands.executeCommand('onboardingEvents.signIn', signInArgs(PLANT_HOST, front.port, ENVIRONMENTS.wrongPassword)),
          ),
          (error: Error) => {
            assert.match(
              error.message,
              new RegExp(`The proxy 127\\.0\\.0\\.1:${squid?.port} rejected the proxy credentials \\(HTTP 407\\)`),
            );
            assert.ok(!error.message.includes('not-the-password'), 'the proxy password is not in the message');
            return true;
          },
        );
        assert.equal(fake.tokenRequests().length, tokensBefore, 'nothing reached the API');
        const denied = await waitUntil(
          () => squidLinesFor(PLANT_HOST).some((line) => / TCP_DENIED\/407 \d+ CONNECT /.test(line)),
          LOG_WAIT_MS,
        );
        assert.ok(denied, `Squid logged the refused CONNECT:\n${squidLinesFor(PLANT_HOST).join('\n')}`);
      } finally {
        await update('http', 'proxy', squid.urlWithCredentials(PROXY_USER, PROXY_PASSWORD));
      }
    });

    it('http.noProxy sends the API direct: sign-in and a look-up work and Squid’s log is unchanged', async function () {
      assert.ok(squid !== undefined && front !== undefined && fake !== undefined);
      // Direct, the client resolves the name itself: a line in /etc/hosts, removed after the test.
      const removeEntry = addHostsEntry(DIRECT_HOST);
      if (removeEntry === undefined) {
        if (process.env['CI'] === 'true')
          assert.fail('CI: /etc/hosts is not writable, and the http.noProxy test needs a name that resolves to 127.0.0.1');
        console.log('  skipped: /etc/hosts is not writable here');
        this.skip();
      }
      try {
        // The earlier sessions' own requests to api.plant.test went through Squid, as they should: end
        // them, and wait until the log has not grown for 1.5 s before it is read as "before".
        for (const environment of [ENVIRONMENTS.squid, ENVIRONMENTS.wrongPassword]) await signOutIfSignedIn(environment);
        front.dropConnections();
        let seen = squid.accessLog().length;
        let grewAt = Date.now();
        await waitUntil(() => {
          const now = squid?.accessLog().length ?? 0;
          if (now !== seen) [seen, grewAt] = [now, Date.now()];
          return Date.now() - grewAt >= 1_500;
        }, LOG_WAIT_MS);
        const before = squid.accessLog().length;
        await update('http', 'noProxy', [DIRECT_HOST]);
        const handshakesBefore = front.handshakes;
        await signInAndLookUp(DIRECT_HOST, ENVIRONMENTS.direct);
        assert.ok(front.handshakes > handshakesBefore, 'the requests reached the API over TLS');
        front.dropConnections();
        // A tunnel through Squid would be in the log within this wait (the first test shows it takes less).
        await delay(2_000);
        assert.deepEqual(squid.accessLog().slice(before), [], 'nothing went through Squid');
        assert.deepEqual(squidLinesFor(DIRECT_HOST), []);
      } finally {
        removeEntry();
        await update('http', 'noProxy', undefined);
      }
    });
  });

  describe('mitmproxy (mitmdump) inspecting TLS', () => {
    before(async () => {
      assert.ok(mitm !== undefined);
      await update('http', 'noProxy', undefined);
      await update('http', 'proxy', mitm.url);
    });

    it('without the inspecting proxy’s CA, sign-in gives the unknown-CA message naming the setting', async () => {
      assert.ok(front !== undefined && fake !== undefined);
      // The API's own CA is trusted, but the client now sees mitmproxy's certificate for the API's name.
      await update('onboardingEvents', 'caCertificatesFile', pki.caFile);
      const tokensBefore = fake.tokenRequests().length;
      await assert.rejects(
        Promise.resolve(
          vscode.commands.executeCommand('onboardingEvents.signIn', signInArgs(PLANT_HOST, front.port, ENVIRONMENTS.mitmNoCa)),
        ),
        (error: Error) => {
          assert.match(
            error.message,
            new RegExp(
              `${PLANT_HOST.replace(/\./g, '\\.')}:${front?.port} presented a certificate from a certificate authority this computer does not trust`,
            ),
          );
          assert.match(error.message, /onboardingEvents\.caCertificatesFile/);
          return true;
        },
      );
      assert.equal(fake.tokenRequests().length, tokensBefore, 'no token request got through');
    });

    it('with its CA in onboardingEvents.caCertificatesFile, sign-in and a look-up work, and mitmproxy saw the requests in the clear', async () => {
      assert.ok(mitm !== undefined && front !== undefined);
      await update('onboardingEvents', 'caCertificatesFile', mitm.caFile);
      await signInAndLookUp(PLANT_HOST, ENVIRONMENTS.mitm);
      // mitmdump prints each decrypted request as "METHOD URL", the URL with the address it connected
      // to (the addon's 127.0.0.1) and cut to its line width.
      const decrypted = (method: string, path: string): RegExp =>
        new RegExp(`: ${method} https://127\\.0\\.0\\.1:${front?.port}${path.slice(0, 24).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
      const seen = await waitUntil(() => decrypted('GET', EVENTS_PATH).test(mitm?.console ?? ''), LOG_WAIT_MS);
      assert.ok(seen, `mitmdump decrypted an events request:\n${mitm.console.slice(-2_000)}`);
      assert.match(mitm.console, decrypted('POST', TOKEN_PATH), 'mitmdump decrypted the token request');
      assert.ok(!mitm.console.includes(TEST_CREDENTIALS.password), 'mitmdump prints no body at its default detail');
    });
  });

  describe("an https:// Squid (TLS to the proxy itself) on VS Code's network path", () => {
    let removeEntry: (() => void) | undefined;
    const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

    before(async function () {
      // VS Code's stack resolves the proxy's name itself: a line in /etc/hosts, removed after the suite.
      removeEntry = addHostsEntry(PROXY_HOST);
      if (removeEntry === undefined) {
        if (process.env['CI'] === 'true') assert.fail('CI: /etc/hosts is not writable, and the https proxy needs a name');
        console.log('  skipped: /etc/hosts is not writable here');
        this.skip();
      }
      await update('http', 'noProxy', undefined);
    });

    after(() => {
      removeEntry?.();
    });

    async function signInFails(environment: string): Promise<string> {
      assert.ok(front !== undefined && fake !== undefined);
      const tokensBefore = fake.tokenRequests().length;
      let text = '';
      await assert.rejects(
        Promise.resolve(vscode.commands.executeCommand('onboardingEvents.signIn', signInArgs(PLANT_HOST, front.port, environment))),
        (error: Error) => {
          text = error.message;
          assert.ok(!text.includes(PROXY_PASSWORD), 'the proxy password is not in the message');
          return true;
        },
      );
      assert.equal(fake.tokenRequests().length, tokensBefore, 'nothing reached the API');
      return text;
    }

    it('with both CAs in onboardingEvents.caCertificatesFile, sign-in and a look-up work; Squid logged an authenticated CONNECT', async () => {
      assert.ok(httpsSquid !== undefined && front !== undefined);
      await update('onboardingEvents', 'caCertificatesFile', pki.bothCasFile);
      await update('http', 'proxy', httpsSquid.urlWithCredentials(PROXY_USER, PROXY_PASSWORD, PROXY_HOST));
      await signInAndLookUp(PLANT_HOST, ENVIRONMENTS.httpsSquid);
      front.dropConnections();
      const tunnel = new RegExp(` TCP_TUNNEL/200 \\d+ CONNECT ${escaped(PLANT_HOST)}:${front.port} ${PROXY_USER} `);
      const logged = await waitUntil(() => (httpsSquid?.accessLog() ?? []).some((line) => tunnel.test(line)), LOG_WAIT_MS);
      assert.ok(logged, `the https Squid logged an authenticated tunnel:\n${httpsSquid.accessLog().join('\n')}`);
    });

    it("without the proxy's CA, the message blames the proxy and names http.proxy and the CA setting, not the API", async () => {
      assert.ok(httpsSquid !== undefined);
      await update('onboardingEvents', 'caCertificatesFile', pki.caFile);
      await update('http', 'proxy', httpsSquid.urlWithCredentials(PROXY_USER, PROXY_PASSWORD, PROXY_HOST));
      const text = await signInFails(ENVIRONMENTS.httpsSquidNoCa);
      assert.match(
        text,
        new RegExp(
          `The proxy ${escaped(PROXY_HOST)}:${httpsSquid.port} presented a certificate from a certificate authority this computer does not trust`,
        ),
      );
      assert.match(text, /http\.proxy/);
      assert.match(text, /onboardingEvents\.caCertificatesFile/);
      assert.ok(!text.includes(PLANT_HOST) && !/API base URL/.test(text), `the API is not blamed: ${text}`);
    });

    it('addressed by a name its certificate lacks, the message says so about the proxy', async () => {
      assert.ok(httpsSquid !== undefined);
      await update('onboardingEvents', 'caCertificatesFile', pki.bothCasFile);
      await update('http', 'proxy', httpsSquid.urlWithCredentials(PROXY_USER, PROXY_PASSWORD, '127.0.0.1'));
      const text = await signInFails(ENVIRONMENTS.httpsSquidWrongName);
      assert.match(
        text,
        new RegExp(
          `The certificate of the proxy 127\\.0\\.0\\.1:${httpsSquid.port} was issued for another host name \\(ERR_TLS_CERT_ALTNAME_INVALID\\)`,
        ),
      );
      assert.match(text, /http\.proxy/);
      assert.ok(!text.includes(PLANT_HOST) && !/API base URL/.test(text), `the API is not blamed: ${text}`);
    });

    it('without credentials, the 407 names the scheme Squid asked for (Basic) and what VS Code does with it', async () => {
      assert.ok(httpsSquid !== undefined);
      await update('onboardingEvents', 'caCertificatesFile', pki.bothCasFile);
      await update('http', 'proxy', `https://${PROXY_HOST}:${httpsSquid.port}`);
      const text = await signInFails(ENVIRONMENTS.httpsSquidNoCredentials);
      assert.match(
        text,
        new RegExp(`The proxy ${escaped(PROXY_HOST)}:${httpsSquid.port} requires authentication \\(HTTP 407\\) and asks for Basic\\.`),
      );
      assert.match(text, /VS Code asks for the proxy's user and password in a dialog/);
      assert.doesNotMatch(text, /Kerberos/);
    });

    it('http.proxyAuthorization, which VS Code’s path drops, is sent by the extension itself: sign-in works and Squid logged the user', async () => {
      assert.ok(httpsSquid !== undefined && front !== undefined);
      await update('onboardingEvents', 'caCertificatesFile', pki.bothCasFile);
      await update('http', 'proxy', `https://${PROXY_HOST}:${httpsSquid.port}`);
      await update('http', 'proxyAuthorization', `Basic ${Buffer.from(`${PROXY_USER}:${PROXY_PASSWORD}`).toString('base64')}`);
      try {
        const before = httpsSquid.accessLog().length;
        await signInAndLookUp(PLANT_HOST, ENVIRONMENTS.httpsSquidHeader);
        front.dropConnections();
        const tunnel = new RegExp(` TCP_TUNNEL/200 \\d+ CONNECT ${escaped(PLANT_HOST)}:${front.port} ${PROXY_USER} `);
        const logged = await waitUntil(() => (httpsSquid?.accessLog() ?? []).slice(before).some((line) => tunnel.test(line)), LOG_WAIT_MS);
        assert.ok(logged, `Squid logged a tunnel with the header's user:\n${httpsSquid.accessLog().slice(before).join('\n')}`);
      } finally {
        await update('http', 'proxyAuthorization', undefined);
      }
    });
  });
});
