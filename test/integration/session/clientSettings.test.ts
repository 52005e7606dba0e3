// A change of a setting the API client is built from (a network setting, the timeout) makes a new
// client; any other setting keeps the one there is. Seen from outside: a new client has no token
// yet, so its first request makes a password grant at the fake API, where the old one's token
// would have been used again.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { startFakeApi, TEST_SERIALS, type FakeApi } from '../../support/fakeApi';
import { activateExtension, signIn, signOutIfSignedIn, type TestedApi } from '../support/extension';

describe('Settings the API client is built from', function () {
  this.timeout(30_000);
  let api: TestedApi;
  let fake: FakeApi;
  const changed: [string, string][] = [];

  async function update(section: string, key: string, value: unknown): Promise<void> {
    changed.push([section, key]);
    await vscode.workspace.getConfiguration(section).update(key, value, vscode.ConfigurationTarget.Global);
  }

  /** Password grants the next request makes: 1 when it had to get a token, so when its client was new. */
  async function grantsOfNextRequest(): Promise<number> {
    const before = fake.tokenRequests().length;
    await api.testHooks.getEvents(TEST_SERIALS.onboarded, { force: true });
    return fake.tokenRequests().length - before;
  }

  before(async () => {
    api = await activateExtension();
    fake = await startFakeApi();
    await signOutIfSignedIn();
    await signIn(fake);
    await api.testHooks.getEvents(TEST_SERIALS.onboarded);
  });

  after(async () => {
    for (const [section, key] of changed)
      await vscode.workspace.getConfiguration(section).update(key, undefined, vscode.ConfigurationTarget.Global);
    await signOutIfSignedIn();
    await fake.close();
  });

  it('rebuilds the client when a network setting changes, and keeps it when another setting does', async () => {
    await update('onboardingEvents', 'workspaceScan.maxFiles', 1999);
    assert.equal(await grantsOfNextRequest(), 0, 'workspaceScan.maxFiles: the same client, its token used again');
    await update('onboardingEvents', 'requestTimeoutSeconds', 45);
    assert.equal(await grantsOfNextRequest(), 1, 'requestTimeoutSeconds: a new client, which needs a token');
    await update('http', 'systemCertificates', false);
    assert.equal(await grantsOfNextRequest(), 1, 'http.systemCertificates: a new client, which needs a token');
    assert.equal(await grantsOfNextRequest(), 0, 'and that client keeps its token');
  });
});
