// oe watch against the fake API, with the folder's watch.firstIntervalSeconds
// at 1 so the extension's schedule runs in seconds: each exit code (0
// onboarded, 1 failed, 2 timed out, 3 could not poll) and their order with
// several machines, an outcome from before the watch answered at once (or,
// with --next, waited past), a timeout that bounds a request that hangs, and
// no progress when stderr is no terminal.
import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeEvent, startFakeApi, TEST_SERIALS, type FakeApi } from '../../support/fakeApi';
import { signedInEnv, tempFolder } from '../../support/cli/runOe';
import { runOeInProcess } from '../../support/cli/testIo';

function rig(): string {
  const dir = tempFolder('rig');
  mkdirSync(join(dir, '.vscode'));
  writeFileSync(join(dir, '.vscode', 'settings.json'), JSON.stringify({ 'onboardingEvents.watch.firstIntervalSeconds': 1 }));
  return dir;
}

const FAILED = 'FLR-2000-D0001';

const later = (type: string, message: string): Record<string, unknown> => makeEvent({ type, message, timestamp: Date.now() });

describe('oe watch', function () {
  this.timeout(60_000);
  let api: FakeApi | undefined;
  beforeEach(async () => {
    api = await startFakeApi();
  });
  afterEach(async () => {
    await api?.close();
  });
  const env = (): Record<string, string> => {
    assert.ok(api !== undefined);
    return signedInEnv(api);
  };

  it('exit 0 at once for a machine already onboarded, with its outcome on stdout', async () => {
    const run = await runOeInProcess(['watch', TEST_SERIALS.onboarded], { env: env(), cwd: rig() });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, 'MX-4711-A0023  onboarded  ONBOARDING_COMPLETED 2025-01-15T08:02:00.000Z  took 2 min  Onboarding completed\n');
    assert.equal(api?.eventRequests(TEST_SERIALS.onboarded).length, 1);
  });

  it('exit 0 when the machine onboards while watched; no progress on a stderr that is no terminal', async () => {
    const running = runOeInProcess(['watch', TEST_SERIALS.started, '--timeout', '30s'], { env: env(), cwd: rig() });
    setTimeout(() => api?.addEvent(TEST_SERIALS.started, later('ONBOARDING_COMPLETED', 'done')), 1500);
    const run = await running;
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^KRP-0815-B0001 {2}onboarded {2}ONBOARDING_COMPLETED /);
    assert.equal(run.stderr, '');
    const polls = api?.eventRequests(TEST_SERIALS.started).length ?? 0;
    assert.ok(polls >= 2 && polls <= 4, `polled on the schedule (first after 1 s, then ×1.5): ${polls}`);
  });

  it('exit 1 at once for a machine that failed before the watch, saying when', async () => {
    assert.ok(api !== undefined);
    api.setMachineEvents(TEST_SERIALS.started, [makeEvent({ type: 'ONBOARDING_FAILED', message: 'old', timestamp: Date.UTC(2025, 0, 1) })]);
    const started = Date.now();
    const run = await runOeInProcess(['watch', TEST_SERIALS.started, '--timeout', '20s'], { env: env(), cwd: rig() });
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.equal(run.stdout, 'KRP-0815-B0001  failed  ONBOARDING_FAILED 2025-01-01T00:00:00.000Z  took 0 ms  old\n');
    assert.ok(Date.now() - started < 10_000, 'answered at once, not at the timeout');
    assert.equal(api.eventRequests(TEST_SERIALS.started).length, 1);
  });

  it('--next: an outcome from before the watch does not count; exit 1 when the retry fails', async () => {
    assert.ok(api !== undefined);
    api.setMachineEvents(TEST_SERIALS.started, [makeEvent({ type: 'ONBOARDING_FAILED', message: 'old', timestamp: Date.UTC(2025, 0, 1) })]);
    const running = runOeInProcess(['watch', TEST_SERIALS.started, '--next', '--timeout', '30s'], { env: env(), cwd: rig() });
    setTimeout(() => api?.addEvent(TEST_SERIALS.started, later('ONBOARDING_STARTED', 'retry')), 1200);
    setTimeout(() => api?.addEvent(TEST_SERIALS.started, later('ONBOARDING_FAILED', 'again: no certificate')), 2600);
    const run = await running;
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stdout, /^KRP-0815-B0001 {2}failed {2}ONBOARDING_FAILED .* again: no certificate\n$/);
  });

  it('--next: a machine onboarded before the watch is watched until the timeout (exit 2)', async () => {
    const run = await runOeInProcess(['watch', TEST_SERIALS.onboarded, '--next', '--timeout', '2s'], { env: env(), cwd: rig() });
    assert.equal(run.code, 2, run.stdout + run.stderr);
    assert.match(run.stdout, /^MX-4711-A0023 {2}timed out {2}ONBOARDING_COMPLETED /);
  });

  it('--timeout bounds a request that hangs: exit 3 when the timeout passes, saying the API had not answered', async () => {
    assert.ok(api !== undefined);
    api.addFault({ endpoint: 'events', kind: 'latency', ms: 60_000 });
    const started = Date.now();
    const run = await runOeInProcess(['watch', TEST_SERIALS.started, '--timeout', '3s'], { env: env(), cwd: rig(), timeoutMs: 20_000 });
    assert.equal(run.code, 3, run.stdout + run.stderr);
    assert.ok(Date.now() - started < 8_000, `ended ${Date.now() - started} ms after the start`);
    assert.equal(run.stdout, 'KRP-0815-B0001  could not poll\n');
    assert.match(run.stderr, /^oe watch: KRP-0815-B0001: The API had not answered when the timeout passed\.\n$/);
  });

  it('exit 2 when the timeout passes first', async () => {
    const started = Date.now();
    const run = await runOeInProcess(['watch', TEST_SERIALS.started, '--timeout', '2s'], { env: env(), cwd: rig() });
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stdout, /^KRP-0815-B0001 {2}timed out {2}ONBOARDING_STARTED /);
    assert.ok(Date.now() - started < 10_000);
  });

  it('exit 3 when it could not poll: refused credentials at once, an unreachable API by the timeout', async () => {
    const refused = await runOeInProcess(['watch', TEST_SERIALS.started], { env: { ...env(), OE_PASSWORD: 'wrong' }, cwd: rig() });
    assert.equal(refused.code, 3);
    assert.match(refused.stdout, /^KRP-0815-B0001 {2}could not poll\n$/);
    assert.match(refused.stderr, /The API rejected the credentials/);
    assert.ok(api !== undefined);
    api.addFault({ endpoint: 'events', kind: 'status', status: 503 });
    const down = await runOeInProcess(['watch', TEST_SERIALS.started, '--timeout', '3s'], { env: env(), cwd: rig() });
    assert.equal(down.code, 3, down.stdout + down.stderr);
    assert.match(down.stdout, /could not poll/);
  });

  it('several machines: 1 when any failed, else 3 when one could not be polled, else 2 when one timed out', async () => {
    assert.ok(api !== undefined);
    api.setMachineEvents(FAILED, [makeEvent({ type: 'ONBOARDING_FAILED', message: 'no certificate', timestamp: Date.UTC(2025, 0, 3) })]);
    api.addFault({ endpoint: 'events', serialNumber: TEST_SERIALS.empty, kind: 'status', status: 503 });
    const watch = (...serials: string[]): Promise<number | null> =>
      runOeInProcess(['watch', ...serials, '--timeout', '3s'], { env: env(), cwd: rig() }).then((run) => run.code);
    assert.equal(await watch(TEST_SERIALS.started, TEST_SERIALS.empty, FAILED, TEST_SERIALS.onboarded), 1);
    assert.equal(await watch(TEST_SERIALS.started, TEST_SERIALS.empty, TEST_SERIALS.onboarded), 3);
    assert.equal(await watch(TEST_SERIALS.started, TEST_SERIALS.onboarded), 2);
  });

  it('several machines: 1 when any failed, though another onboarded', async () => {
    assert.ok(api !== undefined);
    api.setMachineEvents(TEST_SERIALS.empty, [later('ONBOARDING_STARTED', 'go')]);
    const running = runOeInProcess(['watch', TEST_SERIALS.onboarded, TEST_SERIALS.empty, TEST_SERIALS.onboarded], {
      env: env(),
      cwd: rig(),
    });
    setTimeout(() => api?.addEvent(TEST_SERIALS.empty, later('ONBOARDING_ABORTED', 'stopped')), 1200);
    const run = await running;
    assert.equal(run.code, 1);
    assert.equal(run.stdout.trimEnd().split('\n').length, 2, 'each machine once');
  });
});
