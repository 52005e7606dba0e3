// oe events in this process against the fake API: the table, --json (the
// extension's export format), --ndjson, --since and the forms it takes,
// --password-stdin, --ca-file, the exit codes, a table of 130,000 events, and
// server text that cannot drive the terminal.
import * as assert from 'node:assert/strict';
import { makeEvent, startFakeApi, TEST_CREDENTIALS, TEST_SERIALS, type FakeApi } from '../../support/fakeApi';
import { signedInEnv, type OeRun } from '../../support/cli/runOe';
import { runOeInProcess } from '../../support/cli/testIo';

describe('oe events', function () {
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

  it('a table of the events, newest first, exit 0', async () => {
    const run = await runOeInProcess(['events', TEST_SERIALS.onboarded], { env: env() });
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout.trimEnd().split('\n');
    assert.equal(lines.length, 4);
    assert.match(lines[1] ?? '', /^2025-01-15T08:02:00\.000Z +ONBOARDING_COMPLETED +Onboarding completed$/);
    assert.match(
      lines[2] ?? '',
      /^2025-01-15T08:01:00\.000Z +MACHINE_CREATED +3f2b8c1e-7a4d-4e4b-9a6f-1c2d3e4f5a6b +Machine asset created$/,
    );
    assert.equal(api?.eventRequests(TEST_SERIALS.onboarded).length, 1);
  });

  it('--json: the export document with the events as sent; --ndjson: one event per line', async () => {
    const json = await runOeInProcess(['events', TEST_SERIALS.onboarded, '--json'], { env: env() });
    assert.equal(json.code, 0, json.stderr);
    const document = JSON.parse(json.stdout) as { serialNumber: string; count: number; events: { type: string }[] };
    assert.equal(document.serialNumber, TEST_SERIALS.onboarded);
    assert.equal(document.count, 3);
    assert.deepEqual(
      document.events.map((event) => event.type),
      ['ONBOARDING_COMPLETED', 'MACHINE_CREATED', 'ONBOARDING_STARTED'],
    );
    const ndjson = await runOeInProcess(['events', TEST_SERIALS.onboarded, '--ndjson'], { env: env() });
    assert.equal(ndjson.code, 0);
    const lines = ndjson.stdout.trimEnd().split('\n');
    assert.equal(lines.length, 3);
    assert.equal((JSON.parse(lines[2] ?? '') as { type: string }).type, 'ONBOARDING_STARTED');
    const both = await runOeInProcess(['events', TEST_SERIALS.onboarded, '--ndjson', '--json'], { env: env() });
    assert.equal(both.code, 64);
  });

  it('--since keeps the events at or after the time (a date or a duration back from now)', async () => {
    const run = await runOeInProcess(['events', TEST_SERIALS.onboarded, '--ndjson', '--since', '2025-01-15T08:01:00Z'], { env: env() });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout.trimEnd().split('\n').length, 2);
    const recent = await runOeInProcess(['events', TEST_SERIALS.onboarded, '--ndjson', '--since', '2h'], { env: env() });
    assert.equal(recent.code, 0);
    assert.equal(recent.stdout, '', 'the events of 2025 are older than two hours');
    const bad = await runOeInProcess(['events', TEST_SERIALS.onboarded, '--since', 'yesterday-ish'], { env: env() });
    assert.equal(bad.code, 64);
    assert.match(bad.stderr, /--since takes a date such as 2025-01-31 or 2025-01-31T08:00Z, or a duration back from now/);
  });

  it('--password-stdin reads the password from a pipe', async () => {
    const run = await runOeInProcess(['events', TEST_SERIALS.started, '--password-stdin'], {
      env: { ...env(), OE_PASSWORD: undefined },
      stdin: `${TEST_CREDENTIALS.password}\n`,
    });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /ONBOARDING_STARTED/);
  });

  it('no events: nothing on stdout, a note on stderr, exit 0; the API unreachable: exit 3 with the reason', async () => {
    const empty = await runOeInProcess(['events', TEST_SERIALS.empty], { env: env() });
    assert.equal(empty.code, 0);
    assert.equal(empty.stdout, '');
    assert.match(empty.stderr, /No events for TBL-1000-C0000\./);
    const port = api?.port;
    await api?.close();
    const down = await runOeInProcess(['events', TEST_SERIALS.onboarded], { env: { ...env(), OE_API_URL: `http://127.0.0.1:${port}` } });
    assert.equal(down.code, 3);
    assert.match(down.stderr, /^oe events: .*127\.0\.0\.1/);
    api = await startFakeApi();
  });

  it("server text cannot drive the terminal: the server's escape sequences never reach stdout", async () => {
    assert.ok(api !== undefined);
    api.setMachineEvents(TEST_SERIALS.started, [
      makeEvent({ type: 'STEP\u001b[2J', message: 'cleared\u001b]0;pwned\u0007 \u009b31m red', timestamp: Date.UTC(2025, 0, 1) }),
    ]);
    const run = await runOeInProcess(['events', TEST_SERIALS.started], { env: env() });
    assert.equal(run.code, 0, run.stderr);
    for (const control of ['\u001b', '\u0007', '\u009b'])
      assert.ok(!run.stdout.includes(control), `no ${JSON.stringify(control)} in ${JSON.stringify(run.stdout)}`);
    assert.match(run.stdout, /STEP\[2J/);
  });
});

describe('oe: exit codes and inputs by the conventions', function () {
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

  it('a --ca-file that is not there is bad input: exit 64 naming it, before any request', async () => {
    const run = await runOeInProcess(['events', TEST_SERIALS.onboarded, '--ca-file', 'no-such-ca.pem'], { env: env() });
    assert.equal(run.code, 64, run.stderr);
    assert.match(run.stderr, /^oe events: --ca-file: Cannot read no-such-ca\.pem: ENOENT\n/);
    assert.equal(api?.tokenRequests().length, 0);
  });

  it('--since takes only the forms its help names: a bare number or a time without its zone is bad input', async () => {
    const since = (value: string): Promise<OeRun> =>
      runOeInProcess(['events', TEST_SERIALS.onboarded, '--ndjson', '--since', value], { env: env() });
    for (const value of ['5', '2025', '2025-01', '2025-02-30', '2025-01-15T25:00Z', 'Jan 15 2025', '15.01.2025']) {
      const run = await since(value);
      assert.equal(run.code, 64, `--since ${value}: ${run.stdout}`);
      assert.match(run.stderr, /--since takes a date such as 2025-01-31 or 2025-01-31T08:00Z, or a duration back from now/);
    }
    const local = await since('2025-01-15T08:01');
    assert.equal(local.code, 64);
    assert.match(local.stderr, /--since 2025-01-15T08:01 has no time zone: add Z for UTC/);
    // The machine's events are at 08:00, 08:01 and 08:02 UTC.
    const count = async (value: string): Promise<number> => (await since(value)).stdout.trimEnd().split('\n').filter(Boolean).length;
    assert.equal(await count('2025-01-15T08:01Z'), 2);
    assert.equal(await count('2025-01-15T09:01+01:00'), 2);
    assert.equal(await count('2025-01-15T08:01:30.500Z'), 1);
    assert.equal(await count('2025-01-15'), 3, 'a day starts at midnight UTC');
    assert.equal(await count('2025-01-16'), 0);
  });

  it('a table of 130,000 events: every row, exit 0', async () => {
    assert.ok(api !== undefined);
    api.setMachineEvents(
      TEST_SERIALS.started,
      Array.from({ length: 130_000 }, (_, index) =>
        makeEvent({ type: 'STEP', message: 'step', timestamp: Date.UTC(2025, 0, 1) + index * 1000 }),
      ),
    );
    const run = await runOeInProcess(['events', TEST_SERIALS.started], { env: env() });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout.trimEnd().split('\n').length, 130_001, 'the header and every event');
  });
});
