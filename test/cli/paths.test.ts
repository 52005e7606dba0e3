// The files a repository names, where only a process shows the outcome: a
// FIFO, /dev/zero and a backtracking glob must not hang oe (a hang is bounded
// only by killing it), SIGTERM during a scan, and `oe mcp` over stdio. The
// rest: test/unit/cli/checkPaths.test.ts, in process.
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { AGENT_TOOL_NAMES } from '../../src/core/domain/agentTools/toolDefinitions';
import { makeEvent, startFakeApi, TEST_SERIALS, type FakeApi } from '../support/fakeApi';
import { OE, runOe, signedInEnv, tempFolder } from '../support/cli/runOe';

const FAILED = 'FLR-2000-D0001';
/** What an npm token file holds, shaped like a serial number so a leak would reach the API as one. */
const TOKEN = 'NPM-7777-T0KEN';
const TOKEN_FILE_TEXT = `//registry.example/:_authToken=${TOKEN}\n`;
/** Two lines of an authorized_keys file a planted link would have oe overwrite. */
const KEYS = 'ssh-ed25519 AAAAC3Nza the-owner\nssh-ed25519 AAAAC3Nzb the-deploy-key\n';

/** A repository with one file naming a failed machine, beside a home folder (outside it) holding secrets. */
function repositoryAndHome(): { repo: string; home: string } {
  const home = tempFolder('home');
  const repo = tempFolder('repo');
  mkdirSync(join(repo, '.git'));
  writeFileSync(join(repo, 'line.yaml'), `machine: ${FAILED}\n`);
  writeFileSync(join(home, '.npmrc'), TOKEN_FILE_TEXT);
  writeFileSync(join(home, 'authorized_keys'), KEYS);
  return { repo, home };
}

describe('oe check and the files a repository names', function () {
  this.timeout(60_000);
  let api: FakeApi | undefined;
  beforeEach(async () => {
    api = await startFakeApi();
    api.setMachineEvents(FAILED, [makeEvent({ type: 'CERTIFICATE_REJECTED', message: 'rejected', timestamp: Date.UTC(2025, 0, 3) })]);
  });
  afterEach(async () => {
    await api?.close();
  });
  const env = (): Record<string, string> => {
    assert.ok(api !== undefined);
    return signedInEnv(api);
  };

  it('a FIFO and /dev/zero end at once, not checked, with a message naming them (exit 3), no hang and no growing memory', async () => {
    const { repo } = repositoryAndHome();
    const fifo = spawnSync('mkfifo', [join(repo, 'pipe.yaml')]);
    assert.equal(fifo.status, 0);
    const started = Date.now();
    const pipe = await runOe(['check', 'pipe.yaml'], { env: env(), cwd: repo, timeoutMs: 10_000 });
    assert.equal(pipe.code, 3, pipe.stderr);
    assert.match(pipe.stderr, /pipe\.yaml is not a regular file\./);
    const zero = await runOe(['check', '/dev/zero', '--follow-symlinks'], { env: env(), cwd: repo, timeoutMs: 10_000 });
    assert.equal(zero.code, 3, zero.stderr);
    assert.match(zero.stderr, /\/dev\/zero is not a regular file\./);
    assert.ok(Date.now() - started < 10_000);
  });

  it("the repository's include glob cannot hang oe: a backtracking glob on a long name matches in linear time; a huge glob is refused", async () => {
    const { repo } = repositoryAndHome();
    mkdirSync(join(repo, '.vscode'));
    writeFileSync(
      join(repo, '.vscode', 'settings.json'),
      JSON.stringify({ 'onboardingEvents.workspaceScan.include': '**/@(a*)*(a*)*(a*)*(a*)b' }),
    );
    writeFileSync(join(repo, 'a'.repeat(30)), `machine: ${FAILED}\n`);
    const started = Date.now();
    const run = await runOe(['check', '.'], { env: env(), cwd: repo, timeoutMs: 10_000 });
    assert.ok(Date.now() - started < 10_000);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /No serial numbers found\./);

    writeFileSync(
      join(repo, '.vscode', 'settings.json'),
      JSON.stringify({ 'onboardingEvents.workspaceScan.include': `**/${'{a,'.repeat(11)}b${'}'.repeat(11)}` }),
    );
    const deep = await runOe(['check', '.'], { env: env(), cwd: repo });
    assert.equal(deep.code, 64, deep.stderr);
    assert.match(deep.stderr, /onboardingEvents\.workspaceScan\.include cannot be used: its brace groups are nested deeper than 10\./);
    writeFileSync(
      join(repo, '.vscode', 'settings.json'),
      JSON.stringify({ 'onboardingEvents.workspaceScan.include': `**/*${'a*'.repeat(600)}` }),
    );
    const long = await runOe(['check', '.'], { env: env(), cwd: repo });
    assert.equal(long.code, 64, long.stderr);
    assert.match(long.stderr, /cannot be used: it is longer than 1000 characters\./);
  });

  it('SIGTERM during a scan of a backtracking glob ends oe at once (it is ignored for minutes while a glob backtracks)', async () => {
    const repo = tempFolder('sigterm');
    writeFileSync(join(repo, 'a'.repeat(30)), `machine: ${FAILED}\n`);
    mkdirSync(join(repo, '.vscode'));
    writeFileSync(
      join(repo, '.vscode', 'settings.json'),
      JSON.stringify({ 'onboardingEvents.workspaceScan.include': '**/@(a*)*(a*)*(a*)*(a*)b' }),
    );
    const child = spawn(process.execPath, [OE, 'check', '.'], {
      cwd: repo,
      env: { PATH: process.env['PATH'] ?? '', HOME: repo, ...env() },
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const ended = new Promise<{ code: number | null; at: number }>((resolve) => {
      child.on('close', (code) => {
        resolve({ code, at: Date.now() });
      });
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const sent = Date.now();
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    const { code, at } = await ended;
    clearTimeout(timer);
    assert.ok(at - sent < 1_000, `oe ended ${at - sent} ms after SIGTERM (${stderr})`);
    // Ended before the signal (the scan is linear now) or by it.
    assert.ok(code === 0 || code === 130 || code === 143, `exit ${code}: ${stderr}`);
  });
});

describe('oe mcp reads the file it checked', function () {
  this.timeout(120_000);

  it('a folder swapped for a symlink out of the working folder while files are read: nothing outside is ever read', async () => {
    const dir = tempFolder('mcp');
    const outside = tempFolder('mcp-outside');
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'sub', 'line.yaml'), `serial: ${TEST_SERIALS.onboarded}\n`);
    writeFileSync(join(outside, 'line.yaml'), `serial: ${TOKEN}\n`);
    // Another process swaps the folder for a link to the outside and back, as fast as it can.
    const swapper = spawn(process.execPath, [
      '-e',
      `const fs = require('fs'); const sub = ${JSON.stringify(join(dir, 'sub'))}; const real = sub + '.real';
       for (;;) { fs.renameSync(sub, real); fs.symlinkSync(${JSON.stringify(outside)}, sub); fs.unlinkSync(sub); fs.renameSync(real, sub); }`,
    ]);
    const client = new Client({ name: 'paths-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [OE, 'mcp'],
        env: { PATH: process.env['PATH'] ?? '', HOME: dir },
        cwd: dir,
        stderr: 'pipe',
      }),
    );
    try {
      let read = 0;
      for (let batch = 0; batch < 150; batch++) {
        const answers = await Promise.all(
          Array.from({ length: 20 }, () =>
            client.callTool({ name: AGENT_TOOL_NAMES.serialNumbers, arguments: { source: 'file', file: 'sub/line.yaml' } }),
          ),
        );
        for (const answer of answers) {
          const text = (answer.content as { text?: string }[]).map((part) => part.text ?? '').join('\n');
          assert.ok(!text.includes(TOKEN), `call ${read}: the file outside was read:\n${text}`);
          if (text.includes(TEST_SERIALS.onboarded)) read++;
        }
      }
      assert.ok(read > 0, 'the file inside was read at least once');
    } finally {
      swapper.kill('SIGKILL');
      await client.close();
    }
  });
});
