// The Machines tree in the real extension host against the fake API, driven
// through the commands a user (or a menu) runs, and checked on what the
// TreeDataProvider renders and on the requests the fake received.
import * as assert from 'node:assert/strict';
import { linkSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { MachinesViewReader, RenderedNode } from '../support/machinesView';
import { makeEvent, startFakeApi, TEST_ASSET_ID, TEST_CREDENTIALS, TEST_SERIALS, type FakeApi } from '../../support/fakeApi';
import { activateExtension, ourExtension, signIn, signOutIfSignedIn, type TestedApi } from '../support/extension';
import { until, user } from '../support/user';
import { readLogFromNow } from '../../support/extensionLog';

/** The default data's base time (test/support/fakeApi/data.ts). */
const T0 = Date.UTC(2025, 0, 15, 8, 0, 0);
const ONBOARDED = TEST_SERIALS.onboarded;
const STARTED = TEST_SERIALS.started;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function setting(key: string, value: unknown, section = 'onboardingEvents'): Promise<void> {
  await vscode.workspace.getConfiguration(section).update(key, value, vscode.ConfigurationTarget.Global);
}

function group(tree: readonly RenderedNode[], label: string): RenderedNode {
  const found = tree.find((node) => node.kind === 'group' && node.label === label);
  assert.ok(found, `group "${label}" in ${JSON.stringify(tree.map((node) => node.label))}`);
  return found;
}

function machine(tree: readonly RenderedNode[], serial: string, groupLabel = 'Pinned'): RenderedNode {
  const found = group(tree, groupLabel).children?.find((node) => node.kind === 'machine' && node.label === serial);
  assert.ok(found, `machine ${serial} in group ${groupLabel}`);
  return found;
}

interface MenuEntry {
  readonly command: string;
  readonly when: string;
}

/** The item-context commands package.json offers for a contextValue in the Machines view. */
function menuCommands(contextValue: string | undefined): string[] {
  const manifest = JSON.parse(readFileSync(join(ourExtension().extensionPath, 'package.json'), 'utf8')) as {
    contributes: { menus: Record<string, MenuEntry[]> };
  };
  const offered = new Set<string>();
  for (const entry of manifest.contributes.menus['view/item/context'] ?? []) {
    const match = /viewItem =~ \/(.*)\/$/.exec(entry.when);
    const equal = /viewItem == (\S+)$/.exec(entry.when);
    if ((match?.[1] !== undefined && new RegExp(match[1]).test(contextValue ?? '')) || equal?.[1] === contextValue)
      offered.add(entry.command.replace('onboardingEvents.', ''));
  }
  return [...offered].sort();
}

function labels(nodes: readonly RenderedNode[] | undefined): string[] {
  return (nodes ?? []).map((node) => node.label);
}

describe('Machines tree', function () {
  this.timeout(60_000);
  let api: TestedApi;
  let tree: MachinesViewReader;
  let fake: FakeApi;

  async function clearLists(): Promise<void> {
    for (const serial of api.machines.pinned()) await vscode.commands.executeCommand('onboardingEvents.removeMachine', serial);
    api.machines.clearRecent();
    await vscode.commands.executeCommand('onboardingEvents.clearFilter');
  }

  before(async () => {
    api = await activateExtension();
    assert.ok(api.testHooks.machines, 'the tree hooks are exported in test mode');
    tree = api.testHooks.machines;
    fake = await startFakeApi();
    await signOutIfSignedIn();
    await clearLists();
    await vscode.commands.executeCommand('onboardingEvents.machines.focus');
  });

  after(async () => {
    // Pins live in workspace or global state by the pinnedScope setting: leave neither behind for the next suite.
    await setting('tree.pinnedScope', 'global');
    await clearLists();
    await setting('tree.pinnedScope', undefined);
    await clearLists();
    for (const key of ['tree.maxEvents', 'autoRefresh.enabled']) await setting(key, undefined);
    await setting('exclude', undefined, 'files');
    await signOutIfSignedIn();
    await fake.close();
  });

  describe('signed out', () => {
    it('renders no element even with a pinned machine, so the Sign In welcome view shows', async () => {
      assert.equal(await vscode.commands.executeCommand('onboardingEvents.addMachine', ONBOARDED), ONBOARDED);
      assert.deepEqual(await tree.render(), []);
      assert.equal(fake.eventRequests().length, 0, 'no request while signed out');
      await vscode.commands.executeCommand('onboardingEvents.removeMachine', ONBOARDED);
    });

    it('with no machine at all the "no machines" context key is false (the welcome offers Add, Look Up, Scan)', async () => {
      await signIn(fake);
      assert.deepEqual(await tree.render(), []);
      assert.equal(tree.contextKeys().hasMachines, false);
      await signOutIfSignedIn();
    });
  });

  describe('signed in', () => {
    before(async () => {
      await signIn(fake);
      api.events.clear();
      fake.clearRequests();
    });

    it('Add Machine refuses an empty serial number or one with a control character, and pins a valid one trimmed', async () => {
      assert.equal(await vscode.commands.executeCommand('onboardingEvents.addMachine', '   '), undefined);
      assert.equal(await vscode.commands.executeCommand('onboardingEvents.addMachine', 'MX-4711\tA0023'), undefined);
      assert.deepEqual(api.machines.pinned(), []);
      assert.equal(await vscode.commands.executeCommand('onboardingEvents.addMachine', { serialNumber: `  ${ONBOARDED} ` }), ONBOARDED);
      assert.deepEqual(api.machines.pinned(), [ONBOARDED]);
      assert.equal(tree.contextKeys().hasMachines, true);
    });

    it('shows the machine with its latest event and the events newest first, with types, times, asset id and a details command', async () => {
      const rendered = await tree.render();
      const node = machine(rendered, ONBOARDED);
      // A state word and a short age fit a default-width sidebar; the raw type is in the tooltip.
      assert.match(node.description ?? '', /^onboarded · \S/);
      assert.match(node.tooltip ?? '', /Latest: ONBOARDING_COMPLETED, /);
      assert.match(node.accessibilityLabel ?? '', new RegExp(`^${ONBOARDED}, onboarded · .* ago$`));
      assert.doesNotMatch(node.accessibilityLabel ?? '', /\bmo\.|yr\./, 'screen readers get the long form of the age');
      assert.equal(node.icon, 'vm-active', 'a machine with a machine-created event');
      assert.equal(node.contextValue, 'machine.pinned.pinned.events');
      assert.match(node.tooltip ?? '', /3 events/);
      assert.match(node.tooltip ?? '', /Last refresh/);
      assert.deepEqual(labels(node.children), ['ONBOARDING_COMPLETED', 'MACHINE_CREATED', 'ONBOARDING_STARTED']);
      const created = node.children?.[1];
      assert.ok(created);
      assert.equal(created.contextValue, 'event.asset');
      assert.match(created.description ?? '', new RegExp(`ago · asset ${TEST_ASSET_ID}`));
      assert.match(created.tooltip ?? '', /Machine asset created/);
      assert.match(created.tooltip ?? '', new RegExp(`Asset ID: ${TEST_ASSET_ID}`));
      assert.match(created.tooltip ?? '', /Machine link: http:\/\/127\.0\.0\.1:\d+\/public\/api\/machines\//);
      assert.match(created.tooltip ?? '', /2025-01-15T08:01:00\.000Z/);
      assert.equal(created.command?.command, 'onboardingEvents.showEventDetails');
      assert.equal((created.command.arguments[0] as { type: string }).type, 'MACHINE_CREATED');
      assert.equal(node.children[0]?.contextValue, 'event');
      assert.equal(fake.eventRequests(ONBOARDED).length, 1, 'one request for the machine');
    });

    it('draws machine and event rows without their tooltips and builds each when it is hovered (resolveTreeItem)', async () => {
      await vscode.commands.executeCommand('onboardingEvents.addMachine', ONBOARDED);
      const node = machine(await tree.render(), ONBOARDED);
      // A group of thousands of rows is drawn in one turn: only what the row shows is built then.
      assert.equal(node.tooltipOnHover, true, `the machine row's tooltip comes on hover: ${node.tooltip ?? ''}`);
      assert.match(node.tooltip ?? '', /3 events/);
      for (const event of node.children ?? [])
        assert.equal(event.tooltipOnHover, true, `the event row ${event.label}'s tooltip comes on hover`);
    });

    it('shows at most tree.maxEvents events and a "Load more" entry that shows the next page', async () => {
      await setting('tree.maxEvents', 2);
      try {
        let node = machine(await tree.render(), ONBOARDED);
        assert.deepEqual(labels(node.children), ['ONBOARDING_COMPLETED', 'MACHINE_CREATED', 'Load More…']);
        const more = node.children?.[2];
        assert.equal(more?.description, '2 of 3 shown');
        assert.ok(more.command);
        assert.equal(more.command.command, 'onboardingEvents.loadMore');
        await vscode.commands.executeCommand('onboardingEvents.loadMore', ...more.command.arguments);
        node = machine(await tree.render(), ONBOARDED);
        assert.deepEqual(labels(node.children), ['ONBOARDING_COMPLETED', 'MACHINE_CREATED', 'ONBOARDING_STARTED']);
      } finally {
        await setting('tree.maxEvents', undefined);
      }
    });

    it('filters by event type and by text, says so in the view, and clears', async () => {
      await vscode.commands.executeCommand('onboardingEvents.addMachine', STARTED);
      try {
        let filter = await vscode.commands.executeCommand('onboardingEvents.filterEvents', { types: ['MACHINE_CREATED'] });
        assert.deepEqual(filter, { types: ['MACHINE_CREATED'] });
        let rendered = await tree.render();
        assert.deepEqual(labels(machine(rendered, ONBOARDED).children), ['MACHINE_CREATED']);
        assert.deepEqual(labels(machine(rendered, STARTED).children), ['No events match the filter']);
        assert.equal(machine(rendered, STARTED).description, 'no matching events');
        assert.equal(tree.contextKeys().filtered, true);
        assert.match(tree.viewDescription() ?? '', /Filtered: type: MACHINE_CREATED/);

        filter = await vscode.commands.executeCommand('onboardingEvents.filterEvents', { types: null, text: 'completed' });
        assert.deepEqual(filter, { text: 'completed' });
        rendered = await tree.render();
        assert.deepEqual(labels(machine(rendered, ONBOARDED).children), ['ONBOARDING_COMPLETED']);
        assert.match(machine(rendered, ONBOARDED).tooltip ?? '', /1 of 3 events match the filter/);
      } finally {
        await vscode.commands.executeCommand('onboardingEvents.clearFilter');
      }
      assert.equal(tree.contextKeys().filtered, false);
      assert.equal(tree.viewDescription(), undefined);
      assert.equal(machine(await tree.render(), ONBOARDED).children?.length, 3);
    });

    it("a since filter asks the API with `timestamp` in the server's unit and re-checks the answer, whichever way the server reads it", async () => {
      const since = T0 + 60_000; // the MACHINE_CREATED event
      try {
        for (const timestampFilter of ['after-inclusive', 'after-exclusive', 'ignore', 'before-inclusive'] as const) {
          fake.configure({ timestampFilter });
          fake.clearRequests();
          await vscode.commands.executeCommand('onboardingEvents.filterEvents', { since: null });
          await vscode.commands.executeCommand('onboardingEvents.filterEvents', { since });
          const rendered = await tree.render();
          assert.deepEqual(
            labels(machine(rendered, ONBOARDED).children),
            ['ONBOARDING_COMPLETED', 'MACHINE_CREATED'],
            `server reads timestamp as ${timestampFilter}`,
          );
          assert.deepEqual(
            labels(machine(rendered, STARTED).children),
            ['ONBOARDING_STARTED'],
            `server reads timestamp as ${timestampFilter}`,
          );
          const sinceRequest = fake.eventRequests(ONBOARDED).filter((request) => request.query['timestamp'] !== undefined);
          if (timestampFilter === 'after-inclusive') {
            // Milliseconds (the unit of this server's timestamps), one below the bound so an exclusive reading keeps the boundary event.
            assert.equal(sinceRequest[0]?.query['timestamp'], String(since - 1));
          }
        }
      } finally {
        fake.configure({ timestampFilter: 'after-inclusive' });
        await vscode.commands.executeCommand('onboardingEvents.clearFilter');
      }
    });

    it('Refresh Machine fetches again and shows a new event first; the badge counts it until the machine is looked at', async () => {
      await tree.render();
      assert.equal(tree.badge(), undefined, 'the history found when adding is not "new"');
      const before = fake.eventRequests(ONBOARDED).length;
      fake.addEvent(
        ONBOARDED,
        makeEvent({ type: 'FIRMWARE_UPDATED', message: 'Firmware 5.0.1 installed', timestamp: Date.now() - 5 * 60_000 }),
      );
      const node = machine(await tree.render(), ONBOARDED);
      const result = await vscode.commands.executeCommand<{ done: number; failed: number }>('onboardingEvents.refreshMachine', node.node);
      assert.deepEqual(result, { done: 1, failed: 0 });
      assert.equal(fake.eventRequests(ONBOARDED).length, before + 1);
      const rendered = await tree.render();
      const refreshed = machine(rendered, ONBOARDED);
      assert.equal(refreshed.children?.[0]?.label, 'FIRMWARE_UPDATED');
      assert.match(refreshed.description ?? '', /^1 new · in progress · 5 min\. ago$/);
      assert.deepEqual(tree.badge(), { value: 1, tooltip: '1 onboarding events you have not seen yet' });

      // Revealed as the hover's Show link does (a listed machine: nothing to ask).
      await vscode.commands.executeCommand('onboardingEvents.revealMachine', ONBOARDED);
      await tree.render();
      assert.equal(tree.badge(), undefined, 'selecting the machine marks its events seen');
    });

    it('menus offer only what works on each element (export needs events, copy asset id needs an asset)', async () => {
      await vscode.commands.executeCommand('onboardingEvents.addMachine', TEST_SERIALS.empty);
      try {
        const rendered = await tree.render();
        const withEvents = machine(rendered, ONBOARDED);
        // Issue 27: every machine (and group) offers the onboarding board of the selection.
        assert.deepEqual(menuCommands(withEvents.contextValue), [
          'copyAsCurl',
          'copyLinkToMachine',
          'copySerialNumber',
          'exportEvents',
          'openBoard',
          'refreshMachine',
          'removeMachine',
          'watchMachine',
        ]);
        assert.deepEqual(menuCommands(machine(rendered, TEST_SERIALS.empty).contextValue), [
          'copyAsCurl',
          'copyLinkToMachine',
          'copySerialNumber',
          'openBoard',
          'refreshMachine',
          'removeMachine',
          'watchMachine',
        ]);
        const created = withEvents.children?.find((child) => child.label === 'MACHINE_CREATED');
        assert.deepEqual(menuCommands(created?.contextValue), [
          'copyAssetId',
          'copyEventJson',
          'copyMessage',
          'copySerialNumber',
          'showEventDetails',
          'showRawJson',
        ]);
        assert.deepEqual(menuCommands(withEvents.children?.[0]?.contextValue), [
          'copyEventJson',
          'copyMessage',
          'copySerialNumber',
          'showEventDetails',
          'showRawJson',
        ]);
        assert.deepEqual(menuCommands('error'), ['retryMachine', 'showLog']);
        assert.deepEqual(menuCommands('machine.unpinned.workspace.events'), [
          'copyAsCurl',
          'copyLinkToMachine',
          'copySerialNumber',
          'exportEvents',
          'openBoard',
          'pinMachine',
          'refreshMachine',
          'watchMachine',
        ]);
        // A watched machine offers Stop Watching instead, and keeps Export (its .events suffix stays last).
        assert.deepEqual(menuCommands('machine.pinned.pinned.watched.events'), [
          'copyAsCurl',
          'copyLinkToMachine',
          'copySerialNumber',
          'exportEvents',
          'openBoard',
          'refreshMachine',
          'removeMachine',
          'stopWatching',
        ]);
      } finally {
        await vscode.commands.executeCommand('onboardingEvents.removeMachine', TEST_SERIALS.empty);
      }
    });

    it('a machine whose request failed with nothing kept reads as the board and the hover read it: unavailable with a warning, unknown for a 404 (issue 37)', async () => {
      const failing = 'UNV-5000-X0001';
      const unknown = 'UNK-4040-X0001';
      fake.addFault({ endpoint: 'events', serialNumber: failing, kind: 'status', status: 500 });
      fake.addFault({ endpoint: 'events', serialNumber: unknown, kind: 'status', status: 404 });
      try {
        for (const serial of [failing, unknown]) {
          assert.equal(await vscode.commands.executeCommand('onboardingEvents.addMachine', serial), serial);
          await vscode.commands.executeCommand('onboardingEvents.refreshMachine', serial);
        }
        const rendered = await tree.render();
        const unavailable = machine(rendered, failing);
        assert.deepEqual(
          [unavailable.description, unavailable.icon, unavailable.iconColor],
          ['unavailable', 'warning', 'list.warningForeground'],
        );
        const notFound = machine(rendered, unknown);
        assert.deepEqual([notFound.description, notFound.icon, notFound.iconColor], ['unknown', 'question', 'list.warningForeground']);
      } finally {
        fake.clearFaults();
        for (const serial of [failing, unknown]) await vscode.commands.executeCommand('onboardingEvents.removeMachine', serial);
      }
    });

    it('Refresh All fetches every listed machine once', async () => {
      fake.clearRequests();
      const result = await vscode.commands.executeCommand<{ done: number; failed: number }>('onboardingEvents.refresh');
      assert.deepEqual(result, { done: 2, failed: 0 });
      assert.equal(fake.eventRequests(ONBOARDED).length, 1);
      assert.equal(fake.eventRequests(STARTED).length, 1);
    });

    it('a machine whose request fails shows an error child with Retry, while the other keeps its data; Retry clears it', async () => {
      fake.addFault({ endpoint: 'events', serialNumber: STARTED, kind: 'status', status: 500 });
      try {
        const result = await vscode.commands.executeCommand<{ done: number; failed: number }>('onboardingEvents.refresh');
        assert.deepEqual(result, { done: 2, failed: 1 });
        let rendered = await tree.render();
        const failed = machine(rendered, STARTED);
        const error = failed.children?.[0];
        assert.equal(error?.contextValue, 'error');
        // A few words that fit the sidebar; the server's first sentence next to them, the whole message in the tooltip.
        assert.equal(error.label, 'Server error');
        assert.match(error.description ?? '', /HTTP 500/);
        assert.match(error.tooltip ?? '', /HTTP 500.*Try again later/s);
        assert.equal(error.tooltipOnHover, true, "the error row's tooltip comes on hover");
        assert.equal(failed.icon, 'history', 'its last good result is shown, marked stale');
        assert.deepEqual(labels(failed.children?.slice(1)), ['ONBOARDING_STARTED']);
        const ok = machine(rendered, ONBOARDED);
        assert.equal(
          ok.children?.some((child) => child.kind === 'error'),
          false,
        );
        assert.equal(ok.children[0]?.label, 'FIRMWARE_UPDATED');

        fake.clearFaults();
        await vscode.commands.executeCommand('onboardingEvents.retryMachine', error.node);
        rendered = await tree.render();
        assert.equal(
          machine(rendered, STARTED).children?.some((child) => child.kind === 'error'),
          false,
        );
        assert.equal(machine(rendered, STARTED).icon, 'vm-outline');
      } finally {
        fake.clearFaults();
      }
    });

    it('copies the serial number, asset id, message and the event as the server sent it', async () => {
      const node = machine(await tree.render(), ONBOARDED);
      assert.equal(await vscode.commands.executeCommand('onboardingEvents.copySerialNumber', node.node), ONBOARDED);
      assert.equal(await vscode.env.clipboard.readText(), ONBOARDED);
      const created = node.children?.find((child) => child.label === 'MACHINE_CREATED');
      assert.ok(created);
      await vscode.commands.executeCommand('onboardingEvents.copyAssetId', created.node);
      assert.equal(await vscode.env.clipboard.readText(), TEST_ASSET_ID);
      await vscode.commands.executeCommand('onboardingEvents.copyMessage', created.node);
      assert.equal(await vscode.env.clipboard.readText(), 'Machine asset created');
      await vscode.commands.executeCommand('onboardingEvents.copyEventJson', created.node);
      const json = JSON.parse(await vscode.env.clipboard.readText()) as Record<string, unknown>;
      assert.equal(json['type'], 'MACHINE_CREATED');
      assert.equal(json['timestamp'], T0 + 60_000);
      assert.equal(json['assetId'], TEST_ASSET_ID);
    });

    it("tooltips render a hostile server's text as text: untrusted, no HTML, no live link, and no theme icon", async () => {
      const hostile = 'MX-4711-H0666';
      const type = '$(error) **BOLD** [x](command:onboardingEvents.signOut) <img src=x onerror=alert(1)>';
      fake.setMachineEvents(hostile, [makeEvent({ type, message: '$(zap) [run](command:workbench.action.terminal.new)', timestamp: T0 })]);
      try {
        await vscode.commands.executeCommand('onboardingEvents.addMachine', hostile);
        const node = machine(await tree.render(), hostile);
        const tooltips = [node.tooltipMarkdown, node.children?.[0]?.tooltipMarkdown];
        for (const markdown of tooltips) {
          assert.ok(markdown, 'a Markdown tooltip');
          assert.equal(markdown.isTrusted, false);
          assert.equal(markdown.supportHtml, false);
          // Where icons are on, every "$" of server text is backslash-escaped (VS Code's escapeIcons), and no link is live.
          if (markdown.supportThemeIcons) assert.doesNotMatch(markdown.value, /(^|[^\\])\$/m, markdown.value);
          assert.doesNotMatch(markdown.value, /\]\(command:/, markdown.value);
        }
        assert.equal(node.tooltipMarkdown?.supportThemeIcons, true, 'the machine tooltip shows our own icons');
        assert.match(node.tooltip ?? '', /Latest: \\?\$\(error\) \*\*BOLD\*\*/);
      } finally {
        await vscode.commands.executeCommand('onboardingEvents.removeMachine', hostile);
        fake.setMachineEvents(hostile, []);
      }
    });

    it("exports a machine's events to CSV (quoted, formula-guarded) and JSON (as sent)", async () => {
      fake.addEvent(
        ONBOARDED,
        makeEvent({ type: 'NOTE', message: '=HYPERLINK("http://evil.invalid","click"), then "quoted"', timestamp: T0 + 30_000 }),
      );
      await vscode.commands.executeCommand('onboardingEvents.refreshMachine', ONBOARDED);
      const dir = mkdtempSync(join(tmpdir(), 'oe-export-'));
      const csvPath = join(dir, 'events.csv');
      // The user chooses the file in the save dialog.
      let save = user.saveNextAs(vscode.Uri.file(csvPath));
      const written = await vscode.commands.executeCommand<string>('onboardingEvents.exportEvents', { serialNumber: ONBOARDED });
      save.dispose();
      assert.equal(written, vscode.Uri.file(csvPath).toString());
      const csv = readFileSync(csvPath, 'utf8');
      const lines = csv.replace(/^\uFEFF/, '').split('\r\n');
      assert.equal(lines[0], 'serialNumber,type,message,timestamp,timeUtc,assetId,machineLink');
      assert.equal(lines.length, 1 + 5 + 1, 'header, five events, final line break');
      assert.ok(
        lines.includes(
          `${ONBOARDED},NOTE,"'=HYPERLINK(""http://evil.invalid"",""click""), then ""quoted""",${T0 + 30_000},2025-01-15T08:00:30.000Z,,`,
        ),
      );

      const jsonPath = join(dir, 'events.json');
      save = user.saveNextAs(vscode.Uri.file(jsonPath));
      await vscode.commands.executeCommand('onboardingEvents.exportEvents', { serialNumber: ONBOARDED });
      save.dispose();
      const exported = JSON.parse(readFileSync(jsonPath, 'utf8')) as { serialNumber: string; count: number; events: { type: string }[] };
      assert.equal(exported.serialNumber, ONBOARDED);
      assert.equal(exported.count, 5);
      assert.equal(exported.events[0]?.type, 'FIRMWARE_UPDATED');
      assert.doesNotMatch(readFileSync(jsonPath, 'utf8'), new RegExp(TEST_CREDENTIALS.password.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    });

    it('an export to a name where a symlink or a hard link was planted is refused, and the file it points to stays intact', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'oe-export-link-'));
      const keys = join(dir, 'authorized_keys');
      writeFileSync(keys, 'ssh-ed25519 AAAA the-owner\n');
      symlinkSync(keys, join(dir, 'events.csv'));
      linkSync(keys, join(dir, 'events.json'));
      for (const [name, refused] of [
        ['events.csv', /events\.csv is a symbolic link; it is not followed\./],
        ['events.json', /events\.json belongs to another user or has another name \(a hard link\); it is not replaced\./],
      ] as const) {
        const since = user.shown().length;
        const save = user.saveNextAs(vscode.Uri.file(join(dir, name)));
        await vscode.commands.executeCommand('onboardingEvents.exportEvents', { serialNumber: ONBOARDED });
        save.dispose();
        assert.equal(readFileSync(keys, 'utf8'), 'ssh-ed25519 AAAA the-owner\n', name);
        const error = user.shownSince(since).find((shown) => shown.kind === 'error');
        assert.match(error?.message ?? '', refused, JSON.stringify(user.shownSince(since)));
      }
      rmSync(dir, { recursive: true, force: true });
    });

    it('Scan Workspace lists the serial numbers found in workspace files, and honours files.exclude', async () => {
      const result = await vscode.commands.executeCommand<{ found: string[]; filesScanned: number }>('onboardingEvents.scanWorkspace');
      assert.ok(result);
      assert.ok(result.found.includes('MX-4711-A0023') && result.found.includes('MX-4711-A0024'), JSON.stringify(result));
      const rendered = await tree.render();
      const workspace = group(rendered, 'In This Workspace');
      assert.ok(labels(workspace.children).includes('MX-4711-A0024'));
      // Screen readers read the group's label and count, never a relative time frozen at rendering ("…, now.").
      assert.equal(workspace.accessibilityLabel, `In This Workspace, ${workspace.description ?? ''}`);
      assert.match(workspace.description ?? '', /^\d+$/);
      assert.doesNotMatch(workspace.tooltip ?? '', /\bnow\b/);
      assert.match(machine(rendered, 'MX-4711-A0024', 'In This Workspace').tooltip ?? '', /Found in: machines\.yaml:\d+/);
      assert.equal(
        machine(rendered, 'MX-4711-A0024', 'In This Workspace').tooltipOnHover,
        true,
        'a workspace row is drawn without its tooltip',
      );
      assert.equal(machine(rendered, 'MX-4711-A0024', 'In This Workspace').contextValue?.startsWith('machine.unpinned.workspace'), true);

      await setting('exclude', { '**/machines.yaml': true }, 'files');
      try {
        const excluded = await vscode.commands.executeCommand<{ found: string[] }>('onboardingEvents.scanWorkspace');
        assert.deepEqual(excluded.found, []);
      } finally {
        await setting('exclude', undefined, 'files');
      }
    });

    it('Scan Workspace reads a file of exactly 1 MiB and skips one a byte larger', async () => {
      const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
      assert.ok(folder);
      // Each file holds one serial number at its start, padded with spaces to its size.
      const write = (name: string, serial: string, bytes: number): string => {
        const file = join(folder, name);
        writeFileSync(file, serial.padEnd(bytes, ' '));
        assert.equal(statSync(file).size, bytes);
        return file;
      };
      const files = [
        write('scan-limit-at.txt', 'MX-4711-A7001', 1024 * 1024),
        write('scan-limit-over.txt', 'MX-4711-A7002', 1024 * 1024 + 1),
      ];
      try {
        const result = await vscode.commands.executeCommand<{ found: string[]; tooLarge: number }>('onboardingEvents.scanWorkspace');
        assert.ok(result.found.includes('MX-4711-A7001'), `a file of 1 MiB is read: ${JSON.stringify(result.found)}`);
        assert.equal(result.found.includes('MX-4711-A7002'), false, 'a file over 1 MiB is not read');
        assert.equal(result.tooLarge, 1, 'the file left unread is counted');
        // Never a silent cut: the group says a file was left out.
        const rendered = await tree.render(2);
        assert.ok(
          labels(group(rendered, 'In This Workspace').children).includes('A file over 1 MB was not scanned'),
          `the group says so: ${JSON.stringify(labels(group(rendered, 'In This Workspace').children))}`,
        );
      } finally {
        for (const file of files) rmSync(file, { force: true });
      }
    });

    it('Pin and Remove move a machine between Recent and Pinned', async () => {
      // Another extension's addRecent asks first (the test's user agrees), then adds.
      api.machines.addRecent('MX-4711-A0024');
      await until(() => api.machines.recent().includes('MX-4711-A0024'), 'the machine added to Recent');
      let rendered = await tree.render(2);
      assert.ok(labels(group(rendered, 'Recent').children).includes('MX-4711-A0024'));
      await vscode.commands.executeCommand('onboardingEvents.pinMachine', machine(rendered, 'MX-4711-A0024', 'Recent').node);
      rendered = await tree.render(2);
      assert.ok(labels(group(rendered, 'Pinned').children).includes('MX-4711-A0024'));
      assert.equal(
        rendered.some((node) => node.label === 'Recent'),
        false,
        'a pinned look-up is listed once',
      );
      assert.equal(await vscode.commands.executeCommand('onboardingEvents.removeMachine', machine(rendered, 'MX-4711-A0024').node), true);
      rendered = await tree.render(2);
      assert.equal(labels(group(rendered, 'Pinned').children).includes('MX-4711-A0024'), false);
      assert.ok(labels(group(rendered, 'Recent').children).includes('MX-4711-A0024'), 'still a recent look-up');
      await vscode.commands.executeCommand('onboardingEvents.removeMachine', 'MX-4711-A0024');
      assert.equal(api.machines.recent().includes('MX-4711-A0024'), false);
    });

    it('pins follow the pinned-scope setting without getting lost', async () => {
      await setting('tree.pinnedScope', 'global');
      await sleep(100);
      assert.ok(api.machines.pinned().includes(ONBOARDED));
      await setting('tree.pinnedScope', undefined);
      await sleep(100);
      assert.ok(api.machines.pinned().includes(ONBOARDED));
    });

    it('auto-refresh is off by default, pauses while the view is hidden or the window unfocused, and polls pinned machines while shown', async function () {
      // One real poll: the shortest interval the setting allows is 30 s.
      this.timeout(60_000);
      assert.equal(vscode.workspace.getConfiguration('onboardingEvents').get('autoRefresh.enabled'), false, 'off by default');
      // What the scheduler does is read where a user reads it: its state changes in the extension's log.
      const log = readLogFromNow();
      const lines: string[] = [];
      let from = 0;
      // Each expected line is looked for after the one found before it.
      const logged = async (pattern: RegExp, what: string, timeoutMs = 5_000): Promise<void> => {
        try {
          await until(
            () => {
              lines.push(...log.newLines().filter((line) => line.includes('Auto-refresh: ')));
              const at = lines.findIndex((line, index) => index >= from && pattern.test(line));
              if (at >= 0) from = at + 1;
              return at >= 0;
            },
            what,
            timeoutMs,
          );
        } catch (error) {
          throw new Error(`${String(error)}; auto-refresh lines since: ${JSON.stringify(lines.slice(from))}`);
        }
      };
      // The OS focus of a headless window is luck: the test's user says whether the window is focused (vscode.window.state).
      user.setWindowFocused(true);
      try {
        await vscode.commands.executeCommand('workbench.view.explorer');
        await setting('autoRefresh.enabled', true);
        await sleep(300);
        assert.equal(tree.viewVisible(), false);
        await logged(/Auto-refresh: paused\.$/, 'hidden view, focused window: paused');

        await vscode.commands.executeCommand('onboardingEvents.machines.focus');
        await sleep(300);
        assert.equal(tree.viewVisible(), true);
        await logged(/Auto-refresh: waiting\.$/, 'shown view, focused window: waiting');

        fake.clearRequests();
        user.setWindowFocused(false);
        await logged(/Auto-refresh: paused\.$/, 'shown view, window in the background: paused');
        user.setWindowFocused(true);
        await logged(/Auto-refresh: waiting\.$/, 'focus back: polling resumes');
        assert.equal(fake.eventRequests().length, 0, 'no poll while hidden or in the background');

        // The interval starts over from the setting change; the poll meets a rate limit of 1 h.
        for (const serial of [ONBOARDED, STARTED]) if (!api.machines.pinned().includes(serial)) await api.machines.pin(serial);
        fake.addFault({ endpoint: 'events', kind: 'rateLimit', retryAfter: 3600 });
        await setting('autoRefresh.intervalSeconds', 30);
        await logged(/\d+ of \d+ machines failed; polling backs off \(the API asked to wait 3600 s\)\.$/, 'the poll, backing off', 45_000);
        assert.ok(
          fake.eventRequests(ONBOARDED).length >= 1 && fake.eventRequests(STARTED).length >= 1,
          'the poll asked for both pinned machines',
        );
        await logged(/Auto-refresh: waiting\.$/, 'waiting again, the Retry-After of 1 h');
      } finally {
        user.setWindowFocused(undefined);
        fake.clearFaults();
        await setting('autoRefresh.intervalSeconds', undefined);
        await setting('autoRefresh.enabled', undefined);
      }
    });

    it('when the API is gone, the last good result is shown from storage, marked stale with its time, under an error', async () => {
      const serial = ONBOARDED;
      await vscode.commands.executeCommand('onboardingEvents.refreshMachine', serial);
      await fake.close();
      try {
        // Drop the in-memory cache, as a reload would: what shows now comes from the store on disk.
        api.events.clear();
        const rendered = await tree.renderUntil(
          (nodes) => nodes.some((group) => group.children?.some((row) => row.label === serial && row.children?.[0]?.kind === 'error')),
          'the failed refresh of the kept result',
        );
        const node = machine(rendered, serial);
        assert.equal(node.icon, 'history');
        assert.match(node.description ?? '', /stale, from/);
        assert.match(node.tooltip ?? '', /Stale: the last refresh failed/);
        assert.equal(node.children?.[0]?.contextValue, 'error.network', 'a network failure offers Test Connection on its row');
        assert.match(node.children[0].label, /API not reachable|Request timed out/);
        assert.match(node.children[0].description ?? '', /Could not reach|did not answer|connect/i);
        assert.equal(node.children[1]?.label, 'FIRMWARE_UPDATED');
      } finally {
        fake = await startFakeApi();
      }
    });
  });

  describe('signing out', () => {
    it("of an environment that is not the active one forgets what the badge kept for it, and keeps the active one's", async () => {
      const hook = api.testHooks.session;
      assert.ok(hook);
      const globalState = (): Record<string, unknown> =>
        (JSON.parse(hook.storedStateJson()) as { globalState: Record<string, unknown> }).globalState;
      const seenIds = (): string[] => Object.keys(globalState()['onboardingEvents.seenEvents'] ?? {});
      const idOf = (name: string): string | undefined =>
        (globalState()['onboardingEvents.environments'] as { id: string; name: string }[] | undefined)?.find((env) => env.name === name)
          ?.id;
      const testId = idOf('Test');
      assert.ok(testId !== undefined && seenIds().includes(testId), `the badge kept what was seen in Test: ${JSON.stringify(seenIds())}`);
      await signIn(fake, 'Seen Other');
      try {
        await tree.render();
        await vscode.commands.executeCommand('onboardingEvents.revealMachine', ONBOARDED);
        await tree.render();
        const otherId = idOf('Seen Other');
        assert.ok(otherId !== undefined);
        await vscode.commands.executeCommand('onboardingEvents.signOut', { environment: 'Test' });
        assert.deepEqual(hook.state(), { kind: 'signed-in', environment: 'Seen Other' });
        assert.equal(seenIds().includes(testId), false, 'nothing of the signed-out environment is left');
        assert.equal(seenIds().includes(otherId), true);
      } finally {
        await signOutIfSignedIn('Seen Other');
      }
    });
  });

  describe('credentials rejected', () => {
    it('a rejected token shows the signed-out state', async () => {
      await signIn(fake);
      await vscode.commands.executeCommand('onboardingEvents.addMachine', ONBOARDED);
      await tree.render();
      fake.setPassword(TEST_CREDENTIALS.username, 'changed elsewhere');
      fake.revokeAllTokens();
      await vscode.commands.executeCommand('onboardingEvents.refreshMachine', ONBOARDED);
      await sleep(200);
      assert.deepEqual(await tree.render(), [], 'the tree empties, so the signed-out welcome shows');
      fake.setPassword(TEST_CREDENTIALS.username, TEST_CREDENTIALS.password);
    });
  });
});
