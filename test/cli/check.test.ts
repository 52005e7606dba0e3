// oe check against the fake API: the serial numbers of files and folders
// found with the editor's rules and the folder's .vscode/settings.json, one
// request per distinct serial number, the exit codes and --fail-on, and the
// JUnit report read back by a real JUnit consumer (test-results-parser, the
// parser behind testbeats, which publishes JUnit results to dashboards): it
// checks what a CI dashboard makes of the file (totals, each case's status
// and message), where a schema check would say only that the shape is legal.
import * as assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'test-results-parser';
import { makeEvent, startFakeApi, TEST_SERIALS, type FakeApi } from '../support/fakeApi';
import { runOe, signedInEnv, tempFolder } from '../support/cli/runOe';

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
    const run = await runOe(['check', '.'], { env: env(), cwd: dir });
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
    const inProgressOnly = await runOe(['check', join(dir, 'line1', 'cell.yaml'), '--fail-on', 'failed'], { env: env(), cwd: dir });
    assert.equal(inProgressOnly.code, 0, inProgressOnly.stdout);
    const withFailed = await runOe(['check', 'line1', '--fail-on', 'failed'], { env: env(), cwd: dir });
    assert.equal(withFailed.code, 1);
    const wrong = await runOe(['check', 'line1', '--fail-on', 'broken'], { env: env(), cwd: dir });
    assert.equal(wrong.code, 64);
    assert.match(wrong.stderr, /--fail-on takes a comma-separated list of "failed", "unknown", "in progress", "no events", not "broken"\./);
  });

  it('one machine is counted in the singular', async () => {
    const dir = configuration();
    writeFileSync(join(dir, 'one.yaml'), `machine: ${FAILED}\n`);
    const run = await runOe(['check', 'one.yaml'], { env: env(), cwd: dir });
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /^oe check: 1 machine, 1 failing the check, 0 not read\.$/m);
  });

  it('--junit FILE: read back by a JUnit consumer, one case per machine, the failures with their state and newest event', async () => {
    const dir = configuration();
    const run = await runOe(['check', '.', '--junit', 'report/../oe-check.xml'], { env: env(), cwd: dir });
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
    const run = await runOe(['check', 'line1/cell.yaml', '--junit', 'out.xml'], { env: env(), cwd: dir });
    assert.equal(run.code, 3, run.stdout + run.stderr);
    assert.match(run.stderr, /2 machines, 0 failing the check, 1 not read\./);
    const xml = readFileSync(join(dir, 'out.xml'), 'utf8');
    assert.match(xml, /<error message="[^"]*500[^"]*" type="server">/);
    assert.equal(parse({ type: 'junit', files: [join(dir, 'out.xml')] }).errors, 1);
  });

  it('refused credentials: the one message of the extension, exit 3, not one per machine', async () => {
    const dir = configuration();
    const run = await runOe(['check', '.'], { env: { ...env(), OE_PASSWORD: 'wrong' }, cwd: dir });
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
    const run = await runOe(['check', dir], { env: env(), cwd: dir });
    assert.equal(run.code, 0);
    assert.match(run.stderr, /No serial numbers found\./);
    assert.equal(api?.tokenRequests().length, 0);
    const missing = await runOe(['check', dir, join(dir, 'gone.yaml')], { env: env(), cwd: dir });
    assert.equal(missing.code, 64);
    assert.match(missing.stderr, /Cannot read .*gone\.yaml: ENOENT/);
  });

  it('a rate-limited API: the client waits out Retry-After and reads every machine (its back-off, not a failure)', async () => {
    assert.ok(api !== undefined);
    api.addFault({ endpoint: 'events', serialNumber: FAILED, kind: 'rateLimit', retryAfter: 1, times: 1 });
    const dir = configuration();
    const run = await runOe(['check', '.', '--fail-on', 'inProgress'], { env: env(), cwd: dir });
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stdout, new RegExp(`failed +${FAILED}`));
    assert.equal(api.eventRequests(FAILED).length, 2, 'the 429 and its retry');
  });
});
