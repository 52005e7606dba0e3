// Our requests take VS Code's network path in the real extension host: with
// http.proxy set (and no environment variable), a sign-in and a look-up of ours
// and a fetch of the extension host's own reach the API through the same
// recording proxy on 127.0.0.1, which resolves the API's name itself. The API
// is HTTPS behind a test CA given in onboardingEvents.caCertificatesFile: the CA
// travels to VS Code's patched fetch on a dispatcher (core/http/networkPath.ts),
// and the request still takes VS Code's proxy.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { startFakeApi, TEST_CREDENTIALS, TEST_SERIALS, type FakeApi } from '../../support/fakeApi';
import { startHttpsFront, type HttpsFront } from '../../support/network/httpsFront';
import { startRecordingProxy, type RecordingProxy } from '../../support/network/recordingProxy';
import { PLANT_HOST, testPki } from '../../support/network/testPki';
import { activateExtension, signOutIfSignedIn, type TestedApi } from '../support/extension';
import { skipBecause } from '../../support/skipBecause';

const ENVIRONMENT = 'Plant via VS Code proxy';

async function update(section: string, key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration(section).update(key, value, vscode.ConfigurationTarget.Global);
}

describe("Networks: our requests take VS Code's network path", function () {
  this.timeout(30_000);
  const pki = testPki();
  let api: TestedApi;
  let fake: FakeApi;
  let front: HttpsFront;
  let proxy: RecordingProxy;

  before(async function () {
    for (const name of ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy']) {
      if (process.env[name] !== undefined) {
        // VS Code's network path would take that proxy for the hosts these tests expect to reach without one.
        skipBecause(this, `${name} is set in the environment of VS Code, and these tests set http.proxy themselves`);
      }
    }
    api = await activateExtension();
    fake = await startFakeApi();
    front = await startHttpsFront(fake.port, pki.server);
    proxy = await startRecordingProxy({ hosts: [PLANT_HOST] });
    await update('onboardingEvents', 'caCertificatesFile', pki.caFile);
    await update('http', 'proxy', proxy.url);
  });

  after(async () => {
    await signOutIfSignedIn(ENVIRONMENT);
    await update('http', 'proxy', undefined);
    await update('onboardingEvents', 'caCertificatesFile', undefined);
    await proxy.close();
    await front.close();
    await fake.close();
  });

  it('a sign-in and a look-up of ours and a fetch of the host reach the API through the proxy in http.proxy', async () => {
    const origin = `https://${PLANT_HOST}:${front.port}`;
    await vscode.commands.executeCommand('onboardingEvents.signIn', {
      apiBaseUrl: origin,
      authUrl: `${origin}/oauth`,
      ...TEST_CREDENTIALS,
      environment: ENVIRONMENT,
    });
    const result = await api.testHooks.getEvents(TEST_SERIALS.onboarded, { force: true });
    assert.equal(result.events.length, 3);
    assert.equal(fake.tokenRequests().length, 1, 'one password grant: the verification’s token serves the session');
    assert.ok(fake.eventRequests(TEST_SERIALS.onboarded).length >= 1);
    // fetch (and only fetch, not undici's request API) sends Sec-Fetch-Mode: the engine was the host's fetch.
    for (const request of [...fake.tokenRequests(), ...fake.eventRequests(TEST_SERIALS.onboarded)]) {
      assert.equal(request.headers['sec-fetch-mode'], 'cors', `${request.method} ${request.path} came through the host's fetch`);
    }

    // The extension host's own fetch, as any extension calls it: VS Code's proxy carries it too.
    const own = await fetch(`http://${PLANT_HOST}:${fake.port}/oauth/.well-known/none`);
    assert.ok(own.status > 0);

    const tunnels = proxy.visits.filter((visit) => visit.method === 'CONNECT' && visit.target === `${PLANT_HOST}:${front.port}`);
    // VS Code's proxy agent tunnels plain-http targets too, so the host's fetch shows as a CONNECT of its own.
    const hostFetch = proxy.visits.filter((visit) => visit.method === 'CONNECT' && visit.target === `${PLANT_HOST}:${fake.port}`);
    assert.ok(tunnels.length >= 1, `our requests tunnelled through the proxy: ${JSON.stringify(proxy.visits)}`);
    assert.equal(hostFetch.length, 1, `the host's fetch went through the proxy: ${JSON.stringify(proxy.visits)}`);
    assert.ok(front.handshakes >= 1, 'our requests reached the API over TLS, verified with the CA file');
  });

  it('a proxy that refuses the credentials in http.proxy gives the proxy-authentication message, naming the proxy', async () => {
    const guarded = await startRecordingProxy({ hosts: [PLANT_HOST], credentials: { user: 'plant', password: 'right' } });
    try {
      await update('http', 'proxy', guarded.urlWithCredentials('plant', 'wrong'));
      const origin = `https://${PLANT_HOST}:${front.port}`;
      const before = fake.tokenRequests().length;
      await assert.rejects(
        Promise.resolve(
          vscode.commands.executeCommand('onboardingEvents.signIn', {
            apiBaseUrl: origin,
            authUrl: `${origin}/oauth`,
            ...TEST_CREDENTIALS,
            environment: `${ENVIRONMENT} 407`,
          }),
        ),
        (error: Error) => {
          assert.match(
            error.message,
            new RegExp(`The proxy 127\\.0\\.0\\.1:${guarded.port} rejected the proxy credentials \\(HTTP 407\\)`),
          );
          assert.ok(!error.message.includes('wrong'), 'the proxy password is not in the message');
          return true;
        },
      );
      assert.equal(fake.tokenRequests().length, before, 'nothing reached the API');
      assert.ok(guarded.visits.some((visit) => visit.method === 'CONNECT'));
    } finally {
      await update('http', 'proxy', proxy.url);
      await guarded.close();
    }
  });
});
