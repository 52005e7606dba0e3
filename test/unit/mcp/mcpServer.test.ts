// The MCP server (src/mcp) driven by the SDK's own Client, against a fake
// extension: a real channel in a temporary directory whose handler answers as
// the extension would (the tools' pure result text). What the agent reads is
// the extension's text unchanged; without a window, or with the wrong key,
// each tool says so in plain text; the channel refuses a client without the
// key and bounds what it reads. A call the window answers only for a paired
// agent makes the server ask to be paired and call again with the pairing,
// which it keeps for its next start.
import * as assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { AGENT_TOOL_NAMES, AGENT_TOOLS, pairingNeededText, type AgentToolName } from '../../../src/domain/agentTools/toolDefinitions';
import { machineEventsText, scopeText, signInNeededText, summaryText, watchText } from '../../../src/domain/agentTools/toolResults';
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
} from '../../../src/mcp/channel';
import {
  channelConnector,
  createMcpServer,
  NOT_RUNNING_TEXT,
  pairingClosedText,
  pairingDeclinedText,
  REFUSED_TEXT,
} from '../../../src/mcp/mcpServer';
import { event, NOW, result } from '../agentTools/fixtures';
import { DEFAULT_EVENT_STATE_RULES as DEFAULT_RULES } from '../../../src/domain/events/eventState';
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
      return scopeText([], { where: `the ${JSON.stringify(input)}`, capped: false, signedIn: true }, context, {
        events: 'e',
        summary: 's',
      });
    default:
      return 'no such tool';
  }
}

class FakeExtension implements ChannelHandler {
  calls: { tool: string; input: unknown; pairing?: string }[] = [];
  /** The pairings this window made, and how it answers the next question. */
  readonly pairings = new Set<string>();
  pairAnswer: 'agree' | 'decline' | 'closed' = 'agree';
  pairRequests: string[] = [];
  signedIn = true;
  lastActive = 1;
  /** Resolves when a call's signal aborts. */
  aborted: Promise<void> | undefined;
  block = false;

  hello() {
    return { signedIn: this.signedIn, lastActive: this.lastActive };
  }

  pair(agent: string): Promise<PairingAnswer> {
    this.pairRequests.push(agent);
    if (this.pairAnswer !== 'agree') return Promise.resolve({ kind: this.pairAnswer === 'decline' ? 'declined' : 'closed' });
    const pairing = `pairing-${this.pairings.size + 1}`;
    this.pairings.add(pairing);
    return Promise.resolve({ kind: 'paired', pairing });
  }

  async call(tool: string, input: unknown, pairing: string | undefined, signal: AbortSignal): Promise<ToolAnswer> {
    this.calls.push({ tool, input, ...(pairing === undefined ? {} : { pairing }) });
    if (!this.signedIn) return { text: signInNeededText('signed-out', 'onboardingEvents.signIn') };
    // As the extension does for a caller that is not paired: more than what is loaded (here: more than 10
    // machines, or starting a watch) needs a pairing (and then the user's answer in VS Code).
    const serials = (input as { serialNumbers?: unknown[] }).serialNumbers ?? [];
    const more = serials.length > 10 || (tool === AGENT_TOOL_NAMES.watch && serials.length > 0);
    if (more && (pairing === undefined || !this.pairings.has(pairing))) return { text: pairingNeededText(tool), pairingNeeded: true };
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
    return { text: extensionText(tool, input) };
  }
}

/** An MCP client talking to a fresh server process, as an agent would start one (its pairing kept in `dir`, as main.ts keeps it). */
async function connectedClient(dir: string, preferred?: string, name = 'unit-test'): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const pairings = agentPairingStore(dir, () => name);
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
  const clients: Client[] = [];

  beforeEach(() => {
    dir = join(mkdtempSync(join(tmpdir(), 'oe-mcp-')), 'mcp');
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await Promise.all(channels.splice(0).map((channel) => channel.dispose()));
    rmSync(join(dir, '..'), { recursive: true, force: true });
  });

  async function window(fake: FakeExtension): Promise<Channel> {
    const channel = await startChannel(dir, fake);
    channels.push(channel);
    return channel;
  }

  async function client(preferred?: string, name?: string): Promise<Client> {
    const connected = await connectedClient(dir, preferred, name);
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

  it('asks to be paired when the window answers only a paired agent, calls again with the pairing, and keeps it for its next start', async function () {
    const fake = new FakeExtension();
    await window(fake);
    const answer = await (await client(undefined, 'Claude Code')).callTool({ name: AGENT_TOOL_NAMES.summary, arguments: many });
    assert.equal(textOf(answer), extensionText(AGENT_TOOL_NAMES.summary, many));
    assert.deepEqual(fake.pairRequests, ['Claude Code'], 'the question names the agent as its client introduced itself');
    assert.deepEqual(
      fake.calls.map((call) => call.pairing),
      [undefined, 'pairing-1'],
    );
    // The agent's next start (a new server process) presents the kept pairing at once, with no new question.
    const again = await (
      await client(undefined, 'Claude Code')
    ).callTool({ name: AGENT_TOOL_NAMES.watch, arguments: { serialNumbers: ['A-1'] } });
    assert.equal(textOf(again), extensionText(AGENT_TOOL_NAMES.watch, {}));
    assert.deepEqual(fake.pairRequests, ['Claude Code']);
    assert.equal(fake.calls.at(-1)?.pairing, 'pairing-1');
    // Another agent has a pairing of its own.
    await (await client(undefined, 'Codex')).callTool({ name: AGENT_TOOL_NAMES.summary, arguments: many });
    assert.deepEqual(fake.pairRequests, ['Claude Code', 'Codex']);
    assert.equal(fake.calls.at(-1)?.pairing, 'pairing-2');
    if (!POSIX) return;
    const kept = readdirSync(join(dir, 'pairings'));
    assert.equal(kept.length, 2);
    for (const file of kept) assert.equal(statSync(join(dir, 'pairings', file)).mode & 0o777, 0o600, file);
    assert.equal(statSync(join(dir, 'pairings')).mode & 0o777, 0o700);
  });

  it('reads nothing more when the user declines to pair, or when no window asks (Connect an Agent was not run), and says what to do', async () => {
    const fake = new FakeExtension();
    await window(fake);
    fake.pairAnswer = 'decline';
    const declined = textOf(await (await client()).callTool({ name: AGENT_TOOL_NAMES.watch, arguments: { serialNumbers: ['A-1'] } }));
    assert.equal(declined, pairingDeclinedText(AGENT_TOOL_NAMES.watch));
    assert.match(declined, /^Nothing was started: the user declined, in VS Code, to pair this agent/);
    fake.pairAnswer = 'closed';
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
    fake.pairAnswer = 'closed';
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
