// One state vocabulary in the real extension host: with a custom
// onboardingEvents.eventStates setting, the hover's first line, the tree row's
// description, the inline status and the agent tools all read the same machine
// the same way, in the same word. Before, the hover, the tree row and the
// tools ignored the setting (and said "completed" where the inline status said
// "onboarded").
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { MachinesViewReader, RenderedNode } from './support/machinesView';
import { LANGUAGE_MODEL_TOOLS } from '../../src/extension/workbench/constants';
import { makeEvent, startFakeApi, type FakeApi } from '../support/fakeApi';
import { activateExtension, signIn, signOutIfSignedIn, type TestedApi } from './support/extension';
import { inlineStatuses } from './support/editors';

/** Its newest type says ERROR, so the default rules read it as failed; this plant's rules read it as onboarded. */
const CLEARED = 'PRS-0900-A0314';
const CLEARED_TYPE = 'PROVISIONING_ERROR_CLEARED';
const PLANT_RULES = { failed: ['FAIL', 'REJECT'], onboarded: ['COMPLETE', 'CLEARED'] };
/** The fake answers 404 for it: the platform never heard of it. */
const UNKNOWN = 'ZZ-0000-00000';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, probe: () => T | undefined | false, timeoutMs = 8000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

async function eventStates(value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('onboardingEvents').update('eventStates', value, vscode.ConfigurationTarget.Global);
}

/** The first paragraph of our hover over the serial number on the document's first line. */
async function hoverFirstLine(document: vscode.TextDocument, serialNumber: string): Promise<string> {
  const position = new vscode.Position(0, document.lineAt(0).text.indexOf(serialNumber) + 2);
  const hovers =
    (await vscode.commands.executeCommand<vscode.Hover[] | undefined>('vscode.executeHoverProvider', document.uri, position)) ?? [];
  const ours = hovers
    .flatMap((hover) => hover.contents)
    .map((content) => (content instanceof vscode.MarkdownString ? content.value : ''))
    .filter((text) => text.includes('onboardingEvents.'));
  assert.equal(ours.length, 1, 'one hover from us');
  return ours[0]?.split('\n\n')[0] ?? '';
}

function pinnedMachine(tree: readonly RenderedNode[], serialNumber: string): RenderedNode {
  const found = tree
    .find((node) => node.kind === 'group' && node.label === 'Pinned')
    ?.children?.find((node) => node.kind === 'machine' && node.label === serialNumber);
  assert.ok(found, `machine ${serialNumber} in the Pinned group`);
  return found;
}

async function invoke(name: string, serialNumbers: readonly string[]): Promise<string> {
  const result = await vscode.lm.invokeTool(name, { input: { serialNumbers }, toolInvocationToken: undefined });
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

describe("One state vocabulary: every view and the agent tools follow the user's eventStates", function () {
  this.timeout(60_000);
  let api: TestedApi;
  let tree: MachinesViewReader;
  let fake: FakeApi;

  before(async () => {
    api = await activateExtension();
    assert.ok(api.testHooks.machines, 'the tree hooks are exported in test mode');
    tree = api.testHooks.machines;
    fake = await startFakeApi({ unknownSerial: '404' });
    fake.setMachineEvents(CLEARED, [
      makeEvent({ type: 'PROVISIONING_STARTED', message: 'started', timestamp: 1_717_000_000 }),
      makeEvent({ type: CLEARED_TYPE, message: 'The certificate error was cleared by hand', timestamp: 1_717_000_100 }),
    ]);
    await signOutIfSignedIn();
    await eventStates(PLANT_RULES);
    await signIn(fake);
    api.events.clear();
    assert.equal(await vscode.commands.executeCommand('onboardingEvents.addMachine', CLEARED), CLEARED);
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (api.machines.pinned().includes(CLEARED)) await vscode.commands.executeCommand('onboardingEvents.removeMachine', CLEARED);
    await eventStates(undefined);
    await signOutIfSignedIn();
    await fake.close();
  });

  it('the hover, the tree row, the inline status and the agent tools all read the machine by the custom rules, in one word', async () => {
    const document = await vscode.workspace.openTextDocument({ content: `serial: ${CLEARED}\n`, language: 'yaml' });
    await vscode.window.showTextDocument(document);

    const hover = await hoverFirstLine(document, CLEARED);
    const row = pinnedMachine(await tree.render(), CLEARED);
    const hook = { inlineStatuses };
    assert.ok(hook, 'the editor test hooks are exported under test');
    const status = await until('the inline status', () => hook.inlineStatuses(document.uri).find((s) => s.serialNumber === CLEARED));
    const summary = await invoke(LANGUAGE_MODEL_TOOLS.summary, [CLEARED]);
    const events = await invoke(LANGUAGE_MODEL_TOOLS.machineEvents, [CLEARED]);

    // Side by side, so a failure shows what each place said.
    assert.deepEqual(
      {
        hover: hover.split(' · ')[1],
        treeRow: row.description?.split(' · ')[0],
        inlineStatus: status.state,
        summaryCounts: /\(environment "Test"\): (.*?)\. /.exec(summary)?.[1],
        machineEvents: /: state (.*?) \(newest event type/.exec(events)?.[1],
      },
      { hover: 'onboarded', treeRow: 'onboarded', inlineStatus: 'onboarded', summaryCounts: '1 onboarded', machineEvents: 'onboarded' },
    );
    assert.match(hover, /^\*\*PRS\\-0900\\-A0314\*\* · onboarded · /);
    assert.match(status.text, /^\u2713 onboarded · /);
    assert.ok(summary.split('\n').includes('Onboarded (1):'), summary);
    assert.match(events, new RegExp(`Machine "${CLEARED}": state onboarded \\(newest event type "${CLEARED_TYPE}"\\)`));
  });

  it('follows a change of the setting: back to the default rules, every place says failed', async () => {
    await eventStates(undefined);
    const document = await vscode.workspace.openTextDocument({ content: `serial: ${CLEARED}\n`, language: 'yaml' });
    await vscode.window.showTextDocument(document);
    assert.match(await hoverFirstLine(document, CLEARED), / · failed · /);
    assert.match(pinnedMachine(await tree.render(), CLEARED).description ?? '', /^failed · /);
    assert.match(await invoke(LANGUAGE_MODEL_TOOLS.summary, [CLEARED]), /: 1 failed\./);
    await eventStates(PLANT_RULES);
  });

  it('calls a serial number the platform does not know "unknown" in the agent tools, as the inline status does', async () => {
    const document = await vscode.workspace.openTextDocument({ content: `serial: ${UNKNOWN}\n`, language: 'yaml' });
    await vscode.window.showTextDocument(document);
    const hook = { inlineStatuses };
    assert.ok(hook);
    const status = await until('the inline status', () => hook.inlineStatuses(document.uri).find((s) => s.serialNumber === UNKNOWN));
    assert.equal(status.text, '? unknown');
    const summary = await invoke(LANGUAGE_MODEL_TOOLS.summary, [UNKNOWN]);
    assert.match(summary, /: 1 unknown\./);
    assert.ok(summary.split('\n').includes('Unknown (1):'), summary);
  });
});
