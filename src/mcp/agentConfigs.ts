// The configuration that starts dist/mcp.js in agents outside VS Code, per
// agent: where each reads its MCP servers, and the entry merged into that file
// without touching anything else in it (other servers, settings, comments in
// TOML), written so the agent never reads half a file. Nothing here is
// secret: a command, a script path and ELECTRON_RUN_AS_NODE; the server finds
// the extension by itself. Vscode-free (Connect an Agent shows and asks).
import { randomUUID } from 'node:crypto';
import { chmod, mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { isRecord } from '../common/guards';

/** The key our server has in every agent's list of MCP servers. */
export const MCP_SERVER_NAME = 'onboarding-events';

export type AgentKind = 'claudeCode' | 'codex' | 'geminiCli' | 'cursor' | 'windsurf' | 'other';
export const AGENT_KINDS: readonly AgentKind[] = ['claudeCode', 'codex', 'geminiCli', 'cursor', 'windsurf', 'other'];

/** How the agent starts the server. */
export interface ServerLaunch {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

export interface AgentSetup {
  /** The user-level file the agent reads its MCP servers from, relative to the home directory; none for "other". */
  readonly file?: readonly string[];
  readonly format: 'json' | 'toml';
  /** What to add, as the user would paste it. */
  readonly snippet: string;
  /** The agent's own command that adds it, where it has one. */
  readonly command?: string;
}

/** One server entry in the "mcpServers" object most agents read. */
function jsonEntry(launch: ServerLaunch, kind: AgentKind): Record<string, unknown> {
  const entry: Record<string, unknown> = kind === 'claudeCode' ? { type: 'stdio' } : {};
  entry['command'] = launch.command;
  entry['args'] = [...launch.args];
  if (Object.keys(launch.env).length > 0) entry['env'] = { ...launch.env };
  return entry;
}

/** A TOML basic string: JSON's escapes are TOML's for every character JSON.stringify writes. */
const tomlString = (text: string): string => JSON.stringify(text);

function tomlTable(launch: ServerLaunch): string {
  const lines = [
    `[mcp_servers.${MCP_SERVER_NAME}]`,
    `command = ${tomlString(launch.command)}`,
    `args = [${launch.args.map(tomlString).join(', ')}]`,
  ];
  const env = Object.entries(launch.env);
  if (env.length > 0) lines.push(`env = { ${env.map(([name, value]) => `${name} = ${tomlString(value)}`).join(', ')} }`);
  return `${lines.join('\n')}\n`;
}

const shellWord = (word: string): string => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

export function agentSetup(kind: AgentKind, launch: ServerLaunch): AgentSetup {
  const servers = JSON.stringify({ mcpServers: { [MCP_SERVER_NAME]: jsonEntry(launch, kind) } }, null, 2);
  switch (kind) {
    case 'claudeCode': {
      const env = Object.entries(launch.env).flatMap(([name, value]) => ['--env', `${name}=${value}`]);
      const words = ['claude', 'mcp', 'add', '--scope', 'user', ...env, MCP_SERVER_NAME, '--', launch.command, ...launch.args];
      return { file: ['.claude.json'], format: 'json', snippet: servers, command: words.map(shellWord).join(' ') };
    }
    case 'codex':
      return { file: ['.codex', 'config.toml'], format: 'toml', snippet: tomlTable(launch) };
    case 'geminiCli':
      return { file: ['.gemini', 'settings.json'], format: 'json', snippet: servers };
    case 'cursor':
      return { file: ['.cursor', 'mcp.json'], format: 'json', snippet: servers };
    case 'windsurf':
      return { file: ['.codeium', 'windsurf', 'mcp_config.json'], format: 'json', snippet: servers };
    case 'other':
      return { format: 'json', snippet: servers };
  }
}

export type Merged = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly problem: string };

/** The file with our entry in its "mcpServers" object, every other key and server kept. */
export function mergeJsonConfig(existing: string | undefined, kind: AgentKind, launch: ServerLaunch): Merged {
  let config: Record<string, unknown> = {};
  if (existing !== undefined && existing.trim() !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(existing);
    } catch {
      // JSON with comments would lose them when written back: leave such a file to the user.
      return { ok: false, problem: 'The file is not plain JSON (it may hold comments), so it is left as it is.' };
    }
    if (!isRecord(parsed)) return { ok: false, problem: 'The file does not hold a JSON object, so it is left as it is.' };
    config = { ...parsed };
  }
  const servers = config['mcpServers'];
  if (servers !== undefined && !isRecord(servers))
    return { ok: false, problem: 'Its "mcpServers" is not an object, so the file is left as it is.' };
  config['mcpServers'] = { ...servers, [MCP_SERVER_NAME]: jsonEntry(launch, kind) };
  return { ok: true, text: `${JSON.stringify(config, null, 2)}\n` };
}

/**
 * The TOML file with our table replaced (or appended): the lines from our
 * header to the next header that is not one of our sub-tables. Everything
 * else, comments included, stays byte for byte.
 */
export function mergeTomlConfig(existing: string | undefined, launch: ServerLaunch): Merged {
  const table = tomlTable(launch);
  const text = existing ?? '';
  const lines = text.split('\n');
  const ours = (line: string) => {
    const header = /^\s*\[\s*([^\]]+?)\s*\]\s*(#.*)?$/.exec(line)?.[1]?.replace(/["']/g, '');
    return header === undefined
      ? undefined
      : header === `mcp_servers.${MCP_SERVER_NAME}` || header.startsWith(`mcp_servers.${MCP_SERVER_NAME}.`);
  };
  const start = lines.findIndex((line) => ours(line) === true);
  if (start < 0) {
    const separator = text === '' ? '' : text.endsWith('\n\n') ? '' : text.endsWith('\n') ? '\n' : '\n\n';
    return { ok: true, text: `${text}${separator}${table}` };
  }
  let end = start + 1;
  while (end < lines.length && ours(lines[end] ?? '') !== false) end++;
  const after = lines.slice(end).join('\n');
  const before = lines.slice(0, start).join('\n');
  return { ok: true, text: `${before}${before === '' ? '' : '\n'}${table}${after === '' ? '' : `\n${after}`}` };
}

/** The entry merged into the agent's file, in its format. */
export function mergeAgentConfig(kind: AgentKind, existing: string | undefined, launch: ServerLaunch): Merged {
  return agentSetup(kind, launch).format === 'toml' ? mergeTomlConfig(existing, launch) : mergeJsonConfig(existing, kind, launch);
}

/** At most this much of an agent's file is read (Claude Code's ~/.claude.json grows with its history). */
export const MAX_CONFIG_BYTES = 16 * 1024 * 1024;

async function readIfPresent(path: string): Promise<string | undefined> {
  try {
    if ((await stat(path)).size > MAX_CONFIG_BYTES) throw new Error(`${path} is larger than ${MAX_CONFIG_BYTES / 1024 / 1024} MiB.`);
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** What writing would change: the agent's file as it is and as it would be. */
export interface ConfigPlan {
  readonly path: string;
  readonly existing: string | undefined;
  readonly merged: Merged;
}

/** The agent's file under `home` and our entry merged into it; undefined for an agent without a known file. */
export async function planAgentConfig(kind: AgentKind, launch: ServerLaunch, home: string): Promise<ConfigPlan | undefined> {
  const file = agentSetup(kind, launch).file;
  if (file === undefined) return undefined;
  const path = join(home, ...file);
  const existing = await readIfPresent(path);
  return { path, existing, merged: mergeAgentConfig(kind, existing, launch) };
}

/**
 * Writes the plan's merged text, unless the file changed since the plan was
 * made (the agent may write it meanwhile): then nothing is written and false
 * is returned. Written next to the file and renamed over it; a new file (and
 * its folder) is the user's alone, an existing one keeps its mode.
 */
export async function writeAgentConfig(plan: ConfigPlan): Promise<boolean> {
  if (!plan.merged.ok) return false;
  if ((await readIfPresent(plan.path)) !== plan.existing) return false;
  const mode = await stat(plan.path).then(
    (info) => info.mode & 0o777,
    () => 0o600,
  );
  await mkdir(dirname(plan.path), { recursive: true, mode: 0o700 });
  const temporary = `${plan.path}.${randomUUID()}.tmp`;
  await writeFile(temporary, plan.merged.text, { mode });
  await chmod(temporary, mode);
  await rename(temporary, plan.path);
  return true;
}
