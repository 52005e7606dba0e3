// The onboarding board of the demo's line 3 (test/fixtures/demo-workspace/
// config/line3.yaml) against the demo API, at the default layout, in the dark,
// light and high-contrast themes; board-line3.png is the README's picture.
// Line 4 (config/line4.yaml, issue 38): progress, time to go, the stalled
// robot and the usual steps behind the lanes (board-progress.png, in the README).
// A plant of 10,000 machines, every one loaded (board-plant.png, in CONTRIBUTING's bench section).
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { activateExtension, type TestedApi } from '../integration/support/extension';
import { pages } from '../integration/support/pages';
import { DEMO_CREDENTIALS, DEMO_FAKE_CONFIG, demoData, startFakeApi, type FakeApi } from '../support/fakeApi';
import { makeEvent } from '../support/fakeApi/data';
import { MAX_ROWS } from '../../src/extension/board/protocol';
import { snap } from './snap';

const LINE3 = vscode.Uri.file(join(__dirname, '..', '..', '..', 'test', 'fixtures', 'demo-workspace', 'config', 'line3.yaml'));

const LINE4 = vscode.Uri.file(join(__dirname, '..', '..', '..', 'test', 'fixtures', 'demo-workspace', 'config', 'line4.yaml'));

async function setTheme(theme: string | undefined): Promise<void> {
  if (vscode.workspace.getConfiguration('workbench').get('colorTheme') === theme) return;
  await vscode.workspace.getConfiguration('workbench').update('colorTheme', theme, vscode.ConfigurationTarget.Global);
}

const PLANT_STEPS = ['ONBOARDING_STARTED', 'DEVICE_REGISTERED', 'CERTIFICATE_ISSUED', 'FIRMWARE_CHECKED', 'MACHINE_CREATED'];

/** 10,000 machines on 20 lines, onboarded over the last days: most done, one in ten in progress, one in 25 failed. */
function plant(): Map<string, Record<string, unknown>[]> {
  const machines = new Map<string, Record<string, unknown>[]>();
  const now = Date.now();
  for (let i = 0; i < MAX_ROWS; i++) {
    const serial = `P${String.fromCharCode(65 + (i % 20))}-${String(4000 + Math.floor(i / 20))}-A${String(i).padStart(4, '0')}`;
    const start = now - (5 * 24 * 60 - (i % 500) * 11) * 60_000;
    const failed = i % 25 === 7;
    const steps = failed ? 3 : i % 10 === 3 ? 1 + (i % 4) : PLANT_STEPS.length;
    // The created machine's asset makes it onboarded (the default eventStates rules).
    const assetId = `8800${String(i).padStart(4, '0')}-0000-4000-8000-${String(i).padStart(12, '0')}`;
    const events = PLANT_STEPS.slice(0, steps).map((type, step) =>
      makeEvent({
        type,
        message: `${type} for ${serial}`,
        timestamp: start + step * (6 + (i % 7)) * 60_000,
        ...(type === 'MACHINE_CREATED' ? { assetId } : {}),
      }),
    );
    if (failed)
      events.push(makeEvent({ type: 'FIRMWARE_CHECK_FAILED', message: 'Firmware 5.0.9 refused', timestamp: start + 40 * 60_000 }));
    machines.set(serial, events);
  }
  return machines;
}

describe('Onboarding board screenshots', function () {
  this.timeout(120_000);
  let api: TestedApi;
  let fake: FakeApi;
  let originalTheme: string | undefined;

  before(async () => {
    api = await activateExtension();
    originalTheme = vscode.workspace.getConfiguration('workbench').inspect<string>('colorTheme')?.globalValue;
    const data = demoData();
    for (const [serial, events] of plant()) data.machines[serial] = events;
    fake = await startFakeApi({ data, ...DEMO_FAKE_CONFIG });
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

  it('shows a plant of 10,000 machines, every one loaded: the rows in view drawn, the whole table counted', async function () {
    this.timeout(600_000);
    const board = api.testHooks.board;
    assert.ok(board);
    await setTheme('Dark Modern');
    const content = [...plant().keys()].map((serial) => `- ${serial}`).join('\n');
    const document = await vscode.workspace.openTextDocument({ language: 'yaml', content });
    await board.open({ kind: 'file', uri: document.uri.toString() });
    await pages.board.waitForRendered((r) => r.rows === MAX_ROWS, 60_000);
    pages.board.send({ type: 'load-held' });
    await pages.board.waitForRendered((r) => r.rows === MAX_ROWS && !r.summary.includes('not loaded'), 540_000);
    await snap('board-plant', 2500);
  });
});
