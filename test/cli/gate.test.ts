// What oe check's verdict means, observed on the built oe against the fake
// API: a pass says every machine found was read and none is in a state
// --fail-on counts. Whatever was not checked (a machine the API could not be
// asked about, a file too large to scan, a folder over its file limit, more
// machines than one run reads) fails it unless --allow-unchecked says
// otherwise; no serial number of a file is left out by a cap; --fail-on
// takes the table's words and refuses what names no state.
import * as assert from 'node:assert/strict';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeEvent, startFakeApi, TEST_SERIALS, type FakeApi } from '../support/fakeApi';
import { runOe, signedInEnv, tempFolder } from '../support/cli/runOe';

const FAILED = 'FLR-2000-D0001';

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
    const run = await runOe(['check', 'line.txt'], { env: env(), cwd: dir });
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(run.stdout, new RegExp(`^failed +${FAILED} +line\\.txt:1501 `, 'm'));
    assert.equal(api?.eventRequests(FAILED).length, 1);
  });

  it('the same machine under several paths and files: one request, each place once', async () => {
    const dir = folder({ 'a/cell.yaml': `- ${TEST_SERIALS.onboarded}\n`, 'b/cell.yaml': `\n- ${TEST_SERIALS.onboarded}\n` });
    const run = await runOe(['check', 'a', 'a/cell.yaml', 'b', './b/cell.yaml', '.'], { env: env(), cwd: dir });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(api?.eventRequests(TEST_SERIALS.onboarded).length, 1, 'one request for the machine');
    assert.match(run.stdout, new RegExp(`^onboarded +${TEST_SERIALS.onboarded} +a/cell\\.yaml:1 \\(\\+1\\) `, 'm'));
    const json = await runOe(['check', 'a', 'a/cell.yaml', 'b', '--json'], { env: env(), cwd: dir });
    const [machine] = JSON.parse(json.stdout) as { locations: string[] }[];
    assert.deepEqual(machine?.locations, ['a/cell.yaml:1', 'b/cell.yaml:2']);
  });

  it('a file too large to scan is not checked: exit 3 naming it; --allow-unchecked passes and still names it', async () => {
    const dir = folder({ 'ok.yaml': `${TEST_SERIALS.onboarded}\n`, 'big.log': `${FAILED}\n${'x'.repeat(2 * 1024 * 1024)}\n` });
    const run = await runOe(['check', 'ok.yaml', 'big.log', '--junit', 'report.xml'], { env: env(), cwd: dir });
    assert.equal(run.code, 3, run.stdout + run.stderr);
    assert.match(run.stderr, /^oe check: big\.log is larger than 1 MB and was not checked/m);
    assert.match(run.stderr, /^oe check: Not everything was checked \(see above\), so the check fails; --allow-unchecked lets it pass\.$/m);
    // A dashboard that reads only the report is not greener than the exit code.
    const report = readFileSync(join(dir, 'report.xml'), 'utf8');
    assert.match(report, /tests="2" failures="0" errors="1"/);
    assert.match(report, /<error message="big\.log is larger than 1 MB and was not checked\." type="notChecked">/);
    const allowed = await runOe(['check', 'ok.yaml', 'big.log', '--allow-unchecked', '--junit', 'report.xml'], { env: env(), cwd: dir });
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.match(allowed.stderr, /big\.log is larger than 1 MB/);
    assert.match(allowed.stderr, /Not everything was checked; --allow-unchecked lets the check pass\./);
    assert.match(readFileSync(join(dir, 'report.xml'), 'utf8'), /<skipped message="big\.log is larger than 1 MB and was not checked\."\/>/);
  });

  it('a link in a scanned folder: read when it stays in the folder; one leading out is not checked (exit 3) unless --follow-symlinks', async () => {
    const outside = folder({ 'other.yaml': `${FAILED}\n` });
    const dir = folder({ 'line/ok.yaml': `${TEST_SERIALS.onboarded}\n`, 'line/moved.yaml': `${TEST_SERIALS.onboarded}\n` });
    symlinkSync('moved.yaml', join(dir, 'line', 'alias.yaml'));
    const inside = await runOe(['check', 'line'], { env: env(), cwd: dir });
    assert.equal(inside.code, 0, inside.stdout + inside.stderr);
    assert.match(inside.stdout, /line\/alias\.yaml:1 \(\+2\)/);
    symlinkSync(join(outside, 'other.yaml'), join(dir, 'line', 'planted.yaml'));
    const out = await runOe(['check', 'line'], { env: env(), cwd: dir });
    assert.equal(out.code, 3, out.stdout + out.stderr);
    assert.match(
      out.stderr,
      /^oe check: line\/planted\.yaml is a symbolic link out of the folder and was not checked; --follow-symlinks follows it\.$/m,
    );
    assert.equal(api?.eventRequests(FAILED).length, 0, 'nothing behind the link was sent');
    const followed = await runOe(['check', 'line', '--follow-symlinks'], { env: env(), cwd: dir });
    assert.equal(followed.code, 1, followed.stdout + followed.stderr);
  });

  it("a folder over the folder's file limit (workspaceScan.maxFiles) is not checked: exit 3", async () => {
    const dir = folder(
      { 'line/a.yaml': `${TEST_SERIALS.onboarded}\n`, 'line/b.yaml': `${FAILED}\n` },
      { 'onboardingEvents.workspaceScan.maxFiles': 1 },
    );
    const run = await runOe(['check', 'line'], { env: env(), cwd: dir });
    assert.equal(run.code, 3, run.stdout + run.stderr);
    assert.match(run.stderr, /has more than 1 files to scan \(onboardingEvents\.workspaceScan\.maxFiles\)/);
    assert.equal((await runOe(['check', 'line', '--allow-unchecked'], { env: env(), cwd: dir })).code, 0);
  });

  it('a machine the API could not be asked about is not checked, whatever --fail-on counts; --allow-unchecked passes', async () => {
    assert.ok(api !== undefined);
    api.addFault({ endpoint: 'events', serialNumber: TEST_SERIALS.started, kind: 'status', status: 503 });
    const dir = folder({ 'cell.yaml': `${TEST_SERIALS.onboarded}\n${TEST_SERIALS.started}\n` });
    const run = await runOe(['check', 'cell.yaml', '--fail-on', 'failed'], { env: env(), cwd: dir });
    assert.equal(run.code, 3, run.stdout + run.stderr);
    assert.match(run.stderr, /2 machines, 0 failing the check, 1 not read\./);
    const allowed = await runOe(['check', 'cell.yaml', '--fail-on', 'failed', '--allow-unchecked'], { env: env(), cwd: dir });
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.match(allowed.stdout, new RegExp(`^unavailable +${TEST_SERIALS.started} `, 'm'));
  });

  it('more machines than one run reads (10,000): those beyond are not checked, exit 3; no more requests than the limit', async () => {
    const many = serials(10_001);
    const dir = folder({ 'fleet.txt': many.join('\n') });
    const run = await runOe(['check', 'fleet.txt', '--fail-on', 'failed'], { env: env(), cwd: dir });
    assert.equal(run.code, 3, run.stderr);
    assert.match(run.stderr, /10001 serial numbers found, more than the 10000 machines oe check reads in one run/);
    assert.ok(api !== undefined);
    assert.equal(api.eventRequests(many[10_000] ?? '').length, 0, 'the last one is not asked for');
    assert.equal(api.eventRequests(many[9_999] ?? '').length, 1, 'the 10,000th is');
  });

  it('--fail-on: an empty list (an unset variable) or an empty or unknown state is bad input, exit 64, nothing sent', async () => {
    const dir = folder({ 'cell.yaml': `${FAILED}\n` });
    for (const value of ['', ' ', 'failed,', ',failed', 'failed,,unknown', 'onboarded', 'unavailable', 'broken']) {
      const run = await runOe(['check', 'cell.yaml', '--fail-on', value], { env: env(), cwd: dir });
      assert.equal(run.code, 64, `--fail-on '${value}': ${run.stderr}`);
      assert.match(run.stderr, /^oe check: --fail-on /);
    }
    const empty = await runOe(['check', 'cell.yaml', '--fail-on='], { env: env(), cwd: dir });
    assert.equal(empty.code, 64);
    assert.match(empty.stderr, /--fail-on names no state: give one or more of "failed", "unknown", "in progress", "no events"/);
    assert.equal(api?.tokenRequests().length, 0, 'bad input sends nothing');
  });

  it('--fail-on takes the states as the table writes them ("in progress", "no events") and in camelCase', async () => {
    const dir = folder({ 'cell.yaml': `${TEST_SERIALS.started}\n${TEST_SERIALS.empty}\n${TEST_SERIALS.onboarded}\n` });
    for (const value of ['in progress', 'In Progress', 'inProgress', 'in-progress', 'no events', 'noEvents', 'failed, no events'])
      assert.equal((await runOe(['check', 'cell.yaml', '--fail-on', value], { env: env(), cwd: dir })).code, 1, `--fail-on '${value}'`);
    assert.equal((await runOe(['check', 'cell.yaml', '--fail-on', 'failed,unknown'], { env: env(), cwd: dir })).code, 0);
    const german = await runOe(['check', 'cell.yaml', '--fail-on', 'failed'], { env: { ...env(), LANG: 'de_DE.UTF-8' }, cwd: dir });
    assert.equal(german.code, 0, 'English names work in every language');
  });
});
