// Connect an Agent's files, in a temporary home directory: each agent's file
// gets our server merged in beside what it already holds, never clobbered;
// a file that would lose something (comments, a non-object) is left alone;
// a file changed since the preview is not written.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AGENT_KINDS,
  agentSetup,
  MCP_SERVER_NAME,
  mergeTomlConfig,
  planAgentConfig,
  writeAgentConfig,
  type AgentKind,
  type ServerLaunch,
} from '../../../src/core/agents/agentConfigs';

const LAUNCH: ServerLaunch = {
  command: '/opt/VS Code/code',
  args: ['/home/me/.config/Code/User/globalStorage/onboarding-events.onboarding-events/mcp.js'],
  env: { ELECTRON_RUN_AS_NODE: '1' },
};

const FILES: Readonly<Record<Exclude<AgentKind, 'other'>, string>> = {
  claudeCode: '.claude.json',
  codex: '.codex/config.toml',
  geminiCli: '.gemini/settings.json',
  cursor: '.cursor/mcp.json',
  windsurf: '.codeium/windsurf/mcp_config.json',
};

describe('Connect an Agent: configuration files in a temporary HOME', () => {
  let home: string;

  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'oe-home-'));
  });

  afterEach(() => {
    rmSync(home, { recursive: true, force: true });
  });

  function write(file: string, text: string): void {
    mkdirSync(join(home, file, '..'), { recursive: true });
    writeFileSync(join(home, file), text, { mode: 0o644 });
  }

  async function apply(kind: AgentKind): Promise<string> {
    const plan = await planAgentConfig(kind, LAUNCH, home);
    assert.ok(plan);
    assert.equal(await writeAgentConfig(plan), true);
    return readFileSync(plan.path, 'utf8');
  }

  for (const kind of ['claudeCode', 'geminiCli', 'cursor', 'windsurf'] as const)
    it(`${kind}: adds the server to ${FILES[kind]} beside the servers and settings already there`, async () => {
      write(
        FILES[kind],
        JSON.stringify({ theme: 'dark', mcpServers: { github: { command: 'gh-mcp', env: { TOKEN: 'theirs' } } } }, null, 2),
      );
      const written = JSON.parse(await apply(kind)) as {
        theme: string;
        mcpServers: Record<string, { command: string; args: string[]; env?: object }>;
      };
      assert.equal(written.theme, 'dark');
      assert.deepEqual(written.mcpServers['github'], { command: 'gh-mcp', env: { TOKEN: 'theirs' } });
      const ours = written.mcpServers[MCP_SERVER_NAME];
      assert.equal(ours?.command, LAUNCH.command);
      assert.deepEqual(ours.args, LAUNCH.args);
      assert.deepEqual(ours.env, LAUNCH.env);
      // An existing file keeps its mode.
      assert.equal(statSync(join(home, FILES[kind])).mode & 0o777, 0o644);
    });

  it('creates a missing file (and its folder) readable by the user alone', async () => {
    const text = await apply('geminiCli');
    assert.deepEqual(Object.keys((JSON.parse(text) as { mcpServers: object }).mcpServers), [MCP_SERVER_NAME]);
    if (process.platform !== 'win32') {
      assert.equal(statSync(join(home, '.gemini', 'settings.json')).mode & 0o777, 0o600);
      assert.equal(statSync(join(home, '.gemini')).mode & 0o777, 0o700);
    }
  });

  it('replaces its own entry on a second run instead of adding another', async () => {
    await apply('cursor');
    const plan = await planAgentConfig('cursor', { ...LAUNCH, args: ['/new/mcp.js'] }, home);
    assert.ok(plan?.merged.ok);
    const servers = (JSON.parse(plan.merged.text) as { mcpServers: Record<string, { args: string[] }> }).mcpServers;
    assert.deepEqual(Object.keys(servers), [MCP_SERVER_NAME]);
    assert.deepEqual(servers[MCP_SERVER_NAME]?.args, ['/new/mcp.js']);
  });

  it('leaves alone a file with comments, or one that holds no object, and says why', async () => {
    for (const [text, problem] of [
      ['{ // mine\n "mcpServers": {} }', /not plain JSON/],
      ['[1, 2]', /not hold a JSON object/],
      ['{ "mcpServers": [] }', /"mcpServers" is not an object/],
    ] as const) {
      write(FILES.cursor, text);
      const plan = await planAgentConfig('cursor', LAUNCH, home);
      assert.ok(plan && !plan.merged.ok);
      assert.match(plan.merged.problem, problem);
      assert.equal(await writeAgentConfig(plan), false);
      assert.equal(readFileSync(join(home, FILES.cursor), 'utf8'), text);
    }
  });

  it('writes nothing when the agent changed the file after the preview', async () => {
    write(FILES.claudeCode, '{"projects": {}}');
    const plan = await planAgentConfig('claudeCode', LAUNCH, home);
    assert.ok(plan);
    write(FILES.claudeCode, '{"projects": {"/src": {}}}');
    assert.equal(await writeAgentConfig(plan), false);
    assert.equal(readFileSync(join(home, FILES.claudeCode), 'utf8'), '{"projects": {"/src": {}}}');
  });

  it('codex: appends a [mcp_servers.onboarding-events] table to config.toml, keeping every other line and comment', async () => {
    const before = '# my settings\nmodel = "o3"\n\n[mcp_servers.github]\ncommand = "gh-mcp"\n';
    write(FILES.codex, before);
    const text = await apply('codex');
    assert.ok(text.startsWith(before));
    assert.ok(
      text.endsWith(
        `\n[mcp_servers.onboarding-events]\ncommand = "/opt/VS Code/code"\nargs = ["${LAUNCH.args[0] ?? ''}"]\nenv = { ELECTRON_RUN_AS_NODE = "1" }\n`,
      ),
    );
  });

  it('codex: replaces its own table (and sub-tables) in place on a second run', () => {
    const existing =
      'model = "o3"\n\n[mcp_servers.onboarding-events]\ncommand = "old"\nargs = []\n\n[mcp_servers.onboarding-events.env]\nX = "1"\n\n[mcp_servers.github] # theirs\ncommand = "gh-mcp"\n';
    const merged = mergeTomlConfig(existing, { command: 'new', args: ['a.js'], env: {} });
    assert.ok(merged.ok);
    assert.equal(
      merged.text,
      'model = "o3"\n\n[mcp_servers.onboarding-events]\ncommand = "new"\nargs = ["a.js"]\n\n[mcp_servers.github] # theirs\ncommand = "gh-mcp"\n',
    );
  });

  it('shows the JSON for any other agent, and Claude Code its own command, with no secret in either', () => {
    const other = agentSetup('other', LAUNCH);
    assert.equal(other.file, undefined);
    assert.deepEqual(JSON.parse(other.snippet), {
      mcpServers: { [MCP_SERVER_NAME]: { command: LAUNCH.command, args: LAUNCH.args, env: LAUNCH.env } },
    });
    assert.equal(
      agentSetup('claudeCode', LAUNCH).command,
      `claude mcp add --scope user --env ELECTRON_RUN_AS_NODE=1 onboarding-events -- '/opt/VS Code/code' ${LAUNCH.args[0] ?? ''}`,
    );
    for (const kind of AGENT_KINDS) assert.doesNotMatch(agentSetup(kind, LAUNCH).snippet, /secret|token|password|key/i, kind);
  });
});
