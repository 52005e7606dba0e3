// The log gate (test/support/extensionLog.ts) on a real error: a test that
// provokes one on purpose declares it and passes; without the declaration the
// gate fails it. Here: an export the file system refuses.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { expectLogError, isErrorLine, readLogFromNow } from '../support/extensionLog';
import { startFakeApi, TEST_SERIALS, type FakeApi } from '../support/fakeApi';
import { activateExtension, signIn, signOutIfSignedIn } from './support/extension';
import { user } from './support/user';

describe("The extension's log gate", function () {
  this.timeout(30_000);
  let fake: FakeApi;
  let dir: string;

  before(async () => {
    await activateExtension();
    fake = await startFakeApi();
    await signIn(fake);
    dir = mkdtempSync(join(tmpdir(), 'oe-log-gate-'));
  });

  after(async () => {
    await signOutIfSignedIn();
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('an export that cannot be written is told to the user and logged as an error, which this test declares', async () => {
    expectLogError(/\[error\] Export failed/);
    const log = readLogFromNow();
    // A file where the export's folder should be: no file system writes under it.
    const notAFolder = join(dir, 'not-a-folder');
    writeFileSync(notAFolder, '');
    const shownBefore = user.shown().length;
    const save = user.saveNextAs(vscode.Uri.file(join(notAFolder, 'events.json')));
    try {
      const written = await vscode.commands.executeCommand('onboardingEvents.exportEvents', { serialNumber: TEST_SERIALS.onboarded });
      assert.equal(written, undefined);
    } finally {
      save.dispose();
    }
    const told = user.shownSince(shownBefore).filter((shown) => shown.kind === 'error');
    assert.equal(told.length, 1, JSON.stringify(user.shownSince(shownBefore)));
    assert.match(told[0]?.message ?? '', /could not be exported/);
    const deadline = Date.now() + 3000;
    let errors: string[] = [];
    while (errors.length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      errors = log.newLines().filter(isErrorLine);
    }
    assert.equal(errors.length, 1, `one [error] line in the extension's log: ${JSON.stringify(errors)}`);
    assert.match(errors[0] ?? '', /Export failed/);
  });
});
