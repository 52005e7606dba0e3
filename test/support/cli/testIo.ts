// oe run inside the test's own process, as the GitHub CLI's tests run a
// command with iostreams.Test(): a CliIo over memory (stdout and stderr
// collected, stdin from a string, no terminal), the environment and working
// folder the test names, and the same result a run of dist/oe.js gives.
import { Readable } from 'node:stream';
import type { CliIo } from '../../../src/cli/cliCommand';
import { colorFor, localizeFor } from '../../../src/cli/cliIo';
import { runCli } from '../../../src/cli/cmd/root';
import { tempFolder, type OeOptions, type OeRun } from './runOe';

export interface TestIo {
  readonly io: CliIo;
  /** What was written to stdout so far. */
  readonly stdout: () => string;
  /** What was written to stderr so far. */
  readonly stderr: () => string;
}

/** A CliIo in memory: nothing is a terminal, so no prompt, no colour and no progress, as in a pipeline. */
export function testIo(options: { readonly env: NodeJS.ProcessEnv; readonly cwd: string; readonly stdin?: string }): TestIo {
  let stdout = '';
  let stderr = '';
  const isTTY = { stdout: false, stderr: false, stdin: false };
  const io: CliIo = {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    // Not a terminal: the pager is never started, the text goes to stdout.
    page: (text) => {
      stdout += text;
      return Promise.resolve();
    },
    stdin: Readable.from(options.stdin === undefined || options.stdin === '' ? [] : [Buffer.from(options.stdin)]),
    isTTY,
    env: options.env,
    cwd: options.cwd,
    color: colorFor(options.env, isTTY.stdout),
    t: localizeFor(options.env),
  };
  return { io, stdout: () => stdout, stderr: () => stderr };
}

/**
 * `oe args…` in this process, with runOe's environment (PATH, a temporary HOME and what the test sets) and
 * working folder; past `timeoutMs` the run is ended as SIGTERM ends it and the test fails.
 */
export async function runOeInProcess(args: readonly string[], options: OeOptions = {}): Promise<OeRun> {
  const home = options.cwd ?? tempFolder('home');
  const env: NodeJS.ProcessEnv = { PATH: process.env['PATH'] ?? '', HOME: home };
  for (const [name, value] of Object.entries(options.env ?? {})) if (value !== undefined) env[name] = value;
  const { io, stdout, stderr } = testIo({
    env,
    cwd: options.cwd ?? home,
    ...(options.stdin === undefined ? {} : { stdin: options.stdin }),
  });
  const abort = new AbortController();
  const timeoutMs = options.timeoutMs ?? 30_000;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      abort.abort('SIGTERM');
      reject(new Error(`oe ${args.join(' ')} did not end within ${timeoutMs} ms\nstdout: ${stdout()}\nstderr: ${stderr()}`));
    }, timeoutMs);
  });
  try {
    const code = await Promise.race([runCli(args, io, abort.signal), timedOut]);
    return { code, stdout: stdout(), stderr: stderr() };
  } finally {
    clearTimeout(timer);
  }
}
