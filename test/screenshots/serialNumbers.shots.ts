// Serial-number screenshots: the hover over a serial in the fixture YAML file,
// and both steps of Look Up Machine (pick a machine, then its events), against
// the fake service with the demo data.
import * as assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { OnboardingEventsExtensionApi } from '../../src/extension';
import { activateExtension, type TestedApi } from '../integration/support/extension';
import { until } from '../integration/support/user';
import { DEMO_CREDENTIALS, DEMO_SERIALS, demoData, startFakeApi, type FakeApi } from '../support/fakeApi';
import { screenshotDir, snap } from './snap';

/**
 * snap() returns as soon as `<name>.png` exists, so a PNG left from an earlier
 * run would let the scenario move on before the new capture: remove it first.
 */
function freshSnap(name: string, settleMs: number): Promise<string> {
  rmSync(join(screenshotDir(), `${name}.png`), { force: true });
  return snap(name, settleMs);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Serial numbers screenshots', function () {
  this.timeout(120_000);
  let api: TestedApi;
  let fake: FakeApi;
  let extension: vscode.Extension<OnboardingEventsExtensionApi>;

  before(async () => {
    const found = vscode.extensions.getExtension<OnboardingEventsExtensionApi>('onboarding-events.onboarding-events');
    assert.ok(found);
    extension = found;
    api = await activateExtension();
    fake = await startFakeApi({ data: demoData() });
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
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('onboardingEvents.signOut', { environment: 'Demo' });
    await fake.close();
  });

  it('shows the latest events when hovering over a serial number', async () => {
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    const uri = vscode.Uri.joinPath(extension.extensionUri, 'test', 'fixtures', 'workspace', 'machines.yaml');
    const document = await vscode.workspace.openTextDocument(uri);
    const editor = await vscode.window.showTextDocument(document);
    const line = document
      .getText()
      .split('\n')
      .findIndex((text) => text.includes(DEMO_SERIALS.completed));
    assert.ok(line >= 0);
    const character = document.lineAt(line).text.indexOf(DEMO_SERIALS.completed) + 4;
    editor.selection = new vscode.Selection(line, character, line, character);
    await api.testHooks.getEvents(DEMO_SERIALS.completed);
    await vscode.commands.executeCommand('editor.action.showHover');
    await freshSnap('serial-number-hover', 2000);
  });

  it('keeps a hostile message and link inert in the hover', async () => {
    const document = await vscode.workspace.openTextDocument({
      language: 'markdown',
      content: `Ticket 4711: lathe ${DEMO_SERIALS.hostile} fails its firmware check.\n`,
    });
    const editor = await vscode.window.showTextDocument(document);
    const character = document.lineAt(0).text.indexOf(DEMO_SERIALS.hostile) + 4;
    editor.selection = new vscode.Selection(0, character, 0, character);
    await api.testHooks.getEvents(DEMO_SERIALS.hostile);
    await vscode.commands.executeCommand('editor.action.showHover');
    await freshSnap('serial-number-hover-hostile', 2000);
  });

  it('shows Look Up Machine with pinned and recent machines, then a machine’s events', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const serial of [DEMO_SERIALS.failed, DEMO_SERIALS.templatedLinks, DEMO_SERIALS.completed]) {
      await api.testHooks.getEvents(serial);
      // Asked first, as for any other extension; the test's user agrees.
      api.machines.addRecent(serial);
      await until(() => api.machines.recent().includes(serial), `${serial} in Recent`);
    }
    await api.machines.pin(DEMO_SERIALS.completed);
    await vscode.commands.executeCommand('onboardingEvents.lookUpMachine');
    await freshSnap('look-up-machine', 1500);
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await sleep(300);
    await vscode.commands.executeCommand('onboardingEvents.lookUpMachine', DEMO_SERIALS.templatedLinks);
    await freshSnap('look-up-machine-events', 2000);
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  });
});
