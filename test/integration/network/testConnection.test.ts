// Test Connection in the real extension host: signed in to the fake API behind
// HTTPS with a test CA, the command opens its report beside as a Markdown
// document; the test reads that document as the user would.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { startFakeApi, TEST_CREDENTIALS, type FakeApi } from '../../support/fakeApi';
import { startHttpsFront, type HttpsFront } from '../../support/network/httpsFront';
import { testPki } from '../../support/network/testPki';
import { activateExtension, signOutIfSignedIn } from '../support/extension';

const ENVIRONMENT = 'Plant Test Connection';
const HEADING = '# Onboarding Events: connection test';

async function setCaFile(value: string | undefined): Promise<void> {
  await vscode.workspace.getConfiguration('onboardingEvents').update('caCertificatesFile', value, vscode.ConfigurationTarget.Global);
}

/** The report the last run opened: the newest untitled Markdown document that starts with the heading. */
function reportDocuments(): vscode.TextDocument[] {
  return vscode.workspace.textDocuments.filter(
    (document) => document.isUntitled && document.languageId === 'markdown' && document.getText().startsWith(HEADING),
  );
}

describe('Test Connection in the extension host', function () {
  this.timeout(60_000);
  const pki = testPki();
  let fake: FakeApi;
  let front: HttpsFront;

  before(async () => {
    await activateExtension();
    fake = await startFakeApi();
    front = await startHttpsFront(fake.port, pki.server);
    await setCaFile(pki.caFile);
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
    await signOutIfSignedIn(ENVIRONMENT);
    await setCaFile(undefined);
    await front.close();
    await fake.close();
  });

  async function runAndRead(): Promise<{ result: { ok: boolean } | undefined; text: string }> {
    const before = new Set(reportDocuments());
    const result = await vscode.commands.executeCommand<{ ok: boolean } | undefined>('onboardingEvents.testConnection');
    const opened = reportDocuments().filter((document) => !before.has(document));
    assert.equal(opened.length, 1, 'one report document opened');
    const [document] = opened;
    assert.ok(document !== undefined);
    assert.equal(vscode.window.activeTextEditor?.document, document, 'the report is the active editor');
    const text = document.getText();
    for (const secret of [TEST_CREDENTIALS.password, TEST_CREDENTIALS.clientSecret])
      assert.ok(!text.includes(secret), 'a secret in the report');
    return { result, text };
  }

  it('a healthy environment: the report shows each step OK, the CA file as the trust store, the token facts and the events request', async () => {
    const tokensBefore = fake.tokenRequests().length;
    const { result, text } = await runAndRead();
    assert.deepEqual(result, { ok: true });
    assert.match(text, /## Verdict: the connection works/);
    assert.match(text, new RegExp(`- Environment: \`${ENVIRONMENT}\``));
    assert.match(text, /\*\*OK\*\* TCP connection to 127\.0\.0\.1:\d+ \(\d+ ms\)/);
    assert.match(text, /found in the file in onboardingEvents\.caCertificatesFile/);
    assert.match(text, /\*\*OK\*\* Token request POST .*: HTTP 200: `Bearer` token, expires_in \d+ s, scope `api`/);
    assert.match(text, /\*\*OK\*\* Events request GET .*: HTTP 200: 0 events\./);
    assert.ok(text.includes(`- ${vscode.env.appName}: \`${vscode.version}\``), 'the report names the VS Code version');
    assert.equal(fake.tokenRequests().length, tokensBefore + 1, 'the check made its own token request');
  });

  it('without the CA file: the TLS step fails and the verdict names the setting', async () => {
    await setCaFile(undefined);
    try {
      const { result, text } = await runAndRead();
      assert.deepEqual(result, { ok: false });
      assert.match(text, /## Verdict: the connection fails/);
      assert.match(text, /\*\*FAILED\*\* TLS handshake with 127\.0\.0\.1:\d+ \(\d+ ms\): TLSv1\.3, certificate refused/);
      assert.match(text, /set onboardingEvents\.caCertificatesFile to that file's path/);
      assert.match(text, /\*\*skipped\*\* Token request/);
    } finally {
      await setCaFile(pki.caFile);
    }
  });
});

describe('Test Connection in the extension host at a wrong API address', function () {
  this.timeout(60_000);
  const WRONG = 'Plant Wrong Address';
  let fake: FakeApi;

  before(async () => {
    await activateExtension();
    fake = await startFakeApi();
    // The token endpoint is right, the API base URL is not: every path under it answers 404.
    await vscode.commands.executeCommand('onboardingEvents.signIn', {
      apiBaseUrl: `${fake.baseUrl}/wrong`,
      authUrl: fake.authUrl,
      ...TEST_CREDENTIALS,
      environment: WRONG,
    });
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await signOutIfSignedIn(WRONG);
    await fake.close();
  });

  it('a wrong API base URL (every path 404): the report says the API was not found at this address, never that the connection works', async () => {
    const before = new Set(reportDocuments());
    const result = await vscode.commands.executeCommand<{ ok: boolean } | undefined>('onboardingEvents.testConnection');
    const [document] = reportDocuments().filter((candidate) => !before.has(candidate));
    assert.ok(document !== undefined, 'a report document opened');
    const text = document.getText();
    assert.deepEqual(result, { ok: false }, text);
    assert.doesNotMatch(text, /the connection works/);
    assert.match(text, /## Verdict: the connection fails\n\n\*\*The API was not found at this address\.\*\*/);
    assert.match(text, /\*\*FAILED\*\* Events request GET http:\/\/127\.0\.0\.1:\d+\/wrong\/public\/api\/onboarding-events\/events /);
  });
});
