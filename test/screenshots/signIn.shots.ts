// The sign-in flow step by step, the result, the status-bar menu and the
// accounts the Accounts menu manages, against the fake service on loopback.
import * as vscode from 'vscode';
import { startFakeApi, TEST_CREDENTIALS, type FakeApi } from '../support/fakeApi';
import { snap } from './snap';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function accept(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
  await sleep(300);
}

describe('Sign-in screens', function () {
  this.timeout(120_000);
  let fake: FakeApi;
  const config = () => vscode.workspace.getConfiguration('onboardingEvents');

  before(async () => {
    fake = await startFakeApi();
    await vscode.extensions.getExtension('onboarding-events.onboarding-events')?.activate();
    // The URLs come from the settings, as a team would share them in a workspace or profile.
    await config().update('apiBaseUrl', fake.baseUrl, vscode.ConfigurationTarget.Global);
    await config().update('authUrl', fake.authUrl, vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await vscode.commands.executeCommand('onboardingEvents.signOut', { environment: 'Test system' }).then(undefined, () => undefined);
    await config().update('apiBaseUrl', undefined, vscode.ConfigurationTarget.Global);
    await config().update('authUrl', undefined, vscode.ConfigurationTarget.Global);
    await fake.close();
  });

  it('walks through the seven steps, checks the credentials and signs in', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('onboardingEvents.machines.focus');
    // Not awaited: the flow waits for the user, and we play the user.
    void vscode.commands.executeCommand('onboardingEvents.signIn', {
      prefill: {
        clientId: TEST_CREDENTIALS.clientId,
        clientSecret: TEST_CREDENTIALS.clientSecret,
        username: TEST_CREDENTIALS.username,
        password: TEST_CREDENTIALS.password,
        environment: 'Test system',
      },
    });
    const steps = ['api-url', 'auth-url', 'client-id', 'client-secret', 'username', 'password', 'environment-name'];
    for (const [index, step] of steps.entries()) {
      await snap(`sign-in-step-${index + 1}-${step}`, 900);
      await accept();
    }
    await snap('sign-in-signed-in', 1500);
  });

  it('shows the session menu from the status bar', async () => {
    void vscode.commands.executeCommand('onboardingEvents.sessionMenu');
    await snap('sign-in-status-bar-menu', 900);
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  });

  it('lists the account under Manage Accounts', async () => {
    void vscode.commands.executeCommand('workbench.action.manageAccounts');
    await snap('sign-in-accounts', 1200);
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  });
});
