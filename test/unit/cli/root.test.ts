// oe itself, run in this process: --help per command with its exit codes,
// data on stdout and messages on stderr, bad input (an unknown command or
// option, a malformed serial number, a secret given as an option) refused
// with a clear message and exit 64, never a stack trace.
import * as assert from 'node:assert/strict';
import { startFakeApi, TEST_SERIALS, type FakeApi } from '../../support/fakeApi';
import { signedInEnv, STACK_LINE, tempFolder } from '../../support/cli/runOe';
import { runOeInProcess } from '../../support/cli/testIo';

const COMMANDS = ['events', 'check', 'watch', 'test-connection', 'curl', 'mcp', 'completion'];

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

  it('--help lists every command on stdout and exits 0; no command at all is an error on stderr', async () => {
    const help = await runOeInProcess(['--help']);
    assert.equal(help.code, 0);
    for (const name of COMMANDS) assert.match(help.stdout, new RegExp(`^  ${name} `, 'm'), `--help lists ${name}`);
    const none = await runOeInProcess([]);
    assert.equal(none.code, 64);
    assert.equal(none.stdout, '');
    assert.match(none.stderr, /Usage: oe <command>/);
  });

  for (const name of COMMANDS)
    it(`oe ${name} --help: usage and exit codes on stdout, exit 0, nothing sent`, async () => {
      const run = await runOeInProcess([name, '--help']);
      assert.equal(run.code, 0);
      assert.match(run.stdout, new RegExp(`^Usage: oe ${name}`));
      assert.match(run.stdout, /Exit codes/);
      assert.match(run.stdout, /^ {2}0 {3}/m);
      assert.match(run.stdout, /^ {2}64 {2}bad input/m);
    });

  it('an unknown command or option: a clear message on stderr, exit 64, no stack', async () => {
    api?.clearRequests();
    const command = await runOeInProcess(['fetch']);
    assert.equal(command.code, 64);
    assert.match(command.stderr, /^oe: Unknown command fetch\. Run 'oe --help'/);
    const option = await runOeInProcess(['events', TEST_SERIALS.onboarded, '--bogus'], { env: env() });
    assert.equal(option.code, 64);
    assert.equal(option.stdout, '');
    assert.match(option.stderr, /^oe events: Unknown option --bogus\.\nRun 'oe events --help' for its usage\.\n$/);
    assert.doesNotMatch(option.stderr, STACK_LINE);
    assert.equal(api?.tokenRequests().length, 0, 'bad input sends nothing');
  });

  it('a malformed serial number, an unreadable path, a bad duration: exit 64 with the reason, no stack', async () => {
    const serial = await runOeInProcess(['events', 'MX-4711\tA0023'], { env: env() });
    assert.equal(serial.code, 64);
    assert.match(serial.stderr, /^oe events: Not a serial number: The serial number contains a control character/);
    const path = await runOeInProcess(['check', 'no-such-folder'], { env: env() });
    assert.equal(path.code, 64);
    assert.match(path.stderr, /^oe check: Cannot read .*no-such-folder: ENOENT/);
    const duration = await runOeInProcess(['watch', TEST_SERIALS.onboarded, '--timeout', 'soon'], { env: env() });
    assert.equal(duration.code, 64);
    assert.match(duration.stderr, /--timeout takes a duration such as 90s/);
    for (const run of [serial, path, duration]) assert.doesNotMatch(run.stderr, STACK_LINE);
  });

  it('no credentials and no terminal: says which variable to set, exit 64', async () => {
    assert.ok(api !== undefined);
    const run = await runOeInProcess(['events', TEST_SERIALS.onboarded], {
      env: { ...env(), OE_PASSWORD: undefined },
      cwd: tempFolder('nopass'),
    });
    assert.equal(run.code, 64);
    assert.match(run.stderr, /No password: set OE_PASSWORD in the environment or pipe it with --password-stdin\./);
  });
});

const FLAG_SECRET = 'flag-secret-4711';

describe('oe and secrets', function () {
  this.timeout(60_000);
  let api: FakeApi | undefined;
  before(async () => {
    api = await startFakeApi();
  });
  after(async () => {
    await api?.close();
  });

  it('a secret as an option is refused with the safe way, exit 64, and not repeated', async () => {
    assert.ok(api !== undefined);
    for (const [args, variable] of [
      [['events', TEST_SERIALS.onboarded, `--password=${FLAG_SECRET}`], 'OE_PASSWORD'],
      [['check', '.', '--client-secret', FLAG_SECRET], 'OE_CLIENT_SECRET'],
      [['watch', TEST_SERIALS.onboarded, '--token', FLAG_SECRET], 'OE_PASSWORD'],
    ] as const) {
      const run = await runOeInProcess(args, { env: signedInEnv(api) });
      assert.equal(run.code, 64, args.join(' '));
      assert.match(
        run.stderr,
        new RegExp(`Secrets are not accepted as options: .* Set ${variable} in the environment, pipe the password with --password-stdin`),
      );
      assert.ok(!run.stderr.includes(FLAG_SECRET) && !run.stdout.includes(FLAG_SECRET));
    }
  });
});
