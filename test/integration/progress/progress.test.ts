// Where each machine is in its onboarding (issue 38), in the real extension
// host, on a line the fake API serves: six machines that onboarded days ago
// (the history to learn from) and three in progress — one on time, one
// stalled, one with a step missing — with event times relative to now. The
// hover and the Machines row are read as the user sees them; a watched
// machine's stall is told once, with its buttons, as the test's user saw it
// (support/user.ts).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { RenderedNode } from '../support/machinesView';
import { defaultData, makeEvent, startFakeApi, type FakeApi } from '../../support/fakeApi';
import { activateExtension, signIn, signOutIfSignedIn, type TestedApi } from '../support/extension';
import { user } from '../support/user';

const ENVIRONMENT = 'Progress line';
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const ONBOARDED = ['MX-4711-P0001', 'MX-4711-P0002', 'MX-4711-P0003', 'MX-4711-P0004', 'MX-4711-P0005', 'MX-4711-P0006'];
const ON_TIME = 'MX-4711-P0010';
const STALLED = 'MX-4711-P0011';
const MISSING_A_STEP = 'MX-4711-P0012';
const WATCHED = 'MX-4711-P0013';

/** Events of one machine, oldest first: [type, minutes before now]. */
function events(steps: readonly (readonly [string, number])[]): Record<string, unknown>[] {
  return steps.map(([type, minutesAgo]) => makeEvent({ type, message: `${type} reported`, timestamp: Date.now() - minutesAgo * MINUTE }));
}

/** The line: each onboarded machine took 4–6 min from step to step, some days ago. */
function serveTheLine(fake: FakeApi): void {
  ONBOARDED.forEach((serial, index) => {
    const start = (3 + index) * DAY;
    const step = 4 + index * 0.4;
    fake.setMachineEvents(
      serial,
      events([
        ['ONBOARDING_STARTED', start / MINUTE],
        ['FIRMWARE_CHECKED', start / MINUTE - step],
        ['DEVICE_CONFIGURED', start / MINUTE - 2 * step],
        ['ONBOARDING_COMPLETED', start / MINUTE - 3 * step],
      ]),
    );
  });
  fake.setMachineEvents(
    ON_TIME,
    events([
      ['ONBOARDING_STARTED', 7],
      ['FIRMWARE_CHECKED', 2],
    ]),
  );
  fake.setMachineEvents(
    STALLED,
    events([
      ['ONBOARDING_STARTED', 62],
      ['FIRMWARE_CHECKED', 40],
    ]),
  );
  fake.setMachineEvents(
    MISSING_A_STEP,
    events([
      ['ONBOARDING_STARTED', 9],
      ['DEVICE_CONFIGURED', 1],
    ]),
  );
  fake.setMachineEvents(
    WATCHED,
    events([
      ['ONBOARDING_STARTED', 75],
      ['FIRMWARE_CHECKED', 38],
    ]),
  );
}

/** The Markdown as read: escapes taken out. */
function unescaped(markdown: string): string {
  return markdown.replace(/\\([\\`*_{}[\]()#+\-.!|<>~])/g, '$1');
}

let documentsOpened = 0;

/** Our hover over `serialNumber` in a document of its own, its paragraphs unescaped. */
async function hoverOver(serialNumber: string): Promise<string[]> {
  documentsOpened += 1;
  const uri = vscode.Uri.from({ scheme: 'untitled', path: `progress-${process.pid}-${documentsOpened}.txt` });
  const document = await vscode.workspace.openTextDocument(uri);
  const editor = await vscode.window.showTextDocument(document);
  assert.ok(
    await editor.edit((edit) => {
      edit.insert(new vscode.Position(0, 0), `machine: ${serialNumber}\n`);
    }),
  );
  const hovers =
    (await vscode.commands.executeCommand<vscode.Hover[] | undefined>(
      'vscode.executeHoverProvider',
      document.uri,
      new vscode.Position(0, 12),
    )) ?? [];
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  const ours = hovers
    .flatMap((hover) => hover.contents.map((content) => (content instanceof vscode.MarkdownString ? content.value : '')))
    .find((text) => text.includes('onboardingEvents.'));
  assert.ok(ours, `a hover of ours over ${serialNumber}`);
  return ours.split('\n\n').map(unescaped);
}

function machineRow(tree: readonly RenderedNode[], serialNumber: string): RenderedNode {
  const row = tree.flatMap((group) => group.children ?? []).find((node) => node.kind === 'machine' && node.label === serialNumber);
  assert.ok(row, `${serialNumber} is listed`);
  return row;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function setting(name: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('onboardingEvents').update(name, value, vscode.ConfigurationTarget.Global);
}

/**
 * Resolves once the watch of WATCHED has polled `count` times from now, each asking the API: its timer sets the
 * next poll only after a poll's notification and store write, so the request after them shows them done.
 */
async function polls(fake: FakeApi, count: number): Promise<void> {
  const from = fake.eventRequests(WATCHED).length;
  const deadline = Date.now() + 60_000;
  while (fake.eventRequests(WATCHED).length < from + count + 1) {
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${count} polls of ${WATCHED}: ${fake.eventRequests(WATCHED).length - from} requests in 60 s`);
    await sleep(50);
  }
}

/** The stall notifications of `serialNumber` the user saw. */
function stallNotices(serialNumber: string): ReturnType<typeof user.shown> {
  return user.shown().filter((note) => note.message.startsWith(`${serialNumber} has been at `));
}

describe('Progress: step, time to go and stalls from the line history', function () {
  this.timeout(90_000);
  let api: TestedApi;
  let fake: FakeApi;

  before(async () => {
    api = await activateExtension();
    // Only this line's machines: a machine another suite left in the Machines view must not add to the history.
    fake = await startFakeApi({ data: { ...defaultData(), machines: {} } });
    serveTheLine(fake);
    await signIn(fake, ENVIRONMENT);
  });

  after(async () => {
    await vscode.commands.executeCommand('onboardingEvents.stopWatching', WATCHED);
    for (const serial of [ON_TIME, STALLED, MISSING_A_STEP]) await vscode.commands.executeCommand('onboardingEvents.removeMachine', serial);
    await setting('watch.firstIntervalSeconds', undefined);
    await setting('watch.notifications', undefined);
    await signOutIfSignedIn(ENVIRONMENT);
    await fake.close();
  });

  it('the hover says "not enough history yet" before the line has onboarded machines, then the step and time to go from them', async () => {
    const before = await hoverOver(ON_TIME);
    assert.match(before[0] ?? '', /^\*\*MX-4711-P0010\*\* · in progress · .+ · not enough history yet \(0 onboarded machines\)$/);

    const hooks = api.testHooks;
    for (const serial of ONBOARDED) await hooks.getEvents(serial);
    const [first, restsOn] = await hoverOver(ON_TIME);
    assert.match(
      first ?? '',
      /^\*\*MX-4711-P0010\*\* · in progress · step 2 of 4 · FIRMWARE_CHECKED · likely \d+ min more( \(80 %: \d+–\d+ min\))?$/,
    );
    assert.match(
      restsOn ?? '',
      /^_from 6 onboarded machines · learned from every machine of this environment[^_]*\._ Learned from the 6 onboarded machines whose events are loaded/,
    );

    const [stalled] = await hoverOver(STALLED);
    assert.match(
      stalled ?? '',
      /^\*\*MX-4711-P0011\*\* · in progress · step 2 of 4 · FIRMWARE_CHECKED · stalled: at it for 40 min, usually under \d+ min$/,
    );
  });

  it('the Machines row says the step and time to go, or the stall, in short; its tooltip in full; a stalled row keeps the in-progress icon', async () => {
    const hooks = api.testHooks;
    for (const serial of ONBOARDED) await hooks.getEvents(serial);
    for (const serial of [ON_TIME, STALLED, MISSING_A_STEP]) await vscode.commands.executeCommand('onboardingEvents.addMachine', serial);
    const tree = await hooks.machines.render(2);

    // The machines in progress now loaded teach the history too (as of their fetch): the time to go may not be known.
    const onTime = machineRow(tree, ON_TIME);
    assert.match(
      onTime.description ?? '',
      /^in progress · step 2 of 4 · FIRMWARE_CHECKED · (likely \d+ min more( \(80 %: \d+–\d+ min\))?|time to go unknown \((too little history|too few machines of the history were at this step as long)\))$/,
    );
    assert.equal(onTime.icon, 'vm-outline');
    assert.equal(onTime.iconColor, undefined);
    assert.match(
      onTime.tooltip ?? '',
      /step 2 of 4 · FIRMWARE_CHECKED · (likely \d+ min more( \(80 %: \d+–\d+ min\))?|time to go unknown \((too little history|too few machines of the history were at this step as long)\)) {2}\n(.+ {2}\n)?from 6 onboarded machines · learned from every machine of this environment\n\n_Learned from the 6 onboarded machines/,
    );

    const stalled = machineRow(tree, STALLED);
    assert.match(stalled.description ?? '', /^in progress · stalled: at it for 40 min, usually under \d+ min$/);
    assert.equal(stalled.icon, 'vm-outline', 'stalled qualifies in progress: the same icon');
    assert.equal(stalled.iconColor, 'list.warningForeground');
    assert.match(stalled.tooltip ?? '', /\$\(warning\) stalled: at it for 40 min, usually under \d+ min/);

    const missing = machineRow(tree, MISSING_A_STEP);
    assert.match(
      missing.description ?? '',
      /^in progress · step 3 of 4 · DEVICE_CONFIGURED · (likely \d+ min more( \(80 %: \d+–\d+ min\))?|time to go unknown \((too little history|too few machines of the history were at this step as long)\))$/,
    );
    assert.match(missing.tooltip ?? '', /missing: FIRMWARE_CHECKED/);
  });

  it('a watched machine’s stall is told once, with Show Details and Stop Watching; a new step ends it, the next stall is told again; "off" tells none', async function () {
    // The watch's own timer polls: 1 s at first, longer while nothing changes.
    this.timeout(180_000);
    const hooks = api.testHooks;
    for (const serial of ONBOARDED) await hooks.getEvents(serial);
    await setting('watch.firstIntervalSeconds', 1);
    assert.equal(await vscode.commands.executeCommand('onboardingEvents.watchMachine', WATCHED), 'started');
    await polls(fake, 3);
    const notices = stallNotices(WATCHED);
    assert.equal(notices.length, 1, `one notification of the stall: ${JSON.stringify(notices)}`);
    const [notice] = notices;
    assert.ok(notice);
    assert.match(
      notice.message,
      /^MX-4711-P0013 has been at FIRMWARE_CHECKED for 38 min; it usually takes under \d+ min \(from 6 onboarded machines\)\.$/,
    );
    assert.equal(notice.kind, 'warning');
    assert.deepEqual(notice.items, ['Show Details', 'Stop Watching']);

    // The next step, already overdue: the first stall ended, a new one is told, once.
    fake.addEvent(WATCHED, makeEvent({ type: 'DEVICE_CONFIGURED', message: 'configured', timestamp: Date.now() - 30 * MINUTE }));
    await polls(fake, 2);
    const after = stallNotices(WATCHED).map((note) => note.message);
    assert.equal(after.length, 2, `the next step's stall told once more: ${JSON.stringify(after)}`);
    assert.match(after[1] ?? '', /^MX-4711-P0013 has been at DEVICE_CONFIGURED for 30 min;/);

    await setting('watch.notifications', 'off');
    // A poll that finds the machine moving ends the stall; the stall after it, which "on" would tell, "off" keeps to itself.
    fake.addEvent(WATCHED, makeEvent({ type: 'OPERATOR_NOTE', message: 'looking at it', timestamp: Date.now() }));
    await polls(fake, 1);
    const noteAt = Date.now() - 25 * MINUTE;
    fake.setMachineEvents(
      WATCHED,
      events([
        ['ONBOARDING_STARTED', 75],
        ['FIRMWARE_CHECKED', 38],
        ['DEVICE_CONFIGURED', 30],
      ]).concat(makeEvent({ type: 'OPERATOR_NOTE', message: 'looked at it', timestamp: noteAt })),
    );
    await polls(fake, 1);
    assert.equal(hooks.watch.list().find((watch) => watch.serialNumber === WATCHED)?.step?.at, noteAt, 'the poll saw the newer event');
    assert.equal(stallNotices(WATCHED).length, 2, '"off": no notification of a stall');
  });
});
