// Restricted Mode in a real VS Code: workspace trust on, a cloned folder the
// user never trusted whose .vscode/settings.json sets hostile values. The
// extension must run (capabilities.untrustedWorkspaces = limited) and use the
// user's settings, ignoring the workspace's values of the restricted ones.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { DEFAULT_SERIAL_PATTERN } from '../../../src/domain/serialNumbers/serialMatcher';
import { startFakeApi, TEST_SERIALS, type FakeApi } from '../../support/fakeApi';
import { activateExtension, signIn, signOutIfSignedIn, type TestedApi } from '../support/extension';

interface Manifest {
  readonly capabilities: {
    readonly untrustedWorkspaces: { readonly supported: string; readonly restrictedConfigurations: readonly string[] };
  };
}

describe('Restricted Mode (workspace trust on, untrusted folder)', () => {
  let api: TestedApi;
  let fake: FakeApi | undefined;

  before(async function () {
    if (vscode.workspace.isTrusted) {
      // A VS Code started with --disable-workspace-trust (a downloaded desktop build under @vscode/test-electron) cannot show Restricted Mode.
      this.skip();
    }
    api = await activateExtension();
    fake = await startFakeApi();
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await signOutIfSignedIn();
    await fake?.close();
  });

  it('the folder is untrusted and the extension is active in it', () => {
    assert.equal(vscode.workspace.isTrusted, false);
    assert.equal(vscode.extensions.getExtension('onboarding-events.onboarding-events')?.isActive, true);
  });

  it("the workspace's values of every restricted setting are ignored", () => {
    const manifest = JSON.parse(readFileSync(join(__dirname, '../../../../package.json'), 'utf8')) as Manifest;
    assert.equal(manifest.capabilities.untrustedWorkspaces.supported, 'limited');
    const configuration = vscode.workspace.getConfiguration();
    for (const id of manifest.capabilities.untrustedWorkspaces.restrictedConfigurations) {
      const inspected = configuration.inspect(id);
      assert.deepEqual(
        configuration.get(id),
        inspected?.globalValue ?? inspected?.defaultValue,
        `${id} reads the user's value or the default`,
      );
    }
    assert.equal(configuration.get('onboardingEvents.serialNumber.pattern'), DEFAULT_SERIAL_PATTERN);
    assert.equal(configuration.get('onboardingEvents.autoRefresh.enabled'), false);
  });

  it("links use the user's pattern and deny list, not the workspace's", async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder);
    const document = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder.uri, 'machines.txt'));
    await vscode.window.showTextDocument(document);
    const links = await vscode.commands.executeCommand<vscode.DocumentLink[]>('vscode.executeLinkProvider', document.uri);
    const linked = links.map((link) => document.getText(link.range));
    assert.ok(linked.includes('MX-4711-A0023'), `linked: ${JSON.stringify(linked)}`);
    assert.equal(linked.includes('ZZ-123'), false);
  });

  it("signing in, hovers and the Machines view work with the user's settings", async () => {
    assert.ok(fake);
    await signIn(fake);
    const events = await api.testHooks.getEvents(TEST_SERIALS.onboarded);
    assert.ok(events.events.length > 0);
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder);
    const document = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder.uri, 'machines.txt'));
    const hovers =
      (await vscode.commands.executeCommand<vscode.Hover[] | undefined>(
        'vscode.executeHoverProvider',
        document.uri,
        new vscode.Position(0, 18),
      )) ?? [];
    const ours = hovers
      .flatMap((hover) => hover.contents)
      .filter((content) => content instanceof vscode.MarkdownString && content.value.includes('onboardingEvents.'));
    assert.equal(ours.length, 1, "one hover from us over MX-4711-A0023 (the workspace's deny list would have hidden it)");
  });
});
