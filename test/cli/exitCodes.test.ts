// oe's exit codes that only the process has, observed on the built oe: a
// write error on stdout is 74 with a message (a closed pipe is no error),
// Ctrl-C at a prompt 130, SIGTERM 143.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { makeEvent, startFakeApi, TEST_SERIALS, type FakeApi } from '../support/fakeApi';
import { OE, runOeInTerminal, signedInEnv, tempFolder, type OeRun } from '../support/cli/runOe';

/** Runs oe with stdout on `stdout` (a file descriptor or 'pipe'), calling `started` with the child once it runs. */
function spawnOe(
  args: readonly string[],
  env: Record<string, string>,
  options: { readonly stdout?: number; readonly started?: (child: ReturnType<typeof spawn>) => void } = {},
): Promise<OeRun> {
  const cwd = tempFolder('exit');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [OE, ...args], {
      cwd,
      env: { PATH: process.env['PATH'] ?? '', HOME: cwd, ...env },
      stdio: ['ignore', options.stdout ?? 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`oe ${args.join(' ')} did not end\n${stderr}`));
    }, 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    options.started?.(child);
  });
}

describe('oe: exit codes and inputs by the conventions', function () {
  this.timeout(60_000);
  let api: FakeApi | undefined;
  beforeEach(async () => {
    api = await startFakeApi();
  });
  afterEach(async () => {
    await api?.close();
  });
  const env = (): Record<string, string> => {
    assert.ok(api !== undefined);
    return signedInEnv(api);
  };

  it('stdout that cannot be written (a full disk: /dev/full): exit 74 with the reason on stderr', async () => {
    const full = openSync('/dev/full', 'w');
    try {
      const help = await spawnOe(['--help'], {}, { stdout: full });
      assert.equal(help.code, 74, help.stderr);
      assert.equal(help.stderr, 'oe: Cannot write the output: ENOSPC\n');
      const events = await spawnOe(['events', TEST_SERIALS.onboarded, '--json'], env(), { stdout: full });
      assert.equal(events.code, 74, events.stderr);
      assert.match(events.stderr, /Cannot write the output: ENOSPC/);
    } finally {
      closeSync(full);
    }
  });

  it('a reader that goes away (`oe … | head`) is no error: exit 0, nothing on stderr', async () => {
    assert.ok(api !== undefined);
    api.setMachineEvents(
      TEST_SERIALS.started,
      Array.from({ length: 20_000 }, (_, index) => makeEvent({ type: 'STEP', message: 'step', timestamp: Date.UTC(2025, 0, 1) + index })),
    );
    const run = await spawnOe(['events', TEST_SERIALS.started, '--ndjson'], env(), {
      started: (child) => child.stdout?.once('data', () => child.stdout?.destroy()),
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stderr, '');
  });

  it('SIGTERM ends a run with 143, Ctrl-C (SIGINT) with 130', async () => {
    for (const [signal, code] of [
      ['SIGTERM', 143],
      ['SIGINT', 130],
    ] as const) {
      const run = await spawnOe(['watch', TEST_SERIALS.started, '--timeout', '30s'], env(), {
        started: (child) => setTimeout(() => child.kill(signal), 1500),
      });
      assert.equal(run.code, code, `${signal}: ${run.stderr}`);
    }
  });

  it('Ctrl-C at a prompt, hidden or not: exit 130, nothing sent', async () => {
    for (const [variable, prompt] of [
      ['OE_PASSWORD', 'Password: '],
      ['OE_CLIENT_ID', 'Client ID: '],
    ] as const) {
      const run = await runOeInTerminal(['events', TEST_SERIALS.onboarded], {
        env: { ...env(), [variable]: undefined },
        type: { prompt, input: '\u0003' },
        timeoutMs: 15_000,
      });
      assert.equal(run.code, 130, `${prompt}${run.stdout}`);
    }
    assert.equal(api?.tokenRequests().length, 0);
  });
});
