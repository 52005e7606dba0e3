// The conventions of a command-line tool, observed on the built dist/oe.js:
// --help per command with its exit codes, --version, data on stdout and
// messages on stderr, bad input refused with a clear message and exit 64,
// never a stack trace, and the user's language from LANG.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeApi, TEST_SERIALS, type FakeApi } from '../support/fakeApi';
import { german, ROOT, runOe, signedInEnv, STACK_LINE, tempFolder } from '../support/cli/runOe';

const COMMANDS = ['events', 'check', 'watch', 'test-connection', 'curl', 'mcp'];

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

  it('--help lists every command on stdout and exits 0; no command at all is an error on stderr', async () => {
    const help = await runOe(['--help']);
    assert.equal(help.code, 0);
    for (const name of COMMANDS) assert.match(help.stdout, new RegExp(`^  ${name} `, 'm'), `--help lists ${name}`);
    const none = await runOe([]);
    assert.equal(none.code, 64);
    assert.equal(none.stdout, '');
    assert.match(none.stderr, /Usage: oe <command>/);
  });

  for (const name of COMMANDS)
    it(`oe ${name} --help: usage and exit codes on stdout, exit 0, nothing sent`, async () => {
      const run = await runOe([name, '--help']);
      assert.equal(run.code, 0);
      assert.match(run.stdout, new RegExp(`^Usage: oe ${name}`));
      assert.match(run.stdout, /Exit codes/);
      assert.match(run.stdout, /^ {2}0 {3}/m);
      assert.match(run.stdout, /^ {2}64 {2}bad input/m);
    });

  it('an unknown command or option: a clear message on stderr, exit 64, no stack', async () => {
    api?.clearRequests();
    const command = await runOe(['fetch']);
    assert.equal(command.code, 64);
    assert.match(command.stderr, /^oe: Unknown command fetch\. Run 'oe --help'/);
    const option = await runOe(['events', TEST_SERIALS.onboarded, '--bogus'], { env: env() });
    assert.equal(option.code, 64);
    assert.equal(option.stdout, '');
    assert.match(option.stderr, /^oe events: Unknown option --bogus\.\nRun 'oe events --help' for its usage\.\n$/);
    assert.doesNotMatch(option.stderr, STACK_LINE);
    assert.equal(api?.tokenRequests().length, 0, 'bad input sends nothing');
  });

  it('a malformed serial number, an unreadable path, a bad duration: exit 64 with the reason, no stack', async () => {
    const serial = await runOe(['events', 'MX-4711\tA0023'], { env: env() });
    assert.equal(serial.code, 64);
    assert.match(serial.stderr, /^oe events: Not a serial number: The serial number contains a control character/);
    const path = await runOe(['check', 'no-such-folder'], { env: env() });
    assert.equal(path.code, 64);
    assert.match(path.stderr, /^oe check: Cannot read .*no-such-folder: ENOENT/);
    const duration = await runOe(['watch', TEST_SERIALS.onboarded, '--timeout', 'soon'], { env: env() });
    assert.equal(duration.code, 64);
    assert.match(duration.stderr, /--timeout takes a duration such as 90s/);
    for (const run of [serial, path, duration]) assert.doesNotMatch(run.stderr, STACK_LINE);
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

  it('no credentials and no terminal: says which variable to set, exit 64', async () => {
    assert.ok(api !== undefined);
    const run = await runOe(['events', TEST_SERIALS.onboarded], {
      env: { ...env(), OE_PASSWORD: undefined },
      cwd: tempFolder('nopass'),
    });
    assert.equal(run.code, 64);
    assert.match(run.stderr, /No password: set OE_PASSWORD in the environment or pipe it with --password-stdin\./);
  });
});
