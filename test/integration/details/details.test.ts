// Event details in the real extension host, against the fake API. The page
// really runs in a webview: the test's read-back script reads its DOM
// (support/pages.ts), so "rendered as text" is checked on the rendered page;
// links open through the test's user (support/user.ts), and the fakes record
// on the wire whether a token was sent.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { OnboardingEvent } from '../../../src/core/client/model';
import type { EventView, HostMessage } from '../../../src/extension/details/protocol';
import { NOTIFICATION_LINK } from '../../../src/core/common/notificationText';
import { makeEvent, startFakeApi, startForeignOrigin, TEST_ASSET_ID, TEST_SERIALS, type FakeApi } from '../../support/fakeApi';
import { activateExtension, ourExtension, signIn, signInArgs, signOutIfSignedIn, type TestedApi } from '../support/extension';
import { pages, until } from '../support/pages';
import { user, type Shown } from '../support/user';
import { serverTextData } from '../../../src/core/common/serverText';

const HOSTILE = '<img src=x onerror=alert(1)>';
const T0 = Date.UTC(2025, 0, 15, 8, 0, 0);

const CONFIRM_OPEN = 'Open this link from the server in your browser?';
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The URL a link's confirmation showed in full (its detail: "Host: …", a blank line, the URL). */
function confirmedUrl(shown: Shown): string | undefined {
  return shown.detail?.split('\n\n')[1];
}

function shown(message: HostMessage | undefined): EventView {
  assert.ok(message?.type === 'show', `expected a show message, got ${message?.type ?? 'none'}`);
  return message.event;
}

describe('Event details panel (webview)', function () {
  this.timeout(30_000);
  let api: TestedApi;
  const hook = pages.details;
  let fake: FakeApi;
  let foreign: FakeApi;

  /** Puts raw events on the fake for `serial` and returns them as the extension reads them. */
  async function eventsFor(serial: string, raw: unknown[]): Promise<OnboardingEvent[]> {
    fake.setMachineEvents(serial, raw);
    const result = await api.testHooks.getEvents(serial, { force: true });
    return [...result.events];
  }

  async function showAndRender(event: OnboardingEvent): Promise<void> {
    await vscode.commands.executeCommand('onboardingEvents.showEventDetails', { event });
    await hook.waitForRendered((r) => r.title === serverTextData(event.type) && r.message === serverTextData(event.message), 15_000);
  }

  before(async () => {
    api = await activateExtension();
    fake = await startFakeApi();
    foreign = await startForeignOrigin();
    await signIn(fake);
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.getConfiguration('onboardingEvents').update('details.panelMode', undefined, vscode.ConfigurationTarget.Global);
    await signOutIfSignedIn();
    await fake.close();
    await foreign.close();
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('opens a panel titled "<type> · <serial>" whose page renders the event, with the machine link resolved on the fake', async () => {
    const events = await api.testHooks.getEvents(TEST_SERIALS.onboarded, { force: true });
    const created = events.events.find((e) => serverTextData(e.type) === 'MACHINE_CREATED');
    assert.ok(created);
    await showAndRender(created);
    assert.deepEqual(hook.panelTitles(), [`MACHINE_CREATED · ${TEST_SERIALS.onboarded}`]);
    const view = shown(hook.lastPosted);
    assert.equal(view.assetId, TEST_ASSET_ID);
    assert.equal(view.links.length, 1);
    const machine = view.links[0];
    assert.ok(machine);
    assert.equal(machine.relation, 'machine');
    assert.equal(machine.fields.length, 9);
    assert.deepEqual(machine.target, { url: `${fake.baseUrl}/public/api/machines/${TEST_ASSET_ID}`, openable: true, blocked: null });
    assert.equal(view.time.utcIso, '2025-01-15T08:01:00.000Z');
  });

  it('gives the webview HTML that escapes a hostile type, and the page renders a hostile message as text', async () => {
    const [event] = await eventsFor('HX-0001-AAAAA', [makeEvent({ type: HOSTILE, message: HOSTILE, timestamp: T0 })]);
    assert.ok(event);
    await vscode.commands.executeCommand('onboardingEvents.showEventDetails', event);
    const report = await hook.waitForRendered((r) => r.message === HOSTILE, 15_000);

    const html = hook.lastHtml ?? '';
    assert.equal(html.includes(HOSTILE), false, 'the hostile string never appears unescaped in the HTML');
    assert.ok(html.includes('&lt;img src=x onerror=alert(1)&gt;'), 'the title is in the HTML, escaped');
    // The CSP sits in an attribute, where quotes are escaped (&#39;), which the browser decodes.
    const nonce = /script-src &#39;nonce-([A-Za-z0-9+/=]+)&#39;/.exec(html)?.[1];
    assert.ok(nonce, 'the CSP allows scripts by nonce only');
    assert.ok(html.includes('default-src &#39;none&#39;'));
    assert.ok(html.includes(`<script nonce="${nonce}"`));
    assert.ok(nonce.length >= 24);

    // The page shows exactly the text that was sent, and made no element of it.
    assert.equal(report.title, HOSTILE);
    assert.equal(report.images, 0);
    assert.equal(report.links, 0);

    // A new nonce for each page: showing the same event again regenerates the shell.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('onboardingEvents.showEventDetails', event);
    assert.notEqual(/nonce="([^"]+)"/.exec(hook.lastHtml ?? '')?.[1], nonce);
  });

  it('ships a page script that never writes HTML (textContent and createElement only)', () => {
    const script = readFileSync(join(ourExtension().extensionPath, 'media', 'details', 'details.js'), 'utf8');
    for (const sink of ['innerHTML', 'outerHTML', 'insertAdjacentHTML', 'document.write', 'eval(', 'new Function']) {
      assert.equal(script.includes(sink), false, `${sink} does not appear in the page script`);
    }
    assert.ok(script.includes('textContent'));
  });

  it('never opens javascript:, command:, file:, data: or malformed links, and opens http(s) only after confirming the full URL', async () => {
    const unsafe = {
      js: { href: 'javascript:alert(document.cookie)' },
      cmd: { href: 'command:workbench.action.terminal.new' },
      file: { href: 'file:///etc/passwd' },
      data: { href: 'data:text/html,<script>alert(1)</script>' },
      malformed: { href: 'http://[::1' },
      template: { href: 'javascript:{x}', templated: true },
    };
    const [event] = await eventsFor('HX-0002-BBBBB', [
      makeEvent({
        type: 'LINKS',
        message: 'links of every kind',
        timestamp: T0,
        extra: { _links: { ...unsafe, docs: { href: 'https://docs.example.invalid/onboarding?a=1&b=2' } } },
      }),
    ]);
    assert.ok(event);
    await showAndRender(event);
    const view = shown(hook.lastPosted);
    const ids = Object.fromEntries(view.links.map((l) => [l.relation, l]));
    for (const relation of Object.keys(unsafe)) assert.equal(ids[relation]?.target.openable, false, `${relation} is not openable`);

    // Refused links never reach the confirmation: an open is refused with a warning, a fetch with the page's reply.
    const shownBefore = user.shown().length;
    const postedBefore = hook.posted().length;
    const openedBefore = user.opened().length;
    const confirmations = (): Shown[] => user.shownSince(shownBefore).filter((s) => s.modal && s.message === CONFIRM_OPEN);
    const opened = (): string[] =>
      user
        .opened()
        .slice(openedBefore)
        .map((uri) => uri.toString(true));
    const refusals = (): number =>
      user.shownSince(shownBefore).filter((s) => !s.modal && s.message.startsWith('This link was not opened')).length +
      hook
        .posted()
        .slice(postedBefore)
        .filter((m) => m.type === 'fetched' && !m.ok && m.message === 'Only http and https links can be fetched.').length;
    for (const relation of Object.keys(unsafe)) {
      const link = ids[relation];
      assert.ok(link);
      hook.send({ type: 'open', linkId: link.id, variables: { x: 'alert(1)' } });
      hook.send({ type: 'fetch', seq: 100 + link.id, linkId: link.id, variables: {} });
    }
    await until(() => refusals() === Object.keys(unsafe).length * 2, `every unsafe link refused twice (${refusals()} so far)`);
    assert.deepEqual(confirmations(), []);
    assert.deepEqual(opened(), []);

    const docs = ids['docs'];
    assert.ok(docs);
    hook.send({ type: 'open', linkId: docs.id, variables: {} });
    await until(() => opened().length === 1, 'the docs link was opened');
    assert.deepEqual(
      confirmations().map(confirmedUrl),
      ['https://docs.example.invalid/onboarding?a=1&b=2'],
      'the full URL is shown before opening',
    );
    assert.deepEqual(opened(), ['https://docs.example.invalid/onboarding?a=1&b=2']);

    // A page message naming a URL instead of a link id is not part of the protocol.
    hook.send({ type: 'open', url: 'https://evil.example.invalid', linkId: 999, variables: {} });
    await sleep(300);
    assert.equal(opened().length, 1);
    assert.equal(confirmations().length, 1);

    const declining = user.declineModals();
    try {
      hook.send({ type: 'open', linkId: docs.id, variables: {} });
      await until(() => confirmations().length === 2 && 'answer' in (confirmations()[1] ?? {}), 'the user was asked again, and declined');
      await sleep(300);
      assert.deepEqual(opened(), ['https://docs.example.invalid/onboarding?a=1&b=2'], 'nothing opens when the user declines');
    } finally {
      declining.dispose();
    }
  });

  it('expands a templated link with the variables the page sends, replying to the same sequence number', async () => {
    const [event] = await eventsFor('HX-0003-CCCCC', [
      makeEvent({
        type: 'TEMPLATED',
        message: 'search link',
        timestamp: T0,
        extra: { _links: { search: { href: '/public/api/machines{?serialNumber,size}', templated: true } } },
      }),
    ]);
    assert.ok(event);
    await showAndRender(event);
    const link = shown(hook.lastPosted).links[0];
    assert.ok(link);
    assert.deepEqual(link.variables, ['serialNumber', 'size']);
    hook.send({ type: 'expand', seq: 41, linkId: link.id, variables: { serialNumber: 'MX 1', size: '' } });
    await until(() => hook.lastPosted?.type === 'expanded', 'the host replied to the expansion');
    assert.deepEqual(hook.lastPosted, {
      type: 'expanded',
      seq: 41,
      linkId: link.id,
      target: { url: `${fake.baseUrl}/public/api/machines?serialNumber=MX%201`, openable: true, blocked: null },
    });
  });

  it('fetches a link on the API origin with the token, a link on another origin without it, and shows the JSON read-only', async () => {
    const [event] = await eventsFor('HX-0004-DDDDD', [
      makeEvent({
        type: 'MACHINE_CREATED',
        message: 'fetch me',
        timestamp: T0,
        assetId: TEST_ASSET_ID,
        extra: {
          _links: {
            machine: { href: `/public/api/machines/${TEST_ASSET_ID}` },
            elsewhere: { href: `${foreign.baseUrl}/public/api/machines/${TEST_ASSET_ID}?from=link` },
          },
        },
      }),
    ]);
    assert.ok(event);
    await showAndRender(event);
    const view = shown(hook.lastPosted);
    const machine = view.links.find((l) => l.relation === 'machine');
    const elsewhere = view.links.find((l) => l.relation === 'elsewhere');
    assert.ok(machine && elsewhere);

    foreign.clearRequests();
    hook.send({ type: 'fetch', seq: 7, linkId: elsewhere.id, variables: {} });
    await until(() => hook.posted().some((m) => m.type === 'fetched' && m.seq === 7), 'the host replied to fetch 7', 20_000);
    const reply = hook.lastPosted;
    assert.ok(reply?.type === 'fetched' && reply.seq === 7 && reply.ok, `fetched: ${JSON.stringify(reply)}`);
    assert.equal(foreign.requests.length, 1, 'the foreign origin was asked once');
    assert.equal(foreign.receivedAuthorization(), false, 'no Authorization header went to the foreign origin');
    const foreignDoc = vscode.window.activeTextEditor?.document;
    assert.ok(foreignDoc);
    assert.equal(foreignDoc.uri.scheme, 'onboarding-events');
    assert.equal(foreignDoc.languageId, 'json');

    fake.clearRequests();
    hook.send({ type: 'fetch', seq: 8, linkId: machine.id, variables: {} });
    await until(() => hook.posted().some((m) => m.type === 'fetched' && m.seq === 8), 'the host replied to fetch 8', 20_000);
    const ownReply = hook.lastPosted;
    assert.ok(ownReply?.type === 'fetched' && ownReply.seq === 8 && ownReply.ok, `fetched: ${JSON.stringify(ownReply)}`);
    const own = fake.requests.filter((r) => r.path === `/public/api/machines/${TEST_ASSET_ID}`);
    assert.equal(own.length, 1);
    assert.match(own[0]?.headers['authorization'] ?? '', /^Bearer /, 'the API origin got the token');
    const doc = vscode.window.activeTextEditor?.document;
    assert.ok(doc);
    assert.equal(doc.uri.scheme, 'onboarding-events');
    assert.equal(doc.languageId, 'json');
    assert.doesNotThrow(() => JSON.parse(doc.getText()) as unknown);
  });

  it("shows a link's URL in the fetch progress and error notifications as text, never as a clickable command link", async () => {
    const planted = '[Retry](command:workbench.action.closeAllEditors)';
    const [event] = await eventsFor('HX-0005-EEEEE', [
      makeEvent({
        type: 'NOTE',
        message: 'planted link',
        timestamp: T0,
        extra: { _links: { machine: { href: `${foreign.baseUrl}/x${planted}` } } },
      }),
    ]);
    assert.ok(event);
    await showAndRender(event);
    const link = shown(hook.lastPosted).links.find((l) => l.relation === 'machine');
    assert.ok(link);
    const progressBefore = user.progress().length;
    const shownBefore = user.shown().length;
    hook.send({ type: 'fetch', seq: 9, linkId: link.id, variables: {} });
    await until(() => hook.posted().some((m) => m.type === 'fetched' && m.seq === 9), 'the host replied to fetch 9', 20_000);
    // What the user read: the progress notification's title and any notification after it.
    const notified = [...user.progress().slice(progressBefore), ...user.shownSince(shownBefore).map((s) => s.message)];
    assert.ok(
      notified.some((text) => text.startsWith('Fetching ') && text.includes('/x[Retry]')),
      JSON.stringify(notified),
    );
    for (const text of notified)
      assert.deepEqual([...text.matchAll(NOTIFICATION_LINK)], [], `no link VS Code would make clickable in: ${text}`);
  });

  it('shows the raw JSON of an event in a read-only JSON editor', async () => {
    const events = await api.testHooks.getEvents(TEST_SERIALS.onboarded);
    const created = events.events.find((e) => serverTextData(e.type) === 'MACHINE_CREATED');
    assert.ok(created);
    await vscode.commands.executeCommand('onboardingEvents.showRawJson', { event: created });
    const doc = vscode.window.activeTextEditor?.document;
    assert.ok(doc);
    assert.equal(doc.uri.scheme, 'onboarding-events');
    assert.equal(doc.languageId, 'json');
    assert.deepEqual(JSON.parse(doc.getText()), created.raw);
    // A content-provider document: VS Code opens it read-only, and it has no file to be saved to.
    assert.equal(doc.isUntitled, false);
    assert.equal(doc.isDirty, false);
  });

  it('in preview mode one panel follows the selection; in perEvent mode each event gets its own panel, revealed when shown again', async () => {
    const events = (await api.testHooks.getEvents(TEST_SERIALS.onboarded)).events;
    const [a, b] = events;
    assert.ok(a && b);
    const config = vscode.workspace.getConfiguration('onboardingEvents');
    await config.update('details.panelMode', 'preview', vscode.ConfigurationTarget.Global);
    await showAndRender(a);
    const shell = hook.lastHtml;
    await showAndRender(b);
    assert.deepEqual(hook.panelTitles(), [`${serverTextData(b.type)} · ${b.serialNumber}`]);
    // The ready page re-rendered in place: no new shell (each has its own nonce), so the tab title
    // changed in the same turn as the content was posted, not a page load earlier.
    assert.equal(hook.lastHtml, shell, 'the preview kept its page');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');

    await config.update('details.panelMode', 'perEvent', vscode.ConfigurationTarget.Global);
    await showAndRender(a);
    await showAndRender(b);
    await vscode.commands.executeCommand('onboardingEvents.showEventDetails', a);
    assert.deepEqual(
      hook.panelTitles().sort(),
      [`${serverTextData(a.type)} · ${a.serialNumber}`, `${serverTextData(b.type)} · ${b.serialNumber}`].sort(),
    );
  });

  it("closes its panels when the user signs out or switches to another environment, since they show that API's data", async () => {
    const [event] = (await api.testHooks.getEvents(TEST_SERIALS.onboarded, { force: true })).events;
    assert.ok(event);
    await showAndRender(event);
    assert.equal(hook.panelTitles().length, 1);
    const other = await startFakeApi();
    try {
      await vscode.commands.executeCommand('onboardingEvents.signIn', signInArgs(other, 'Details other'));
      assert.deepEqual(hook.panelTitles(), [], 'switching to another API closed the panel');
    } finally {
      await other.close();
    }

    await vscode.commands.executeCommand('onboardingEvents.switchEnvironment', { environment: 'Test' });
    const [again] = (await api.testHooks.getEvents(TEST_SERIALS.onboarded, { force: true })).events;
    assert.ok(again);
    await showAndRender(again);
    assert.equal(hook.panelTitles().length, 1);
    await signOutIfSignedIn();
    assert.deepEqual(hook.panelTitles(), [], 'signing out closed the panel');
    await vscode.commands.executeCommand('onboardingEvents.signOut', { environment: 'Details other' });
    await signIn(fake);
  });

  it('opens in the active editor group, as a tab beside the file rather than a split that halves it', async () => {
    const [event] = (await api.testHooks.getEvents(TEST_SERIALS.onboarded)).events;
    assert.ok(event);
    const document = await vscode.workspace.openTextDocument({ language: 'yaml', content: `serial: ${TEST_SERIALS.onboarded}\n` });
    await vscode.window.showTextDocument(document, vscode.ViewColumn.One);
    await vscode.commands.executeCommand('onboardingEvents.showEventDetails', { event });
    const title = `${serverTextData(event.type)} · ${event.serialNumber}`;
    const tabs = (): string[] => vscode.window.tabGroups.all.flatMap((group) => group.tabs.map((tab) => tab.label));
    for (let waited = 0; waited < 10_000 && !tabs().includes(title); waited += 100)
      await new Promise((resolve) => setTimeout(resolve, 100));
    assert.ok(tabs().includes(title), tabs().join(', '));
    assert.equal(vscode.window.tabGroups.all.length, 1, 'no second editor group');
    // The file and its details as two tabs of one group.
    assert.equal(vscode.window.tabGroups.all[0]?.tabs.length, 2);
  });

  it('refuses a command argument that is not an event, opening nothing', async () => {
    await vscode.commands.executeCommand('onboardingEvents.showEventDetails', { serialNumber: 'HX-0005-EEEEE', type: 'FORGED' });
    await vscode.commands.executeCommand('onboardingEvents.showEventDetails', 'not an event');
    assert.deepEqual(hook.panelTitles(), []);
  });
});
