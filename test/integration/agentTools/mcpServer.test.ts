// The MCP door in the real extension host: dist/mcp.js launched as an agent
// launches it (Node, or VS Code's runtime as Node), driven by the SDK's own
// client over stdio. It lists the tools vscode.lm lists, and for the same input
// each answers exactly what vscode.lm.invokeTool answers, signed out and signed
// in; a large call is refused until the input says the user agreed; a client
// without the key is refused by the channel. The channel directory is the run's
// scratch folder (ONBOARDING_EVENTS_MCP_DIR, scripts/vscode/workbench.mjs).
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import * as vscode from 'vscode';
import { ask, channelDirectory, publishedWindows } from '../../../src/mcp/channel';
import { COMMANDS, LANGUAGE_MODEL_TOOLS } from '../../../src/workbench/constants';
import { DEMO_CREDENTIALS, DEMO_SERIALS, demoData, startFakeApi, type FakeApi } from '../../support/fakeApi';
import { activateExtension, signInArgs, signOutIfSignedIn, TEST_ENVIRONMENT, type TestedApi } from '../support/extension';

/** One input per tool, the same through both doors. */
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

describe('the MCP server (dist/mcp.js) against the running extension', () => {
  let api: TestedApi;
  let fake: FakeApi;
  let client: Client;
  let stderr = '';

  before(async function () {
    this.timeout(30_000);
    api = await activateExtension();
    fake = await startFakeApi({ data: demoData() });
    await signOutIfSignedIn();
    await vscode.workspace.getConfiguration('onboardingEvents').update('inlineStatus.mode', 'off', vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('onboardingEvents').update('diagnostics.severity', 'off', vscode.ConfigurationTarget.Global);
    const env = Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
    // Launched exactly as Connect an Agent tells any other agent to launch it: its command, arguments and environment.
    const shown = await connectionShown('other');
    const server = (JSON.parse(/```json\n([\s\S]*?)\n```/.exec(shown)?.[1] ?? '{}') as ShownConfig).mcpServers['onboarding-events'];
    assert.ok(server, 'the JSON names the server');
    const transport = new StdioClientTransport({
      command: server.command,
      args: server.args,
      env: { ...env, ...server.env },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    recordTranscript(transport);
    client = new Client({ name: 'integration-test', version: '1.0.0' });
    await client.connect(transport);
  });

  after(async () => {
    await client.close();
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

    it('refuses a call that would send more than 10 requests until the input says the user agreed', async () => {
      const uncached = Object.keys(demoData().machines)
        .filter((serial) => serial !== DEMO_SERIALS.failing && api.events.peek(serial) === undefined)
        .slice(0, 12);
      assert.equal(uncached.length, 12);
      fake.clearRequests();
      const refused = await mcpText(client, LANGUAGE_MODEL_TOOLS.summary, { serialNumbers: uncached });
      assert.match(refused, /^Nothing was read: this call asks for the onboarding events of 12 machines, and 12 of them are not cached/);
      assert.match(refused, /call onboardingEvents_summarizeOnboarding again with the same input and "userAgreed": true\.$/);
      assert.deepEqual(fake.requests, [], 'no request before the user agreed');
      const agreed = await mcpText(client, LANGUAGE_MODEL_TOOLS.summary, { serialNumbers: uncached, userAgreed: true });
      assert.match(agreed, /^Onboarding summary of 12 machines/);
      assert.equal(agreed, await lmText(LANGUAGE_MODEL_TOOLS.summary, { serialNumbers: uncached }), 'then the same text as vscode.lm');
    });

    it('asks for agreement before reading a file named by a path that leaves the plain relative form, as VS Code asks in a chat', async () => {
      const input = { source: 'file', file: '../workspace/machines.yaml' };
      const refused = await mcpText(client, LANGUAGE_MODEL_TOOLS.serialNumbers, input);
      assert.match(refused, /^Nothing was read: the file path is absolute, a URI, or contains "\.\."/);
      const agreed = await mcpText(client, LANGUAGE_MODEL_TOOLS.serialNumbers, { ...input, userAgreed: true });
      assert.equal(agreed, await lmText(LANGUAGE_MODEL_TOOLS.serialNumbers, input));
    });

    it('starts a watch only when the input says the user agreed, and the summary then marks it, as through vscode.lm', async () => {
      const serial = DEMO_SERIALS.empty;
      const watched = () => api.testHooks.watch.list().find((watch) => watch.serialNumber === serial && watch.outcome === undefined);
      const input = { serialNumbers: [serial] };
      try {
        const refused = await mcpText(client, LANGUAGE_MODEL_TOOLS.watch, input);
        assert.match(refused, /^Nothing was started: this call starts watching the machine "WELD-3100-D0007" in the environment "Test"/);
        assert.match(refused, /call onboardingEvents_watchOnboarding again with the same input and "userAgreed": true\.$/);
        assert.equal(watched(), undefined, 'no watch before the user agreed');
        const agreed = await mcpText(client, LANGUAGE_MODEL_TOOLS.watch, { ...input, userAgreed: true });
        assert.match(agreed, /- "WELD-3100-D0007": started; the user will be notified when it is onboarded or fails/);
        assert.equal(watched()?.status, 'watching');
        const summaryInput = { serialNumbers: [serial, DEMO_SERIALS.completed] };
        const summary = await mcpText(client, LANGUAGE_MODEL_TOOLS.summary, summaryInput);
        assert.match(summary, /- "WELD-3100-D0007": no events recorded; WATCHED: polled until onboarded or failed, since /);
        assert.equal(summary, await lmText(LANGUAGE_MODEL_TOOLS.summary, summaryInput), 'the same text as vscode.lm');
        const again = { serialNumbers: [serial] };
        assert.equal(
          await mcpText(client, LANGUAGE_MODEL_TOOLS.watch, { ...again, userAgreed: true }),
          await lmText(LANGUAGE_MODEL_TOOLS.watch, again),
          'already watched: the same text through both doors',
        );
      } finally {
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
