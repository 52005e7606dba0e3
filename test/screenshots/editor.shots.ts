// Serial numbers in the editor: the demo's line3.yaml with an inline status
// after each serial number (every state), the Problems panel, the quick
// fixes, completion, and a link from a ticket opening a machine's event.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { OnboardingEventsExtensionApi } from '../../src/extension';
import { activateExtension, type TestedApi } from '../integration/support/extension';
import { inlineStatuses } from '../integration/support/editors';
import { pages } from '../integration/support/pages';
import { DEMO_CREDENTIALS, DEMO_FAKE_CONFIG, DEMO_SERIALS, demoData, startFakeApi, type FakeApi } from '../support/fakeApi';
import { snap } from './snap';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, probe: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

describe('Serial numbers in the editor screenshots', function () {
  this.timeout(120_000);
  let api: TestedApi;
  let fake: FakeApi;
  let extension: vscode.Extension<OnboardingEventsExtensionApi>;
  let document: vscode.TextDocument;

  before(async () => {
    const found = vscode.extensions.getExtension<OnboardingEventsExtensionApi>('onboarding-events.onboarding-events');
    assert.ok(found);
    extension = found;
    api = await activateExtension();
    fake = await startFakeApi({ data: demoData(), ...DEMO_FAKE_CONFIG });
    await vscode.commands.executeCommand('onboardingEvents.signIn', {
      apiBaseUrl: fake.baseUrl,
      authUrl: fake.authUrl,
      ...DEMO_CREDENTIALS,
      environment: 'Demo',
    });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('workbench.action.closePanel');
    for (const serial of [DEMO_SERIALS.failed, DEMO_SERIALS.inProgress, DEMO_SERIALS.completed]) await api.machines.pin(serial);
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('workbench.action.closePanel');
    await vscode.commands.executeCommand('onboardingEvents.signOut', { environment: 'Demo' });
    await fake.close();
  });

  it('shows each serial number’s state after it in the demo’s line3.yaml', async () => {
    await vscode.commands.executeCommand('workbench.view.extension.onboardingEvents');
    const uri = vscode.Uri.joinPath(extension.extensionUri, 'test', 'fixtures', 'demo-workspace', 'config', 'line3.yaml');
    document = await vscode.workspace.openTextDocument(uri);
    const editor = await vscode.window.showTextDocument(document);
    editor.selection = new vscode.Selection(0, 0, 0, 0);
    await until('eight statuses', () => inlineStatuses(document.uri).length === 8);
    await snap('editor-inline-status', 1500);
  });

  it('lists failed, no-events and unknown machines in the Problems panel', async () => {
    await vscode.commands.executeCommand('workbench.actions.view.problems');
    await snap('editor-problems', 1500);
    await vscode.commands.executeCommand('workbench.action.closePanel');
  });

  it('offers quick fixes on a failed machine', async () => {
    const editor = await vscode.window.showTextDocument(document);
    const line = document
      .getText()
      .split('\n')
      .findIndex((text) => text.includes(DEMO_SERIALS.failed));
    const character = document.lineAt(line).text.indexOf(DEMO_SERIALS.failed) + 3;
    editor.selection = new vscode.Selection(line, character, line, character);
    await sleep(500);
    await vscode.commands.executeCommand('editor.action.quickFix');
    await snap('editor-quick-fixes', 1500);
    await vscode.commands.executeCommand('hideCodeActionWidget');
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  });

  it('completes known serial numbers with their state', async () => {
    const draft = await vscode.workspace.openTextDocument({ language: 'yaml', content: '# Line 4: new presses\nmachines:\n  - serial: ' });
    const editor = await vscode.window.showTextDocument(draft);
    const end = draft.lineAt(2).range.end;
    editor.selection = new vscode.Selection(end, end);
    await editor.edit((edit) => {
      edit.insert(end, 'P');
    });
    await vscode.commands.executeCommand('editor.action.triggerSuggest');
    await sleep(300);
    await vscode.commands.executeCommand('toggleSuggestionDetails');
    await snap('editor-completion', 1500);
    await vscode.commands.executeCommand('hideSuggestWidget');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('opens a machine’s event from a link in a ticket', async () => {
    const { links } = api.testHooks;
    const result = await api.testHooks.getEvents(DEMO_SERIALS.failed);
    const failed = result.events[0];
    assert.ok(failed);
    const shown = pages.details.posted().length;
    await links.open(links.linkTo(DEMO_SERIALS.failed, `&timestamp=${failed.time.raw}`));
    // The host posts the event once the page says it is ready: a moment after the link.
    for (let waited = 0; pages.details.posted().length <= shown && waited < 5000; waited += 100)
      await new Promise((resolve) => setTimeout(resolve, 100));
    assert.ok(pages.details.posted().length > shown, 'the linked event opens in the details page');
    await snap('editor-link-opened', 2500);
  });
});
