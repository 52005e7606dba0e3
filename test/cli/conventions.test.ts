// The conventions of a command-line tool that only the built dist/oe.js shows:
// --version as the bundler wrote it, the user's language from the process's
// LANG and LC_ALL, and no colour when stdout is a pipe.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeApi, TEST_SERIALS, type FakeApi } from '../support/fakeApi';
import { german, ROOT, runOe, signedInEnv } from '../support/cli/runOe';

describe('oe: conventions of a command-line tool', function () {
  this.timeout(60_000);
  let api: FakeApi | undefined;
  before(async () => {
    api = await startFakeApi();
  });
  after(async () => {
    await api?.close();
  });
  const env = (): Record<string, string> => {
    assert.ok(api !== undefined);
    return signedInEnv(api);
  };

  it('--version prints the package version on stdout and exits 0', async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const run = await runOe(['--version']);
    assert.equal(run.code, 0);
    assert.equal(run.stdout, `${version}\n`);
    assert.equal(run.stderr, '');
  });

  it("LANG=de_DE.UTF-8: the messages in German (the extension's own translations), LANG=zh_CN in Chinese", async () => {
    const de = await runOe(['events', TEST_SERIALS.onboarded, '--bogus'], { env: { ...env(), LANG: 'de_DE.UTF-8' } });
    assert.equal(de.code, 64);
    assert.match(de.stderr, /^oe events: Unbekannte Option --bogus\./);
    const wrong = await runOe(['events', TEST_SERIALS.onboarded], { env: { ...env(), OE_PASSWORD: 'wrong', LANG: 'de_DE.UTF-8' } });
    assert.equal(wrong.code, 3);
    const expected = `${german('The API rejected the credentials.')} ${german(
      'Check OE_CLIENT_ID, OE_CLIENT_SECRET, OE_USERNAME and OE_PASSWORD (or the password piped with --password-stdin).',
    )}`;
    assert.equal(wrong.stderr, `oe events: ${expected}\n`);
    const zh = await runOe(['events', TEST_SERIALS.onboarded, '--bogus'], { env: { ...env(), LC_ALL: 'zh_CN.UTF-8', LANG: 'de_DE' } });
    assert.match(zh.stderr, /^oe events: 未知选项 --bogus。/);
  });

  it('not a terminal: no colour and no escape sequence in the table, data on stdout only', async () => {
    const run = await runOe(['events', TEST_SERIALS.onboarded], { env: { ...env(), TERM: 'xterm-256color' } });
    assert.equal(run.code, 0);
    assert.ok(!run.stdout.includes('\u001b'), 'no escape sequence when stdout is a pipe');
    assert.match(run.stdout, /^TIME \(UTC\) +TYPE +ASSET ID +MESSAGE\n/);
    assert.equal(run.stderr, '');
  });
});
