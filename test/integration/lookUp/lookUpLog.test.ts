// Look-ups by command argument, as a script or another extension runs them:
// several at once right after sign-in, the sidebar closed. Each reveals its
// machine in the Machines view; the extension's own log must stay free of
// errors (it is read as a user reads it, from the file VS Code writes).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { isErrorLine, readLogFromNow } from '../../support/extensionLog';
import { startFakeApi, TEST_SERIALS, type FakeApi } from '../../support/fakeApi';
import { activateExtension, signIn, signOutIfSignedIn, type TestedApi } from '../support/extension';

describe('Look Up Machine by argument, several at once after sign-in', function () {
  this.timeout(60_000);
  let api: TestedApi;
  let fake: FakeApi;

  before(async () => {
    api = await activateExtension();
    fake = await startFakeApi();
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    api.machines.clearRecent();
    await signOutIfSignedIn();
    await fake.close();
  });

  it('reveals every machine, and the extension logs no [error] (issue 43, item 12)', async () => {
    const serials = [TEST_SERIALS.onboarded, TEST_SERIALS.started, TEST_SERIALS.empty, 'OBX-4719-D0001', 'OBX-4719-D0002'];
    // Each round from a fresh start: signed out, no history, the sidebar closed, then signed in again.
    // How far apart decides which step of one reveal the next look-up's change of Recent meets.
    for (const gapMs of [0, 20, 60, 120, 250]) {
      await signOutIfSignedIn();
      api.machines.clearRecent();
      await vscode.commands.executeCommand('workbench.action.closeSidebar');
      const log = readLogFromNow();
      await signIn(fake);
      // Close together, each started before the one before has finished.
      const lookUps: Thenable<unknown>[] = [];
      for (const serial of serials) {
        lookUps.push(vscode.commands.executeCommand('onboardingEvents.lookUpMachine', serial));
        await new Promise((resolve) => setTimeout(resolve, gapMs));
      }
      await Promise.all(lookUps);
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      await api.testHooks.machines.render(2);
      // The extension host writes its log a moment later.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const errors = log.newLines().filter(isErrorLine);
      assert.deepEqual(errors, [], `look-ups ${gapMs} ms apart: no error in the extension's log`);
      assert.deepEqual([...api.machines.recent()].sort(), [...serials].sort(), `look-ups ${gapMs} ms apart: every look-up is in Recent`);
    }
  });
});
