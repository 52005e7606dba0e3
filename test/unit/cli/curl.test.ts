// `oe curl` in this process against the fake API on 127.0.0.1: its output is
// run by sh and the real curl binary, with the secrets as variables.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { startFakeApi, TEST_CREDENTIALS, TEST_SERIALS, type FakeApi } from '../../support/fakeApi';
import type { OeRun } from '../../support/cli/runOe';
import { runOeInProcess } from '../../support/cli/testIo';

const SECRETS = { OE_CLIENT_SECRET: TEST_CREDENTIALS.clientSecret, OE_PASSWORD: TEST_CREDENTIALS.password };

interface Exit {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function run(file: string, args: readonly string[], env: Record<string, string>): Promise<Exit> {
  return new Promise((resolveExit) => {
    // Only PATH and what the test sets: no proxy variable of the machine reaches curl.
    execFile(file, [...args], { env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...env } }, (error, stdout, stderr) => {
      resolveExit({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr });
    });
  });
}

const oe = (args: readonly string[], env: Record<string, string>): Promise<OeRun> => runOeInProcess(args, { env });

/**
 * Asserts that every occurrence of `value` in `text` lies inside single quotes, as a POSIX shell reads
 * the text. A `#` opens no comment here: zsh without interactive_comments runs a pasted `# …` line.
 */
function assertSingleQuoted(text: string, value: string): void {
  const inside: boolean[] = [];
  let state: 'none' | 'single' | 'double' = 'none';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (state === 'single') {
      if (c === "'") state = 'none';
      inside.push(state === 'single');
    } else if (c === '\\') {
      inside.push(false, false);
      i++;
    } else {
      if (c === "'" && state === 'none') state = 'single';
      else if (c === '"') state = state === 'double' ? 'none' : 'double';
      inside.push(false);
    }
  }
  let found = 0;
  for (let at = text.indexOf(value); at !== -1; at = text.indexOf(value, at + 1)) {
    found++;
    const line = text.slice(text.lastIndexOf('\n', at) + 1, text.indexOf('\n', at));
    assert.ok(inside.slice(at, at + value.length).every(Boolean), `${JSON.stringify(value)} outside single quotes in: ${line}`);
  }
  assert.ok(found > 0, `${JSON.stringify(value)} is in the text`);
}

describe('oe curl', () => {
  let api: FakeApi;
  let endpoints: Record<string, string>;
  before(async () => {
    api = await startFakeApi();
    endpoints = { OE_API_URL: api.baseUrl, OE_AUTH_URL: api.authUrl };
  });
  after(async () => {
    await api.close();
  });
  beforeEach(() => {
    api.clearRequests();
  });

  it('prints commands that, run by sh and curl with the secrets as variables, get the events; it sends nothing and prints no secret', async () => {
    const printed = await oe(['curl', TEST_SERIALS.onboarded], {
      ...endpoints,
      ...SECRETS,
      OE_CLIENT_ID: TEST_CREDENTIALS.clientId,
      OE_USERNAME: TEST_CREDENTIALS.username,
    });
    assert.equal(printed.code, 0, printed.stderr);
    assert.equal(api.requests.length, 0, 'oe curl sends nothing');
    for (const secret of Object.values(SECRETS)) assert.ok(!printed.stdout.includes(secret) && !printed.stderr.includes(secret));
    const ran = await run('sh', ['-c', printed.stdout], {
      ...SECRETS,
      OE_CLIENT_ID: TEST_CREDENTIALS.clientId,
      OE_USERNAME: TEST_CREDENTIALS.username,
    });
    assert.equal(ran.code, 0, ran.stderr);
    const body = JSON.parse(ran.stdout) as { events: { type: string }[] };
    assert.deepEqual(
      body.events.map((event) => event.type),
      ['ONBOARDING_STARTED', 'MACHINE_CREATED', 'ONBOARDING_COMPLETED'],
    );
    assert.equal(api.tokenRequests().length, 1);
    assert.deepEqual(
      api.eventRequests().map((request) => request.query),
      [{ serialNumber: TEST_SERIALS.onboarded }],
    );
  });

  it('writes --client-id and --username into the commands, and --timestamp into the URL', async () => {
    const printed = await oe(
      [
        'curl',
        TEST_SERIALS.started,
        '--client-id',
        TEST_CREDENTIALS.clientId,
        '--username',
        TEST_CREDENTIALS.username,
        '--timestamp',
        '1717320000',
      ],
      endpoints,
    );
    assert.equal(printed.code, 0, printed.stderr);
    // Single quotes, never double: in "…" a shell still expands $, ` and \, and zsh runs a pasted comment.
    for (const value of [TEST_SERIALS.started, TEST_CREDENTIALS.clientId, TEST_CREDENTIALS.username, `${api.authUrl}/token`, api.baseUrl]) {
      assertSingleQuoted(printed.stdout, value);
    }
    const ran = await run('sh', ['-c', printed.stdout], SECRETS);
    assert.equal(ran.code, 0, ran.stderr);
    assert.deepEqual(
      api.eventRequests().map((request) => request.query),
      [{ serialNumber: TEST_SERIALS.started, timestamp: '1717320000' }],
    );
  });

  it('refuses bad input with exit 64 and a message, never a stack', async () => {
    for (const [args, env, message] of [
      [['curl', 'MX$(id)'], endpoints, /Not a serial number/],
      [['curl'], endpoints, /exactly one serial number/],
      [['curl', TEST_SERIALS.onboarded, '--timestamp', '1.5'], endpoints, /--timestamp takes a whole number/],
      [['curl', TEST_SERIALS.onboarded], {}, /OE_API_URL/],
      [['curl', TEST_SERIALS.onboarded, '--password', 'x'], endpoints, /OE_PASSWORD/],
    ] as const) {
      const exit = await oe(args, env);
      assert.equal(exit.code, 64, `${args.join(' ')}: ${exit.stderr}`);
      assert.match(exit.stderr, message);
      assert.doesNotMatch(exit.stderr, /\n\s+at /, 'no stack trace');
      assert.equal(exit.stdout, '');
    }
  });
});
