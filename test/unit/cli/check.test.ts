// oe check in this process against the fake API: the serial numbers found
// with the editor's rules and the folder's settings, one request per machine,
// the exit codes and --fail-on, and the gate's verdict (what was not checked
// fails it). The JUnit report is read back by a real JUnit consumer
// (test-results-parser): what a CI dashboard makes of it, not only its shape.
import * as assert from 'node:assert/strict';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'test-results-parser';
import { makeEvent, startFakeApi, TEST_SERIALS, type FakeApi } from '../../support/fakeApi';
import { signedInEnv, tempFolder } from '../../support/cli/runOe';
import { runOeInProcess } from '../../support/cli/testIo';

const FAILED = 'FLR-2000-D0001';
const DENIED = 'ZZZ-9999-X0000';

/** A configuration folder: serials in YAML and JSON (some twice), a denied one, one in a file the include glob leaves out. */
function configuration(settings: Record<string, unknown> = {}): string {
  const dir = tempFolder('config');
  mkdirSync(join(dir, '.vscode'));
  mkdirSync(join(dir, 'line1'));
  mkdirSync(join(dir, 'node_modules', 'x'), { recursive: true });
  writeFileSync(
    join(dir, '.vscode', 'settings.json'),
    `// a hand-written settings file, with comments and a trailing comma\n${JSON.stringify(
      { 'onboardingEvents.serialNumber.denyList': [DENIED], 'onboardingEvents.workspaceScan.include': '**/*.{yaml,json}', ...settings },
      null,
      2,
    ).replace(/\n}$/, ',\n}')}\n`,
  );
  writeFileSync(join(dir, 'line1', 'cell.yaml'), `machines:\n  - ${TEST_SERIALS.onboarded}\n  - ${TEST_SERIALS.started}\n  - ${DENIED}\n`);
  writeFileSync(join(dir, 'line1', 'more.json'), JSON.stringify({ a: TEST_SERIALS.onboarded, b: FAILED }));
  writeFileSync(join(dir, 'line1', 'notes.txt'), 'TBL-1000-C0000 is not in the include glob\n');
  writeFileSync(join(dir, 'node_modules', 'x', 'pkg.json'), '"NOD-1000-C0000"');
  return dir;
}

describe('oe check', function () {
  this.timeout(60_000);
  let api: FakeApi | undefined;
  beforeEach(async () => {
    api = await startFakeApi();
    api.setMachineEvents(FAILED, [
      makeEvent({ type: 'ONBOARDING_STARTED', message: 'started', timestamp: Date.UTC(2025, 0, 2) }),
      makeEvent({ type: 'CERTIFICATE_REJECTED', message: 'Certificate <expired> & "revoked"', timestamp: Date.UTC(2025, 0, 3) }),
    ]);
  });
  afterEach(async () => {
    await api?.close();
  });
  const env = (): Record<string, string> => {
    assert.ok(api !== undefined);
    return signedInEnv(api);
  };

  it("finds the serial numbers by the folder's settings, asks once per machine, and fails on any machine not onboarded (exit 1)", async () => {
    const dir = configuration();
    const run = await runOeInProcess(['check', '.'], { env: env(), cwd: dir });
    assert.equal(run.code, 1, run.stderr);
    const rows = run.stdout.trimEnd().split('\n').slice(1);
    assert.deepEqual(
      rows.map((row) => row.split(/ {2,}/).slice(0, 3)),
      [
        ['failed', FAILED, 'line1/more.json:1'],
        ['in progress', TEST_SERIALS.started, 'line1/cell.yaml:3'],
        ['onboarded', TEST_SERIALS.onboarded, 'line1/cell.yaml:2 (+1)'],
      ],
    );
    assert.match(run.stderr, /3 machines, 2 failing the check, 0 not read\./);
    assert.ok(api !== undefined);
    for (const serial of [FAILED, TEST_SERIALS.started, TEST_SERIALS.onboarded])
      assert.equal(api.eventRequests(serial).length, 1, `one request for ${serial}`);
    assert.equal(api.eventRequests(DENIED).length, 0, 'the deny list of the folder is honoured');
    assert.equal(api.eventRequests('TBL-1000-C0000').length, 0, 'the include glob of the folder is honoured');
    assert.equal(api.eventRequests('NOD-1000-C0000').length, 0, 'node_modules is not scanned');
  });

  it('--fail-on chooses which states count: failed only passes an in-progress machine, not a failed one', async () => {
    const dir = configuration();
    const inProgressOnly = await runOeInProcess(['check', join(dir, 'line1', 'cell.yaml'), '--fail-on', 'failed'], {
      env: env(),
      cwd: dir,
    });
    assert.equal(inProgressOnly.code, 0, inProgressOnly.stdout);
    const withFailed = await runOeInProcess(['check', 'line1', '--fail-on', 'failed'], { env: env(), cwd: dir });
    assert.equal(withFailed.code, 1);
    const wrong = await runOeInProcess(['check', 'line1', '--fail-on', 'broken'], { env: env(), cwd: dir });
    assert.equal(wrong.code, 64);
    assert.match(wrong.stderr, /--fail-on takes a comma-separated list of "failed", "unknown", "in progress", "no events", not "broken"\./);
  });

  it('one machine is counted in the singular', async () => {
    const dir = configuration();
    writeFileSync(join(dir, 'one.yaml'), `machine: ${FAILED}\n`);
    const run = await runOeInProcess(['check', 'one.yaml'], { env: env(), cwd: dir });
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /^oe check: 1 machine, 1 failing the check, 0 not read\.$/m);
  });

  it('--junit FILE: read back by a JUnit consumer, one case per machine, the failures with their state and newest event', async () => {
    const dir = configuration();
    const run = await runOeInProcess(['check', '.', '--junit', 'report/../oe-check.xml'], { env: env(), cwd: dir });
    assert.equal(run.code, 1);
    const result = parse({ type: 'junit', files: [join(dir, 'oe-check.xml')] });
    assert.equal(result.total, 3);
    assert.equal(result.passed, 1);
    assert.equal(result.failed, 2);
    const suite = result.suites[0];
    assert.ok(suite !== undefined);
    const byName = new Map(suite.cases.map((testCase) => [testCase.name, testCase]));
    assert.equal(byName.get(TEST_SERIALS.onboarded)?.status, 'PASS');
    assert.equal(byName.get(FAILED)?.status, 'FAIL');
    assert.equal(byName.get(FAILED)?.failure, 'failed');
    assert.match(byName.get(FAILED)?.stack_trace ?? '', /CERTIFICATE_REJECTED .* Certificate <expired> & "revoked"/);
    assert.equal(byName.get(TEST_SERIALS.started)?.failure, 'in progress');
  });

  it('a machine that cannot be read and none failed: exit 3, and an error case in the JUnit report', async () => {
    assert.ok(api !== undefined);
    api.addFault({ endpoint: 'events', serialNumber: TEST_SERIALS.started, kind: 'status', status: 500 });
    const dir = configuration();
    const run = await runOeInProcess(['check', 'line1/cell.yaml', '--junit', 'out.xml'], { env: env(), cwd: dir });
    assert.equal(run.code, 3, run.stdout + run.stderr);
    assert.match(run.stderr, /2 machines, 0 failing the check, 1 not read\./);
    const xml = readFileSync(join(dir, 'out.xml'), 'utf8');
    assert.match(xml, /<error message="[^"]*500[^"]*" type="server">/);
    assert.equal(parse({ type: 'junit', files: [join(dir, 'out.xml')] }).errors, 1);
  });

  it('refused credentials: the one message of the extension, exit 3, not one per machine', async () => {
    const dir = configuration();
    const run = await runOeInProcess(['check', '.'], { env: { ...env(), OE_PASSWORD: 'wrong' }, cwd: dir });
    assert.equal(run.code, 3);
    assert.equal(
      run.stderr,
      'oe check: The API rejected the credentials. Check OE_CLIENT_ID, OE_CLIENT_SECRET, OE_USERNAME and OE_PASSWORD (or the password piped with --password-stdin).\n',
    );
    assert.equal(run.stdout, '');
  });

  it('no serial number found: exit 0 without a request; an unreadable path: exit 64', async () => {
    const dir = tempFolder('empty');
    writeFileSync(join(dir, 'readme.md'), 'nothing here');
    const run = await runOeInProcess(['check', dir], { env: env(), cwd: dir });
    assert.equal(run.code, 0);
    assert.match(run.stderr, /No serial numbers found\./);
    assert.equal(api?.tokenRequests().length, 0);
    const missing = await runOeInProcess(['check', dir, join(dir, 'gone.yaml')], { env: env(), cwd: dir });
    assert.equal(missing.code, 64);
    assert.match(missing.stderr, /Cannot read .*gone\.yaml: ENOENT/);
  });

  it('a rate-limited API: the client waits out Retry-After and reads every machine (its back-off, not a failure)', async () => {
    assert.ok(api !== undefined);
    api.addFault({ endpoint: 'events', serialNumber: FAILED, kind: 'rateLimit', retryAfter: 1, times: 1 });
    const dir = configuration();
    const run = await runOeInProcess(['check', '.', '--fail-on', 'inProgress'], { env: env(), cwd: dir });
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stdout, new RegExp(`failed +${FAILED}`));
    assert.equal(api.eventRequests(FAILED).length, 2, 'the 429 and its retry');
  });
});

/** A folder whose .vscode/settings.json holds `settings`, with `files` (name → content) in it. */
function folder(files: Record<string, string>, settings: Record<string, unknown> = {}): string {
  const dir = tempFolder('gate');
  mkdirSync(join(dir, '.vscode'));
  writeFileSync(join(dir, '.vscode', 'settings.json'), JSON.stringify(settings));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  return dir;
}

/** `count` distinct serial numbers of the default pattern, none of them known to the fake (no events). */
function serials(count: number): string[] {
  return Array.from({ length: count }, (_, index) => `AB-1234-${index.toString(36).toUpperCase().padStart(5, '0')}`);
}

describe('oe check: the gate', function () {
  this.timeout(60_000);
  let api: FakeApi | undefined;
  beforeEach(async () => {
    api = await startFakeApi();
    api.setMachineEvents(FAILED, [makeEvent({ type: 'ONBOARDING_FAILED', message: 'no certificate', timestamp: Date.UTC(2025, 0, 3) })]);
  });
  afterEach(async () => {
    await api?.close();
  });
  const env = (): Record<string, string> => {
    assert.ok(api !== undefined);
    return signedInEnv(api);
  };

  it('every serial number of a file is checked: a failed machine after a thousand others fails the check', async () => {
    const dir = folder({ 'line.txt': `${`${TEST_SERIALS.onboarded}\n`.repeat(1500)}${FAILED}\n` });
    const run = await runOeInProcess(['check', 'line.txt'], { env: env(), cwd: dir });
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(run.stdout, new RegExp(`^failed +${FAILED} +line\\.txt:1501 `, 'm'));
    assert.equal(api?.eventRequests(FAILED).length, 1);
  });

  it('the same machine under several paths and files: one request, each place once', async () => {
    const dir = folder({ 'a/cell.yaml': `- ${TEST_SERIALS.onboarded}\n`, 'b/cell.yaml': `\n- ${TEST_SERIALS.onboarded}\n` });
    const run = await runOeInProcess(['check', 'a', 'a/cell.yaml', 'b', './b/cell.yaml', '.'], { env: env(), cwd: dir });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(api?.eventRequests(TEST_SERIALS.onboarded).length, 1, 'one request for the machine');
    assert.match(run.stdout, new RegExp(`^onboarded +${TEST_SERIALS.onboarded} +a/cell\\.yaml:1 \\(\\+1\\) `, 'm'));
    const json = await runOeInProcess(['check', 'a', 'a/cell.yaml', 'b', '--json'], { env: env(), cwd: dir });
    const [machine] = JSON.parse(json.stdout) as { locations: string[] }[];
    assert.deepEqual(machine?.locations, ['a/cell.yaml:1', 'b/cell.yaml:2']);
  });

  it('a file too large to scan is not checked: exit 3 naming it; --allow-unchecked passes and still names it', async () => {
    const dir = folder({ 'ok.yaml': `${TEST_SERIALS.onboarded}\n`, 'big.log': `${FAILED}\n${'x'.repeat(2 * 1024 * 1024)}\n` });
    const run = await runOeInProcess(['check', 'ok.yaml', 'big.log', '--junit', 'report.xml'], { env: env(), cwd: dir });
    assert.equal(run.code, 3, run.stdout + run.stderr);
    assert.match(run.stderr, /^oe check: big\.log is larger than 1 MB and was not checked/m);
    assert.match(run.stderr, /^oe check: Not everything was checked \(see above\), so the check fails; --allow-unchecked lets it pass\.$/m);
    // A dashboard that reads only the report is not greener than the exit code.
    const report = readFileSync(join(dir, 'report.xml'), 'utf8');
    assert.match(report, /tests="2" failures="0" errors="1"/);
    assert.match(report, /<error message="big\.log is larger than 1 MB and was not checked\." type="notChecked">/);
    const allowed = await runOeInProcess(['check', 'ok.yaml', 'big.log', '--allow-unchecked', '--junit', 'report.xml'], {
      env: env(),
      cwd: dir,
    });
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.match(allowed.stderr, /big\.log is larger than 1 MB/);
    assert.match(allowed.stderr, /Not everything was checked; --allow-unchecked lets the check pass\./);
    assert.match(readFileSync(join(dir, 'report.xml'), 'utf8'), /<skipped message="big\.log is larger than 1 MB and was not checked\."\/>/);
  });

  it('a link in a scanned folder: read when it stays in the folder; one leading out is not checked (exit 3) unless --follow-symlinks', async () => {
    const outside = folder({ 'other.yaml': `${FAILED}\n` });
    const dir = folder({ 'line/ok.yaml': `${TEST_SERIALS.onboarded}\n`, 'line/moved.yaml': `${TEST_SERIALS.onboarded}\n` });
    symlinkSync('moved.yaml', join(dir, 'line', 'alias.yaml'));
    const inside = await runOeInProcess(['check', 'line'], { env: env(), cwd: dir });
    assert.equal(inside.code, 0, inside.stdout + inside.stderr);
    assert.match(inside.stdout, /line\/alias\.yaml:1 \(\+2\)/);
    symlinkSync(join(outside, 'other.yaml'), join(dir, 'line', 'planted.yaml'));
    const out = await runOeInProcess(['check', 'line'], { env: env(), cwd: dir });
    assert.equal(out.code, 3, out.stdout + out.stderr);
    assert.match(
      out.stderr,
      /^oe check: line\/planted\.yaml is a symbolic link out of the folder and was not checked; --follow-symlinks follows it\.$/m,
    );
    assert.equal(api?.eventRequests(FAILED).length, 0, 'nothing behind the link was sent');
    const followed = await runOeInProcess(['check', 'line', '--follow-symlinks'], { env: env(), cwd: dir });
    assert.equal(followed.code, 1, followed.stdout + followed.stderr);
  });

  it("a folder over the folder's file limit (workspaceScan.maxFiles) is not checked: exit 3", async () => {
    const dir = folder(
      { 'line/a.yaml': `${TEST_SERIALS.onboarded}\n`, 'line/b.yaml': `${FAILED}\n` },
      { 'onboardingEvents.workspaceScan.maxFiles': 1 },
    );
    const run = await runOeInProcess(['check', 'line'], { env: env(), cwd: dir });
    assert.equal(run.code, 3, run.stdout + run.stderr);
    assert.match(run.stderr, /has more than 1 files to scan \(onboardingEvents\.workspaceScan\.maxFiles\)/);
    assert.equal((await runOeInProcess(['check', 'line', '--allow-unchecked'], { env: env(), cwd: dir })).code, 0);
  });

  it('a machine the API could not be asked about is not checked, whatever --fail-on counts; --allow-unchecked passes', async () => {
    assert.ok(api !== undefined);
    api.addFault({ endpoint: 'events', serialNumber: TEST_SERIALS.started, kind: 'status', status: 503 });
    const dir = folder({ 'cell.yaml': `${TEST_SERIALS.onboarded}\n${TEST_SERIALS.started}\n` });
    const run = await runOeInProcess(['check', 'cell.yaml', '--fail-on', 'failed'], { env: env(), cwd: dir });
    assert.equal(run.code, 3, run.stdout + run.stderr);
    assert.match(run.stderr, /2 machines, 0 failing the check, 1 not read\./);
    const allowed = await runOeInProcess(['check', 'cell.yaml', '--fail-on', 'failed', '--allow-unchecked'], { env: env(), cwd: dir });
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.match(allowed.stdout, new RegExp(`^unavailable +${TEST_SERIALS.started} `, 'm'));
  });

  it('more machines than one run reads (10,000): those beyond are not checked, exit 3; no more requests than the limit', async () => {
    const many = serials(10_001);
    const dir = folder({ 'fleet.txt': many.join('\n') });
    const run = await runOeInProcess(['check', 'fleet.txt', '--fail-on', 'failed'], { env: env(), cwd: dir });
    assert.equal(run.code, 3, run.stderr);
    assert.match(run.stderr, /10001 serial numbers found, more than the 10000 machines oe check reads in one run/);
    assert.ok(api !== undefined);
    assert.equal(api.eventRequests(many[10_000] ?? '').length, 0, 'the last one is not asked for');
    assert.equal(api.eventRequests(many[9_999] ?? '').length, 1, 'the 10,000th is');
  });

  it('--fail-on: an empty list (an unset variable) or an empty or unknown state is bad input, exit 64, nothing sent', async () => {
    const dir = folder({ 'cell.yaml': `${FAILED}\n` });
    for (const value of ['', ' ', 'failed,', ',failed', 'failed,,unknown', 'onboarded', 'unavailable', 'broken']) {
      const run = await runOeInProcess(['check', 'cell.yaml', '--fail-on', value], { env: env(), cwd: dir });
      assert.equal(run.code, 64, `--fail-on '${value}': ${run.stderr}`);
      assert.match(run.stderr, /^oe check: --fail-on /);
    }
    const empty = await runOeInProcess(['check', 'cell.yaml', '--fail-on='], { env: env(), cwd: dir });
    assert.equal(empty.code, 64);
    assert.match(empty.stderr, /--fail-on names no state: give one or more of "failed", "unknown", "in progress", "no events"/);
    assert.equal(api?.tokenRequests().length, 0, 'bad input sends nothing');
  });

  it('--fail-on takes the states as the table writes them ("in progress", "no events") and in camelCase', async () => {
    const dir = folder({ 'cell.yaml': `${TEST_SERIALS.started}\n${TEST_SERIALS.empty}\n${TEST_SERIALS.onboarded}\n` });
    for (const value of ['in progress', 'In Progress', 'inProgress', 'in-progress', 'no events', 'noEvents', 'failed, no events'])
      assert.equal(
        (await runOeInProcess(['check', 'cell.yaml', '--fail-on', value], { env: env(), cwd: dir })).code,
        1,
        `--fail-on '${value}'`,
      );
    assert.equal((await runOeInProcess(['check', 'cell.yaml', '--fail-on', 'failed,unknown'], { env: env(), cwd: dir })).code, 0);
    const german = await runOeInProcess(['check', 'cell.yaml', '--fail-on', 'failed'], {
      env: { ...env(), LANG: 'de_DE.UTF-8' },
      cwd: dir,
    });
    assert.equal(german.code, 0, 'English names work in every language');
  });

  it('--json writes the state names scripts read: inProgress and noEvents, as published', async () => {
    const dir = folder({ 'cell.yaml': `${TEST_SERIALS.started}\n${TEST_SERIALS.empty}\n` });
    const run = await runOeInProcess(['check', 'cell.yaml', '--json'], { env: env(), cwd: dir });
    const states = (JSON.parse(run.stdout) as { serialNumber: string; state: string }[]).map(({ serialNumber, state }) => [
      serialNumber,
      state,
    ]);
    assert.deepEqual(
      states.sort(),
      [
        [TEST_SERIALS.started, 'inProgress'],
        [TEST_SERIALS.empty, 'noEvents'],
      ].sort(),
    );
  });
});
