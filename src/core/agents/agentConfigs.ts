// The configuration that starts dist/mcp.js in agents outside VS Code, per
// agent: where each reads its MCP servers, and the entry merged into that file
// without touching anything else in it (other servers, settings, comments in
// TOML), written so the agent never reads half a file. Nothing here is
// secret: a command, a script path and ELECTRON_RUN_AS_NODE; the server finds
// the extension by itself. Vscode-free (Connect an Agent shows and asks).
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { isRecord } from '../common/guards';
import { readNamedFileIfPresent, writeNamedFile } from '../common/namedFiles';

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
 * Where a line of a TOML file starts: outside any string, or inside a
 * multi-line one; and inside how many brackets of a value (an array may span
 * lines). A header is only a line that starts outside both.
 */
interface TomlLineState {
  readonly string: 'none' | 'basic' | 'literal';
  readonly depth: number;
}
const TOML_TOP: TomlLineState = { string: 'none', depth: 0 };

/**
 * The state after a value line read from `from`: multi-line strings (`"""`,
 * with escapes, and `'''`) opened or closed on it, brackets opened or closed
 * outside strings. One-line strings and comments are skipped, so a quote or
 * bracket in them counts for nothing.
 */
function tomlStateAfter(line: string, from: TomlLineState): TomlLineState {
  let { string, depth } = from;
  let i = 0;
  /** Past a closing delimiter: up to two more quotes belong to the string's content (`""""` ends with one quote in it). */
  const close = (quote: string): void => {
    i += 3;
    for (let extra = 0; extra < 2 && line[i] === quote; extra++) i++;
    string = 'none';
  };
  while (i < line.length) {
    const char = line[i];
    if (string === 'basic') {
      if (char === '\\') i += 2;
      else if (line.startsWith('"""', i)) close('"');
      else i++;
    } else if (string === 'literal') {
      if (line.startsWith("'''", i)) close("'");
      else i++;
    } else if (char === '#') break;
    else if (line.startsWith('"""', i)) {
      string = 'basic';
      i += 3;
    } else if (line.startsWith("'''", i)) {
      string = 'literal';
      i += 3;
    } else if (char === '"') {
      i++;
      while (i < line.length && line[i] !== '"') i += line[i] === '\\' ? 2 : 1;
      i++;
    } else if (char === "'") {
      const closing = line.indexOf("'", i + 1);
      i = closing < 0 ? line.length : closing + 1;
    } else {
      if (char === '[' || char === '{') depth++;
      else if ((char === ']' || char === '}') && depth > 0) depth--;
      i++;
    }
  }
  return { string, depth };
}

/** A TOML key (`a."b.c".'d'`) as its parts, or undefined when it is not one. */
function tomlKeyParts(key: string): string[] | undefined {
  const parts: string[] = [];
  const part = /\s*(?:([A-Za-z0-9_-]+)|("(?:[^"\\]|\\.)*")|'([^']*)')\s*(\.|$)/y;
  let at = 0;
  while (at < key.length) {
    part.lastIndex = at;
    const found = part.exec(key);
    if (found === null) return undefined;
    const [, bare, basic, literal, dot] = found;
    let name = bare ?? literal ?? '';
    if (basic !== undefined) {
      try {
        name = String(JSON.parse(basic));
      } catch {
        name = basic.slice(1, -1);
      }
    }
    parts.push(name);
    at = part.lastIndex;
    if (dot === '' && at < key.length) return undefined;
  }
  return parts.length > 0 ? parts : undefined;
}

/** A table (`[a.b]`) or array-of-tables (`[[a.b]]`) header line's key, or undefined when the line is no header. */
function tomlHeader(line: string): string[] | undefined {
  const header = /^\s*(\[\[?)(.*?)(\]\]?)\s*(?:#.*)?\r?$/.exec(line);
  if (header?.[1]?.length !== header?.[3]?.length) return undefined;
  return header === null ? undefined : tomlKeyParts(header[2] ?? '');
}

/** A key-value line's key (`a.b = …`), or undefined. */
function tomlAssignedKey(line: string): string[] | undefined {
  const assignment = /^\s*((?:[A-Za-z0-9_.\s-]|"(?:[^"\\]|\\.)*"|'[^']*')+?)\s*=/.exec(line);
  return assignment === null ? undefined : tomlKeyParts(assignment[1] ?? '');
}

/** Our table's key, or one of its sub-tables'. */
const isOurs = (key: readonly string[]): boolean => key[0] === 'mcp_servers' && key[1] === MCP_SERVER_NAME;

/**
 * The TOML file with our table replaced (or appended). Ours are the tables
 * whose header names `[mcp_servers.onboarding-events]` or one of its
 * sub-tables, each from its header to the next header, less the blank and
 * comment lines just before a header that is not ours (they belong to it).
 * Lines are read as TOML reads them: a line inside a multi-line string is
 * text, never a header, and an `[[array]]` header ends a table as a `[table]`
 * header does. Everything else stays byte for byte. Our table given another
 * way (dotted keys in another table, an inline table) is left to the user.
 */
export function mergeTomlConfig(existing: string | undefined, launch: ServerLaunch): Merged {
  const text = existing ?? '';
  const newline = text.includes('\r\n') ? '\r\n' : '\n';
  const table = tomlTable(launch).replace(/\n/g, newline);
  // Each line (without its newline) and where it starts; the last one may lack its newline.
  const lines: { readonly text: string; readonly start: number }[] = [];
  for (let start = 0; start < text.length;) {
    const next = text.indexOf('\n', start);
    lines.push({ text: text.slice(start, next < 0 ? text.length : next), start });
    start = next < 0 ? text.length : next + 1;
  }
  // Per line: its header's key when it is a header (never inside a multi-line string), and whether it is blank or a comment.
  const headers: (string[] | undefined)[] = [];
  const blankOrComment: boolean[] = [];
  let state = TOML_TOP;
  let inTable: string[] = [];
  for (const line of lines) {
    const top = state.string === 'none' && state.depth === 0;
    const header = top ? tomlHeader(line.text) : undefined;
    headers.push(header);
    blankOrComment.push(top && /^\s*(?:#.*)?\r?$/.test(line.text));
    if (header !== undefined) {
      inTable = header;
      continue;
    }
    if (top) {
      const assigned = tomlAssignedKey(line.text);
      const key = assigned === undefined ? [] : [...inTable, ...assigned];
      if (!isOurs(inTable) && isOurs(key))
        return { ok: false, problem: 'The file sets the Onboarding Events server with dotted keys, so it is left as it is.' };
      if (key.join('.') === 'mcp_servers' && line.text.includes(MCP_SERVER_NAME))
        return { ok: false, problem: 'The file sets its MCP servers as an inline table, so it is left as it is.' };
    }
    state = tomlStateAfter(line.text, state);
  }
  // Our regions as [first line, line after the last].
  const regions: (readonly [number, number])[] = [];
  for (let i = 0; i < lines.length; i++) {
    const header = headers[i];
    if (header === undefined || !isOurs(header)) continue;
    let end = i + 1;
    while (end < lines.length && headers[end] === undefined) end++;
    const next = headers[end];
    if (next === undefined || !isOurs(next)) while (end - 1 > i && blankOrComment[end - 1] === true) end--;
    regions.push([i, end]);
    i = end - 1;
  }
  const offset = (line: number): number => lines[line]?.start ?? text.length;
  const first = regions[0];
  if (first === undefined) {
    const separator = text === '' || text.endsWith(`${newline}${newline}`) ? '' : text.endsWith('\n') ? newline : `${newline}${newline}`;
    return { ok: true, text: `${text}${separator}${table}` };
  }
  let merged = text.slice(0, offset(first[0])) + table;
  regions.forEach(([, end], index) => {
    merged += text.slice(offset(end), offset(regions[index + 1]?.[0] ?? lines.length));
  });
  return { ok: true, text: merged };
}

/** The entry merged into the agent's file, in its format. */
export function mergeAgentConfig(kind: AgentKind, existing: string | undefined, launch: ServerLaunch): Merged {
  return agentSetup(kind, launch).format === 'toml' ? mergeTomlConfig(existing, launch) : mergeJsonConfig(existing, kind, launch);
}

/** At most this much of an agent's file is read (Claude Code's ~/.claude.json grows with its history). */
export const MAX_CONFIG_BYTES = 16 * 1024 * 1024;

async function readIfPresent(path: string): Promise<string | undefined> {
  return (await readNamedFileIfPresent(path, { maxBytes: MAX_CONFIG_BYTES }))?.toString('utf8');
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
 * is returned. Through the one writer (common/namedFiles.ts): a new file (and
 * its folder) is the user's alone, an existing one keeps its mode.
 */
export async function writeAgentConfig(plan: ConfigPlan): Promise<boolean> {
  if (!plan.merged.ok) return false;
  if ((await readIfPresent(plan.path)) !== plan.existing) return false;
  await mkdir(dirname(plan.path), { recursive: true, mode: 0o700 });
  // A new file is the user's alone; an existing one keeps its mode. A symlink or hard link there is refused, not followed.
  await writeNamedFile(plan.path, plan.merged.text);
  return true;
}
