// "Copy as curl" in the real extension host (issue 39): what it puts on the
// clipboard is run as the user would, by a POSIX shell and the real curl binary
// against the fake API on 127.0.0.1, with the secrets set as variables; the
// fake records both the extension's requests and curl's, so "equivalent" is
// checked on the wire.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as vscode from 'vscode';
import { serverTextData } from '../../../src/core/common/serverText';
import { COMMANDS } from '../../../src/extension/workbench/constants';
import { startFakeApi, TEST_CREDENTIALS, TEST_SERIALS, type FakeApi, type RecordedRequest } from '../../support/fakeApi';
import { activateExtension, ourExtension, signIn, signOutIfSignedIn, type TestedApi } from '../support/extension';
import { user } from '../support/user';

function runShell(script: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // Only PATH and the secrets: no proxy variable of the machine reaches curl.
    execFile('sh', ['-c', script], { env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...env } }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr });
    });
  });
}

/** A token request as the server reads it: the client from Basic and the form, both decoded. */
function tokenRequestAsRead(request: RecordedRequest): unknown {
  const decode = (part: string): string => decodeURIComponent(part.replace(/\+/g, ' '));
  const basic = Buffer.from((request.headers['authorization'] ?? '').replace(/^Basic /, ''), 'base64').toString('utf8');
  const colon = basic.indexOf(':');
  return {
    client: [decode(basic.slice(0, colon)), decode(basic.slice(colon + 1))],
    form: Object.fromEntries(new URLSearchParams(request.body)),
    contentType: request.headers['content-type'],
  };
}

const SENTINEL = 'clipboard before the test';

describe('Copy as curl (issue 39)', () => {
  let api: TestedApi;
  let fake: FakeApi;

  before(async () => {
    api = await activateExtension();
    fake = await startFakeApi();
    await signOutIfSignedIn();
  });

  after(async () => {
    await signOutIfSignedIn();
    await fake.close();
  });

  it('stands beside Copy Link to Machine in every menu, and like it not in the command palette', () => {
    const menus = (ourExtension().packageJSON as { contributes: { menus: Record<string, { command?: string; when?: string }[]> } })
      .contributes.menus;
    const places = (command: string): string[] =>
      Object.entries(menus).flatMap(([menu, entries]) =>
        entries.filter((entry) => entry.command === command).map((entry) => `${menu}: ${entry.when ?? ''}`),
      );
    assert.ok(places(COMMANDS.copyLinkToMachine).length > 0);
    assert.deepEqual(places(COMMANDS.copyAsCurl), places(COMMANDS.copyLinkToMachine));
  });

  it('signed out, says to sign in and leaves the clipboard alone', async () => {
    await vscode.env.clipboard.writeText(SENTINEL);
    const since = user.shown().length;
    assert.equal(await vscode.commands.executeCommand(COMMANDS.copyAsCurl, { serialNumber: TEST_SERIALS.onboarded }), undefined);
    assert.match(
      user
        .shownSince(since)
        .map((shown) => shown.message)
        .join('\n'),
      /Sign in first/,
    );
    assert.equal(await vscode.env.clipboard.readText(), SENTINEL);
  });

  it('copies commands that, run with the secrets as variables, make the requests the extension makes and get the same events', async () => {
    await signIn(fake);
    const loaded = await api.testHooks.getEvents(TEST_SERIALS.onboarded);
    const extensionToken = fake.tokenRequests().at(-1);
    assert.ok(extensionToken, 'the sign-in asked for a token');
    fake.clearRequests();

    await vscode.env.clipboard.writeText(SENTINEL);
    await vscode.commands.executeCommand(COMMANDS.copyAsCurl, { serialNumber: TEST_SERIALS.onboarded });
    const copied = await vscode.env.clipboard.readText();
    assert.notEqual(copied, SENTINEL);
    for (const secret of [TEST_CREDENTIALS.clientSecret, TEST_CREDENTIALS.password])
      assert.ok(!copied.includes(secret), 'no secret on the clipboard');
    assert.ok(copied.includes(fake.authUrl) && copied.includes(TEST_CREDENTIALS.username), copied);

    const result = await runShell(copied, { OE_CLIENT_SECRET: TEST_CREDENTIALS.clientSecret, OE_PASSWORD: TEST_CREDENTIALS.password });
    assert.equal(result.code, 0, result.stderr);
    const body = JSON.parse(result.stdout) as { events: { type: string; timestamp: number }[] };
    assert.deepEqual(
      body.events.map((event) => `${event.type} ${event.timestamp}`).sort(),
      loaded.events.map((event) => `${serverTextData(event.type)} ${event.time.raw}`).sort(),
    );
    const curlToken = fake.tokenRequests();
    assert.equal(curlToken.length, 1);
    assert.deepEqual(tokenRequestAsRead(curlToken[0] as RecordedRequest), tokenRequestAsRead(extensionToken));
    assert.deepEqual(
      fake.eventRequests().map((request) => request.query),
      [{ serialNumber: TEST_SERIALS.onboarded }],
    );
  });

  it('reads an argument from outside through the same gate as Copy Link: anything but a serial number copies nothing', async () => {
    await vscode.env.clipboard.writeText(SENTINEL);
    const throwing = {
      get serialNumber(): string {
        throw new Error('a getter that throws');
      },
    };
    for (const arg of [42, { serial: TEST_SERIALS.onboarded }, throwing, [TEST_SERIALS.onboarded]]) {
      assert.equal(await vscode.commands.executeCommand(COMMANDS.copyAsCurl, arg), undefined);
      assert.equal(await vscode.commands.executeCommand(COMMANDS.copyLinkToMachine, arg), undefined);
    }
    assert.equal(await vscode.env.clipboard.readText(), SENTINEL);
    // An event argument names its machine, as for Copy Link.
    await vscode.commands.executeCommand(COMMANDS.copyAsCurl, { event: { serialNumber: TEST_SERIALS.started } });
    assert.match(await vscode.env.clipboard.readText(), new RegExp(`serialNumber=${TEST_SERIALS.started}'`));
  });

  it('a malformed serial number is refused with a message, not written into commands', async () => {
    await vscode.env.clipboard.writeText(SENTINEL);
    const since = user.shown().length;
    assert.equal(await vscode.commands.executeCommand(COMMANDS.copyAsCurl, { serialNumber: 'MX$(id)' }), undefined);
    assert.equal(await vscode.env.clipboard.readText(), SENTINEL);
    assert.match(
      user
        .shownSince(since)
        .map((shown) => `${shown.kind} ${shown.message}`)
        .join('\n'),
      /error Could not write the curl commands/,
    );
  });
});
