// `oe mcp` as agents run it: the MCP SDK's own Client over its
// StdioClientTransport, which spawns `node dist/oe.js mcp`, against the fake
// API on 127.0.0.1. (`oe curl`: test/unit/cli/curl.test.ts, in process.)
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { AGENT_TOOL_NAMES, AGENT_TOOLS } from '../../src/core/domain/agentTools/toolDefinitions';
import { startFakeApi, TEST_CREDENTIALS, TEST_SERIALS, type FakeApi } from '../support/fakeApi';

const OE = resolve(__dirname, '../../../dist/oe.js');
const SECRETS = { OE_CLIENT_SECRET: TEST_CREDENTIALS.clientSecret, OE_PASSWORD: TEST_CREDENTIALS.password };

describe('oe mcp (issue 39)', () => {
  let api: FakeApi;
  let dir: string;
  const clients: Client[] = [];

  /** The SDK's client, connected to `node dist/oe.js mcp` started in `cwd` with `env`. */
  async function connect(env: Record<string, string>, cwd = dir): Promise<Client> {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [OE, 'mcp'],
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...env },
      cwd,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'cli-test', version: '1.0.0' });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  const signedIn = (): Record<string, string> => ({
    OE_API_URL: api.baseUrl,
    OE_AUTH_URL: api.authUrl,
    OE_CLIENT_ID: TEST_CREDENTIALS.clientId,
    OE_USERNAME: TEST_CREDENTIALS.username,
    ...SECRETS,
  });

  function textOf(result: Awaited<ReturnType<Client['callTool']>>): string {
    const content = result.content as { type: string; text?: string }[];
    return content.map((part) => part.text ?? '').join('\n');
  }

  before(async () => {
    api = await startFakeApi();
  });
  after(async () => {
    await api.close();
  });
  beforeEach(() => {
    api.clearRequests();
    dir = mkdtempSync(join(tmpdir(), 'oe-mcp-'));
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists the tool definitions of the extension, and answers one from the API with the tool text, one request per machine', async () => {
    const client = await connect(signedIn());
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((tool) => [tool.name, tool.description, tool.inputSchema]),
      Object.values(AGENT_TOOLS).map((tool) => [tool.name, tool.description, tool.inputSchema]),
    );
    const instructions = client.getInstructions() ?? '';
    assert.match(instructions, /no VS Code needed/);
    // What only a VS Code window has is not promised here.
    assert.match(instructions, /starts no watch and onboardingEvents_findSerialNumbers reads one file below the working folder/);
    assert.doesNotMatch(instructions, /this window|pinned|--password-stdin/);

    const events = textOf(
      await client.callTool({
        name: AGENT_TOOL_NAMES.machineEvents,
        arguments: { serialNumbers: [TEST_SERIALS.onboarded, 'NO-0000-XXXXX'] },
      }),
    );
    assert.match(events, /^Onboarding events of 2 machines from the Onboarding Events API/);
    assert.match(events, /ONBOARDING_COMPLETED/);
    assert.equal(api.tokenRequests().length, 1);
    const summary = textOf(
      await client.callTool({ name: AGENT_TOOL_NAMES.summary, arguments: { serialNumbers: [TEST_SERIALS.onboarded] } }),
    );
    assert.match(summary, /completed/i);
    // The summary read the machine from the cache the events call filled: one request per machine in all.
    assert.equal(api.eventRequests(TEST_SERIALS.onboarded).length, 1);
    assert.equal(api.tokenRequests().length, 1);
    for (const text of [events, summary]) for (const secret of Object.values(SECRETS)) assert.ok(!text.includes(secret));
  });

  it('says honestly what needs VS Code: no watch list, no editor; reads a file below its folder and nothing outside it', async () => {
    writeFileSync(join(dir, 'line.yaml'), `station: { serial: ${TEST_SERIALS.onboarded} }\n`);
    mkdirSync(join(dir, 'sub'));
    const outside = mkdtempSync(join(tmpdir(), 'oe-mcp-outside-'));
    writeFileSync(join(outside, 'secret.yaml'), `serial: ${TEST_SERIALS.started}\n`);
    symlinkSync(outside, join(dir, 'sub', 'out'));
    try {
      const client = await connect(signedIn());
      const watch = textOf(await client.callTool({ name: AGENT_TOOL_NAMES.watch, arguments: { serialNumbers: [TEST_SERIALS.started] } }));
      assert.match(watch, /^Nothing was started: .*no watch list/);
      assert.match(watch, /oe watch/);
      const editor = textOf(await client.callTool({ name: AGENT_TOOL_NAMES.serialNumbers, arguments: { source: 'activeEditor' } }));
      assert.match(editor, /^Nothing was read: .*no active editor/);
      const file = textOf(
        await client.callTool({ name: AGENT_TOOL_NAMES.serialNumbers, arguments: { source: 'file', file: 'line.yaml' } }),
      );
      assert.match(file, /^1 serial number found in the file/);
      assert.ok(file.includes(TEST_SERIALS.onboarded), file);
      for (const path of ['sub/out/secret.yaml', join(outside, 'secret.yaml'), '../secret.yaml', 'missing.yaml']) {
        const refused = textOf(await client.callTool({ name: AGENT_TOOL_NAMES.serialNumbers, arguments: { source: 'file', file: path } }));
        assert.match(refused, /^Nothing was read: only existing files below the working folder/, path);
        assert.ok(!refused.includes(TEST_SERIALS.started), path);
      }
      assert.equal(api.requests.length, 0, 'none of these sends a request');
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('without credentials, answers what the user sets and sends nothing', async () => {
    const client = await connect({ OE_API_URL: api.baseUrl, OE_AUTH_URL: api.authUrl, OE_CLIENT_ID: TEST_CREDENTIALS.clientId });
    const text = textOf(await client.callTool({ name: AGENT_TOOL_NAMES.summary, arguments: { serialNumbers: [TEST_SERIALS.onboarded] } }));
    assert.match(text, /^Nothing was read: oe mcp has no sign-in/);
    assert.match(text, /never ask the user for a password/);
    // The variables the user sets, never oe's terminal ways (a prompt, --password-stdin): stdin carries the protocol here.
    assert.match(text, /\(OE_CLIENT_SECRET, OE_USERNAME, OE_PASSWORD are not set\)/);
    assert.doesNotMatch(text, /--password-stdin/);
    assert.equal(api.requests.length, 0);
  });
});
