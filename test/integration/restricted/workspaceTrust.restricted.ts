// Restricted Mode in a real VS Code: workspace trust on, a cloned folder the
// user never trusted whose .vscode/settings.json sets hostile values. The
// extension must run (capabilities.untrustedWorkspaces = limited) and use the
// user's settings, ignoring the workspace's values of the restricted ones.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { DEFAULT_SERIAL_PATTERN } from '../../../src/core/domain/serialNumbers/serialMatcher';
import { makeEvent, startFakeApi, TEST_SERIALS, type FakeApi } from '../../support/fakeApi';
import { activateExtension, signIn, signOutIfSignedIn, type TestedApi } from '../support/extension';
import { inlineStatuses } from '../support/editors';

interface Manifest {
  readonly capabilities: {
    readonly untrustedWorkspaces: { readonly supported: string; readonly restrictedConfigurations: readonly string[] };
  };
}

/** A serial whose newest event is a failure (the fake knows it only from setMachineEvents below). */
const FAILED = 'PRS-0900-A0314';

/** The fixture's settings.json without its comment lines. */
function fixtureSettings(folder: vscode.Uri): Record<string, unknown> {
  const text = readFileSync(join(folder.fsPath, '.vscode', 'settings.json'), 'utf8');
  return JSON.parse(text.replace(/^\s*\/\/.*$/gm, '')) as Record<string, unknown>;
}

async function until<T>(what: string, probe: () => T | undefined | false, describeLast: () => unknown, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) assert.fail(`${what} within ${timeoutMs} ms; last seen: ${JSON.stringify(describeLast())}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('Restricted Mode (workspace trust on, untrusted folder)', () => {
  let api: TestedApi;
  let fake: FakeApi | undefined;

  before(async function () {
    // Every way this tier is run opens the folder untrusted (scripts/run-integration.mjs restricted; a desktop VS Code is
    // started without --disable-workspace-trust, test/support/vscode/untrustedLaunch.ts). A trusted one proves nothing: fail.
    if (vscode.workspace.isTrusted)
      assert.fail(
        'Restricted Mode: the folder opened trusted, so nothing here can be checked (was VS Code started with --disable-workspace-trust, or security.workspace.trust.enabled off?)',
      );
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
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder);
    const hostile = fixtureSettings(folder.uri);
    for (const id of manifest.capabilities.untrustedWorkspaces.restrictedConfigurations) {
      assert.ok(id in hostile, `the untrusted fixture sets ${id}, so ignoring it is seen`);
      assert.notDeepEqual(hostile[id], configuration.inspect(id)?.defaultValue, `the fixture's ${id} differs from the default`);
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

  it("the workspace's event states, Problems severity and inline-status mode do not turn a failure into onboarded", async () => {
    // Runs after the sign-in above.
    assert.ok(fake);
    fake.setMachineEvents(FAILED, [
      makeEvent({ type: 'ONBOARDING_STARTED', message: 'started', timestamp: 1_717_000_000 }),
      makeEvent({ type: 'ONBOARDING_FAILED', message: 'Certificate rejected', timestamp: 1_717_000_100 }),
    ]);
    api.events.clear();
    // Opened afresh, so its serial numbers are asked for again now that the fake has the failure.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder);
    const document = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder.uri, 'machines.txt'));
    await vscode.window.showTextDocument(document, { selection: new vscode.Range(0, 0, 0, 0) });
    const editor = { inlineStatuses };
    assert.ok(editor, 'the editor test hook is exported under test');
    // Every line, not only the cursor's: the workspace's inlineStatus.mode "currentLine" is ignored.
    const statuses = await until(
      'inline statuses for the failed and the started machine',
      () => {
        const shown = editor.inlineStatuses(document.uri);
        // The sign-in above loaded what was on screen while the fake had no events for FAILED, and that
        // answer is also on disk: wait for the answer with its events, whatever state it is read as.
        return (
          shown.some((s) => s.serialNumber === FAILED && s.state !== 'no-events') &&
          shown.some((s) => s.serialNumber === TEST_SERIALS.started) &&
          shown
        );
      },
      () => editor.inlineStatuses(document.uri),
    );
    const bySerial = new Map(statuses.map((s) => [s.serialNumber, s.state]));
    assert.equal(bySerial.get(FAILED), 'failed', 'ONBOARDING_FAILED stays a failure');
    assert.equal(bySerial.get(TEST_SERIALS.started), 'in-progress', 'ONBOARDING_STARTED is not "onboarded"');
    // The workspace's diagnostics.severity "off" is ignored: the failure is in Problems as a warning (the default).
    const problem = await until(
      'a Problems entry for the failed machine',
      () =>
        vscode.languages.getDiagnostics(document.uri).find((d) => d.source === 'Onboarding Events' && document.getText(d.range) === FAILED),
      () => vscode.languages.getDiagnostics(document.uri).map((d) => [d.code, d.message]),
    );
    assert.equal(problem.code, 'failed');
    assert.equal(problem.severity, vscode.DiagnosticSeverity.Warning);
  });
});
