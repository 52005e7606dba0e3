// oe as a shell user meets it, run in this process: did-you-mean, examples in
// every --help that are true command lines, --debug with credentials redacted,
// --request-timeout, `-` for stdin, whole messages in a pipe, and the answers
// the completion scripts ask oe for (`oe __complete WORD…`).
import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeEvent, startFakeApi, TEST_CREDENTIALS, TEST_SERIALS, type FakeApi } from '../../support/fakeApi';
import { signedInEnv, tempFolder } from '../../support/cli/runOe';
import { runOeInProcess } from '../../support/cli/testIo';
import { command as events } from '../../../src/cli/cmd/events';
import { command as check } from '../../../src/cli/cmd/check';

const COMMANDS = ['events', 'check', 'watch', 'test-connection', 'curl', 'mcp', 'completion'];

/** The words of oe's part of an example's command line: after `oe`, up to a pipe or a redirection. */
function oeWords(line: string): string[] {
  const words = line.split(/\s+/);
  const start = words.lastIndexOf('oe');
  assert.ok(start >= 0, `${line} runs oe`);
  const rest = words.slice(start + 1);
  const end = rest.findIndex((word) => /^[|<>]/.test(word));
  return end < 0 ? rest : rest.slice(0, end);
}

describe('oe for a person at a shell', function () {
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

  it('a mistyped command or option: the nearest one suggested, exit 64', async () => {
    const command = await runOeInProcess(['evnets']);
    assert.equal(command.code, 64);
    assert.match(command.stderr, /^oe: Unknown command evnets\. Did you mean events\? Run 'oe --help'/);
    const option = await runOeInProcess(['events', TEST_SERIALS.onboarded, '--jsno'], { env: env() });
    assert.equal(option.code, 64);
    assert.match(option.stderr, /^oe events: Unknown option --jsno\. Did you mean --json\?\n/);
    const far = await runOeInProcess(['fetch']);
    assert.doesNotMatch(far.stderr, /Did you mean/, 'nothing near: no guess');
    const german = await runOeInProcess(['wacth'], { env: { LANG: 'de_DE.UTF-8' } });
    assert.match(german.stderr, /Meinten Sie watch\?/);
  });

  it('oe help with an unknown command exits 64 with the suggestion; with a known one, its help and 0', async () => {
    const unknown = await runOeInProcess(['help', 'nosuch']);
    assert.equal(unknown.code, 64, 'oe help nosuch is bad input');
    assert.equal(unknown.stdout, '');
    assert.match(unknown.stderr, /Unknown command nosuch\./);
    const near = await runOeInProcess(['help', 'wath']);
    assert.equal(near.code, 64);
    assert.match(near.stderr, /Did you mean watch\?/);
    const known = await runOeInProcess(['help', 'watch']);
    assert.equal(known.code, 0);
    assert.match(known.stdout, /^Usage: oe watch/);
  });

  for (const name of COMMANDS)
    it(`oe ${name} --help has examples, each a command line oe accepts`, async () => {
      const help = await runOeInProcess([name, '--help']);
      const examples = help.stdout.split('\nExamples:\n')[1];
      assert.ok(examples !== undefined, `oe ${name} --help has an Examples: section`);
      const lines = examples.split('\n').filter((line) => /^ {2}\S/.test(line));
      assert.ok(lines.length >= 2, `at least two examples: ${examples}`);
      for (const line of lines) {
        const words = oeWords(line.trim());
        assert.equal(words[0], name, `${line} is an example of oe ${name}`);
        // --help after the example's words: oe parses them all (an unknown option is exit 64) and sends nothing.
        const run = await runOeInProcess([...words, '--help'], { env: env() });
        assert.equal(run.code, 0, `${line.trim()}: ${run.stderr}`);
      }
    });

  it('--debug: each request on stderr with its status and time, the password redacted where it shows', async () => {
    assert.ok(api !== undefined);
    // A password that is also the serial number asked for: it shows in the events URL, and must not.
    const password = TEST_SERIALS.onboarded;
    api.setPassword(TEST_CREDENTIALS.username, password);
    try {
      const run = await runOeInProcess(['events', TEST_SERIALS.onboarded, '--debug'], { env: { ...env(), OE_PASSWORD: password } });
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stderr, /^oe: debug: POST http:\/\/127\.0\.0\.1:\d+\/\S* → 200 in \d+ ms$/m, 'the token request');
      assert.match(run.stderr, /^oe: debug: GET http:\/\/127\.0\.0\.1:\d+\/\S*\[redacted\]\S* → 200 in \d+ ms$/m, 'the events request');
      assert.ok(!run.stderr.includes(password), `the password is redacted: ${run.stderr}`);
      assert.ok(!run.stderr.includes(TEST_CREDENTIALS.clientSecret));
      const quiet = await runOeInProcess(['events', TEST_SERIALS.onboarded], { env: { ...env(), OE_PASSWORD: password } });
      assert.doesNotMatch(quiet.stderr, /debug/, 'no --debug, no request lines');
    } finally {
      api.setPassword(TEST_CREDENTIALS.username, TEST_CREDENTIALS.password);
    }
    const connection = await runOeInProcess(['test-connection', '--debug'], { env: env() });
    assert.equal(connection.code, 0, connection.stderr);
    assert.match(connection.stderr, /^oe: debug: POST \S+ → 200 in \d+ ms$/m, 'test-connection logs its requests too');
    assert.match(connection.stderr, /^oe: debug: GET \S+ → \d{3} in \d+ ms$/m);
  });

  it('--request-timeout reaches the requests: a slow API times out after it, not after the default 30 s', async () => {
    assert.ok(api !== undefined);
    api.addFault({ endpoint: 'events', kind: 'latency', ms: 20_000 });
    try {
      const started = Date.now();
      const run = await runOeInProcess(['events', TEST_SERIALS.onboarded, '--request-timeout', '300ms', '--debug'], { env: env() });
      assert.equal(run.code, 3, run.stderr);
      assert.match(run.stderr, /GET \S+ → \S*timeout\S* .*in [3-9]\d\d ms/, 'each attempt ends after about 300 ms');
      assert.ok(Date.now() - started < 10_000, `ended after ${Date.now() - started} ms`);
    } finally {
      api.clearFaults();
    }
    const bad = await runOeInProcess(['events', TEST_SERIALS.onboarded, '--request-timeout', 'soon'], { env: env() });
    assert.equal(bad.code, 64);
    assert.match(bad.stderr, /--request-timeout takes a duration such as 90s/);
    const long = await runOeInProcess(['events', TEST_SERIALS.onboarded, '--request-timeout', '30d'], { env: env() });
    assert.equal(long.code, 64);
    assert.match(long.stderr, /--request-timeout takes at most 24h/);
  });

  it('- reads serial numbers or paths from stdin, one a line; twice, empty or beside --password-stdin is bad input', async () => {
    const one = await runOeInProcess(['events', '-'], { env: env(), stdin: `${TEST_SERIALS.onboarded}\r\n\n` });
    assert.equal(one.code, 0, one.stderr);
    assert.match(one.stdout, /ONBOARDING_COMPLETED/);
    const two = await runOeInProcess(['watch', '-', '--timeout', '10s'], {
      env: env(),
      stdin: `${TEST_SERIALS.onboarded}\n${TEST_SERIALS.onboarded}\n`,
    });
    assert.equal(two.code, 0, two.stderr);
    assert.match(two.stdout, new RegExp(`^${TEST_SERIALS.onboarded}  onboarded`, 'm'));
    const dir = tempFolder('stdin-paths');
    writeFileSync(join(dir, 'rig one.txt'), `${TEST_SERIALS.onboarded}\n`);
    const paths = await runOeInProcess(['check', '-', '--json'], { env: env(), cwd: dir, stdin: 'rig one.txt\n' });
    assert.equal(paths.code, 0, paths.stderr);
    assert.match(paths.stdout, new RegExp(`"serialNumber": "${TEST_SERIALS.onboarded}"`));
    for (const [args, stdin, message] of [
      [['watch', '-', '-'], 'A\n', /Give - once/],
      [['events', '-'], '\n \n', /stdin, which was empty/],
      [['events', '-', '--password-stdin'], 'x\n', /Choose - or --password-stdin/],
      [['check', '-'], 'a\n'.repeat(10_001), /more than 10000 lines/],
    ] as const) {
      const run = await runOeInProcess(args, { env: env(), stdin });
      assert.equal(run.code, 64, `${args.join(' ')}: ${run.stderr}`);
      assert.match(run.stderr, message);
    }
  });

  it('in a pipe the whole message is shown, not cut at 200 characters', async () => {
    assert.ok(api !== undefined);
    const message = `${'long message '.repeat(40)}END`;
    api.setMachineEvents(TEST_SERIALS.empty, [makeEvent({ type: 'ONBOARDING_FAILED', message, timestamp: Date.now() })]);
    try {
      const run = await runOeInProcess(['events', TEST_SERIALS.empty], { env: env() });
      assert.equal(run.code, 0, run.stderr);
      assert.ok(run.stdout.includes(message.trim()), `the whole message: ${run.stdout}`);
    } finally {
      api.setMachineEvents(TEST_SERIALS.empty, []);
    }
  });
});

describe('oe __complete: what the completion scripts offer', function () {
  this.timeout(30_000);
  const complete = async (words: readonly string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<string[]> => {
    const run = await runOeInProcess(['__complete', ...words], options);
    assert.equal(run.code, 0);
    assert.equal(run.stderr, '', 'a Tab prints nothing into the command line');
    return run.stdout.split('\n').filter((line) => line !== '');
  };

  it('commands, then each command’s own options and the global ones', async () => {
    assert.deepEqual(await complete(['ev']), ['events']);
    assert.deepEqual(await complete(['c']), ['check', 'curl', 'completion']);
    assert.deepEqual(await complete(['help', 'w']), ['watch']);
    for (const command of [events, check]) {
      const offered = await complete([command.name, '--']);
      for (const option of [...Object.keys(command.options), 'help', 'debug', 'request-timeout'])
        assert.ok(offered.includes(`--${option}`), `oe ${command.name} offers --${option}: ${offered.join(' ')}`);
    }
    assert.deepEqual(await complete(['events', '--js']), ['--json']);
    assert.deepEqual(await complete(['completion', '']), ['bash', 'zsh', 'fish']);
    assert.deepEqual(await complete(['nosuch', '']), []);
  });

  it('serial numbers from the files of the working folder, by its settings; nothing for paths (the shell completes files)', async () => {
    const dir = tempFolder('complete-serials');
    writeFileSync(join(dir, 'rig.yaml'), `machines:\n  - ${TEST_SERIALS.started}\n  - ${TEST_SERIALS.onboarded}\n`);
    mkdirSync(join(dir, 'node_modules'));
    writeFileSync(join(dir, 'node_modules', 'skip.txt'), 'ZZZ-9999-Z9999\n');
    assert.deepEqual(await complete(['events', ''], { cwd: dir }), [TEST_SERIALS.started, TEST_SERIALS.onboarded]);
    assert.deepEqual(await complete(['watch', TEST_SERIALS.started, 'mx'], { cwd: dir }), [TEST_SERIALS.onboarded]);
    assert.deepEqual(await complete(['test-connection', '--serial', 'K'], { cwd: dir }), [TEST_SERIALS.started]);
    assert.deepEqual(await complete(['check', ''], { cwd: dir }), []);
  });

  it('serial numbers within a budget: a folder of 5,000 files answers at once', async () => {
    const dir = tempFolder('complete-many');
    for (let index = 0; index < 5000; index++) writeFileSync(join(dir, `m${index}.txt`), `KRP-0815-B${String(index).padStart(4, '0')}\n`);
    const started = Date.now();
    const offered = await complete(['events', 'KRP'], { cwd: dir });
    assert.ok(Date.now() - started < 2000, `answered in ${Date.now() - started} ms`);
    assert.ok(offered.length > 0 && offered.length <= 300, `at most the files the budget reads: ${offered.length}`);
  });

  it('environment names from oe’s config file; none when it is missing or not JSON', async () => {
    const config = tempFolder('complete-config');
    mkdirSync(join(config, 'oe'));
    writeFileSync(join(config, 'oe', 'config.json'), JSON.stringify({ environments: { production: {}, 'test-system': {} } }));
    assert.deepEqual(await complete(['events', '--env', ''], { env: { XDG_CONFIG_HOME: config } }), ['production', 'test-system']);
    assert.deepEqual(await complete(['events', '--env', 'te'], { env: { XDG_CONFIG_HOME: config } }), ['test-system']);
    writeFileSync(join(config, 'oe', 'config.json'), '{ not json');
    assert.deepEqual(await complete(['events', '--env', ''], { env: { XDG_CONFIG_HOME: config } }), []);
  });
});
