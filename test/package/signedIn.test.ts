// The installed .vsix (not the repository) signs in to the fake API and shows
// a machine with its events in the Machines tree: the path a new user takes.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExportedApi } from '../integration/support/extension';
import { startFakeApi, TEST_CREDENTIALS, TEST_SERIALS, type FakeApi } from '../support/fakeApi';

const EXTENSION_ID = 'onboarding-events.onboarding-events';

describe('The packaged .vsix against the fake API', () => {
  let fake: FakeApi;
  let api: ExportedApi;

  before(async () => {
    // scripts/run-integration.mjs chose the port and put this fake's sign-in into OE_DEMO_SIGN_IN.
    fake = await startFakeApi({ port: Number(process.env['OE_PACKAGE_FAKE_PORT'] ?? '0') });
    const extension = vscode.extensions.getExtension<ExportedApi>(EXTENSION_ID);
    assert.ok(extension);
    api = await extension.activate();
  });

  after(async () => {
    // No sign-out: in production, signing out by an argument asks the user in a modal (README, "Security"),
    // which a test cannot answer; the scratch profile this host ran in is deleted after the run.
    await fake.close();
  });

  // In production the argument form asks in a modal first; the one-step sign-in granted by the
  // extension host's OE_DEMO_SIGN_IN (as `npm run demo` does) is the only silent path, checked here.
  it('signs in with the argument object and shows a pinned machine with its events in the tree', async () => {
    await vscode.commands.executeCommand('onboardingEvents.signIn', {
      apiBaseUrl: fake.baseUrl,
      authUrl: fake.authUrl,
      ...TEST_CREDENTIALS,
      environment: 'Package test',
    });
    assert.equal(fake.tokenRequests().length, 1, 'the credentials were verified with one token request');

    await vscode.commands.executeCommand('onboardingEvents.addMachine', { serialNumber: TEST_SERIALS.onboarded });
    assert.ok(api.machines.pinned().includes(TEST_SERIALS.onboarded));

    await vscode.commands.executeCommand('onboardingEvents.machines.focus');
    // Revealing resolves only once the tree has produced the machine's node;
    // refreshing it through its command loads the events as the tree does.
    await api.machines.reveal(TEST_SERIALS.onboarded);
    await vscode.commands.executeCommand('onboardingEvents.refreshMachine', { serialNumber: TEST_SERIALS.onboarded });
    const loaded = api.events.peek(TEST_SERIALS.onboarded);
    assert.ok(loaded, "the machine's events are in the cache the tree renders from");
    assert.equal(loaded.result.events.length, 3);
    assert.equal(loaded.stale, false);
    assert.ok(fake.eventRequests(TEST_SERIALS.onboarded).length >= 1, 'the tree asked the fake API for the machine');
    // A production install does not let other extensions make authenticated reads through our API.
    assert.equal(api.testHooks, undefined);
  });
});
