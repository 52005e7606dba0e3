// The local channel between the MCP server (dist/mcp.js, started by an agent)
// and the running extension, which alone holds the credentials. Each VS Code
// window listens on its own Unix socket (a named pipe on Windows) and writes a
// discovery file next to it: its endpoint and a random per-launch key. Both
// live in one directory only the user can open (0700; the files 0600), so
// another local user can neither connect nor read the key, and a process of
// the same user must still present the key: the channel answers nothing
// without it. The key is no agreement, though: any program of the user can
// read it, so it lets a caller read only what the window already loaded; a
// call that would send requests or start a watch also presents an agent's
// pairing (one the user agreed to in VS Code, held in its SecretStorage) and
// is then asked about in VS Code (agentTools/mcpChannelHost.ts). One request per
// connection, newline-terminated JSON, every size and wait bounded. The MCP process finds the windows through the
// directory (an agent outside VS Code has no other way to learn an endpoint,
// and nothing secret need then pass through its arguments, environment or
// configuration). Vscode-free: the extension and dist/mcp.js share it.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmod, lstat, mkdir, readdir, unlink } from 'node:fs/promises';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { definedOnly } from '../common/definedOnly';
import { isRecord } from '../common/guards';
import { readNamedFile, writeNamedFile } from '../common/namedFiles';

export const CHANNEL_LIMITS = {
  /** A request: a tool name and its input (the largest input, 100 serial numbers of 128 characters, is ~14 KB). */
  maxRequestBytes: 64 * 1024,
  /** A reply: one tool result (at most 24,000 characters, each up to 6 bytes once JSON-escaped). */
  maxReplyBytes: 256 * 1024,
  /** Time to send a request once connected, and to answer "hello". */
  quickMs: 3_000,
  /** Time a tool call may take (a summary of 100 machines on a slow API). */
  callMs: 120_000,
  /** Connections one window serves at once. */
  maxConnections: 16,
  /** Discovery files read, and the bytes of each. */
  maxWindows: 32,
  maxDiscoveryBytes: 4_096,
} as const;

/** Overrides the directory (tests; a user whose home is on a network share). Not a secret: the key is never in the environment. */
export const CHANNEL_DIR_VARIABLE = 'ONBOARDING_EVENTS_MCP_DIR';
/** Set by VS Code's own MCP server definition: the window that started the server answers first. */
export const CHANNEL_WINDOW_VARIABLE = 'ONBOARDING_EVENTS_MCP_WINDOW';
/**
 * Set by VS Code's own MCP server definition when VS Code starts the server: a pairing made for that launch
 * (held in the window's memory), since the user started it from VS Code, which lists it with its tools.
 */
export const CHANNEL_PAIRING_VARIABLE = 'ONBOARDING_EVENTS_MCP_PAIRING';
/**
 * Set by Connect an Agent in the agent's configuration: a random key of that agent's, which names where its
 * pairing is kept. Not a credential: it finds the agent's own pairing, which the window still checks.
 */
export const CHANNEL_AGENT_VARIABLE = 'ONBOARDING_EVENTS_MCP_AGENT';
/** Shortest agent key that names a kept pairing: a random key, not a name anyone could guess. */
const MIN_AGENT_KEY = 16;
/** Longest agent name a pairing request may carry (it is shown in the question). */
export const MAX_AGENT_NAME = 60;

/** Where the windows' endpoints and discovery files live. */
export function channelDirectory(env: NodeJS.ProcessEnv = process.env, home: string = homedir()): string {
  const override = env[CHANNEL_DIR_VARIABLE];
  return override !== undefined && override !== '' ? override : join(home, '.onboarding-events', 'mcp');
}

const POSIX = process.platform !== 'win32';

/** Creates the directory only the user can open, or refuses one someone else owns or that is a link. */
export async function ensurePrivateDirectory(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await checkPrivate(dir, true);
}

/** True when `path` is ours and no one else's (on Windows the user profile's ACLs do this). */
async function checkPrivate(path: string, isDirectory: boolean): Promise<void> {
  if (!POSIX) return;
  const info = await lstat(path);
  if (isDirectory ? !info.isDirectory() : !info.isFile()) throw new Error(`${path} is not a plain ${isDirectory ? 'directory' : 'file'}`);
  if (info.uid !== process.getuid?.()) throw new Error(`${path} belongs to another user`);
  if ((info.mode & 0o077) !== 0) {
    if (!isDirectory) throw new Error(`${path} can be read by other users`);
    await chmod(path, 0o700);
  }
}

export interface WindowFacts {
  readonly signedIn: boolean;
  /** When the window last had focus (ms since the epoch): the one the user used last answers. */
  readonly lastActive: number;
}

/** A tool's answer: its text, and whether it was refused only because the caller is not a paired agent. */
export interface ToolAnswer {
  readonly text: string;
  readonly pairingNeeded?: true;
}

/** How a pairing request ended: the new pairing, or why there is none. */
export type PairingAnswer =
  | { readonly kind: 'paired'; readonly pairing: string }
  /** The user said no (or dismissed the question). */
  | { readonly kind: 'declined' }
  /** This window asks no pairing question now: Connect an Agent was not run in it. */
  | { readonly kind: 'closed' };

/** What the extension answers on the channel. */
export interface ChannelHandler {
  hello(): WindowFacts;
  /** `pairing` is what the caller presented beside the window's key, unchecked. */
  call(tool: string, input: unknown, pairing: string | undefined, signal: AbortSignal): Promise<ToolAnswer>;
  /** Asks the user in VS Code whether to pair the agent that calls itself `agent`. */
  pair(agent: string, signal: AbortSignal): Promise<PairingAnswer>;
}

export type Request =
  | { readonly key: string; readonly kind: 'hello' }
  | { readonly key: string; readonly kind: 'call'; readonly tool: string; readonly input: unknown; readonly pairing?: string }
  | { readonly key: string; readonly kind: 'pair'; readonly agent: string };

export type Reply =
  | ({ readonly ok: true; readonly kind: 'hello' } & WindowFacts)
  | ({ readonly ok: true; readonly kind: 'call' } & ToolAnswer)
  | { readonly ok: true; readonly kind: 'pair'; readonly answer: PairingAnswer }
  | { readonly ok: false; readonly error: 'refused' | 'bad-request' | 'busy' | 'failed' | 'timeout' };

function parseRequest(value: unknown): Request | undefined {
  if (!isRecord(value) || typeof value['key'] !== 'string') return undefined;
  if (value['kind'] === 'hello') return { key: value['key'], kind: 'hello' };
  if (value['kind'] === 'call' && typeof value['tool'] === 'string') {
    const pairing = value['pairing'];
    return {
      key: value['key'],
      kind: 'call',
      tool: value['tool'],
      input: value['input'],
      ...definedOnly({ pairing: typeof pairing === 'string' ? pairing : undefined }),
    };
  }
  if (value['kind'] === 'pair' && typeof value['agent'] === 'string')
    return { key: value['key'], kind: 'pair', agent: value['agent'].slice(0, MAX_AGENT_NAME) };
  return undefined;
}

function parsePairingAnswer(value: unknown): PairingAnswer | undefined {
  if (!isRecord(value)) return undefined;
  const { kind, pairing } = value;
  if (kind === 'paired' && typeof pairing === 'string') return { kind: 'paired', pairing };
  return kind === 'declined' || kind === 'closed' ? { kind } : undefined;
}

function parseReply(value: unknown): Reply | undefined {
  if (!isRecord(value)) return undefined;
  if (value['ok'] === false && typeof value['error'] === 'string')
    return ['refused', 'bad-request', 'busy', 'failed', 'timeout'].includes(value['error']) ? (value as Reply) : undefined;
  if (value['ok'] !== true) return undefined;
  if (value['kind'] === 'hello' && typeof value['signedIn'] === 'boolean' && typeof value['lastActive'] === 'number')
    return { ok: true, kind: 'hello', signedIn: value['signedIn'], lastActive: value['lastActive'] };
  if (value['kind'] === 'call' && typeof value['text'] === 'string')
    return { ok: true, kind: 'call', text: value['text'], ...(value['pairingNeeded'] === true ? { pairingNeeded: true } : {}) };
  if (value['kind'] === 'pair') {
    const answer = parsePairingAnswer(value['answer']);
    return answer === undefined ? undefined : { ok: true, kind: 'pair', answer };
  }
  return undefined;
}

/** Compares keys in constant time (digests first, so the lengths need not match). */
function sameKey(given: string, key: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(key));
}

/** Reads one newline-terminated JSON message of at most `maxBytes`, or undefined when it is too long, malformed or late. */
function readMessage(socket: Socket, maxBytes: number, timeoutMs: number): Promise<unknown> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (value: unknown) => {
      clearTimeout(timer);
      socket.off('data', onData).off('end', onEnd).off('error', onEnd).off('close', onEnd);
      resolve(value);
    };
    const onData = (chunk: Buffer) => {
      const newline = chunk.indexOf(0x0a);
      const part = newline < 0 ? chunk : chunk.subarray(0, newline);
      size += part.length;
      if (size > maxBytes) {
        finish(undefined);
        return;
      }
      chunks.push(part);
      if (newline < 0) return;
      try {
        finish(JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown);
      } catch {
        finish(undefined);
      }
    };
    const onEnd = () => {
      finish(undefined);
    };
    const timer = setTimeout(onEnd, timeoutMs);
    socket.on('data', onData).on('end', onEnd).on('error', onEnd).on('close', onEnd);
  });
}

function send(socket: Socket, reply: Reply): void {
  if (!socket.destroyed) socket.end(`${JSON.stringify(reply)}\n`);
}

/** What a window publishes in its discovery file. */
export interface WindowEndpoint {
  readonly id: string;
  readonly endpoint: string;
  readonly key: string;
  readonly pid: number;
}

export interface Channel {
  readonly id: string;
  /** The discovery file (no secret but the key, readable by the user alone). */
  readonly discoveryFile: string;
  dispose(): Promise<void>;
}

/** Listens for the MCP server in `dir` and publishes the endpoint and a new key there. */
export async function startChannel(dir: string, handler: ChannelHandler): Promise<Channel> {
  await ensurePrivateDirectory(dir);
  const id = `${process.pid}-${randomBytes(6).toString('hex')}`;
  const key = randomBytes(32).toString('base64url');
  // A socket path is limited to ~104 bytes: the id is short, the directory is the user's choice.
  const endpoint = POSIX ? join(dir, `${id}.sock`) : `\\\\.\\pipe\\onboarding-events-${id}`;
  const open = new Set<Socket>();
  const server = createServer((socket) => {
    if (open.size >= CHANNEL_LIMITS.maxConnections) {
      send(socket, { ok: false, error: 'busy' });
      return;
    }
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    socket.on('error', () => socket.destroy());
    void serve(socket, key, handler);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(endpoint, () => {
      server.off('error', reject);
      resolve();
    });
  });
  if (POSIX) await chmod(endpoint, 0o600);
  const discoveryFile = join(dir, `${id}.json`);
  const published: WindowEndpoint = { id, endpoint, key, pid: process.pid };
  await writeNamedFile(discoveryFile, JSON.stringify(published), { mode: 0o600 });
  return {
    id,
    discoveryFile,
    dispose: async () => {
      for (const socket of open) socket.destroy();
      await Promise.all([unlink(discoveryFile).catch(() => undefined), closeServer(server)]);
    },
  };
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) =>
    server.close(() => {
      resolve();
    }),
  );
}

async function serve(socket: Socket, key: string, handler: ChannelHandler): Promise<void> {
  const request = parseRequest(await readMessage(socket, CHANNEL_LIMITS.maxRequestBytes, CHANNEL_LIMITS.quickMs));
  if (request === undefined) {
    send(socket, { ok: false, error: 'bad-request' });
    return;
  }
  if (!sameKey(request.key, key)) {
    send(socket, { ok: false, error: 'refused' });
    return;
  }
  if (request.kind === 'hello') {
    send(socket, { ok: true, kind: 'hello', ...handler.hello() });
    return;
  }
  // The MCP client cancelled (the process closed the connection), or the call (or the user's answer) took too long.
  const closed = new AbortController();
  const onClose = () => {
    closed.abort();
  };
  socket.once('close', onClose);
  const signal = AbortSignal.any([closed.signal, AbortSignal.timeout(CHANNEL_LIMITS.callMs)]);
  try {
    send(
      socket,
      request.kind === 'pair'
        ? { ok: true, kind: 'pair', answer: await handler.pair(request.agent, signal) }
        : { ok: true, kind: 'call', ...(await handler.call(request.tool, request.input, request.pairing, signal)) },
    );
  } catch {
    send(socket, { ok: false, error: signal.aborted ? 'timeout' : 'failed' });
  } finally {
    socket.off('close', onClose);
  }
}

/** Sends one request to a window and reads its reply; undefined when nobody answers in time. */
export function ask(
  endpoint: string,
  request: Request,
  options: { readonly timeoutMs: number; readonly signal?: AbortSignal },
): Promise<Reply | undefined> {
  if (options.signal?.aborted === true) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const socket = createConnection(endpoint);
    const done = (reply: Reply | undefined) => {
      options.signal?.removeEventListener('abort', onAbort);
      socket.destroy();
      resolve(reply);
    };
    const onAbort = () => {
      done(undefined);
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    socket.once('error', () => {
      done(undefined);
    });
    socket.once('connect', () => {
      socket.write(`${JSON.stringify(request)}\n`);
      void readMessage(socket, CHANNEL_LIMITS.maxReplyBytes, options.timeoutMs).then((value) => {
        done(parseReply(value));
      });
    });
  });
}

function parseEndpoint(value: unknown): WindowEndpoint | undefined {
  if (!isRecord(value)) return undefined;
  const { id, endpoint, key, pid } = value;
  return typeof id === 'string' && typeof endpoint === 'string' && typeof key === 'string' && typeof pid === 'number'
    ? { id, endpoint, key, pid }
    : undefined;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, but another user's (a reused pid); the key check still holds.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The windows published in `dir` whose process still runs (files of windows that died are removed). */
export async function publishedWindows(dir: string): Promise<WindowEndpoint[]> {
  try {
    await checkPrivate(dir, true);
  } catch {
    return [];
  }
  const names = (await readdir(dir).catch(() => [])).filter((name) => name.endsWith('.json')).slice(0, CHANNEL_LIMITS.maxWindows);
  const windows = await Promise.all(
    names.map(async (name) => {
      const path = join(dir, name);
      try {
        await checkPrivate(path, false);
        const text = await readNamedFile(path, { maxBytes: CHANNEL_LIMITS.maxDiscoveryBytes, noFinalLink: true, ownedByUs: true });
        const window = parseEndpoint(JSON.parse(text.toString('utf8')));
        if (window !== undefined && !processAlive(window.pid)) {
          // A window that ended without cleaning up (a crash, a killed host): its socket file goes too, if it is ours.
          const socket = join(dir, `${window.id}.sock`);
          const stale = window.endpoint === socket ? [path, socket] : [path];
          await Promise.all(stale.map((file) => unlink(file).catch(() => undefined)));
          return undefined;
        }
        return window;
      } catch {
        return undefined;
      }
    }),
  );
  return windows.filter((window) => window !== undefined);
}

export type Reached =
  | { readonly kind: 'window'; readonly window: WindowEndpoint; readonly facts: WindowFacts }
  | { readonly kind: 'none' }
  | { readonly kind: 'refused' };

/**
 * The window that answers: the one that started this server (VS Code's own
 * MCP registration names it), else a signed-in one, the one used last first.
 */
export async function chooseWindow(dir: string, preferred?: string): Promise<Reached> {
  const windows = await publishedWindows(dir);
  const answers = await Promise.all(
    windows.map(async (window) => ({
      window,
      reply: await ask(window.endpoint, { key: window.key, kind: 'hello' }, { timeoutMs: CHANNEL_LIMITS.quickMs }),
    })),
  );
  const live = answers.flatMap(({ window, reply }) =>
    reply?.ok === true && reply.kind === 'hello' ? [{ window, facts: { signedIn: reply.signedIn, lastActive: reply.lastActive } }] : [],
  );
  if (live.length === 0)
    return answers.some(({ reply }) => reply?.ok === false && reply.error === 'refused') ? { kind: 'refused' } : { kind: 'none' };
  const own = live.find(({ window }) => window.id === preferred);
  const [best] =
    own !== undefined
      ? [own]
      : live.sort((a, b) => Number(b.facts.signedIn) - Number(a.facts.signedIn) || b.facts.lastActive - a.facts.lastActive);
  return best === undefined ? { kind: 'none' } : { kind: 'window', ...best };
}

/**
 * Where an agent's MCP process keeps the pairing the user agreed to: one file per agent key (the
 * CHANNEL_AGENT_VARIABLE its configuration holds), never per the name its client gives, which any client can
 * give; so the next start of that agent needs no new question, and another agent is asked about anew. Without
 * an agent key the pairing lasts as long as the process. Readable by the user alone, like the discovery
 * files, and worth as little to another program: a paired agent is still asked about, in VS Code, for every
 * call that would send a request or start a watch, and the user can revoke the pairing there. `given`
 * (VS Code's own launch) is used as it is and never written.
 */
export function agentPairingStore(
  dir: string,
  agentKey: string | undefined,
  given?: string,
): { current(): Promise<string | undefined>; save(pairing: string): Promise<void> } {
  const file = () =>
    join(
      dir,
      'pairings',
      `${createHash('sha256')
        .update(agentKey ?? '')
        .digest('hex')
        .slice(0, 32)}.json`,
    );
  const kept = agentKey !== undefined && agentKey.length >= MIN_AGENT_KEY;
  let held: string | undefined;
  return {
    current: async () => {
      if (given !== undefined && given !== '') return given;
      if (!kept) return held;
      try {
        await checkPrivate(file(), false);
        const stored = JSON.parse(
          (await readNamedFile(file(), { maxBytes: CHANNEL_LIMITS.maxDiscoveryBytes, noFinalLink: true, ownedByUs: true })).toString(
            'utf8',
          ),
        ) as unknown;
        return isRecord(stored) && typeof stored['pairing'] === 'string' ? stored['pairing'] : undefined;
      } catch {
        return undefined;
      }
    },
    save: async (pairing) => {
      if (given !== undefined && given !== '') return;
      held = pairing;
      if (!kept) return;
      await ensurePrivateDirectory(join(dir, 'pairings'));
      await writeNamedFile(file(), JSON.stringify({ pairing }), { mode: 0o600 });
    },
  };
}
