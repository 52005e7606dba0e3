// Machines tree screenshots against the fake service with the demo data:
// signed out, populated, filtered, with an error child, and stale after the
// service went away.
import * as assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ExportedApi } from '../integration/support/extension';
import { MachinesViewReader } from '../integration/support/machinesView';
import { DEMO_CREDENTIALS, DEMO_SERIALS, demoData, startFakeApi, type FakeApi } from '../support/fakeApi';
import { until } from '../integration/support/user';
import { screenshotDir, snap } from './snap';

function freshSnap(name: string, settleMs = 1500): Promise<string> {
  rmSync(join(screenshotDir(), `${name}.png`), { force: true });
  return snap(name, settleMs);
}

const PINNED = [DEMO_SERIALS.failed, DEMO_SERIALS.templatedLinks, DEMO_SERIALS.empty, DEMO_SERIALS.completed];

describe('Machines tree screenshots', function () {
  this.timeout(120_000);
  let api: ExportedApi;
  let fake: FakeApi;

  async function signIn(): Promise<void> {
    await vscode.commands.executeCommand('onboardingEvents.signIn', {
      apiBaseUrl: fake.baseUrl,
      authUrl: fake.authUrl,
      ...DEMO_CREDENTIALS,
      environment: 'Demo',
    });
  }

  async function collapseAndReveal(serial: string): Promise<void> {
    await vscode.commands.executeCommand('workbench.actions.treeView.onboardingEvents.machines.collapseAll');
    // As the hover's Show link does: the machine is revealed, loaded and selected.
    await vscode.commands.executeCommand('onboardingEvents.revealMachine', serial);
    await new MachinesViewReader().render();
  }

  before(async () => {
    const extension = vscode.extensions.getExtension<ExportedApi>('onboarding-events.onboarding-events');
    assert.ok(extension);
    api = await extension.activate();
    fake = await startFakeApi({ data: demoData() });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('workbench.action.closePanel');
    for (const serial of api.machines.pinned()) await vscode.commands.executeCommand('onboardingEvents.removeMachine', serial);
    api.machines.clearRecent();
  });

  after(async () => {
    await vscode.commands.executeCommand('onboardingEvents.clearFilter');
    for (const serial of PINNED) await vscode.commands.executeCommand('onboardingEvents.removeMachine', serial);
    api.machines.clearRecent();
    await vscode.commands.executeCommand('onboardingEvents.signOut', { environment: 'Demo' });
    await fake.close();
  });

  it('signed out: the welcome view offers Sign In', async () => {
    await vscode.commands.executeCommand('onboardingEvents.machines.focus');
    // Room for the descriptions (latest event, relative time, stale marks): with the sidebar focused, "decrease" shrinks the editor.
    await vscode.commands.executeCommand('workbench.action.focusSideBar');
    for (let i = 0; i < 5; i++) await vscode.commands.executeCommand('workbench.action.decreaseViewWidth');
    await freshSnap('machines-tree-signed-out');
  });

  it('populated: pinned machines with their latest event, one expanded with its events', async () => {
    await signIn();
    for (const serial of [...PINNED].reverse()) await vscode.commands.executeCommand('onboardingEvents.addMachine', serial);
    // Asked first, as for any other extension; the test's user agrees.
    for (const serial of ['KRP-0815-B8714', 'MX-4711-F0468']) {
      api.machines.addRecent(serial);
      await until(() => api.machines.recent().includes(serial), `${serial} in Recent`);
    }
    await collapseAndReveal(DEMO_SERIALS.completed);
    await freshSnap('machines-tree-populated', 2000);
    // The same tree at the width a new window gives the sidebar, where longer (German) words are cut first.
    await vscode.commands.executeCommand('workbench.action.focusSideBar');
    for (let i = 0; i < 5; i++) await vscode.commands.executeCommand('workbench.action.increaseViewWidth');
    await freshSnap('machines-tree-default-width', 2000);
    await vscode.commands.executeCommand('workbench.action.focusSideBar');
    for (let i = 0; i < 5; i++) await vscode.commands.executeCommand('workbench.action.decreaseViewWidth');
  });

  it('filtered: only matching events, the filter named in the view title', async () => {
    await vscode.commands.executeCommand('onboardingEvents.filterEvents', { text: 'certificate' });
    await collapseAndReveal(DEMO_SERIALS.completed);
    await freshSnap('machines-tree-filtered', 2000);
    await vscode.commands.executeCommand('onboardingEvents.clearFilter');
  });

  it('error: a failing machine shows an error child with Retry and Show Log, the others keep their data', async () => {
    await vscode.commands.executeCommand('onboardingEvents.addMachine', DEMO_SERIALS.failing);
    await collapseAndReveal(DEMO_SERIALS.failing);
    await freshSnap('machines-tree-error', 2000);
  });

  it('stale: with the service gone, the last good results stay, marked stale with their time', async () => {
    await vscode.commands.executeCommand('onboardingEvents.removeMachine', DEMO_SERIALS.failing);
    await fake.close();
    await vscode.commands.executeCommand('onboardingEvents.refresh');
    await collapseAndReveal(DEMO_SERIALS.completed);
    await freshSnap('machines-tree-stale', 2000);
    fake = await startFakeApi({ data: demoData() });
  });
});
