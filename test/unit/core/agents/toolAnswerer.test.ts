// The one agent-tool answerer as both programs build it: VS Code's (windowProgram, with a watch list and
// the sign-in command) and oe mcp's (oeToolProgram: its environment variables, its working folder, no watch
// list), each with its own cache against the same fake API on 127.0.0.1. The same input must give the same
// text but for what the program tells the agent to do.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { oeToolProgram } from '../../../../src/cli/cmd/mcp';
import { createContext } from '../../../../src/cli/cliSession';
import type { CliIo, ParsedArgs } from '../../../../src/cli/cliCommand';
import { ToolAnswerer } from '../../../../src/core/agents/toolAnswerer';
import { EXTENSION_INSTRUCTIONS } from '../../../../src/core/agents/mcpServer';
import { OnboardingClient } from '../../../../src/core/client/onboardingClient';
import { plainLocalize } from '../../../../src/core/common/localize';
import { AGENT_TOOL_NAMES } from '../../../../src/core/domain/agentTools/toolDefinitions';
import { readSettings } from '../../../../src/core/domain/settings/settingsRules';
import type { WatchSummary } from '../../../../src/core/domain/watch/watchRules';
import { CachedLineHistory } from '../../../../src/core/eventsCache/cachedLineHistory';
import { EventsCache } from '../../../../src/core/eventsCache/eventsCache';
import type { SessionState } from '../../../../src/core/domain/session/sessionState';
import { windowProgram } from '../../../../src/extension/agentTools/windowProgram';
import { DEMO_CREDENTIALS, DEMO_SERIALS, demoData, startFakeApi, type FakeApi } from '../../../support/fakeApi';
import { DEMO_LINE4_SERIALS } from '../../../support/fakeApi/demoData';

const SETTINGS = readSettings(() => undefined);
const NOTHING_STORED: AsyncIterable<never> = {
  [Symbol.asyncIterator]: () => ({ next: () => Promise.resolve({ done: true, value: undefined }) }),
};
/** VS Code's remedy in a summary when nothing is watched: oe mcp keeps no watch list, so it has none. */
const WATCH_REMEDY = ' No machine is being watched in this environment (onboardingEvents_watchOnboarding starts a watch).';
const NO_ARGS: ParsedArgs = { values: {}, positionals: [] };

/** Fetch times differ by the milliseconds between the two programs' requests: the rest must not. */
const sameTimes = (text: string): string => text.replace(/fetched \S+ \([^)]*\)/g, 'fetched <time>');

describe('the one agent-tool answerer: VS Code and oe mcp give the same text', () => {
  let api: FakeApi;
  let dir: string;
  const ends: (() => void)[] = [];

  before(async () => {
    api = await startFakeApi({ data: demoData() });
  });
  after(async () => {
    await api.close();
  });
  beforeEach(() => {
    api.clearRequests();
    dir = mkdtempSync(join(tmpdir(), 'oe-answerer-'));
  });
  afterEach(() => {
    for (const end of ends.splice(0)) end();
    rmSync(dir, { recursive: true, force: true });
  });

  const environment = (): Record<string, string> => ({
    OE_API_URL: api.baseUrl,
    OE_AUTH_URL: api.authUrl,
    OE_CLIENT_ID: DEMO_CREDENTIALS.clientId,
    OE_CLIENT_SECRET: DEMO_CREDENTIALS.clientSecret,
    OE_USERNAME: DEMO_CREDENTIALS.username,
    OE_PASSWORD: DEMO_CREDENTIALS.password,
  });

  /** oe mcp's answerer, started in `dir` with `env`, as its command builds it. */
  function oe(env: Record<string, string>): ToolAnswerer {
    const io: CliIo = {
      stdout: () => undefined,
      stderr: () => undefined,
      page: () => Promise.resolve(),
      stdin: Readable.from([]),
      isTTY: { stdout: false, stderr: false, stdin: false },
      env,
      cwd: dir,
      color: false,
      t: plainLocalize,
    };
    const controller = new AbortController();
    const { context, dispose } = createContext(NO_ARGS, io, controller.signal);
    ends.push(() => {
      controller.abort();
      dispose();
    });
    return new ToolAnswerer(oeToolProgram(NO_ARGS, io, context));
  }

  /** VS Code's answerer, signed in (or not) to the fake API, named as oe names it (its host), with `watches` in its watch list. */
  function vscode(signedIn: boolean, watches: readonly WatchSummary[] = []): ToolAnswerer {
    const client = new OnboardingClient({
      apiBaseUrl: api.baseUrl,
      authUrl: api.authUrl,
      credentials: () => Promise.resolve({ ...DEMO_CREDENTIALS }),
      http: { env: {} },
    });
    ends.push(() => {
      client.dispose();
    });
    const events = new EventsCache({ source: () => (signedIn ? client : undefined), freshForMs: () => SETTINGS.cacheSeconds * 1000 });
    const state: SessionState = signedIn
      ? ({ kind: 'signed-in', environment: { name: new URL(api.baseUrl).host } } as SessionState)
      : { kind: 'signed-out' };
    const lineHistory = new CachedLineHistory({
      cache: events,
      stored: () => NOTHING_STORED,
      rules: () => SETTINGS.eventStates,
      steps: () => [],
    });
    const program = windowProgram(
      {
        session: { state },
        events,
        settings: { value: SETTINGS },
        lineHistory,
        watches: { watches: () => watches, startWatch: () => Promise.reject(new Error('not in this test')) },
        log: { info: () => undefined },
      },
      {
        find: () => Promise.resolve({ ok: false, problem: 'not in this test' }),
        pinned: () => new Set(),
        recent: () => new Set(),
        knownFrom: 'this window already knew (pinned machines, recent look-ups, events fetched before)',
      },
    );
    return new ToolAnswerer(program);
  }

  const text = async (answerer: ToolAnswerer, tool: string, input: unknown): Promise<string> =>
    (await answerer.answer(tool, input, new AbortController().signal)).text;

  it('machine events and the summary, progress included, are the same text; only VS Code points to its watch tool', async () => {
    const inVsCode = vscode(true);
    const inOe = oe(environment());
    const line = [...DEMO_LINE4_SERIALS.onboarded, DEMO_LINE4_SERIALS.stalled, DEMO_LINE4_SERIALS.onTime];
    const inputs: [string, unknown][] = [
      [
        AGENT_TOOL_NAMES.machineEvents,
        { serialNumbers: [DEMO_SERIALS.completed, DEMO_SERIALS.failing, DEMO_SERIALS.empty, 'NO-0000-XXXXX'] },
      ],
      [AGENT_TOOL_NAMES.summary, { serialNumbers: line }],
      [AGENT_TOOL_NAMES.machineEvents, { serialNumbers: [DEMO_LINE4_SERIALS.stalled], maxEventsPerMachine: 2 }],
      [AGENT_TOOL_NAMES.summary, { serialNumbers: ['MX$(id)', DEMO_SERIALS.failing] }],
    ];
    for (const [tool, input] of inputs) {
      const [fromVsCode, fromOe] = [await text(inVsCode, tool, input), await text(inOe, tool, input)];
      if (tool === AGENT_TOOL_NAMES.summary) assert.ok(fromVsCode.includes(WATCH_REMEDY), fromVsCode);
      assert.equal(sameTimes(fromVsCode.replace(WATCH_REMEDY, '')), sameTimes(fromOe), `${tool} ${JSON.stringify(input)}`);
    }
    const summary = await text(inOe, AGENT_TOOL_NAMES.summary, { serialNumbers: line });
    assert.match(summary, /STALLED/, 'oe mcp says where a machine in progress stands');
    assert.match(summary, /; in progress since \d{4}-\d\d-\d\dT[^ ]+Z \(/, 'oe mcp says since when a machine has been in progress');
    assert.doesNotMatch(summary, /starts a watch/, 'oe mcp starts no watch, so it does not point to the watch tool');
  });

  it('check the sign-in before the input, each program in its own words; oe names only its variables', async () => {
    const withoutPassword = environment();
    delete withoutPassword['OE_PASSWORD'];
    const bad = { serialNumbers: [] };
    const fromVsCode = await text(vscode(false), AGENT_TOOL_NAMES.summary, bad);
    const fromOe = await text(oe(withoutPassword), AGENT_TOOL_NAMES.summary, bad);
    assert.match(fromVsCode, /^The user is not signed in .* "Onboarding Events: Sign In"/);
    assert.match(fromOe, /^Nothing was read: oe mcp has no sign-in \(OE_PASSWORD is not set\)/);
    // oe mcp takes no --password-stdin: stdin carries the protocol.
    assert.doesNotMatch(fromOe, /--password-stdin|Sign In/);
    for (const answer of [fromVsCode, fromOe]) assert.match(answer, /(never|do not) ask the user for a password/i);
    assert.equal(api.requests.length, 0, 'no request without a sign-in');
  });

  it("oe mcp reads one file below its folder with the extension's bounds: too large and binary refused, in MiB", async () => {
    writeFileSync(join(dir, 'big.txt'), Buffer.alloc(1024 * 1024 + 1, 0x41));
    writeFileSync(join(dir, 'image.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 0x4d, 0x58]));
    writeFileSync(join(dir, 'line.yaml'), `station: ${DEMO_SERIALS.completed}\n`);
    const inOe = oe(environment());
    const scope = (file: string) => text(inOe, AGENT_TOOL_NAMES.serialNumbers, { source: 'file', file });
    assert.equal(await scope('big.txt'), 'Nothing was read: The file is larger than 1 MiB, so it is not read.');
    assert.equal(await scope('image.png'), 'Nothing was read: The file looks binary, so it is not read.');
    const found = await scope('line.yaml');
    assert.match(found, /^1 serial number found in the file "line.yaml"/);
    assert.match(found, /what this oe mcp process already knew \(events it fetched before\)/);
    assert.doesNotMatch(found, /this window|pinned/, 'oe mcp has no window and pins nothing');
  });

  it('the watch tool in oe mcp starts nothing and says so, whatever it is given; VS Code lists its watch list', async () => {
    const fromOe = await text(oe(environment()), AGENT_TOOL_NAMES.watch, { serialNumbers: [DEMO_SERIALS.completed] });
    assert.match(fromOe, /^Nothing was started: .*no watch list here\. .*"oe watch SERIAL…"/);
    const fromVsCode = await text(vscode(true), AGENT_TOOL_NAMES.watch, {});
    assert.match(fromVsCode, /^Nothing was started \(no serial numbers were given\)\. The watch list of the environment/);
  });

  it("VS Code's MCP instructions say what is true there: a watch only once the user agrees", () => {
    assert.match(EXTENSION_INSTRUCTIONS, /once the user agrees/);
    assert.doesNotMatch(EXTENSION_INSTRUCTIONS, /oe |--password-stdin/);
  });
});
