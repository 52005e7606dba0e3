// What the user reads, in the pseudo-locale, must be pseudo-localized: every
// piece of the Machines tree, a hover, an error message, the Test Connection
// report. Each test gathers what one view showed (with where it was seen),
// cuts out the names (test/support/l10n/englishLeaks.ts) and fails listing
// every English word left, so one run names all that bypassed l10n.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { MachinesViewReader, RenderedNode } from '../support/machinesView';
import { COMMANDS } from '../../../src/extension/workbench/constants';
import { describeLeaks, findEnglish, intlPatterns, type AllowList } from '../../support/l10n/englishLeaks';
import { PSEUDO_LOCALE } from '../../support/l10n/pseudoLocale';
import { defaultData, startFakeApi, TEST_ASSET_ID, TOKEN_PATH, TEST_CREDENTIALS, TEST_SERIALS, type FakeApi } from '../../support/fakeApi';
import { activateExtension, ourExtension, signIn, signInArgs, signOut, TEST_ENVIRONMENT, type TestedApi } from '../support/extension';
import { user } from '../support/user';

/** One piece of text the user reads, and where. */
interface Shown {
  readonly where: string;
  readonly text: string | undefined;
}

/** The fake server's own words (event types and messages, link titles, error bodies): server text, shown as sent. */
function serverText(): string[] {
  const strings: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === 'string') strings.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === 'object' && value !== null) Object.values(value).forEach(walk);
  };
  walk(defaultData().machines);
  // The fake's error bodies (test/support/fakeApi/reply.ts, tokenEndpoint.ts) for the faults these tests cause.
  strings.push('Injected fault.', 'Internal Server Error', 'Bad credentials.', 'invalid_grant');
  // A sentence may be shown without its full stop.
  return [...new Set(strings.flatMap((text) => [text, text.replace(/\.$/, '')]))];
}

function allowList(): AllowList {
  return {
    names: [
      ...Object.values(TEST_SERIALS),
      TEST_ASSET_ID,
      TEST_ENVIRONMENT,
      TEST_CREDENTIALS.username,
      TEST_CREDENTIALS.clientId,
      vscode.env.appName,
      // The report's facts: the platform as Node names it.
      process.platform,
      process.arch,
      ...serverText(),
    ],
    patterns: intlPatterns(vscode.env.language),
  };
}

/** Fails listing every English word in `pieces`, each with where it was seen; prints them too, for the run's log. */
function assertNoEnglish(view: string, pieces: readonly Shown[]): void {
  const allow = allowList();
  const shown = pieces.filter((piece) => piece.text !== undefined && piece.text.trim() !== '');
  assert.ok(shown.length > 0, `${view}: something was shown to check`);
  const lines = shown.flatMap((piece) => describeLeaks(piece.where, findEnglish(piece.text ?? '', allow)));
  for (const line of lines) console.log(`    [pseudo] English in ${view}: ${line}`);
  assert.deepEqual(lines, [], `${view} shows English that did not come through l10n:\n${lines.join('\n')}`);
}

function rowPieces(rows: readonly RenderedNode[], path = 'Machines'): Shown[] {
  return rows.flatMap((row) => {
    const where = `${path} › ${row.kind} ${JSON.stringify(row.label)}`;
    return [
      { where: `${where} label`, text: row.label },
      { where: `${where} description`, text: row.description },
      { where: `${where} tooltip`, text: row.tooltip },
      { where: `${where} screen-reader label`, text: row.accessibilityLabel },
      ...rowPieces(row.children ?? [], where),
    ];
  });
}

/** Signs out when signed in; by state, since the "is not signed in" error is pseudo-localized here (signOutIfSignedIn reads its English). */
async function signOutIfSignedIn(api: TestedApi): Promise<void> {
  const { environment } = api.testHooks.session.state();
  if (environment !== undefined) await signOut(environment);
}

describe('Pseudo-locale: no English left in what the user reads', function () {
  this.timeout(60_000);
  let api: TestedApi;
  let tree: MachinesViewReader;
  let fake: FakeApi;
  let started = false;

  before(async function () {
    // scripts/run-integration.mjs pseudo starts every kind of VS Code in the pseudo-locale; in any other language
    // there is nothing pseudo-localized to read, and passing would prove nothing: fail with the reason.
    if (vscode.env.language !== PSEUDO_LOCALE)
      assert.fail(
        `pseudo-locale: VS Code runs in "${vscode.env.language}", not ${PSEUDO_LOCALE} (start it with OE_LOCALE=${PSEUDO_LOCALE} or --locale=${PSEUDO_LOCALE})`,
      );
    api = await activateExtension();
    tree = api.testHooks.machines;
    fake = await startFakeApi();
    started = true;
    await signOutIfSignedIn(api);
  });

  after(async () => {
    // Skipped (not in the pseudo-locale): nothing was started.
    if (!started) return;
    for (const serial of api.machines.pinned()) await vscode.commands.executeCommand(COMMANDS.removeMachine, serial);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await signOutIfSignedIn(api);
    await fake.close();
  });

  it('the manifest: view name, signed-out welcome, command titles and categories', () => {
    // A localized title can reach the extension host as { value, original } rather than a string.
    type Shown = string | { readonly value: string } | undefined;
    const text = (shown: Shown): string | undefined => (typeof shown === 'object' ? shown.value : shown);
    const manifest = ourExtension().packageJSON as {
      readonly contributes: {
        readonly views: Record<string, readonly { readonly name: Shown }[]>;
        readonly viewsWelcome: readonly { readonly contents: Shown }[];
        readonly commands: readonly { readonly command: string; readonly title: Shown; readonly category?: Shown }[];
      };
    };
    const { views, viewsWelcome, commands } = manifest.contributes;
    assertNoEnglish('the manifest', [
      ...Object.values(views)
        .flat()
        .map((view) => ({ where: 'view name', text: text(view.name) })),
      ...viewsWelcome.map((welcome, i) => ({ where: `welcome view ${String(i)}`, text: text(welcome.contents) })),
      ...commands.flatMap((command) => [
        { where: `${command.command} title`, text: text(command.title) },
        { where: `${command.command} category`, text: text(command.category) },
      ]),
    ]);
  });

  it('the Machines tree: groups, machine rows, event rows and the error row of a machine whose request fails (HTTP 500)', async () => {
    await signIn(fake);
    for (const serial of [TEST_SERIALS.onboarded, TEST_SERIALS.started])
      assert.equal(await vscode.commands.executeCommand(COMMANDS.addMachine, serial), serial);
    fake.addFault({ endpoint: 'events', serialNumber: TEST_SERIALS.started, kind: 'status', status: 500 });
    try {
      await vscode.commands.executeCommand(COMMANDS.refresh);
      const rows = await tree.render();
      const failed = rows.flatMap((row) => row.children ?? []).find((row) => row.label === TEST_SERIALS.started);
      assert.ok(
        failed?.children?.some((child) => child.kind === 'error'),
        'the failing machine shows an error row',
      );
      assertNoEnglish('the Machines tree', [{ where: 'Machines view description', text: tree.viewDescription() }, ...rowPieces(rows)]);
    } finally {
      fake.clearFaults();
    }
  });

  it('a hover over a serial number', async () => {
    const document = await vscode.workspace.openTextDocument({ content: `serial: ${TEST_SERIALS.onboarded}\n`, language: 'plaintext' });
    await vscode.window.showTextDocument(document);
    const hovers =
      (await vscode.commands.executeCommand<vscode.Hover[] | undefined>(
        'vscode.executeHoverProvider',
        document.uri,
        new vscode.Position(0, 12),
      )) ?? [];
    const ours = hovers
      .flatMap((hover) => hover.contents)
      .map((content) => (content instanceof vscode.MarkdownString ? content.value : typeof content === 'string' ? content : ''))
      .filter((text) => text.includes('onboardingEvents.'));
    assert.equal(ours.length, 1, 'one hover from us');
    assertNoEnglish(
      'the hover',
      ours.map((text) => ({ where: `hover over ${TEST_SERIALS.onboarded}`, text })),
    );
  });

  it('a failed sign-in (wrong password): the error the command reports and what it notified', async () => {
    const before = user.shown().length;
    const tokenRequests = fake.requests.filter((request) => request.path === TOKEN_PATH).length;
    let message: string | undefined;
    try {
      await vscode.commands.executeCommand(COMMANDS.signIn, signInArgs(fake, 'Env-2', { password: 'wrong-password' }));
    } catch (error) {
      message = error instanceof Error ? error.message : String(error);
    }
    assert.ok(message, 'the sign-in was refused');
    // Refused by the server (the ApiError's text), not by a check before any request.
    assert.equal(fake.requests.filter((request) => request.path === TOKEN_PATH).length, tokenRequests + 1, 'one token request');
    const notified = user.shownSince(before);
    assertNoEnglish('the failed sign-in', [
      { where: 'sign-in error', text: message },
      ...notified.map((shown, i) => ({ where: `notification ${String(i)} (${shown.kind})`, text: shown.message })),
    ]);
  });

  it('the Test Connection report and its notification', async () => {
    const before = user.shown().length;
    const result = await vscode.commands.executeCommand<{ ok: boolean } | undefined>(COMMANDS.testConnection);
    assert.equal(result?.ok, true, 'the connection to the fake API works');
    const report = vscode.window.activeTextEditor?.document.getText();
    assert.ok(report, 'the report is open');
    assertNoEnglish('Test Connection', [
      ...report.split('\n').map((line, i) => ({ where: `report line ${String(i + 1)}`, text: line })),
      ...user.shownSince(before).map((shown, i) => ({ where: `notification ${String(i)} (${shown.kind})`, text: shown.message })),
    ]);
  });
});
