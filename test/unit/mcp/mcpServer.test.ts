// The MCP server (src/mcp) driven by the SDK's own Client, against a fake
// extension: a real channel in a temporary directory whose handler answers as
// the extension would (the tools' pure result text). What the agent reads is
// the extension's text unchanged; without a window, or with the wrong key,
// each tool says so in plain text; the channel refuses a client without the
// key and bounds what it reads. A call the window answers only for a paired
// agent makes the server ask to be paired and call again with the pairing,
// which it keeps for its next start under the agent's key. The fake's pairings,
// its pairing question's wait and the gate of its calls are the extension's own
// (mcp/pairings.ts); only what a tool answers, and which calls ask, are the fake's.
import * as assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { AGENT_TOOL_NAMES, AGENT_TOOLS, type AgentToolName } from '../../../src/core/domain/agentTools/toolDefinitions';
import { machineEventsText, scopeText, signInNeededText, summaryText, watchText } from '../../../src/core/domain/agentTools/toolResults';
import {
  agentPairingStore,
  ask,
  CHANNEL_LIMITS,
  chooseWindow,
  publishedWindows,
  startChannel,
  type Channel,
  type ChannelHandler,
  type PairingAnswer,
  type ToolAnswer,
} from '../../../src/core/agents/channel';
import {
  channelConnector,
  createMcpServer,
  NOT_RUNNING_TEXT,
  pairingClosedText,
  pairingDeclinedText,
  REFUSED_TEXT,
} from '../../../src/core/agents/mcpServer';
import { AgentPairings, pairedAsk, PairingWindow, type SecretStore } from '../../../src/core/agents/pairings';
import { event, NOW, result } from '../core/domain/agentTools/fixtures';
import { DEFAULT_EVENT_STATE_RULES as DEFAULT_RULES } from '../../../src/core/domain/events/eventState';
import { skipBecause } from '../../support/skipBecause';

const POSIX = process.platform !== 'win32';

/** What the fake extension answers: the real result text of each tool for a fixed input. */
function extensionText(tool: string, input: unknown): string {
  const context = { now: NOW, environment: 'Production', rules: DEFAULT_RULES };
  const serial = 'MX-4711-A0023';
  const reports = [
    {
      serialNumber: serial,
      outcome: { kind: 'events' as const, result: result(serial, [event({ minute: 1, type: 'ONBOARDING_FAILED' })]), stale: false },
    },
  ];
  switch (tool) {
    case AGENT_TOOL_NAMES.machineEvents:
      return machineEventsText(reports, { maxEvents: 10, refused: [] }, context);
    case AGENT_TOOL_NAMES.summary:
      return summaryText(reports, [], context);
    case AGENT_TOOL_NAMES.watch:
      return watchText([], [], [], context);
    case AGENT_TOOL_NAMES.serialNumbers:
      return scopeText(
        [],
        {
          where: `the ${JSON.stringify(input)}`,
          capped: false,
          signedIn: true,
          knownFrom: 'this window already knew (pinned machines, recent look-ups, events fetched before)',
        },
        context,
        {
          events: 'e',
          summary: 's',
        },
      );
    default:
      return 'no such tool';
  }
}

/** SecretStorage as the extension's pairings see it: a map. */
class MemorySecrets implements SecretStore {
  readonly values = new Map<string, string>();
  get(key: string): Promise<string | undefined> {
    return Promise.resolve(this.values.get(key));
  }
  store(key: string, value: string): Promise<void> {
    this.values.set(key, value);
    return Promise.resolve();
  }
  delete(key: string): Promise<void> {
    this.values.delete(key);
    return Promise.resolve();
  }
}

class FakeExtension implements ChannelHandler {
  calls: { tool: string; input: unknown; pairing?: string }[] = [];
  /** The extension's pairings and pairing question (Connect an Agent ran: the question is open). */
  readonly pairings = new AgentPairings(new MemorySecrets());
  expired = 0;
  readonly waiting: PairingWindow;
  /** The user's answer to the pairing question, and to the question a paired agent's call raises. */
  pairAnswer: 'agree' | 'decline' = 'agree';
  callAnswer: 'agree' | 'decline' = 'agree';
  pairRequests: string[] = [];
  /** The questions a paired agent's calls raised. */
  asked: string[] = [];
  signedIn = true;
  lastActive = 1;
  /** Resolves when a call's signal aborts. */
  aborted: Promise<void> | undefined;
  block = false;

  constructor(waitMs?: number) {
    this.waiting = new PairingWindow(
      () => undefined,
      () => {
        this.expired++;
      },
      waitMs,
    );
    this.waiting.expect();
  }

  hello() {
    return { signedIn: this.signedIn, lastActive: this.lastActive };
  }

  pair(agent: string): Promise<PairingAnswer> {
    this.pairRequests.push(agent);
    return this.waiting.pair(this.pairings, agent, () => Promise.resolve(this.pairAnswer === 'agree'));
  }

  async call(tool: string, input: unknown, pairing: string | undefined, signal: AbortSignal): Promise<ToolAnswer> {
    this.calls.push({ tool, input, ...(pairing === undefined ? {} : { pairing }) });
    if (!this.signedIn) return { text: signInNeededText('signed-out', 'onboardingEvents.signIn') };
    // As the extension does for a caller that is not paired: more than what is loaded (here: more than 10
    // machines, or starting a watch) needs a pairing (and then the user's answer in VS Code).
    const serials = (input as { serialNumbers?: unknown[] }).serialNumbers ?? [];
    const more = serials.length > 10 || (tool === AGENT_TOOL_NAMES.watch && serials.length > 0);
    const caller = await this.pairings.callerOf(pairing);
    const ask = pairedAsk(
      tool,
      caller,
      (question: string) => question,
      (question) => {
        this.asked.push(question);
        return Promise.resolve(this.callAnswer === 'agree');
      },
    );
    const stopped = more ? await ask(`${caller.kind === 'paired' ? caller.agent : ''} asks for ${tool}`) : undefined;
    return stopped ?? { text: await this.answer(tool, input, signal) };
  }

  private async answer(tool: string, input: unknown, signal: AbortSignal): Promise<string> {
    if (this.block) {
      this.aborted = new Promise((resolve) => {
        signal.addEventListener(
          'abort',
          () => {
            resolve();
          },
          { once: true },
        );
      });
      await this.aborted;
      throw new Error('cancelled');
    }
    return extensionText(tool, input);
  }
}

/**
 * An MCP client talking to a fresh server process, as an agent would start one: its client named `name`,
 * its pairing kept in `dir` under `agentKey` (the key Connect an Agent writes into its configuration), or
 * `given` by VS Code's own launch, as main.ts does.
 */
async function connectedClient(
  dir: string,
  preferred?: string,
  name = 'unit-test',
  agentKey: string | undefined = 'agent-key-of-the-unit-test-agent',
  given?: string,
): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const pairings = agentPairingStore(dir, agentKey, given);
  const server = createMcpServer(channelConnector(dir, preferred, pairings), '9.9.9');
  await server.connect(serverSide);
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

function textOf(result: Awaited<ReturnType<Client['callTool']>>): string {
  const content = result.content as { type: string; text?: string }[];
  const [first, ...more] = content;
  assert.ok(first !== undefined && more.length === 0, 'one content part');
  assert.equal(first.type, 'text');
  return first.text ?? '';
}

const INPUTS: Readonly<Record<AgentToolName, Record<string, unknown>>> = {
  [AGENT_TOOL_NAMES.machineEvents]: { serialNumbers: ['MX-4711-A0023'] },
  [AGENT_TOOL_NAMES.serialNumbers]: { source: 'activeEditor' },
  [AGENT_TOOL_NAMES.summary]: { serialNumbers: ['MX-4711-A0023'] },
  [AGENT_TOOL_NAMES.watch]: {},
};

describe('the MCP server against a fake extension channel', () => {
  let dir: string;
  const channels: Channel[] = [];
  const fakes: FakeExtension[] = [];
  const clients: Client[] = [];

  beforeEach(() => {
    dir = join(mkdtempSync(join(tmpdir(), 'oe-mcp-')), 'mcp');
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await Promise.all(channels.splice(0).map((channel) => channel.dispose()));
    for (const fake of fakes.splice(0)) fake.waiting.dispose();
    rmSync(join(dir, '..'), { recursive: true, force: true });
  });

  async function window(fake: FakeExtension): Promise<Channel> {
    fakes.push(fake);
    const channel = await startChannel(dir, fake);
    channels.push(channel);
    return channel;
  }

  async function client(preferred?: string, name?: string, agentKey?: string, given?: string): Promise<Client> {
    const connected = await connectedClient(dir, preferred, name, agentKey, given);
    clients.push(connected);
    return connected;
  }

  it('lists exactly the defined tools, read-only but the watch tool, with no field by which a model could say the user agreed', async () => {
    const { tools } = await (await client()).listTools();
    assert.deepEqual(
      tools.map((tool) => tool.name),
      Object.keys(AGENT_TOOLS),
    );
    for (const tool of tools) {
      assert.equal(tool.annotations?.readOnlyHint, tool.name !== AGENT_TOOL_NAMES.watch, tool.name);
      assert.equal(tool.annotations.destructiveHint, false, tool.name);
      assert.deepEqual(tool.inputSchema, AGENT_TOOLS[tool.name as AgentToolName].inputSchema, tool.name);
      assert.equal(tool.description, AGENT_TOOLS[tool.name as AgentToolName].description);
    }
  });

  for (const name of Object.values(AGENT_TOOL_NAMES))
    it(`answers ${name} with the extension's text, unchanged, and passes the input on as given`, async () => {
      const fake = new FakeExtension();
      await window(fake);
      const answer = await (await client()).callTool({ name, arguments: INPUTS[name] });
      assert.equal(textOf(answer), extensionText(name, INPUTS[name]));
      assert.notEqual(answer.isError, true);
      assert.deepEqual(fake.calls, [{ tool: name, input: INPUTS[name] }]);
    });

  const many = { serialNumbers: Array.from({ length: 12 }, (_, i) => `MX-4711-A${String(i).padStart(4, '0')}`) };

  /** Whether `pairing` is one the fake extension made (and still holds). */
  const isPairing = async (fake: FakeExtension, pairing: string | undefined): Promise<boolean> =>
    (await fake.pairings.callerOf(pairing)).kind === 'paired';

  it('asks to be paired when the window answers only a paired agent, calls again with the pairing, and keeps it for its next start', async function () {
    const fake = new FakeExtension();
    await window(fake);
    const answer = await (
      await client(undefined, 'Claude Code', 'claude-code-agent-key-1')
    ).callTool({ name: AGENT_TOOL_NAMES.summary, arguments: many });
    assert.equal(textOf(answer), extensionText(AGENT_TOOL_NAMES.summary, many));
    assert.deepEqual(fake.pairRequests, ['Claude Code'], 'the question names the agent as its client introduced itself');
    const [first, second] = fake.calls.map((call) => call.pairing);
    assert.equal(first, undefined);
    assert.ok(await isPairing(fake, second), 'called again with the pairing the window made');
    assert.deepEqual(fake.asked, [`Claude Code asks for ${AGENT_TOOL_NAMES.summary}`], 'the paired call asked about');
    // The agent's next start (a new server process) presents the kept pairing at once, with no new question.
    const again = await (
      await client(undefined, 'Claude Code', 'claude-code-agent-key-1')
    ).callTool({ name: AGENT_TOOL_NAMES.watch, arguments: { serialNumbers: ['A-1'] } });
    assert.equal(textOf(again), extensionText(AGENT_TOOL_NAMES.watch, {}));
    assert.deepEqual(fake.pairRequests, ['Claude Code']);
    assert.equal(fake.calls.at(-1)?.pairing, second);
    // Another agent (Connect an Agent run again for it) has a pairing of its own.
    fake.waiting.expect();
    await (await client(undefined, 'Codex', 'codex-agent-key-000001')).callTool({ name: AGENT_TOOL_NAMES.summary, arguments: many });
    assert.deepEqual(fake.pairRequests, ['Claude Code', 'Codex']);
    assert.ok(await isPairing(fake, fake.calls.at(-1)?.pairing));
    assert.notEqual(fake.calls.at(-1)?.pairing, second);
    if (!POSIX) return;
    const kept = readdirSync(join(dir, 'pairings'));
    assert.equal(kept.length, 2);
    for (const file of kept) assert.equal(statSync(join(dir, 'pairings', file)).mode & 0o777, 0o600, file);
    assert.equal(statSync(join(dir, 'pairings')).mode & 0o777, 0o700);
  });

  it("a pairing is the agent key's, not the client name's: the same name with another key is asked about anew, another name with the key is paired", async () => {
    const fake = new FakeExtension();
    await window(fake);
    await (
      await client(undefined, 'Claude Code', 'the-real-claude-agent-key')
    ).callTool({ name: AGENT_TOOL_NAMES.summary, arguments: many });
    const paired = fake.calls.at(-1)?.pairing;
    assert.ok(await isPairing(fake, paired));
    // Another program whose client calls itself "Claude Code": it presents no pairing and is asked about anew (the user says no).
    fake.calls = [];
    fake.pairAnswer = 'decline';
    const impostor = await (
      await client(undefined, 'Claude Code', 'another-program-agent-key')
    ).callTool({ name: AGENT_TOOL_NAMES.summary, arguments: many });
    assert.deepEqual(
      fake.calls.map((call) => call.pairing),
      [undefined],
      'the impostor presented no pairing',
    );
    assert.equal(textOf(impostor), pairingDeclinedText(AGENT_TOOL_NAMES.summary));
    assert.deepEqual(fake.pairRequests, ['Claude Code', 'Claude Code'], 'the user was asked about it, by the name it gave');
    // Without an agent key nothing is kept: the pairing lasts as long as the process.
    fake.calls = [];
    await (await client(undefined, 'Claude Code', undefined)).callTool({ name: AGENT_TOOL_NAMES.summary, arguments: many });
    assert.deepEqual(
      fake.calls.map((call) => call.pairing),
      [undefined],
    );
    // The agent's own key under whatever name its client gives now: still its pairing, no question.
    fake.calls = [];
    const renamed = await (
      await client(undefined, 'claude-code 2.0', 'the-real-claude-agent-key')
    ).callTool({ name: AGENT_TOOL_NAMES.summary, arguments: many });
    assert.equal(textOf(renamed), extensionText(AGENT_TOOL_NAMES.summary, many));
    assert.deepEqual(
      fake.calls.map((call) => call.pairing),
      [paired],
    );
    assert.equal(fake.pairRequests.length, 3);
  });

  it("the gate is the extension's: a made-up pairing is no pairing, a revoked one ends, and VS Code's own launch is listed and revoked like any", async () => {
    const fake = new FakeExtension();
    await window(fake);
    fake.waiting.dispose();
    // A pairing the window never made: the call is refused as unpaired, and the user is asked nothing.
    const forged = await (
      await client(undefined, 'Forger', 'forger-agent-key-00001', 'made-up-pairing')
    ).callTool({ name: AGENT_TOOL_NAMES.summary, arguments: many });
    assert.equal(textOf(forged), pairingClosedText(AGENT_TOOL_NAMES.summary));
    assert.deepEqual(fake.asked, []);
    // VS Code's own launch: its pairing is handed in, listed among the pairings, and asked about by name.
    const launch = fake.pairings.addLaunch('VS Code');
    const own = await client(undefined, 'Visual Studio Code', undefined, launch);
    assert.equal(
      textOf(await own.callTool({ name: AGENT_TOOL_NAMES.summary, arguments: many })),
      extensionText(AGENT_TOOL_NAMES.summary, many),
    );
    assert.deepEqual(fake.asked, [`VS Code asks for ${AGENT_TOOL_NAMES.summary}`]);
    const listed = await fake.pairings.list();
    assert.deepEqual(
      listed.map(({ agent, launch: made }) => [agent, made]),
      [['VS Code', true]],
    );
    // Revoked (what Revoke Agent Access does with the picked pairings): the launch is an outside caller again.
    await fake.pairings.remove(new Set(listed.map((pairing) => pairing.id)));
    fake.asked = [];
    assert.equal(
      textOf(await own.callTool({ name: AGENT_TOOL_NAMES.summary, arguments: many })),
      pairingClosedText(AGENT_TOOL_NAMES.summary),
    );
    assert.deepEqual(fake.asked, []);
    assert.deepEqual(await fake.pairings.list(), []);
  });

  it("Connect an Agent's wait for a pairing ends after its bound: the question is closed and the end is reported once", async () => {
    const fake = new FakeExtension(150);
    await window(fake);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(fake.expired, 1);
    assert.equal(fake.waiting.open, false);
    const answer = await (
      await client(undefined, 'Late Agent', 'late-agent-key-0000001')
    ).callTool({ name: AGENT_TOOL_NAMES.summary, arguments: many });
    assert.equal(textOf(answer), pairingClosedText(AGENT_TOOL_NAMES.summary));
    assert.deepEqual(await fake.pairings.list(), [], 'nothing paired after the wait');
  });

  it('reads nothing more when the user declines to pair, or when no window asks (Connect an Agent was not run), and says what to do', async () => {
    const fake = new FakeExtension();
    await window(fake);
    fake.pairAnswer = 'decline';
    const declined = textOf(await (await client()).callTool({ name: AGENT_TOOL_NAMES.watch, arguments: { serialNumbers: ['A-1'] } }));
    assert.equal(declined, pairingDeclinedText(AGENT_TOOL_NAMES.watch));
    assert.match(declined, /^Nothing was started: the user declined, in VS Code, to pair this agent/);
    fake.waiting.dispose();
    const closed = textOf(await (await client()).callTool({ name: AGENT_TOOL_NAMES.summary, arguments: many }));
    assert.equal(closed, pairingClosedText(AGENT_TOOL_NAMES.summary));
    assert.match(closed, /^Nothing was read: .*run "Onboarding Events: Connect an Agent" in VS Code/);
    assert.deepEqual(
      fake.calls.map((call) => call.pairing),
      [undefined, undefined],
      'called once each, never with a pairing',
    );
  });

  it('passes a "userAgreed" in the input on as plain input: it is no agreement, and the server adds none', async () => {
    const fake = new FakeExtension();
    await window(fake);
    fake.waiting.dispose();
    const input = { ...many, userAgreed: true };
    assert.equal(
      textOf(await (await client()).callTool({ name: AGENT_TOOL_NAMES.summary, arguments: input })),
      pairingClosedText(AGENT_TOOL_NAMES.summary),
    );
    assert.deepEqual(fake.calls, [{ tool: AGENT_TOOL_NAMES.summary, input }]);
  });

  it('says VS Code is not running, for every tool, when no window is published', async () => {
    const connected = await client();
    for (const name of Object.values(AGENT_TOOL_NAMES)) {
      const answer = await connected.callTool({ name, arguments: INPUTS[name] });
      assert.equal(textOf(answer), NOT_RUNNING_TEXT);
      assert.equal(answer.isError, true);
    }
    assert.match(NOT_RUNNING_TEXT, /Never ask the user for a password/);
  });

  it("passes on a signed-out window's own answer, which names the sign-in command", async () => {
    const fake = new FakeExtension();
    fake.signedIn = false;
    await window(fake);
    const answer = await (await client()).callTool({ name: AGENT_TOOL_NAMES.summary, arguments: INPUTS[AGENT_TOOL_NAMES.summary] });
    assert.equal(textOf(answer), signInNeededText('signed-out', 'onboardingEvents.signIn'));
  });

  it('refuses a client without the key, and the tool says so without reaching the extension', async () => {
    const fake = new FakeExtension();
    const channel = await window(fake);
    const [published] = await publishedWindows(dir);
    assert.ok(published);
    assert.deepEqual(
      await ask(published.endpoint, { key: 'not-the-key', kind: 'call', tool: AGENT_TOOL_NAMES.summary, input: {} }, { timeoutMs: 2_000 }),
      {
        ok: false,
        error: 'refused',
      },
    );
    // A discovery file that names the endpoint with another key: what a stale or forged file looks like.
    writeFileSync(channel.discoveryFile, JSON.stringify({ ...published, key: 'forged' }), { mode: 0o600 });
    const answer = await (await client()).callTool({ name: AGENT_TOOL_NAMES.summary, arguments: INPUTS[AGENT_TOOL_NAMES.summary] });
    assert.equal(textOf(answer), REFUSED_TEXT);
    assert.deepEqual(fake.calls, []);
  });

  it('answers a request larger than its bound with bad-request, never reading it whole', async () => {
    const fake = new FakeExtension();
    await window(fake);
    const [published] = await publishedWindows(dir);
    assert.ok(published);
    const huge = 'x'.repeat(CHANNEL_LIMITS.maxRequestBytes + 1);
    const reply = await ask(
      published.endpoint,
      { key: published.key, kind: 'call', tool: AGENT_TOOL_NAMES.summary, input: huge },
      { timeoutMs: 2_000 },
    );
    assert.deepEqual(reply, { ok: false, error: 'bad-request' });
    assert.deepEqual(fake.calls, []);
  });

  it('drops a connection that sends nothing within its time', async function () {
    this.timeout(CHANNEL_LIMITS.quickMs + 3_000);
    await window(new FakeExtension());
    const [published] = await publishedWindows(dir);
    assert.ok(published);
    const socket = createConnection(published.endpoint);
    const started = Date.now();
    const reply = await new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
      socket.on('close', () => {
        resolve(text);
      });
    });
    assert.equal(reply.trim(), JSON.stringify({ ok: false, error: 'bad-request' }));
    assert.ok(Date.now() - started >= CHANNEL_LIMITS.quickMs - 100);
  });

  it("aborts the extension's work when the MCP client cancels the call", async () => {
    const fake = new FakeExtension();
    fake.block = true;
    await window(fake);
    const abort = new AbortController();
    const call = (await client()).callTool({ name: AGENT_TOOL_NAMES.summary, arguments: INPUTS[AGENT_TOOL_NAMES.summary] }, undefined, {
      signal: abort.signal,
    });
    while (fake.aborted === undefined) await new Promise((resolve) => setTimeout(resolve, 10));
    abort.abort();
    await assert.rejects(call);
    await fake.aborted;
  });

  it('asks the window that started the server first, else a signed-in one, the one used last first', async () => {
    const signedOut = new FakeExtension();
    signedOut.signedIn = false;
    signedOut.lastActive = 300;
    const older = new FakeExtension();
    older.lastActive = 100;
    const newer = new FakeExtension();
    newer.lastActive = 200;
    const [outChannel, , newerChannel] = [await window(signedOut), await window(older), await window(newer)];
    const chosen = await chooseWindow(dir);
    assert.equal(chosen.kind === 'window' && chosen.window.id, newerChannel.id);
    const own = await chooseWindow(dir, outChannel.id);
    assert.equal(own.kind === 'window' && own.window.id, outChannel.id);
  });

  it('keeps the directory, the discovery file and the socket to the user alone, and forgets windows whose process is gone', async function () {
    if (!POSIX) skipBecause(this, 'POSIX file modes only: Windows has no owner-only mode bits to check');
    await window(new FakeExtension());
    assert.equal(statSync(dir).mode & 0o777, 0o700);
    const files = readdirSync(dir);
    for (const file of files) assert.equal(statSync(join(dir, file)).mode & 0o777, 0o600, file);
    assert.deepEqual(files.map((file) => file.replace(/^\d+-[0-9a-f]+/, 'ID')).sort(), ['ID.json', 'ID.sock']);
    // A window that died without cleaning up (pid 2^22 + 1 is above Linux's pid_max).
    writeFileSync(join(dir, 'dead.json'), JSON.stringify({ id: 'dead', endpoint: join(dir, 'dead.sock'), key: 'k', pid: 4_194_305 }), {
      mode: 0o600,
    });
    writeFileSync(join(dir, 'dead.sock'), '', { mode: 0o600 });
    assert.equal((await publishedWindows(dir)).length, 1);
    assert.ok(!readdirSync(dir).includes('dead.json'));
    assert.ok(!readdirSync(dir).includes('dead.sock'));
  });

  it('ignores discovery files other users could read, and a directory they could open is closed again', async function () {
    if (!POSIX) skipBecause(this, 'POSIX file modes only: Windows has no owner-only mode bits to check');
    const channel = await window(new FakeExtension());
    chmodSync(channel.discoveryFile, 0o644);
    assert.deepEqual(await publishedWindows(dir), []);
    chmodSync(channel.discoveryFile, 0o600);
    chmodSync(dir, 0o755);
    await window(new FakeExtension());
    assert.equal(statSync(dir).mode & 0o777, 0o700);
  });
});
