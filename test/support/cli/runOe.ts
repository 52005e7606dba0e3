// Runs the built oe command (dist/oe.js) as a child process, the way a
// pipeline or a test rig does: its own environment (nothing inherited but
// PATH, so no proxy, OE_* variable or locale of the machine leaks in), a
// temporary HOME and working folder, piped stdin/stdout/stderr (so never a
// terminal), and a deadline. The CLI tier observes oe from outside only.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_CREDENTIALS, type FakeApi } from '../fakeApi';

export const ROOT = join(__dirname, '..', '..', '..', '..');
export const OE = join(ROOT, 'dist', 'oe.js');

export interface OeRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface OeOptions {
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly cwd?: string;
  readonly stdin?: string;
  readonly timeoutMs?: number;
}

let root: string | undefined;

/** A folder the test owns (oe's HOME and working folder), below one root removed when the tests end. */
export function tempFolder(prefix: string): string {
  if (root === undefined) {
    const made = mkdtempSync(join(tmpdir(), 'oe-cli-tests-'));
    process.once('exit', () => {
      rmSync(made, { recursive: true, force: true });
    });
    root = made;
  }
  return mkdtempSync(join(root, `${prefix}-`));
}

/** The environment of a signed-in run against `api`: the fake's URLs and working credentials. */
export function signedInEnv(api: FakeApi): Record<string, string> {
  return {
    OE_API_URL: api.baseUrl,
    OE_AUTH_URL: api.authUrl,
    OE_CLIENT_ID: TEST_CREDENTIALS.clientId,
    OE_CLIENT_SECRET: TEST_CREDENTIALS.clientSecret,
    OE_USERNAME: TEST_CREDENTIALS.username,
    OE_PASSWORD: TEST_CREDENTIALS.password,
  };
}

export function runOe(args: readonly string[], options: OeOptions = {}): Promise<OeRun> {
  return runOeUnder([], args, options);
}

/** runOe, with `oe` run by another program: `[program, ...its arguments]`, which ends with running what follows it. */
export function runOeUnder(wrapper: readonly string[], args: readonly string[], options: OeOptions = {}): Promise<OeRun> {
  const home = options.cwd ?? tempFolder('home');
  const env: Record<string, string> = { PATH: process.env['PATH'] ?? '', HOME: home };
  for (const [name, value] of Object.entries(options.env ?? {})) if (value !== undefined) env[name] = value;
  const [program, ...programArgs] = [...wrapper, process.execPath, OE, ...args];
  return new Promise((resolve, reject) => {
    const child = spawn(program ?? process.execPath, programArgs, { cwd: options.cwd ?? home, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`oe ${args.join(' ')} did not end within ${options.timeoutMs ?? 30_000} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, options.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.stdin ?? '');
  });
}

/** Every file below `dir` with its content: what a secret must never be found in. */
export function filesBelow(dir: string): { path: string; content: Buffer }[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())
    .map((path) => ({ path, content: readFileSync(path) }));
}

/** No Node stack trace: a line "    at …(file:line:col)". */
export const STACK_LINE = /^\s+at .+:\d+:\d+\)?$/m;

/** The German text of an English message, from the bundle the extension and oe share. */
export function german(message: string): string {
  const bundle = JSON.parse(readFileSync(join(ROOT, 'l10n', 'bundle.l10n.de.json'), 'utf8')) as Record<string, string>;
  const text = bundle[message];
  if (text === undefined) throw new Error(`no German text for ${message}`);
  return text;
}

/** A word for a POSIX shell, single-quoted. */
function quoted(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * Runs oe on a terminal: util-linux's `script` gives it a pseudo-terminal as stdin, stdout and stderr (so
 * both outputs arrive mixed, as a person sees them), and `input` is typed once `prompt` has appeared;
 * `under` runs `script` itself under another program, as runOeUnder does.
 */
export function runOeInTerminal(
  args: readonly string[],
  options: OeOptions & { readonly type?: { readonly prompt: string; readonly input: string }; readonly under?: readonly string[] },
): Promise<OeRun> {
  const home = options.cwd ?? tempFolder('tty');
  const env: Record<string, string> = { PATH: process.env['PATH'] ?? '', HOME: home, TERM: 'xterm-256color' };
  for (const [name, value] of Object.entries(options.env ?? {})) if (value !== undefined) env[name] = value;
  const command = [process.execPath, OE, ...args].map(quoted).join(' ');
  return new Promise((resolve, reject) => {
    const [program, ...programArgs] = [...(options.under ?? []), 'script', '-q', '-e', '-c', command, '/dev/null'];
    const child = spawn(program, programArgs, { cwd: home, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let typed = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (!typed && options.type !== undefined && stdout.includes(options.type.prompt)) {
        typed = true;
        child.stdin.write(`${options.type.input}\r`);
      }
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`oe ${args.join(' ')} on a terminal did not end within ${options.timeoutMs ?? 30_000} ms\n${stdout}`));
    }, options.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      child.stdin.end();
      resolve({ code, stdout, stderr: '' });
    });
  });
}
