// Sign-in in the real extension host, against the fake service on loopback:
// the argument form of the command, SecretStorage, the Accounts menu,
// environments, silent token renewal, revoked credentials, and a search of
// everything the extension wrote outside SecretStorage for the secrets.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import type { SessionReader } from '../support/extension';
import { startFakeApi, TEST_CREDENTIALS, TEST_SERIALS, type FakeApi } from '../../support/fakeApi';
import { activateExtension, EXTENSION_ID, signInArgs, signOut, type TestedApi } from '../support/extension';
import { user } from '../support/user';

const PROVIDER_ID = 'onboarding-events';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > until) assert.fail(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

function environmentIdOf(hook: SessionReader, name: string): string | undefined {
  const stored = JSON.parse(hook.storedStateJson()) as { globalState: Record<string, unknown> };
  const list = stored.globalState['onboardingEvents.environments'];
  return Array.isArray(list) ? (list as { id: string; name: string }[]).find((env) => env.name === name)?.id : undefined;
}

function filesUnder(dir: string): string[] {
  let out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    out = statSync(path).isDirectory() ? [...out, ...filesUnder(path)] : [...out, path];
  }
  return out;
}

describe('Sign-in: environments, SecretStorage and the Accounts menu', function () {
  this.timeout(30_000);
  let api: TestedApi;
  let hook: SessionReader;
  let fake: FakeApi;
  let other: FakeApi;
  const created = ['Session A', 'Session B', 'Session Wrong', 'Session Renewal', 'Session Revoked', 'Session Menu', 'Session Asked'];

  before(async () => {
    api = await activateExtension();
    assert.ok(api.testHooks.session, 'the session test hook exists in ExtensionMode.Test');
    hook = api.testHooks.session;
    fake = await startFakeApi();
    other = await startFakeApi();
  });

  after(async () => {
    for (const name of created) if (hook.environmentNames().includes(name)) await signOut(name);
    await fake.close();
    await other.close();
  });

  it('signs in with the argument object once the user agrees, stores the secrets and returns nothing secret', async () => {
    const result = await vscode.commands.executeCommand('onboardingEvents.signIn', signInArgs(fake, 'Session A'));
    assert.deepEqual(result, { environment: 'Session A' });
    assert.deepEqual(hook.state(), { kind: 'signed-in', environment: 'Session A' });
    // It proved the credentials with exactly one password grant before storing them.
    assert.equal(fake.tokenRequests().length, 1);
    const id = environmentIdOf(hook, 'Session A');
    assert.ok(id !== undefined, 'the environment is listed in global state');
    assert.equal(await hook.hasStoredSecret(id), true);
  });

  it('lists the signed-in user in the Accounts menu as "username (Environment)"', async () => {
    await waitFor('the account to appear', async () =>
      (await vscode.authentication.getAccounts(PROVIDER_ID)).some(
        (account) => account.label === `${TEST_CREDENTIALS.username} · Session A`,
      ),
    );
  });

  it('makes vscode.authentication.getSession return the session, which carries no credential', async () => {
    // VS Code lets an extension read a provider's session only after the user
    // allowed it once, even for the provider's own extension: request access
    // (the Accounts menu then offers it), grant it the way a user does, and
    // from then on the silent call returns the session.
    let session = await vscode.authentication.getSession(PROVIDER_ID, [], { silent: true });
    if (session === undefined) {
      assert.equal(await vscode.authentication.getSession(PROVIDER_ID, []), undefined);
      void vscode.commands.executeCommand(`${PROVIDER_ID}${EXTENSION_ID}Access`);
      await sleep(800);
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      await waitFor(
        'access to be granted',
        async () => (await vscode.authentication.getSession(PROVIDER_ID, [], { silent: true })) !== undefined,
      );
      session = await vscode.authentication.getSession(PROVIDER_ID, [], { silent: true });
    }
    assert.ok(session);
    assert.equal(session.account.label, `${TEST_CREDENTIALS.username} · Session A`);
    const text = JSON.stringify(session);
    for (const secret of [TEST_CREDENTIALS.clientSecret, TEST_CREDENTIALS.password]) assert.equal(text.includes(secret), false);
    const bearer = fake.requests.map((request) => request.headers['authorization'] ?? '').filter((value) => value.startsWith('Bearer '));
    for (const value of bearer) assert.equal(text.includes(value.slice('Bearer '.length)), false);
  });

  it('reads events through the session with the stored credentials', async () => {
    const result = await api.testHooks.getEvents(TEST_SERIALS.onboarded, { force: true });
    assert.ok(result.events.length > 0);
    assert.equal(fake.eventRequests(TEST_SERIALS.onboarded).length, 1);
  });

  it('refuses a wrong password: stores nothing, keeps the current sign-in, and says so', async () => {
    const before = hook.storedStateJson();
    await assert.rejects(
      Promise.resolve(
        vscode.commands.executeCommand('onboardingEvents.signIn', signInArgs(fake, 'Session Wrong', { password: 'wrong-password' })),
      ),
      (error: Error) => {
        assert.match(error.message, /rejected the client id, client secret, username or password\. Nothing was stored\./);
        assert.equal(error.message.includes('wrong-password'), false);
        return true;
      },
    );
    assert.equal(hook.storedStateJson(), before);
    assert.equal(hook.environmentNames().includes('Session Wrong'), false);
    assert.deepEqual(hook.state(), { kind: 'signed-in', environment: 'Session A' });
  });

  it('refuses plain http to a host that is not loopback without sending anything', async () => {
    const requestsBefore = fake.requests.length;
    await assert.rejects(
      Promise.resolve(
        vscode.commands.executeCommand('onboardingEvents.signIn', {
          ...signInArgs(fake, 'Session Wrong'),
          apiBaseUrl: 'http://api.example.com',
        }),
      ),
      /apiBaseUrl: Use https:\/\//,
    );
    assert.equal(fake.requests.length, requestsBefore);
  });

  it('keeps two environments side by side and switches between them', async () => {
    await vscode.commands.executeCommand('onboardingEvents.signIn', signInArgs(other, 'Session B'));
    assert.deepEqual(hook.state(), { kind: 'signed-in', environment: 'Session B' });
    assert.ok(hook.environmentNames().includes('Session A') && hook.environmentNames().includes('Session B'));
    await api.testHooks.getEvents(TEST_SERIALS.onboarded, { force: true });
    assert.equal(other.eventRequests(TEST_SERIALS.onboarded).length, 1, 'B reads from its own API');

    const result = await vscode.commands.executeCommand('onboardingEvents.switchEnvironment', { environment: 'Session A' });
    assert.deepEqual(result, { environment: 'Session A' });
    assert.deepEqual(hook.state(), { kind: 'signed-in', environment: 'Session A' });
    const before = fake.eventRequests(TEST_SERIALS.onboarded).length;
    await api.testHooks.getEvents(TEST_SERIALS.onboarded, { force: true });
    assert.equal(fake.eventRequests(TEST_SERIALS.onboarded).length, before + 1, 'A reads from its own API again');
    assert.equal(other.eventRequests(TEST_SERIALS.onboarded).length, 1);
    const accounts = (await vscode.authentication.getAccounts(PROVIDER_ID)).map((account) => account.label);
    assert.ok(accounts.includes(`${TEST_CREDENTIALS.username} · Session B`));
  });

  it('signs out of one environment and removes everything it stored for it', async () => {
    const id = environmentIdOf(hook, 'Session B');
    assert.ok(id !== undefined);
    await signOut('Session B');
    assert.equal(await hook.hasStoredSecret(id), false);
    // What sign-in stored in global state (other features may key their own data by environment).
    const stored = (JSON.parse(hook.storedStateJson()) as { globalState: Record<string, unknown> }).globalState;
    const signInState = JSON.stringify([stored['onboardingEvents.environments'], stored['onboardingEvents.lastEnvironment']]);
    assert.equal(signInState.includes(id), false);
    assert.equal(signInState.includes('Session B'), false);
    const accounts = (await vscode.authentication.getAccounts(PROVIDER_ID)).map((account) => account.label);
    assert.equal(accounts.includes(`${TEST_CREDENTIALS.username} · Session B`), false);
    // The other environment is untouched and still active.
    assert.deepEqual(hook.state(), { kind: 'signed-in', environment: 'Session A' });
  });

  it('signs out of the active environment from the Accounts menu', async () => {
    await vscode.commands.executeCommand('onboardingEvents.signIn', signInArgs(other, 'Session Menu'));
    const id = environmentIdOf(hook, 'Session Menu');
    assert.ok(id !== undefined);
    // The menu's "Sign Out" runs this command; in tests VS Code confirms on its own.
    await vscode.commands.executeCommand('_signOutOfAccount', {
      providerId: PROVIDER_ID,
      accountLabel: `${TEST_CREDENTIALS.username} · Session Menu`,
    });
    await waitFor('the sign-out', () => !hook.environmentNames().includes('Session Menu'));
    assert.equal(await hook.hasStoredSecret(id), false);
    assert.deepEqual(hook.state(), { kind: 'signed-out' });
  });

  it('renews an expired token silently with the stored secrets', async () => {
    const shortLived = await startFakeApi({ tokenLifetimeSeconds: 1 });
    try {
      await vscode.commands.executeCommand('onboardingEvents.signIn', signInArgs(shortLived, 'Session Renewal'));
      const notificationsBefore = user.shown().length;
      shortLived.clearRequests();
      await api.testHooks.getEvents(TEST_SERIALS.onboarded, { force: true });
      await sleep(1300);
      await api.testHooks.getEvents(TEST_SERIALS.onboarded, { force: true });
      // The first look-up uses the token the sign-in's verification obtained; the renewal is the one grant after it.
      assert.equal(shortLived.tokenRequests().length, 1, 'one grant per token lifetime, the renewal without asking');
      const authorizations = shortLived.eventRequests(TEST_SERIALS.onboarded).map((request) => request.headers['authorization']);
      assert.equal(authorizations.length, 2);
      assert.notEqual(authorizations[0], authorizations[1], 'the second request carried the renewed token');
      assert.equal(user.shown().length, notificationsBefore, 'nobody was asked anything');
      assert.deepEqual(hook.state(), { kind: 'signed-in', environment: 'Session Renewal' });
    } finally {
      await signOut('Session Renewal');
      await shortLived.close();
    }
  });

  it('turns revoked credentials into one notification and the signed-out state, not a storm of errors', async () => {
    const revoking = await startFakeApi();
    try {
      await vscode.commands.executeCommand('onboardingEvents.signIn', signInArgs(revoking, 'Session Revoked'));
      await api.testHooks.getEvents(TEST_SERIALS.onboarded, { force: true });
      const notificationsBefore = user.shown().length;
      revoking.setPassword(TEST_CREDENTIALS.username, 'changed-by-the-administrator');
      revoking.revokeAllTokens();
      const serials = Object.values(TEST_SERIALS);
      const results = await Promise.allSettled(serials.map((serial) => api.testHooks.getEvents(serial, { force: true })));
      assert.ok(results.every((result) => result.status === 'rejected'));
      assert.deepEqual(hook.state(), { kind: 'credentials-rejected', environment: 'Session Revoked' });
      // Views asking again see "not signed in", and nobody is told twice.
      await assert.rejects(api.testHooks.getEvents(TEST_SERIALS.onboarded, { force: true }));
      const shown = user.shown().slice(notificationsBefore);
      assert.equal(shown.length, 1, `exactly one notification, got ${JSON.stringify(shown)}`);
      const [notification] = shown;
      assert.ok(notification);
      assert.equal(notification.kind, 'warning');
      assert.match(notification.message, /"Session Revoked" no longer work/);
      // Only the first failing request reached the token endpoint twice (the core's one retry); the rest stopped.
      assert.ok(revoking.tokenRequests().length <= 1 + serials.length + 1);
    } finally {
      await signOut('Session Revoked');
      await revoking.close();
    }
  });

  it('writes no secret outside SecretStorage: not in its log, settings, global or workspace state', async () => {
    await vscode.commands.executeCommand('onboardingEvents.signIn', signInArgs(fake, 'Session A'));
    await api.testHooks.getEvents(TEST_SERIALS.onboarded, { force: true });
    await vscode.commands.executeCommand('onboardingEvents.signIn', signInArgs(fake, 'Session Wrong', { password: 'wrong-password' })).then(
      () => assert.fail('the wrong password was accepted'),
      () => undefined,
    );
    await sleep(1500); // the log file is written asynchronously
    const tokens = fake.requests
      .map((request) => request.headers['authorization'] ?? '')
      .filter((value) => value.startsWith('Bearer '))
      .map((value) => value.slice('Bearer '.length));
    assert.ok(tokens.length > 0, 'the search includes real access tokens');
    const secrets = [TEST_CREDENTIALS.clientSecret, TEST_CREDENTIALS.password, 'wrong-password', ...tokens];
    const forms = secrets.flatMap((secret) => [secret, encodeURIComponent(secret), new URLSearchParams({ s: secret }).toString().slice(2)]);

    const logFiles = filesUnder(dirname(hook.logDirectory));
    const logText = logFiles.map((file) => readFileSync(file, 'utf8')).join('\n');
    assert.match(logText, /Signed in to Session A/, 'the search covers the extension log');
    assert.match(logText, /onboarding-events\/events/, 'request lines are logged');
    const places: [string, string][] = [
      ['log', logText],
      ['global and workspace state', hook.storedStateJson()],
      ['settings', JSON.stringify([vscode.workspace.getConfiguration('onboardingEvents'), vscode.workspace.getConfiguration('http')])],
      ['notifications', JSON.stringify(user.shown())],
      ['accounts', JSON.stringify(await vscode.authentication.getAccounts(PROVIDER_ID))],
    ];
    for (const [where, text] of places) {
      for (const form of forms) assert.equal(text.includes(form), false, `a secret appears in the ${where}`);
    }
  });

  it('asks in a modal before an argument signs in or out, in the extension host under test as anywhere: it names the URLs and where the password goes (issue 37)', async () => {
    const since = user.shown().length;
    assert.deepEqual(await vscode.commands.executeCommand('onboardingEvents.signIn', signInArgs(fake, 'Session Asked')), {
      environment: 'Session Asked',
    });
    try {
      const asked = user.shownSince(since).filter((shown) => shown.modal);
      assert.equal(asked.length, 1, `one question before signing in: ${JSON.stringify(asked)}`);
      const [question] = asked;
      assert.ok(question);
      assert.equal(question.message, 'Sign in to "Session Asked" with these URLs?');
      assert.ok(question.detail?.includes(`API: ${fake.baseUrl}`), question.detail);
      assert.ok(question.detail?.includes(`(receives the password): ${fake.authUrl.replace(/\/+$/, '')}/token`), question.detail);
      assert.match(question.detail ?? '', /Another extension or a link asked for this/);
      assert.equal(question.answer, 'Sign In', "the test's user agreed");
      const signOutSince = user.shown().length;
      await signOut('Session Asked');
      assert.deepEqual(
        user
          .shownSince(signOutSince)
          .filter((shown) => shown.modal)
          .map((shown) => shown.message),
        [`Sign out of Session Asked (${TEST_CREDENTIALS.username})?`],
      );
      assert.equal(hook.environmentNames().includes('Session Asked'), false);
    } finally {
      if (hook.environmentNames().includes('Session Asked')) await signOut('Session Asked');
    }
  });
});
