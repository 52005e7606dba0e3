// The onboarding board in the real extension host, against the demo API: the
// board of the demo workspace's config/line3.yaml, opened through the test
// hooks and read from outside (support/pages.ts: the panel, what the host
// posts, and the page's DOM as the test's read-back script reads it); it follows its file as it
// is edited, a row opens its machine's details, the Markdown copy reaches the
// clipboard, signed out it says so, and a set of 1,000 loads no more than the
// automatic bound asks.
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { MAX_AUTOMATIC_PER_VIEW } from '../../../src/core/eventsCache/visibleLoads';
import { DEMO_CREDENTIALS, DEMO_FAKE_CONFIG, demoData, startFakeApi, type FakeApi } from '../../support/fakeApi';
import { DEMO_LINE4_SERIALS } from '../../support/fakeApi/demoData';
import { activateExtension, type TestedApi } from '../support/extension';
import type { BoardSet } from '../../../src/extension/board/protocol';
import { pages, until } from '../support/pages';
import { user } from '../support/user';
import { MAX_ROWS } from '../../../src/extension/board/protocol';
import { MAX_SVG_LANES } from '../../../src/core/domain/board/boardExport';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { serverTextData } from '../../../src/core/common/serverText';

const root = join(__dirname, '..', '..', '..', '..');
const LINE3 = vscode.Uri.file(join(root, 'test', 'fixtures', 'demo-workspace', 'config', 'line3.yaml'));
const LINE3_SERIALS = [
  'MX-4711-A0023',
  'PRS-0900-A0314',
  'LSR-6060-F0042',
  'CNC-5200-E0101',
  'WELD-3100-D0007',
  'MX-9999-Z0001',
  'KRP-0815-B0042',
  'TBL-2200-C0666',
];
const LINE4 = vscode.Uri.file(join(root, 'test', 'fixtures', 'demo-workspace', 'config', 'line4.yaml'));
const ENVIRONMENT = 'Board demo';

const STATE_LOOK = {
  onboarded: '#0a0',
  failed: '#a00',
  'in-progress': '#00a',
  'no-events': '#888',
  unknown: '#aa0',
  unavailable: '#aa0',
  'not-loaded': '#888',
};

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('The onboarding board', function () {
  this.timeout(90_000);
  let api: TestedApi;
  let fake: FakeApi;

  const board = () => {
    const handed = api.testHooks.board;
    assert.ok(handed, 'the board is handed over under test');
    return { ...pages.board, open: (set: BoardSet) => handed.open(set) };
  };

  /** The open board's title and, once the host has posted it, the machines it shows (in the set's order). */
  async function shownBoard(): Promise<{ readonly title: string; readonly machines: readonly string[] }> {
    const panel = pages.board.panel();
    assert.ok(panel, 'a board is open');
    const title = panel.title;
    const posted = () =>
      pages.board
        .posted()
        .filter((m) => m.type === 'show' && m.board.title === title)
        .at(-1);
    await until(() => posted() !== undefined, `the host posted the board titled ${title}`);
    const show = posted();
    assert.ok(show?.type === 'show');
    return { title, machines: show.board.rows.map((row) => row.serialNumber) };
  }

  async function signIn(): Promise<void> {
    await vscode.commands.executeCommand('onboardingEvents.signIn', {
      apiBaseUrl: fake.baseUrl,
      authUrl: fake.authUrl,
      ...DEMO_CREDENTIALS,
      environment: ENVIRONMENT,
    });
  }

  before(async () => {
    api = await activateExtension();
    fake = await startFakeApi({ data: demoData(), ...DEMO_FAKE_CONFIG });
    await signIn();
    api.events.clear();
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('onboardingEvents.signOut', { environment: ENVIRONMENT }).then(
      () => undefined,
      () => undefined,
    );
    await fake.close();
  });

  it("shows the demo's line 3: every machine in its state, the failed request's error, sorted by serial number", async () => {
    await board().open({ kind: 'file', uri: LINE3.toString() });
    assert.deepEqual((await shownBoard()).machines, LINE3_SERIALS);
    assert.equal(board().panel()?.title, 'Board: Serial Numbers in line3.yaml');
    const report = await board().waitForRendered((r) => r.rows === 8 && !r.summary.includes('not loaded'), 30_000);
    assert.equal(report.summary, '8 machines: 3 onboarded, 1 failed, 1 in progress, 1 no events, 1 unknown, 1 unavailable');
    assert.deepEqual(report.firstShown, [...LINE3_SERIALS].sort());
    assert.equal(report.shown, 8);
    assert.ok(report.lanesDrawn > 0, 'the timeline drew lanes');
    // One request per machine, however often the board re-rendered as answers landed.
    for (const serial of LINE3_SERIALS)
      assert.ok(fake.eventRequests(serial).length <= 1, `${serial}: ${fake.eventRequests(serial).length}`);
  });

  it('opens the details of a row’s newest event and of a timeline point, and copies the table as Markdown', async () => {
    const details = pages.details;
    board().send({ type: 'open-machine', serialNumber: 'MX-4711-A0023' });
    await until(() => details.panelTitles().some((title) => title.includes('MX-4711-A0023')), 'the row opened its details');
    assert.ok(
      details.panelTitles().some((title) => title.includes('MX-4711-A0023')),
      details.panelTitles().join(', '),
    );
    // A point names its event by key; the host opens its own copy of that event.
    const failed = (await api.testHooks.getEvents('PRS-0900-A0314')).events.find((e) => serverTextData(e.type).includes('FAIL'));
    assert.ok(failed, 'PRS-0900-A0314 has a failed event');
    board().send({ type: 'open-event', serialNumber: 'PRS-0900-A0314', key: failed.key });
    await until(() => details.panelTitles().includes(`${serverTextData(failed.type)} · PRS-0900-A0314`), 'the point opened its event');
    assert.ok(
      details.panelTitles().some((title) => title === `${serverTextData(failed.type)} · PRS-0900-A0314`),
      details.panelTitles().join(', '),
    );
    await vscode.env.clipboard.writeText('');
    board().send({ type: 'export-table', format: 'markdown', serialNumbers: ['PRS-0900-A0314', 'NOT-ON-BOARD'] });
    let text = '';
    for (let waited = 0; waited < 10_000 && text === ''; waited += 50) {
      await sleep(50);
      text = await vscode.env.clipboard.readText();
    }
    const lines = text.trim().split('\n');
    assert.equal(lines[0], '| Serial number | State | Newest event | Newest event time (UTC) | Duration | Events | Error |');
    assert.equal(lines.length, 3, 'the header, its rule and the one machine on the board: a serial number the page made up is dropped');
    assert.match(lines[2] ?? '', /^\| PRS-0900-A0314 \| failed \| /);
  });

  it('follows its file as it is edited', async () => {
    const document = await vscode.workspace.openTextDocument({ language: 'yaml', content: 'machines:\n  - MX-4711-A0023\n' });
    await vscode.window.showTextDocument(document);
    await board().open({ kind: 'file', uri: document.uri.toString() });
    await board().waitForRendered((r) => r.rows === 1 && r.summary === '1 machine: 1 onboarded');
    const edit = new vscode.WorkspaceEdit();
    edit.insert(document.uri, new vscode.Position(2, 0), '  - PRS-0900-A0314\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    const report = await board().waitForRendered((r) => r.rows === 2 && !r.summary.includes('not loaded'));
    assert.equal(report.summary, '2 machines: 1 onboarded, 1 failed');
  });

  it('loads at most the automatic bound of a set of 1,000 and offers the rest', async () => {
    const serials = Array.from({ length: 1000 }, (_, i) => `MX-${String(5000 + i)}-B${String(i).padStart(4, '0')}`);
    const document = await vscode.workspace.openTextDocument({ language: 'yaml', content: serials.map((s) => `- ${s}`).join('\n') });
    fake.clearRequests();
    await board().open({ kind: 'file', uri: document.uri.toString() });
    await board().waitForRendered((r) => r.rows === 1000 && r.summary.includes('950 not loaded'), 30_000);
    await sleep(1000);
    assert.equal(fake.eventRequests().length, MAX_AUTOMATIC_PER_VIEW);
    const report = await board().waitForRendered((r) => r.rows === 1000 && r.summary === '1,000 machines: 50 unknown, 950 not loaded');
    assert.ok(report.lanesDrawn < 60, `only the lanes in view are drawn (${report.lanesDrawn})`);
  });

  it('shows a plant of 10,000 machines walked by keyboard, says the one past the limit, and an SVG says the lanes it left off', async () => {
    // One serial number more than a board shows: the last is said, not dropped in silence.
    const serials = Array.from(
      { length: MAX_ROWS + 1 },
      (_, i) => `MX-${String(1000 + (i % 9000))}-${i < 10_000 ? 'C' : 'D'}${String(i % 10_000).padStart(4, '0')}`,
    );
    const document = await vscode.workspace.openTextDocument({ language: 'yaml', content: serials.map((s) => `- ${s}`).join('\n') });
    await board().open({ kind: 'file', uri: document.uri.toString() });
    const limit = MAX_ROWS.toLocaleString('en');
    const report = await board().waitForRendered((r) => r.rows === MAX_ROWS && r.notices.includes('not on the board'), 60_000);
    assert.match(
      report.notices,
      new RegExp(`Machines in this set not on the board: 1\\. A board shows at most ${limit} machines; open a smaller set`),
    );
    assert.ok(report.drawn < 200, `only the rows in view are drawn (${report.drawn})`);
    const show = pages.board
      .posted()
      .filter((m) => m.type === 'show')
      .at(-1);
    assert.ok(show?.type === 'show');
    assert.equal(show.board.rows.length, MAX_ROWS);
    assert.equal(show.board.beyond, 1);
    const inOrder = [...show.board.rows.map((row) => row.serialNumber)].sort((a, b) =>
      a.localeCompare(b, 'en', { numeric: true, sensitivity: 'base' }),
    );
    // The keyboard: down the rows, a page at a time, to the end and back; the drawn rows follow.
    const down = await board().walk(['ArrowDown', 'ArrowDown', 'PageDown']);
    assert.deepEqual(down.focused, { text: inOrder[12], rowIndex: '14' });
    const end = await board().walk(['End', 'ArrowUp']);
    assert.deepEqual(end.focused, { text: inOrder[MAX_ROWS - 2], rowIndex: String(MAX_ROWS) });
    assert.ok(!end.firstShown.includes(inOrder[0] ?? ''), 'the first rows are no longer drawn');
    assert.ok(end.drawn < 200, `rows drawn at the end: ${end.drawn}`);
    const home = await board().walk(['End', 'Home']);
    assert.deepEqual(home.focused, { text: inOrder[0], rowIndex: '2' });
    // An SVG holds MAX_SVG_LANES lanes: saving all 10,000 says which it holds.
    const folder = mkdtempSync(join(tmpdir(), 'oe-board-'));
    try {
      const target = vscode.Uri.file(join(folder, 'plant.svg'));
      const saving = user.saveNextAs(target);
      const before = pages.board.posted().length;
      board().send({
        type: 'export-svg',
        serialNumbers: inOrder,
        from: Date.UTC(2025, 0, 1),
        to: Date.UTC(2025, 0, 2),
        aligned: false,
        look: { background: '#000', foreground: '#fff', grid: '#888', states: STATE_LOOK },
      });
      const said = (): string | undefined =>
        pages.board
          .posted()
          .slice(before)
          .flatMap((m) => (m.type === 'status' ? [m.message] : []))
          .at(-1);
      await until(() => said() !== undefined, 'the board said what it saved', 30_000);
      saving.dispose();
      assert.equal(
        said(),
        `Saved plant.svg. It holds the first ${MAX_SVG_LANES.toLocaleString('en')} of ${limit} lanes: an SVG holds at most ${MAX_SVG_LANES.toLocaleString('en')}. Filter the board to export the others.`,
      );
      assert.equal(readFileSync(target.fsPath, 'utf8').match(/<text x="4"/g)?.length, MAX_SVG_LANES);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('names a selection of one machine by its serial number, and counts a selection by its machines', async () => {
    await board().open({ kind: 'serials', serialNumbers: ['LSR-6060-F0042'] });
    assert.equal(board().panel()?.title, 'Board: LSR-6060-F0042');
    // The same machine twice (once with the spaces a paste brings) is one machine.
    await board().open({ kind: 'serials', serialNumbers: [' MX-4711-A0023 ', 'MX-4711-A0023', 'PRS-0900-A0314'] });
    assert.deepEqual((await shownBoard()).machines, ['MX-4711-A0023', 'PRS-0900-A0314']);
    assert.equal(board().panel()?.title, 'Board: 2 Selected Machines');
  });

  it('says it is signed out, and shows every machine as not loaded', async () => {
    await board().open({ kind: 'file', uri: LINE3.toString() });
    await vscode.commands.executeCommand('onboardingEvents.signOut', { environment: ENVIRONMENT });
    const report = await board().waitForRendered((r) => r.rows === 8 && r.summary === '8 machines: 8 not loaded');
    assert.equal(report.shown, 8);
    await signIn();
    await board().waitForRendered((r) => r.rows === 8 && !r.summary.includes('not loaded'), 30_000);
  });

  it("shows where each machine of the demo's line 4 is: its step, time to go, the stalled one, a missing step, and what the figures rest on", async () => {
    await board().open({ kind: 'file', uri: LINE4.toString() });
    const report = await board().waitForRendered((r) => r.rows === 29 && !r.summary.includes('not loaded') && r.usualNote !== '', 30_000);
    assert.equal(report.summary, '29 machines: 24 onboarded, 4 in progress, 1 abandoned');
    assert.equal(report.heading, 'Board: Serial Numbers in line4.yaml', 'the panel that showed line 3 is headed by the board it shows now');
    const cell = (serial: string) => report.progress.find((p) => p.serialNumber === serial);
    const stalled = cell(DEMO_LINE4_SERIALS.stalled);
    assert.equal(stalled?.text, 'stalled4/5 · FIRMWARE_CHECKED');
    assert.match(
      stalled.title,
      /^stalled: at it for 2 h 4\d min, usually under \d+ min\n\d+(\.\d)? % of the machines at this step, this one counted, were still at it after as long; below 1 %, or past twice the longest stay \(\d+ min\), a machine counts as stalled\.\nfrom (\d+) onboarded machines\nLearned from the \2 onboarded machines/,
    );
    assert.match(cell(DEMO_LINE4_SERIALS.onTime)?.toGo ?? '', /^likely \d+ min more \(80 %: \d+–\d+ min\)$/);
    assert.match(
      cell(DEMO_LINE4_SERIALS.onTime)?.toGoTitle ?? '',
      /^learned from the \d+ machines of kind ASM-8800\nfrom \d+ onboarded machines\nLearned from/,
    );
    const abandoned = cell(DEMO_LINE4_SERIALS.abandoned);
    assert.equal(abandoned?.text, 'abandoned4/5 · FIRMWARE_CHECKED');
    assert.match(abandoned.title, /^abandoned: no event for 141 days, longer than any onboarding took\n/);
    assert.equal(abandoned.toGo, '', 'no time to go for an abandoned machine');
    assert.match(cell(DEMO_LINE4_SERIALS.missingStep)?.title ?? '', /\nmissing: DEVICE_REGISTERED\n/);
    assert.equal(cell(DEMO_LINE4_SERIALS.started)?.text, '1/5 · ONBOARDING_STARTED');
    assert.equal(report.progress.length, 5, 'only the machines in progress have progress');
    assert.equal(report.stalledCount, '1');
    assert.equal(report.abandonedCount, '1');
    assert.match(
      report.usualNote,
      /^Faint bands behind each lane: the usual steps of this line, laid end to end by their median times \(from \d+ onboarded machines\)\.$/,
    );
    assert.match(report.usualNoteTitle, /^Learned from the \d+ onboarded machines/);
    // The host sent the usual steps the lanes draw, learned from the line: five, the outcome (the created machine) last.
    const show = pages.board
      .posted()
      .filter((m) => m.type === 'show')
      .at(-1);
    assert.ok(show?.type === 'show');
    assert.deepEqual(
      show.board.usual?.steps.map((step) => step.type),
      ['ONBOARDING_STARTED', 'DEVICE_REGISTERED', 'CERTIFICATE_ISSUED', 'FIRMWARE_CHECKED', 'MACHINE_CREATED'],
    );
  });
});
