// The MCP server in the real extension host: dist/mcp.js launched as an agent
// launches it (Node, or VS Code's runtime as Node), driven by the SDK's own
// client over stdio. It lists the tools vscode.lm lists, and for the same input
// each answers exactly what vscode.lm.invokeTool answers, signed out and signed
// in; a client without the key is refused by the channel. Agreement is given in
// VS Code: a caller with only the discovery file's key (what any program of the
// user can read) reads what the window already loaded and nothing more, whatever
// its input says; an agent the user paired in VS Code is asked about, in VS Code,
// each call that sends requests or starts a watch, until the pairing is revoked.
// No window publishes a channel before an agent is connected. The channel
// directory is the run's scratch folder (ONBOARDING_EVENTS_MCP_DIR,
// scripts/vscode/workbench.mjs).
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import * as vscode from 'vscode';
import { ask, channelDirectory, publishedWindows, type WindowEndpoint } from '../../../src/core/agents/channel';
import { COMMANDS, LANGUAGE_MODEL_TOOLS } from '../../../src/extension/workbench/constants';
import { DEMO_CREDENTIALS, DEMO_SERIALS, demoData, startFakeApi, type FakeApi } from '../../support/fakeApi';
import { activateExtension, signInArgs, signOutIfSignedIn, TEST_ENVIRONMENT, type TestedApi } from '../support/extension';
import { user } from '../support/user';

/** One input per tool, the same through both entry points. */
const INPUTS: readonly (readonly [string, Record<string, unknown>])[] = [
  [LANGUAGE_MODEL_TOOLS.machineEvents, { serialNumbers: [DEMO_SERIALS.completed, DEMO_SERIALS.failing], maxEventsPerMachine: 3 }],
  [LANGUAGE_MODEL_TOOLS.serialNumbers, { source: 'file', file: 'machines.yaml' }],
  [LANGUAGE_MODEL_TOOLS.summary, { serialNumbers: [DEMO_SERIALS.completed, DEMO_SERIALS.failing, DEMO_SERIALS.empty] }],
  // Without serial numbers the watch tool lists the watches: nothing to agree to.
  [LANGUAGE_MODEL_TOOLS.watch, {}],
];

async function lmText(name: string, input: object): Promise<string> {
  const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined });
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : `[${typeof part}]`)).join('');
}

async function mcpText(client: Client, name: string, input: Record<string, unknown>): Promise<string> {
  const result = await client.callTool({ name, arguments: input });
  const parts = result.content as { type: string; text?: string }[];
  assert.ok(parts.every((part) => part.type === 'text'));
  return parts.map((part) => part.text ?? '').join('');
}

interface ShownConfig {
  readonly mcpServers: Readonly<
    Record<string, { readonly command: string; readonly args: string[]; readonly env?: Record<string, string> }>
  >;
}

/** Runs Connect an Agent for `agent` and returns the configuration document it shows. */
async function connectionShown(agent: 'other' | 'claudeCode'): Promise<string> {
  const path = `/${agent === 'other' ? 'Another agent (show the JSON)' : 'Claude Code'}.md`;
  const shown = () =>
    vscode.workspace.textDocuments.find((document) => document.uri.scheme === 'onboarding-events-agent' && document.uri.path === path);
  // For an agent with a known file the command then asks (a notification) whether to write it: not awaited here.
  void vscode.commands.executeCommand(COMMANDS.connectAgent, agent);
  const started = Date.now();
  while (shown() === undefined) {
    assert.ok(Date.now() - started < 10_000, 'Connect an Agent showed its configuration');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return shown()?.getText() ?? '';
}

/** The JSON-RPC messages of the session, for the notes (OE_MCP_TRANSCRIPT names the file). */
const transcript: string[] = [];

function recordTranscript(transport: StdioClientTransport): void {
  const send = transport.send.bind(transport);
  transport.send = (message) => {
    transcript.push(`client → server ${JSON.stringify(message)}`);
    return send(message);
  };
  // The client keeps a handler already set when it connects, and calls it first.
  transport.onmessage = (message) => {
    transcript.push(`server → client ${JSON.stringify(message)}`);
  };
}

/** One channel request from a program that read the discovery file: the raw protocol, no MCP server in between. */
async function outsideCall(window: WindowEndpoint, tool: string, input: unknown): Promise<string> {
  const reply = await ask(window.endpoint, { key: window.key, kind: 'call', tool, input }, { timeoutMs: 30_000 });
  assert.ok(reply?.ok === true && reply.kind === 'call', `the channel answered ${JSON.stringify(reply)}`);
  return reply.text;
}

/** Serial numbers the fake API does not know (each a 404 there, still a request in the user's name). */
function unknownSerials(prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}-7000-${String(i).padStart(5, '0')}`);
}

describe('the MCP server (dist/mcp.js) against the running extension', () => {
  let api: TestedApi;
  let fake: FakeApi;
  let client: Client;
  let stderr = '';
  const started: Client[] = [];

  /**
   * dist/mcp.js launched exactly as Connect an Agent tells any other agent to launch it, with an SDK client named
   * `name`; `agentKey` stands for another agent's configuration (its own agent key), else it is the one shown.
   */
  async function startAgent(name: string, record = false, agentKey?: string): Promise<Client> {
    const env = Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
    const shown = await connectionShown('other');
    const server = (JSON.parse(/```json\n([\s\S]*?)\n```/.exec(shown)?.[1] ?? '{}') as ShownConfig).mcpServers['onboarding-events'];
    assert.ok(server, 'the JSON names the server');
    const transport = new StdioClientTransport({
      command: server.command,
      args: server.args,
      env: { ...env, ...server.env, ...(agentKey === undefined ? {} : { ONBOARDING_EVENTS_MCP_AGENT: agentKey }) },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    if (record) recordTranscript(transport);
    const agent = new Client({ name, version: '1.0.0' });
    await agent.connect(transport);
    started.push(agent);
    return agent;
  }

  before(async function () {
    this.timeout(30_000);
    api = await activateExtension();
    fake = await startFakeApi({ data: demoData() });
    await signOutIfSignedIn();
    await vscode.workspace.getConfiguration('onboardingEvents').update('inlineStatus.mode', 'off', vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('onboardingEvents').update('diagnostics.severity', 'off', vscode.ConfigurationTarget.Global);
  });

  it('publishes no channel (no discovery file, no socket) in a window where no agent was connected', async () => {
    assert.deepEqual(await publishedWindows(channelDirectory()), []);
    const dir = channelDirectory();
    const entries = existsSync(dir) ? readdirSync(dir, { withFileTypes: true }) : [];
    assert.deepEqual(
      entries.filter((entry) => entry.isFile() || entry.isSocket()).map((entry) => entry.name),
      [],
    );
  }).timeout(10_000);

  it('Connect an Agent named by a caller asks first; declined, it shows nothing and opens no channel', async () => {
    const asked: string[] = [];
    const answers = user.answerModals((shown) => {
      asked.push(shown.message);
      return undefined;
    });
    try {
      for (const agent of ['cursor', 'other'] as const) await vscode.commands.executeCommand(COMMANDS.connectAgent, agent);
    } finally {
      answers.dispose();
    }
    assert.deepEqual(asked, ['Connect Cursor to Onboarding Events?', 'Connect Another agent (show the JSON) to Onboarding Events?']);
    assert.deepEqual(
      vscode.workspace.textDocuments.filter((document) => document.uri.scheme === 'onboarding-events-agent').map((d) => d.uri.path),
      [],
      'no configuration shown',
    );
    assert.deepEqual(await publishedWindows(channelDirectory()), [], 'no channel opened');
  }).timeout(10_000);

  it('publishes the channel once the user connects an agent', async function () {
    this.timeout(30_000);
    client = await startAgent('integration-test', true);
    assert.equal((await publishedWindows(channelDirectory())).length, 1);
  });

  after(async () => {
    await Promise.all(started.map((agent) => agent.close()));
    await vscode.workspace.getConfiguration('onboardingEvents').update('inlineStatus.mode', undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace
      .getConfiguration('onboardingEvents')
      .update('diagnostics.severity', undefined, vscode.ConfigurationTarget.Global);
    await signOutIfSignedIn();
    await fake.close();
    assert.equal(stderr, '', 'the server wrote nothing to stderr');
    const file = process.env['OE_MCP_TRANSCRIPT'];
    if (file !== undefined) writeFileSync(file, `${transcript.join('\n')}\n`);
  });

  it('Connect an Agent shows Claude Code its command and its file, with no secret, starting a copy of dist/mcp.js', async () => {
    const shown = await connectionShown('claudeCode');
    await vscode.commands.executeCommand('notifications.clearAll');
    assert.match(shown, /^claude mcp add --scope user .*onboarding-events -- \S+ \S+mcp\.js$/m);
    assert.match(shown, /to \S+\.claude\.json:/);
    assert.doesNotMatch(shown, /secret"|password"|token"|key"/i);
    // The agent's key (where its pairing is kept, so no other client that gives its name gets it): the same on every run.
    const agentKey = /--env ONBOARDING_EVENTS_MCP_AGENT=([\w-]{32,}) /.exec(shown)?.[1];
    assert.ok(agentKey !== undefined, shown);
    assert.equal(/--env ONBOARDING_EVENTS_MCP_AGENT=([\w-]{32,}) /.exec(await connectionShown('claudeCode'))?.[1], agentKey);
    await vscode.commands.executeCommand('notifications.clearAll');
    const file = process.env['OE_MCP_TRANSCRIPT'];
    if (file !== undefined) writeFileSync(`${file}.claude-code.md`, shown);
  });

  it('lists the tools vscode.lm lists, each with the same description for the model', async () => {
    const { tools } = await client.listTools();
    const ours = vscode.lm.tools.filter((tool) => tool.name.startsWith('onboardingEvents_'));
    assert.deepEqual(tools.map((tool) => tool.name).sort(), ours.map((tool) => tool.name).sort());
    for (const tool of ours)
      assert.ok(tools.find((listed) => listed.name === tool.name)?.description?.startsWith(tool.description), tool.name);
    console.log(`    MCP server ${JSON.stringify(client.getServerVersion())} lists: ${tools.map((tool) => tool.name).join(', ')}`);
  });

  for (const [name, input] of INPUTS)
    it(`signed out: ${name} answers what vscode.lm.invokeTool answers (a reading tool: sign in first), and sends no request`, async () => {
      fake.clearRequests();
      const viaMcp = await mcpText(client, name, input);
      assert.equal(viaMcp, await lmText(name, input));
      if (name !== LANGUAGE_MODEL_TOOLS.serialNumbers) assert.match(viaMcp, /^The user is not signed in to the Onboarding Events API/);
      assert.deepEqual(fake.requests, []);
    });

  describe('signed in', () => {
    before(async () => {
      await vscode.commands.executeCommand('onboardingEvents.signIn', signInArgs(fake, TEST_ENVIRONMENT, DEMO_CREDENTIALS));
      api.events.clear();
    });

    for (const [name, input] of INPUTS)
      it(`${name} answers exactly what vscode.lm.invokeTool answers for the same input`, async () => {
        const viaVscode = await lmText(name, input);
        const viaMcp = await mcpText(client, name, input);
        assert.equal(viaMcp, viaVscode);
        assert.doesNotMatch(viaMcp, /not signed in|Nothing was read/);
      });

    it('an outside caller with only the discovery file\'s key reads what is loaded and nothing more: no request, no watch, no question, whatever "userAgreed" says', async () => {
      const [window] = await publishedWindows(channelDirectory());
      assert.ok(window);
      const asked: string[] = [];
      const answers = user.answerModals((shown) => {
        asked.push(shown.message);
        return undefined;
      });
      const watchedBefore = api.testHooks.watch.list().length;
      try {
        // What the views already loaded is readable: answered from the cache, with no request.
        await api.testHooks.getEvents(DEMO_SERIALS.completed);
        fake.clearRequests();
        const loaded = await outsideCall(window, LANGUAGE_MODEL_TOOLS.machineEvents, { serialNumbers: [DEMO_SERIALS.completed] });
        assert.match(loaded, new RegExp(`"${DEMO_SERIALS.completed}"`));
        assert.doesNotMatch(loaded, /^Nothing was read/);
        // The attack of issue 34: events of 30 machines nobody loaded, a 100-machine summary and two watches "agreed" by the caller.
        const texts = [
          ...(await Promise.all(
            [0, 1, 2].map((part) =>
              outsideCall(window, LANGUAGE_MODEL_TOOLS.machineEvents, { serialNumbers: unknownSerials(`OUT${part}`, 10) }),
            ),
          )),
          await outsideCall(window, LANGUAGE_MODEL_TOOLS.summary, { serialNumbers: unknownSerials('SUM', 100), userAgreed: true }),
          await outsideCall(window, LANGUAGE_MODEL_TOOLS.watch, {
            serialNumbers: [DEMO_SERIALS.empty, DEMO_SERIALS.failing],
            userAgreed: true,
          }),
        ];
        assert.deepEqual(
          fake.requests.map((request) => request.path),
          [],
          'the fake API saw no request from an outside caller',
        );
        assert.equal(api.testHooks.watch.list().length, watchedBefore, 'no watch started');
        assert.deepEqual(asked, [], 'an unpaired caller raises no question');
        for (const text of texts.slice(0, 4))
          assert.match(text, /^Nothing was read: .*not an agent paired .*run "Onboarding Events: Connect an Agent" in VS Code/);
        assert.match(texts[4] ?? '', /^Nothing was started: .*not an agent paired/);
        // Asking to be paired is a question the user answers in VS Code; a no leaves it as it was.
        const pairing = await ask(window.endpoint, { key: window.key, kind: 'pair', agent: 'Claude Code' }, { timeoutMs: 30_000 });
        assert.deepEqual(pairing, { ok: true, kind: 'pair', answer: { kind: 'declined' } });
        assert.match(asked.join('\n'), /^An agent asks to be paired with Onboarding Events in VS Code\.$/);
        assert.deepEqual(fake.requests, []);
      } finally {
        answers.dispose();
      }
    });

    it('a paired agent is asked about in VS Code: pairing once, then each call that sends requests or starts a watch; revoked, it reads no more', async function () {
      this.timeout(60_000);
      const asked: string[] = [];
      let agree = true;
      const answers = user.answerModals((shown) => {
        asked.push(shown.message);
        return agree ? shown.items[0] : undefined;
      });
      const serial = DEMO_SERIALS.empty;
      const watched = () => api.testHooks.watch.list().find((watch) => watch.serialNumber === serial && watch.outcome === undefined);
      try {
        // Another agent than the first one started (its own configuration, so its own agent key): a pairing of its own.
        const agent = await startAgent('Paired Test Agent', false, `paired-test-agent-${Date.now()}-key`);
        const machines = unknownSerials('PAIR', 12);
        fake.clearRequests();
        const read = await mcpText(agent, LANGUAGE_MODEL_TOOLS.summary, { serialNumbers: machines });
        assert.match(read, /^Onboarding summary of 12 machines/);
        assert.deepEqual(asked, [
          // Connect an Agent run with the agent as its argument (as startAgent does) is asked for too.
          'Connect Another agent (show the JSON) to Onboarding Events?',
          'An agent asks to be paired with Onboarding Events in VS Code.',
          'The paired agent "Paired Test Agent" asks for the onboarding events of 12 machines.',
        ]);
        assert.equal(
          fake.requests.filter((request) => request.method === 'GET').length,
          12,
          'one request per machine, after the user agreed',
        );
        // Declined in VS Code: nothing is sent, whatever the input says.
        agree = false;
        fake.clearRequests();
        const declined = await mcpText(agent, LANGUAGE_MODEL_TOOLS.machineEvents, {
          serialNumbers: unknownSerials('DECL', 3),
          userAgreed: true,
        });
        assert.match(declined, /^Nothing was read: the user declined this call when VS Code asked/);
        assert.deepEqual(fake.requests, []);
        assert.equal(
          await mcpText(agent, LANGUAGE_MODEL_TOOLS.watch, { serialNumbers: [serial], userAgreed: true }).then((text) => text.slice(0, 20)),
          'Nothing was started:',
        );
        assert.equal(watched(), undefined, 'no watch while the user says no');
        assert.equal(asked.at(-1), 'The paired agent "Paired Test Agent" asks to watch the onboarding of one machine.');
        const unusual = await mcpText(agent, LANGUAGE_MODEL_TOOLS.serialNumbers, { source: 'file', file: '../workspace/machines.yaml' });
        assert.match(unusual, /^Nothing was read: the user declined/);
        assert.equal(asked.at(-1), 'The paired agent "Paired Test Agent" asks for the serial numbers in a file named by an unusual path.');
        // Agreed: the watch starts, and the summary marks it, as through vscode.lm.
        agree = true;
        const started = await mcpText(agent, LANGUAGE_MODEL_TOOLS.watch, { serialNumbers: [serial] });
        assert.match(started, /- "WELD-3100-D0007": started; the user will be notified when it is onboarded or fails/);
        assert.equal(watched()?.status, 'watching');
        const summaryInput = { serialNumbers: [serial, DEMO_SERIALS.completed] };
        assert.match(
          await mcpText(agent, LANGUAGE_MODEL_TOOLS.summary, summaryInput),
          /- "WELD-3100-D0007": no events recorded; WATCHED: polled until onboarded or failed, since /,
        );
        const pairedQuestions = asked.filter((question) => question.startsWith('An agent asks to be paired')).length;
        assert.equal(pairedQuestions, 1, 'paired once');
        // Revoked (Revoke Agent Access, its one pick accepted as the user would): the agent is an outside caller again.
        void vscode.commands.executeCommand(COMMANDS.revokeAgentAccess);
        await new Promise((resolve) => setTimeout(resolve, 800));
        await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
        await new Promise((resolve) => setTimeout(resolve, 300));
        agree = false;
        fake.clearRequests();
        const revoked = await mcpText(agent, LANGUAGE_MODEL_TOOLS.summary, { serialNumbers: unknownSerials('REVK', 2) });
        assert.match(revoked, /^Nothing was read: the user declined, in VS Code, to pair this agent/);
        assert.equal(asked.at(-1), 'An agent asks to be paired with Onboarding Events in VS Code.', 'asked to pair again');
        assert.deepEqual(fake.requests, []);
      } finally {
        answers.dispose();
        await vscode.commands.executeCommand('onboardingEvents.stopWatching', serial);
        // A started watch adds its machine to Recent, which the Machines view would load in the suites that follow.
        api.machines.clearRecent();
      }
    });

    it('refuses a client without the key: the channel answers nothing else', async () => {
      const windows = await publishedWindows(channelDirectory());
      assert.equal(windows.length, 1, "this window is published in the run's channel directory");
      const [window] = windows;
      assert.ok(window);
      const input = { serialNumbers: [DEMO_SERIALS.completed] };
      assert.deepEqual(
        await ask(
          window.endpoint,
          { key: `${window.key}x`, kind: 'call', tool: LANGUAGE_MODEL_TOOLS.summary, input },
          { timeoutMs: 5_000 },
        ),
        {
          ok: false,
          error: 'refused',
        },
      );
      const answered = await ask(
        window.endpoint,
        { key: window.key, kind: 'call', tool: LANGUAGE_MODEL_TOOLS.summary, input },
        { timeoutMs: 5_000 },
      );
      assert.ok(answered?.ok && answered.kind === 'call' && answered.text.startsWith('Onboarding summary of 1 machine'));
    });
  });
});
