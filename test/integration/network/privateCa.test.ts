// HTTPS with a company CA in the real extension host: the fake API behind TLS
// with a certificate from a CA made at test time (openssl), and the CA file
// given in the machine-scoped setting onboardingEvents.caCertificatesFile.
// Without the setting, sign-in fails with the message that names the host
// and the setting; with it, sign-in and a look-up work.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { startFakeApi, TEST_CREDENTIALS, TEST_SERIALS, type FakeApi } from '../../support/fakeApi';
import { startHttpsFront, type HttpsFront } from '../../support/network/httpsFront';
import { testPki } from '../../support/network/testPki';
import { activateExtension, signOutIfSignedIn, type TestedApi } from '../support/extension';

const ENVIRONMENT = 'Plant HTTPS';

async function setCaFile(value: string | undefined): Promise<void> {
  await vscode.workspace.getConfiguration('onboardingEvents').update('caCertificatesFile', value, vscode.ConfigurationTarget.Global);
}

describe('Networks: HTTPS with a private CA in the extension host', function () {
  this.timeout(30_000);
  const pki = testPki();
  let api: TestedApi;
  let fake: FakeApi;
  let front: HttpsFront;

  before(async () => {
    api = await activateExtension();
    fake = await startFakeApi();
    front = await startHttpsFront(fake.port, pki.server);
  });

  after(async () => {
    await signOutIfSignedIn(ENVIRONMENT);
    await setCaFile(undefined);
    await front.close();
    await fake.close();
  });

  const signInArgs = () => {
    const origin = `https://127.0.0.1:${front.port}`;
    return { apiBaseUrl: origin, authUrl: `${origin}/oauth`, ...TEST_CREDENTIALS, environment: ENVIRONMENT };
  };

  it('without the CA, sign-in says the certificate authority is not trusted, naming the host and the setting', async () => {
    await setCaFile(undefined);
    await assert.rejects(Promise.resolve(vscode.commands.executeCommand('onboardingEvents.signIn', signInArgs())), (error: Error) => {
      assert.match(
        error.message,
        new RegExp(`127\\.0\\.0\\.1:${front.port} presented a certificate from a certificate authority this computer does not trust`),
      );
      assert.match(error.message, /onboardingEvents\.caCertificatesFile/);
      return true;
    });
    assert.equal(fake.tokenRequests().length, 0, 'nothing reached the API');
  });

  it('with onboardingEvents.caCertificatesFile set, signs in and looks up a machine over HTTPS', async () => {
    await setCaFile(pki.caFile);
    assert.equal(vscode.workspace.getConfiguration('onboardingEvents').get('caCertificatesFile'), pki.caFile);
    await vscode.commands.executeCommand('onboardingEvents.signIn', signInArgs());
    assert.equal(fake.tokenRequests().length, 1);
    await vscode.commands.executeCommand('onboardingEvents.lookUpMachine', TEST_SERIALS.onboarded);
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.equal(api.machines.recent()[0], TEST_SERIALS.onboarded);
    const result = await api.testHooks.getEvents(TEST_SERIALS.onboarded, { force: true });
    assert.equal(result.events.length, 3);
    assert.ok(fake.eventRequests(TEST_SERIALS.onboarded).length >= 1);
    assert.ok(front.handshakes >= 1, 'the requests came over TLS');
  });
});
