// The Test Connection report beside the editor, signed in to the fake API
// behind HTTPS with a test CA; then the same check with the CA file cleared.
import * as vscode from 'vscode';
import { startFakeApi, TEST_CREDENTIALS, type FakeApi } from '../support/fakeApi';
import { startHttpsFront, type HttpsFront } from '../support/network/httpsFront';
import { testPki } from '../support/network/testPki';
import { snap } from './snap';

const ENVIRONMENT = 'Plant HTTPS';

describe('Test Connection report', function () {
  this.timeout(120_000);
  const pki = testPki();
  let fake: FakeApi;
  let front: HttpsFront;
  const config = () => vscode.workspace.getConfiguration('onboardingEvents');

  before(async () => {
    fake = await startFakeApi();
    front = await startHttpsFront(fake.port, pki.server);
    await vscode.extensions.getExtension('onboarding-events.onboarding-events')?.activate();
    await config().update('caCertificatesFile', pki.caFile, vscode.ConfigurationTarget.Global);
    const origin = `https://127.0.0.1:${front.port}`;
    await vscode.commands.executeCommand('onboardingEvents.signIn', {
      apiBaseUrl: origin,
      authUrl: `${origin}/oauth`,
      ...TEST_CREDENTIALS,
      environment: ENVIRONMENT,
    });
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('onboardingEvents.signOut', { environment: ENVIRONMENT }).then(undefined, () => undefined);
    await config().update('caCertificatesFile', undefined, vscode.ConfigurationTarget.Global);
    await front.close();
    await fake.close();
  });

  it('opens the report of a healthy environment beside the editor', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('onboardingEvents.machines.focus');
    await vscode.commands.executeCommand('onboardingEvents.testConnection');
    await snap('test-connection-report', 1500);
  });

  it('opens the report of an unknown CA', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await config().update('caCertificatesFile', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('onboardingEvents.testConnection');
    await snap('test-connection-unknown-ca', 1500);
  });
});
