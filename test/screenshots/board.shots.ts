// The onboarding board of the demo's line 3 (test/fixtures/demo-workspace/
// config/line3.yaml) against the demo API, at the default layout, in the dark,
// light and high-contrast themes; board-line3.png is the README's picture.
// Line 4 (config/line4.yaml, issue 38): progress, time to go, the stalled
// robot and the usual steps behind the lanes (board-progress.png, in the README).
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { activateExtension, type TestedApi } from '../integration/support/extension';
import { pages } from '../integration/support/pages';
import { DEMO_CREDENTIALS, DEMO_FAKE_CONFIG, demoData, startFakeApi, type FakeApi } from '../support/fakeApi';
import { snap } from './snap';

const LINE3 = vscode.Uri.file(join(__dirname, '..', '..', '..', 'test', 'fixtures', 'demo-workspace', 'config', 'line3.yaml'));

const LINE4 = vscode.Uri.file(join(__dirname, '..', '..', '..', 'test', 'fixtures', 'demo-workspace', 'config', 'line4.yaml'));

async function setTheme(theme: string | undefined): Promise<void> {
  if (vscode.workspace.getConfiguration('workbench').get('colorTheme') === theme) return;
  await vscode.workspace.getConfiguration('workbench').update('colorTheme', theme, vscode.ConfigurationTarget.Global);
}

describe('Onboarding board screenshots', function () {
  this.timeout(120_000);
  let api: TestedApi;
  let fake: FakeApi;
  let originalTheme: string | undefined;

  before(async () => {
    api = await activateExtension();
    originalTheme = vscode.workspace.getConfiguration('workbench').inspect<string>('colorTheme')?.globalValue;
    fake = await startFakeApi({ data: demoData(), ...DEMO_FAKE_CONFIG });
    await vscode.commands.executeCommand('onboardingEvents.signIn', {
      apiBaseUrl: fake.baseUrl,
      authUrl: fake.authUrl,
      ...DEMO_CREDENTIALS,
      environment: 'Demo',
    });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('workbench.action.closePanel');
  });

  after(async () => {
    await setTheme(originalTheme);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('onboardingEvents.signOut', { environment: 'Demo' });
    await fake.close();
  });

  it("shows line 3's machines as a table and a timeline, in dark, light and high contrast", async () => {
    const board = api.testHooks.board;
    assert.ok(board);
    await setTheme('Dark Modern');
    await vscode.commands.executeCommand('workbench.view.extension.onboardingEvents');
    await board.open({ kind: 'file', uri: LINE3.toString() });
    await pages.board.waitForRendered((r) => r.rows === 8 && !r.summary.includes('not loaded'), 30_000);
    await snap('board-line3', 2500);
    await snap('board-dark', 500);
    await setTheme('Light Modern');
    await snap('board-light', 2500);
    await setTheme('Default High Contrast');
    await snap('board-high-contrast', 2500);
    await setTheme('Dark Modern');
  });

  it("shows line 4's robots in progress: step, time to go with its range, the stalled one, the abandoned one, and the usual steps behind the lanes", async () => {
    const board = api.testHooks.board;
    assert.ok(board);
    await setTheme('Dark Modern');
    await board.open({ kind: 'file', uri: LINE4.toString() });
    await pages.board.waitForRendered(
      (r) => r.rows === 29 && !r.summary.includes('not loaded') && r.stalledCount === '1' && r.abandonedCount === '1',
      30_000,
    );
    await snap('board-progress', 2500);
  });
});
