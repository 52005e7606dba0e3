// One answer, everywhere: the demo's line 4 (24 robots that onboarded, one on
// time, one stalled, one silent for five months), read side by side on every
// surface that says progress — the hover, the Machines row, the board's
// columns, the agent summary, `oe check --json` and `oe mcp` (both run as
// child processes, `node dist/oe.js`, against the same fake API) — for the
// same machines at the same time. Each surface is read as its user reads it;
// the figures must agree.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import * as vscode from 'vscode';
import type { RenderedNode } from '../support/machinesView';
import { plainLocalize } from '../../../src/core/common/localize';
import { AGENT_TOOL_NAMES } from '../../../src/core/domain/agentTools/toolDefinitions';
import { defaultData, demoData, startFakeApi, TEST_CREDENTIALS, type FakeApi } from '../../support/fakeApi';
import { DEMO_LINE4_SERIALS } from '../../support/fakeApi/demoData';
import { pages } from '../support/pages';
import { activateExtension, signIn, signOutIfSignedIn, type TestedApi } from '../support/extension';
import { formatDuration } from '../../../src/core/common/time';

const ENVIRONMENT = 'Line 4, side by side';
const ROOT = join(__dirname, '..', '..', '..', '..');
const OE = join(ROOT, 'dist', 'oe.js');
const LINE4 = Object.keys(demoData().machines).filter((serial) => serial.startsWith('ASM-8800-H'));
const WATCHED = [DEMO_LINE4_SERIALS.onTime, DEMO_LINE4_SERIALS.stalled, DEMO_LINE4_SERIALS.abandoned];

/** What a surface says of one machine: its step ("3 of 5"), its time to go, or its stall or abandonment. */
interface Said {
  readonly step: string;
  readonly toGo: string | undefined;
  readonly alarm: string | undefined;
}

const ALARM = /^(stalled|abandoned): /;

/** "step 3 of 5 · TYPE · likely …" or "stalled: …" split into what it says. */
function fromWords(parts: readonly string[], step: string | undefined): Said {
  const alarm = parts.find((part) => ALARM.test(part));
  const toGo = parts.find((part) => part.startsWith('likely ') || part.startsWith('time to go unknown'));
  const stepPart = parts.find((part) => part.startsWith('step '))?.replace(/^step /, '') ?? step;
  assert.ok(stepPart !== undefined, `a step in ${parts.join(' · ')}`);
  return { step: stepPart, toGo, alarm };
}

function unescaped(markdown: string): string {
  return markdown.replace(/\\([\\`*_{}[\]()#+\-.!|<>~])/g, '$1');
}

let documentsOpened = 0;

async function hoverLine(serialNumber: string): Promise<string> {
  documentsOpened += 1;
  const uri = vscode.Uri.from({ scheme: 'untitled', path: `same-answer-${process.pid}-${documentsOpened}.txt` });
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
  return unescaped(ours.split('\n\n')[0] ?? '');
}

function machineRow(tree: readonly RenderedNode[], serialNumber: string): RenderedNode {
  const row = tree.flatMap((group) => group.children ?? []).find((node) => node.kind === 'machine' && node.label === serialNumber);
  assert.ok(row, `${serialNumber} is listed`);
  return row;
}

/** `node dist/oe.js ARGS` in `cwd`, signed in to `fake` by the OE_* variables only. */
function oe(args: readonly string[], fake: FakeApi, cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [OE, ...args],
      { cwd, env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ELECTRON_RUN_AS_NODE: '1', ...oeEnv(fake) } },
      (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr });
      },
    );
  });
}

function oeEnv(fake: FakeApi): Record<string, string> {
  return {
    OE_API_URL: fake.baseUrl,
    OE_AUTH_URL: fake.authUrl,
    OE_CLIENT_ID: TEST_CREDENTIALS.clientId,
    OE_CLIENT_SECRET: TEST_CREDENTIALS.clientSecret,
    OE_USERNAME: TEST_CREDENTIALS.username,
    OE_PASSWORD: TEST_CREDENTIALS.password,
  };
}

/** The words progressWords gives a time to go under an hour, from the JSON's figures (without them, not why: the words say that). */
function toGoFromJson(toGo: { ms: number; lowMs: number; highMs: number } | null): string {
  if (toGo === null) return 'time to go unknown';
  assert.ok(toGo.highMs < 60 * 60_000, `line 4's times are minutes: ${JSON.stringify(toGo)}`);
  const likely = formatDuration(toGo.ms, plainLocalize);
  return toGo.highMs - toGo.lowMs < 60_000
    ? `likely ${likely} more`
    : `likely ${likely} more (80 %: ${Math.round(toGo.lowMs / 60_000)}–${Math.round(toGo.highMs / 60_000)} min)`;
}

interface CheckedJson {
  readonly serialNumber: string;
  readonly progress?: {
    readonly step: number;
    readonly of: number;
    readonly stalled: boolean;
    readonly abandoned: boolean;
    readonly atStepMs: number;
    readonly timeToGo: { ms: number; lowMs: number; highMs: number } | null;
  } | null;
}

describe('Progress: one answer on every surface', function () {
  this.timeout(120_000);
  let api: TestedApi;
  let fake: FakeApi;
  let folder: string;

  before(async () => {
    api = await activateExtension();
    // Only line 4: the extension and oe learn from the same machines.
    const line4 = Object.fromEntries(Object.entries(demoData().machines).filter(([serial]) => LINE4.includes(serial)));
    fake = await startFakeApi({ data: { ...defaultData(), machines: line4 } });
    await signIn(fake, ENVIRONMENT);
    folder = mkdtempSync(join(tmpdir(), 'same-answer-'));
    writeFileSync(join(folder, 'line4.yaml'), `machines:\n${LINE4.map((serial) => `  - ${serial}\n`).join('')}`);
  });

  after(async () => {
    for (const serial of WATCHED) await vscode.commands.executeCommand('onboardingEvents.removeMachine', serial);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await signOutIfSignedIn(ENVIRONMENT);
    await fake.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('the hover, the Machines row, the board, the agent summary, oe check --json and oe mcp say the same step, time to go, stall and abandonment', async () => {
    const hooks = api.testHooks;
    for (const serial of LINE4) await hooks.getEvents(serial);
    for (const serial of WATCHED) await vscode.commands.executeCommand('onboardingEvents.addMachine', serial);
    await hooks.board.open({ kind: 'serials', serialNumbers: LINE4 });
    const board = await pages.board.waitForRendered(
      (r) => r.rows === LINE4.length && !r.summary.includes('not loaded') && r.progress.length === 5,
      30_000,
    );

    // Read every surface, then compare: all within seconds of each other.
    const hover = new Map<string, string>();
    for (const serial of WATCHED) hover.set(serial, await hoverLine(serial));
    const tree = await hooks.machines.render(2);
    const summary = (
      await vscode.lm.invokeTool(AGENT_TOOL_NAMES.summary, { input: { serialNumbers: LINE4 }, toolInvocationToken: undefined })
    ).content
      .map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : ''))
      .join('');
    const check = await oe(['check', '--json', '--fail-on', 'failed', 'line4.yaml'], fake, folder);
    assert.equal(check.code, 0, check.stderr);
    const checked = JSON.parse(check.stdout) as CheckedJson[];
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [OE, 'mcp'],
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ELECTRON_RUN_AS_NODE: '1', ...oeEnv(fake) },
      cwd: folder,
      stderr: 'pipe',
    });
    const agent = new Client({ name: 'same-answer', version: '1.0.0' });
    await agent.connect(transport);
    let mcpSummary: string;
    try {
      const result = await agent.callTool({ name: AGENT_TOOL_NAMES.summary, arguments: { serialNumbers: LINE4 } });
      mcpSummary = (result.content as { text?: string }[]).map((part) => part.text ?? '').join('\n');
    } finally {
      await agent.close();
    }

    // The counts: the abandoned apart on the board and in both summaries.
    assert.equal(board.summary, `${LINE4.length} machines: 24 onboarded, 4 in progress, 1 abandoned`);
    assert.equal(board.stalledCount, '1');
    assert.equal(board.abandonedCount, '1');
    for (const text of [summary, mcpSummary]) assert.match(text, /: 4 in progress \(1 of them STALLED\), 1 abandoned, 24 onboarded\./);

    for (const serial of WATCHED) {
      const said = new Map<string, Said>();
      // The hover's first line: "**SERIAL** · in progress · step 3 of 5 · TYPE · likely …".
      const hoverParts = (hover.get(serial) ?? '').split(' · ');
      assert.equal(hoverParts[1], 'in progress', hover.get(serial));
      said.set('hover', fromWords(hoverParts.slice(2), undefined));
      // The Machines row: "in progress · step 3 of 5 · TYPE · likely …", or "in progress · stalled: …" (its step in the tooltip).
      const row = machineRow(tree, serial);
      const rowParts = (row.description ?? '').split(' · ');
      const tooltipStep = /step (\d+ of \d+)/.exec(row.tooltip ?? '')?.[1];
      said.set('tree', fromWords(rowParts.slice(1), tooltipStep));
      // The board: "3/5 · TYPE" (a badge first), the time-to-go column, the stall or abandonment first in the cell's title.
      const cell = board.progress.find((p) => p.serialNumber === serial);
      assert.ok(cell, `${serial} has a progress cell`);
      const [, stepOf, of] = /(\d+)\/(\d+) · /.exec(cell.text) ?? [];
      const firstLine = cell.title.split('\n')[0] ?? '';
      said.set('board', {
        step: `${stepOf} of ${of}`,
        toGo: cell.toGo === '' ? undefined : cell.toGo,
        alarm: ALARM.test(firstLine) ? firstLine : undefined,
      });
      // The agent summary and oe mcp: "progress: [STALLED (…), |ABANDONED (…), ]step 3 of 5 · "TYPE", at it for …, likely …, from N onboarded machines".
      for (const [name, text] of [
        ['agent tool', summary],
        ['oe mcp', mcpSummary],
      ] as const) {
        const line = text.split('\n').find((l) => l.startsWith(`- "${serial}"`)) ?? '';
        const progress = /; progress: (.*)$/.exec(line)?.[1] ?? '';
        const alarm = /^(?:STALLED|ABANDONED) \(((?:stalled|abandoned): [^)]*)\)/.exec(progress)?.[1];
        const step = /step (\d+ of \d+) · /.exec(progress)?.[1] ?? '';
        const toGo = /, (likely [^,]*(?:, [^,]*\))?|time to go unknown \([^)]*\)), (?:missing|out of order|from \d)/.exec(progress)?.[1];
        said.set(name, { step, toGo, alarm });
      }
      // oe check --json: the figures themselves.
      const json = checked.find((machine) => machine.serialNumber === serial)?.progress;
      assert.ok(json, `${serial} has progress in oe check --json: ${check.stdout.slice(0, 2000)}`);
      const hoverSaid = said.get('hover');
      assert.ok(hoverSaid);
      said.set('oe check --json', {
        step: `${json.step} of ${json.of}`,
        toGo: toGoFromJson(json.timeToGo),
        alarm: json.stalled ? 'stalled' : json.abandoned ? 'abandoned' : undefined,
      });
      // Every surface against the hover: the same step and stall or abandonment, and where neither, the same time to go.
      const expected = hoverSaid;
      console.log(`    ${serial}: ${JSON.stringify(expected)}`);
      for (const [surface, figures] of said) {
        const why = `${serial}: ${surface} says ${JSON.stringify(figures)}, the hover ${JSON.stringify(expected)}`;
        assert.equal(figures.step, expected.step, why);
        // The JSON's stall and abandonment are flags: they agree when the words start with them.
        assert.equal(figures.alarm, surface === 'oe check --json' ? expected.alarm?.split(':')[0] : expected.alarm, why);
        if (expected.alarm === undefined) sameTimeToGo(figures.toGo, expected.toGo, why);
      }
    }
    // What the demo shows: a range, a stall with its rule, an abandoned machine in days.
    assert.match(hoverOf(hover, DEMO_LINE4_SERIALS.onTime), / · likely \d+ min more \(80 %: \d+–\d+ min\)$/);
    assert.match(hoverOf(hover, DEMO_LINE4_SERIALS.stalled), / · stalled: at it for 2 h 4\d min, usually under \d+ min$/);
    assert.match(hoverOf(hover, DEMO_LINE4_SERIALS.abandoned), / · abandoned: no event for 141 days, longer than any onboarding took$/);
    const stalledTitle = board.progress.find((p) => p.serialNumber === DEMO_LINE4_SERIALS.stalled)?.title ?? '';
    assert.match(
      stalledTitle,
      /\n\d+(\.\d)? % of the machines at this step, this one counted, were still at it after as long; below 1 %, or past twice the longest stay \(\d+ min\), a machine counts as stalled\.\n/,
    );
  });
});

/**
 * The same time to go: the same words, each minute within one of the hover's. The surfaces are read seconds
 * apart, and the range is conditioned on the time at the step, so a bound may cross a rounding in between.
 */
function sameTimeToGo(actual: string | undefined, expected: string | undefined, why: string): void {
  if (actual === 'time to go unknown') {
    assert.ok(expected?.startsWith('time to go unknown ('), why);
    return;
  }
  const shape = (words: string | undefined): string | undefined => words?.replace(/\d+/g, 'N');
  assert.equal(shape(actual), shape(expected), why);
  const numbers = (words: string | undefined): number[] => (words?.match(/\d+/g) ?? []).map(Number);
  const [got, wanted] = [numbers(actual), numbers(expected)];
  got.forEach((n, i) => {
    assert.ok(Math.abs(n - (wanted[i] ?? NaN)) <= 1, why);
  });
}

function hoverOf(hover: ReadonlyMap<string, string>, serial: string): string {
  return hover.get(serial) ?? '';
}
