// oe's JSON as a script meets it, in this process against the fake API: the real output of every command
// checked against its schema in docs/schemas (a field added or dropped without the schema fails), --json
// FIELDS and --jq as gh takes them, watch's NDJSON written as it happens, and data that LANG does not change.
import * as assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { runCli } from '../../../src/cli/cmd/root';
import { makeEvent, startFakeApi, TEST_SERIALS, type FakeApi } from '../../support/fakeApi';
import { ROOT, signedInEnv, tempFolder } from '../../support/cli/runOe';
import { runOeInProcess, testIo } from '../../support/cli/testIo';

interface Schema {
  readonly type: string;
  readonly properties?: Record<string, unknown>;
  readonly items?: { readonly properties: Record<string, unknown> };
}

function schemaOf(command: string): Schema {
  return JSON.parse(readFileSync(join(ROOT, 'docs', 'schemas', `oe-${command}.schema.json`), 'utf8')) as Schema;
}

/** The top-level fields the schema names (of each item for a list), schemaVersion aside. */
function schemaFields(schema: Schema): string[] {
  return Object.keys(schema.properties ?? schema.items?.properties ?? {})
    .filter((name) => name !== 'schemaVersion')
    .sort();
}

/** A folder with `cell.yaml` naming `serials`. */
function folder(serials: readonly string[]): string {
  const dir = tempFolder('json');
  writeFileSync(join(dir, 'cell.yaml'), `${serials.join('\n')}\n`);
  return dir;
}

describe('oe --json and --jq', function () {
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

  /** Each command's run with --json, and the JSON documents it wrote (NDJSON: one per line). */
  const RUNS: Record<string, { readonly args: () => string[]; readonly cwd?: () => string; readonly ndjson?: true }> = {
    events: { args: () => ['events', TEST_SERIALS.onboarded, '--since', '2025-01-01', '--json'] },
    check: { args: () => ['check', '--json', '--fail-on', 'failed', '.'], cwd: () => folder(Object.values(TEST_SERIALS)) },
    watch: { args: () => ['watch', TEST_SERIALS.onboarded, '--json'], ndjson: true },
    'test-connection': { args: () => ['test-connection', '--json'] },
    curl: { args: () => ['curl', TEST_SERIALS.onboarded, '--timestamp', '42', '--json'] },
  };

  for (const [command, run] of Object.entries(RUNS)) {
    it(`oe ${command} --json is what docs/schemas/oe-${command}.schema.json says, and --json lists the schema's fields`, async () => {
      const schema = schemaOf(command);
      const cwd = run.cwd?.();
      const result = await runOeInProcess(run.args(), { env: env(), ...(cwd === undefined ? {} : { cwd }) });
      assert.equal(result.code, 0, result.stderr);
      const documents = run.ndjson ? result.stdout.trimEnd().split('\n') : [result.stdout];
      // ajv-formats: the schemas' date-time fields are checked, not ignored.
      const validate = addFormats(new Ajv({ allErrors: true })).compile(schema);
      for (const document of documents) {
        const value = JSON.parse(document) as unknown;
        assert.ok(validate(value), `${command}: ${new Ajv().errorsText(validate.errors)}\n${document}`);
        const objects = Array.isArray(value) ? (value as unknown[]) : [value];
        assert.ok(objects.length > 0, 'something to check');
        for (const object of objects) assert.equal((object as { schemaVersion?: unknown }).schemaVersion, 1);
      }
      // The fields the command offers, as its usage error lists them, are the schema's: none added or dropped on one side.
      const unknown = await runOeInProcess([...run.args(), '--json', 'nosuch,serialNumber'], {
        env: env(),
        ...(cwd === undefined ? {} : { cwd }),
      });
      assert.equal(unknown.code, 64);
      const listed = /Unknown JSON field nosuch\. The fields are: ([^.]+)\./.exec(unknown.stderr)?.[1];
      assert.deepEqual(listed?.split(', ').sort(), schemaFields(schema), unknown.stderr);
    });
  }

  it('--json FIELDS keeps those fields and schemaVersion (of each machine for oe check); an unknown field is bad input, asked nothing', async () => {
    const events = await runOeInProcess(['events', TEST_SERIALS.onboarded, '--json', 'count,serialNumber'], { env: env() });
    assert.equal(events.code, 0, events.stderr);
    assert.deepEqual(JSON.parse(events.stdout), { schemaVersion: 1, serialNumber: TEST_SERIALS.onboarded, count: 3 });
    const dir = folder([TEST_SERIALS.started, TEST_SERIALS.empty]);
    // `--json .`: the path stays a path; `--json=state` is a field.
    const check = await runOeInProcess(['check', '--json', '.', '--json=state', '--fail-on', 'failed'], { env: env(), cwd: dir });
    assert.equal(check.code, 0, check.stderr);
    assert.deepEqual(JSON.parse(check.stdout), [
      { schemaVersion: 1, state: 'inProgress' },
      { schemaVersion: 1, state: 'noEvents' },
    ]);
    const requests = api?.eventRequests().length;
    const unknown = await runOeInProcess(['events', TEST_SERIALS.onboarded, '--json', 'serialNumber,evnts'], { env: env() });
    assert.equal(unknown.code, 64);
    assert.match(unknown.stderr, /Unknown JSON field evnts\. The fields are: serialNumber, exportedAt, fetchedAt, filter, count, events\./);
    assert.equal(api?.eventRequests().length, requests, 'bad input sends nothing');
    const mcp = await runOeInProcess(['mcp', '--json'], { env: env() });
    assert.equal(mcp.code, 64, 'oe mcp writes the MCP protocol: no --json');
  });

  it('--jq filters the JSON through jq: strings as text, other values as JSON, one per line', async () => {
    const types = await runOeInProcess(['events', TEST_SERIALS.onboarded, '--jq', '.events[].type'], { env: env() });
    assert.equal(types.code, 0, types.stderr);
    assert.equal(types.stdout, 'ONBOARDING_COMPLETED\nMACHINE_CREATED\nONBOARDING_STARTED\n');
    const dir = folder(Object.values(TEST_SERIALS));
    const waiting = await runOeInProcess(
      ['check', '.', '--fail-on', 'failed', '--jq', '[.[] | select(.state != "onboarded") | .serialNumber]'],
      {
        env: env(),
        cwd: dir,
      },
    );
    assert.equal(waiting.code, 0, waiting.stderr);
    assert.equal(waiting.stdout, `${JSON.stringify([TEST_SERIALS.started, TEST_SERIALS.empty].sort())}\n`);
    // Server text that would drive a terminal stays escaped in a string result.
    api?.setMachineEvents(TEST_SERIALS.started, [
      makeEvent({ type: 'X', message: 'red \u001b[31m\u202e', timestamp: Date.UTC(2025, 0, 1) }),
    ]);
    const message = await runOeInProcess(['events', TEST_SERIALS.started, '--jq', '.events[0].message'], { env: env() });
    assert.equal(message.stdout, 'red \\u001b[31m\\u202e\n');
  });

  it("a jq error is bad input (exit 64) with jq's message", async () => {
    const syntax = await runOeInProcess(['events', TEST_SERIALS.onboarded, '--jq', '.events[]['], { env: env() });
    assert.equal(syntax.code, 64);
    assert.match(syntax.stderr, /^oe events: error: syntax error, unexpected end of file/m);
    assert.match(syntax.stderr, /Run 'oe events --help' for its usage\./);
    const runtime = await runOeInProcess(['events', TEST_SERIALS.onboarded, '--jq', '.count | error("too few")'], { env: env() });
    assert.equal(runtime.code, 64);
    assert.match(runtime.stderr, /too few/);
    assert.equal(runtime.stdout, '');
  });

  it('a --jq expression that never ends holds no run: Ctrl-C ends it at once (exit 130)', async () => {
    const dir = tempFolder('loop');
    const { io } = testIo({ env: { PATH: process.env['PATH'] ?? '', HOME: dir, ...env() }, cwd: dir });
    const abort = new AbortController();
    const running = runCli(['events', TEST_SERIALS.onboarded, '--jq', 'last(repeat(1))'], io, abort.signal);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const stopped = Date.now();
    abort.abort('SIGINT');
    assert.equal(await running, 130);
    assert.ok(Date.now() - stopped < 1000, `ended ${Date.now() - stopped} ms after Ctrl-C`);
  });

  it('oe watch --json writes NDJSON as it happens: the new event, then the result, each when it comes', async () => {
    const dir = tempFolder('rig');
    writeFileSync(join(dir, 'cell.yaml'), '');
    mkdirSync(join(dir, '.vscode'));
    writeFileSync(join(dir, '.vscode', 'settings.json'), JSON.stringify({ 'onboardingEvents.watch.firstIntervalSeconds': 1 }));
    const { io, stdout } = testIo({ env: { PATH: process.env['PATH'] ?? '', HOME: dir, ...env() }, cwd: dir });
    const running = runCli(['watch', TEST_SERIALS.started, '--json', '--timeout', '30s'], io, new AbortController().signal);
    await new Promise((resolve) => setTimeout(resolve, 500));
    // Before the machine has an outcome, its first event is already on stdout.
    assert.match(stdout(), /^\{[^\n]+\}\n$/, 'one line, the first event, before the machine has an outcome');
    assert.deepEqual(JSON.parse(stdout()), {
      schemaVersion: 1,
      kind: 'event',
      serialNumber: TEST_SERIALS.started,
      type: 'ONBOARDING_STARTED',
      time: '2025-01-15T09:00:00.000Z',
    });
    api?.addEvent(TEST_SERIALS.started, makeEvent({ type: 'ONBOARDING_COMPLETED', message: 'done', timestamp: Date.UTC(2025, 0, 15, 10) }));
    assert.equal(await running, 0);
    const lines = stdout()
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.deepEqual(
      lines.map((line) => [line['kind'], line['type'], line['result']]),
      [
        ['event', 'ONBOARDING_STARTED', undefined],
        ['event', 'ONBOARDING_COMPLETED', undefined],
        ['result', 'ONBOARDING_COMPLETED', 'onboarded'],
      ],
    );
    assert.equal(lines[2]?.['tookMs'], 3_600_000);
  });

  it("LANG changes the messages, never the data: watch's stdout, the JUnit report and test-connection --json", async () => {
    const german = { LANG: 'de_DE.UTF-8' };
    const dir = folder([TEST_SERIALS.onboarded, TEST_SERIALS.started]);
    const runs = async (lang: Record<string, string>) => ({
      watch: await runOeInProcess(['watch', TEST_SERIALS.onboarded], { env: { ...env(), ...lang }, cwd: dir }),
      check: await runOeInProcess(['check', 'cell.yaml', '--junit', `junit-${lang['LANG'] ?? 'en'}.xml`], {
        env: { ...env(), ...lang },
        cwd: dir,
      }),
      connection: await runOeInProcess(['test-connection', '--json'], { env: { ...env(), ...lang } }),
    });
    const en = await runs({});
    const de = await runs(german);
    assert.equal(de.watch.stdout, en.watch.stdout);
    assert.match(de.check.stderr, /Maschinen/, 'the messages are German');
    const junit = (name: string): string =>
      readFileSync(join(dir, name), 'utf8')
        .replace(/ time="[\d.]+"/g, '')
        .replace(/ timestamp="[^"]+"/, '');
    assert.equal(junit('junit-de_DE.UTF-8.xml'), junit('junit-en.xml'));
    assert.match(junit('junit-en.xml'), /<failure message="in progress" type="in-progress">/);
    const words = (text: string): unknown => {
      const { stages, ...rest } = JSON.parse(text) as { startedAt: string; stages: { durationMs: unknown }[] };
      return {
        ...rest,
        startedAt: typeof rest.startedAt,
        stages: stages.map((stage) => ({ ...stage, durationMs: typeof stage.durationMs })),
      };
    };
    assert.deepEqual(words(de.connection.stdout), words(en.connection.stdout));
  });
});
