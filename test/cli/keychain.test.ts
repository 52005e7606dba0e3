// oe auth against a real Secret Service: gnome-keyring in a D-Bus session each
// run starts for itself, its login keyring kept under the test's HOME (so one
// run's sign-in is the next run's), unlocked, locked, or no D-Bus session at all.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { startFakeApi, TEST_CREDENTIALS, TEST_SERIALS, type FakeApi } from '../support/fakeApi';
import {
  filesBelow,
  ROOT,
  runOe,
  runOeInTerminal,
  runOeUnder,
  signedInEnv,
  tempFolder,
  type OeOptions,
  type OeRun,
} from '../support/cli/runOe';
import { skipBecause } from '../support/skipBecause';

/** The login keyring's password: gnome-keyring creates the keyring with it on first unlock. */
const KEYRING_PASSWORD = 'keyring-test-password';
const LOCK =
  'dbus-send --session --print-reply --dest=org.freedesktop.secrets /org/freedesktop/secrets org.freedesktop.Secret.Service.Lock array:objpath:/org/freedesktop/secrets/collection/login >/dev/null || exit 91';

/** A D-Bus session with gnome-keyring's Secret Service, its login keyring unlocked or locked again, that then runs its arguments. */
function keyringSession(locked: boolean): string[] {
  const script = [
    `printf %s '${KEYRING_PASSWORD}' | gnome-keyring-daemon --unlock --components=secrets >/dev/null || exit 90`,
    ...(locked ? [LOCK] : []),
    'exec "$@"',
  ].join('\n');
  return ['dbus-run-session', '--', 'sh', '-c', script, 'sh'];
}

/** oe in a keyring session of its own. */
function runWithKeyring(args: readonly string[], options: OeOptions & { readonly locked?: boolean }): Promise<OeRun> {
  return runOeUnder(keyringSession(options.locked === true), args, options);
}

function loginArgs(api: FakeApi, name: string): string[] {
  return [
    'auth',
    'login',
    '--env',
    name,
    '--api-url',
    api.baseUrl,
    '--auth-url',
    api.authUrl,
    '--client-id',
    TEST_CREDENTIALS.clientId,
    '--username',
    TEST_CREDENTIALS.username,
    '--password-stdin',
  ];
}

/** oe auth login as a script does it: the client secret from the environment, the password on stdin. */
function login(api: FakeApi, home: string, name = 'Production'): Promise<OeRun> {
  return runWithKeyring(loginArgs(api, name), {
    cwd: home,
    env: { OE_CLIENT_SECRET: TEST_CREDENTIALS.clientSecret },
    stdin: TEST_CREDENTIALS.password,
  });
}

describe('oe auth and the keychain (a real Secret Service)', function () {
  this.timeout(60_000);
  let api: FakeApi | undefined;
  before(async function () {
    for (const program of ['/usr/bin/dbus-run-session', '/usr/bin/gnome-keyring-daemon', '/usr/bin/dbus-send'])
      if (!existsSync(program)) skipBecause(this, `${program} is not installed (npm run provision installs gnome-keyring and dbus)`);
    api = await startFakeApi();
  });
  after(async () => {
    await api?.close();
  });

  it('signs in once: then a run sends one request (events, no token), status shows who and where, and no file holds a secret or the token', async () => {
    assert.ok(api !== undefined);
    const home = tempFolder('keychain');
    const signedIn = await login(api, home);
    assert.equal(signedIn.code, 0, signedIn.stderr);
    assert.match(signedIn.stderr, /Signed in to "Production" as test\.user\+api@example\.invalid/);

    api.clearRequests();
    const first = await runWithKeyring(['events', TEST_SERIALS.onboarded, '--ndjson'], { cwd: home });
    const second = await runWithKeyring(['events', TEST_SERIALS.onboarded, '--ndjson'], { cwd: home });
    assert.equal(first.code, 0, first.stderr);
    assert.equal(second.code, 0, second.stderr);
    assert.ok(second.stdout.includes('ONBOARDING'), second.stdout);
    assert.equal(api.tokenRequests().length, 0, 'the token kept at login is used: no token request');
    assert.equal(api.eventRequests().length, 2, 'one request per run');

    const token = await runWithKeyring(['auth', 'token'], { cwd: home });
    assert.equal(token.code, 0, token.stderr);
    const sent = api.eventRequests()[0]?.headers['authorization'];
    assert.equal(`Bearer ${token.stdout.trim()}`, sent, 'oe auth token prints the token the runs sent');
    assert.equal(api.tokenRequests().length, 0);

    const status = await runWithKeyring(['auth', 'status'], { cwd: home });
    assert.equal(status.code, 0, status.stderr);
    assert.match(status.stdout, /^Production \(default\)$/m);
    assert.ok(status.stdout.includes(api.baseUrl) && status.stdout.includes(TEST_CREDENTIALS.username), status.stdout);
    assert.match(status.stdout, /Signed in: yes/);
    assert.match(status.stdout, /Token: valid until \d{4}-\d{2}-\d{2}T/);

    const secrets = [TEST_CREDENTIALS.password, TEST_CREDENTIALS.clientSecret, token.stdout.trim()];
    for (const run of [signedIn, first, second, status])
      for (const secret of secrets) assert.ok(!run.stdout.includes(secret) && !run.stderr.includes(secret), 'a secret in the output');
    const files = filesBelow(home);
    assert.ok(
      files.some((file) => file.path.endsWith(join('.config', 'oe', 'config.json'))),
      'the scan sees the config file',
    );
    assert.ok(
      files.some((file) => file.path.includes(join('.local', 'share', 'keyrings'))),
      "the scan sees the keyring's own files",
    );
    for (const file of files)
      for (const secret of secrets) assert.ok(!file.content.includes(Buffer.from(secret)), `a secret or the token in ${file.path}`);
  });

  it('status --json is what docs/schemas/oe-auth.schema.json says, without a secret, in English; --jq filters it; --json elsewhere is bad input', async () => {
    assert.ok(api !== undefined);
    const home = tempFolder('keychain');
    assert.equal((await login(api, home)).code, 0);
    const token = (await runWithKeyring(['auth', 'token'], { cwd: home })).stdout.trim();
    assert.notEqual(token, '');
    // A German shell with a variable that wins: the data stays English, the variable is named.
    const status = await runWithKeyring(['auth', 'status', '--json'], { cwd: home, env: { LANG: 'de_DE.UTF-8', OE_API_URL: api.baseUrl } });
    assert.equal(status.code, 0, status.stderr);
    const schema = JSON.parse(readFileSync(join(ROOT, 'docs', 'schemas', 'oe-auth.schema.json'), 'utf8')) as object;
    const validate = addFormats(new Ajv({ allErrors: true })).compile(schema);
    const document = JSON.parse(status.stdout) as unknown;
    assert.ok(validate(document), `${new Ajv().errorsText(validate.errors)}\n${status.stdout}`);
    assert.deepEqual(document, {
      schemaVersion: 1,
      environments: [
        {
          name: 'Production',
          default: true,
          apiBaseUrl: api.baseUrl,
          authUrl: api.authUrl,
          username: TEST_CREDENTIALS.username,
          clientId: TEST_CREDENTIALS.clientId,
          signedIn: true,
          tokenValidUntil: (document as { environments: { tokenValidUntil: string }[] }).environments[0]?.tokenValidUntil,
        },
      ],
      overriddenBy: ['OE_API_URL'],
    });
    assert.match(status.stdout, /"tokenValidUntil": "\d{4}-\d{2}-\d{2}T/);
    for (const secret of [TEST_CREDENTIALS.password, TEST_CREDENTIALS.clientSecret, token])
      assert.ok(!status.stdout.includes(secret) && !status.stderr.includes(secret), 'a secret in oe auth status --json');

    const names = await runWithKeyring(['auth', 'status', '--jq', '.environments[].name'], { cwd: home });
    assert.equal(names.code, 0, names.stderr);
    assert.equal(names.stdout, 'Production\n');

    for (const sub of ['login', 'logout', 'token']) {
      const refused = await runWithKeyring(['auth', sub, '--json'], { cwd: home });
      assert.equal(refused.code, 64, refused.stderr);
      assert.match(refused.stderr, /Only oe auth status writes JSON/);
      assert.equal(refused.stdout, '');
    }

    // Signed out: exit 1 as without --json, and the JSON still says so.
    assert.equal((await runWithKeyring(['auth', 'logout'], { cwd: home })).code, 0);
    const out = await runWithKeyring(['auth', 'status', '--json', 'environments'], { cwd: home });
    assert.equal(out.code, 1, out.stderr);
    const signedOut = JSON.parse(out.stdout) as { environments: { signedIn: boolean; tokenValidUntil: unknown }[] };
    assert.deepEqual(Object.keys(signedOut), ['schemaVersion', 'environments']);
    assert.deepEqual(
      signedOut.environments.map((env) => [env.signedIn, env.tokenValidUntil]),
      [[false, null]],
    );
  });

  it('login on a terminal asks for the password with a hidden prompt, and the next run is signed in', async () => {
    assert.ok(api !== undefined);
    const home = tempFolder('keychain');
    const args = loginArgs(api, 'Test system').filter((arg) => arg !== '--password-stdin');
    const signedIn = await runOeInTerminal(args, {
      cwd: home,
      env: { OE_CLIENT_SECRET: TEST_CREDENTIALS.clientSecret },
      under: keyringSession(false),
      type: { prompt: 'Password: ', input: TEST_CREDENTIALS.password },
    });
    assert.equal(signedIn.code, 0, signedIn.stdout);
    assert.match(signedIn.stdout, /Password: \r?\n.*Signed in to "Test system"/s);
    assert.ok(!signedIn.stdout.includes(TEST_CREDENTIALS.password), 'the password is not echoed');
    api.clearRequests();
    const events = await runWithKeyring(['events', TEST_SERIALS.onboarded, '--env', 'test system'], { cwd: home });
    assert.equal(events.code, 0, events.stderr);
    assert.equal(api.requests.length, 1);
  });

  it('asks a new token when the kept one has expired, and keeps it for the next run', async () => {
    const short = await startFakeApi({ tokenLifetimeSeconds: 1 });
    try {
      const home = tempFolder('keychain');
      assert.equal((await login(short, home)).code, 0);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      short.configure({ tokenLifetimeSeconds: 3600 });
      short.clearRequests();
      const run = await runWithKeyring(['events', TEST_SERIALS.onboarded], { cwd: home });
      assert.equal(run.code, 0, run.stderr);
      assert.equal(short.tokenRequests().length, 1, 'the expired token is not sent: a new one is asked');
      assert.equal(short.eventRequests().length, 1);
      short.clearRequests();
      const next = await runWithKeyring(['events', TEST_SERIALS.onboarded], { cwd: home });
      assert.equal(next.code, 0, next.stderr);
      assert.equal(short.tokenRequests().length, 0, 'the new token was kept');
      assert.equal(short.eventRequests().length, 1);
    } finally {
      await short.close();
    }
  });

  it('logout removes the keychain entries: status exits 1 and a run without variables says to sign in', async () => {
    assert.ok(api !== undefined);
    const home = tempFolder('keychain');
    assert.equal((await login(api, home)).code, 0);
    const out = await runWithKeyring(['auth', 'logout'], { cwd: home });
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stderr, /Signed out of "Production"/);
    const status = await runWithKeyring(['auth', 'status'], { cwd: home });
    assert.equal(status.code, 1, status.stdout);
    assert.match(status.stdout, /Signed in: no\. Run oe auth login --env "Production"\./);
    api.clearRequests();
    const events = await runWithKeyring(['events', TEST_SERIALS.onboarded], { cwd: home });
    assert.equal(events.code, 64, events.stderr);
    assert.match(events.stderr, /OE_CLIENT_SECRET.*oe auth login/);
    assert.equal(api.requests.length, 0);
  });

  it('a locked keychain: a message that says to unlock it, and the variables still work', async () => {
    assert.ok(api !== undefined);
    const home = tempFolder('keychain');
    assert.equal((await login(api, home)).code, 0);
    const locked = await runWithKeyring(['events', TEST_SERIALS.onboarded], { cwd: home, locked: true });
    assert.equal(locked.code, 3, locked.stderr);
    assert.match(locked.stderr, /oe events: The keychain is locked \(.*\)\. Unlock it .*Or set OE_CLIENT_SECRET and OE_PASSWORD/);
    const withVariables = await runWithKeyring(['events', TEST_SERIALS.onboarded], { cwd: home, locked: true, env: signedInEnv(api) });
    assert.equal(withVariables.code, 0, withVariables.stderr);
  });

  it('no Secret Service (no D-Bus session): login and events say what to do, nothing is written, and the variables still work', async () => {
    assert.ok(api !== undefined);
    const home = tempFolder('keychain');
    const signIn = await runOe(loginArgs(api, 'Production'), {
      cwd: home,
      env: { OE_CLIENT_SECRET: TEST_CREDENTIALS.clientSecret },
      stdin: TEST_CREDENTIALS.password,
    });
    assert.equal(signIn.code, 3, signIn.stderr);
    assert.match(signIn.stderr, /oe auth: No keychain is available \(.*\)\. On Linux oe keeps credentials in the Secret Service/);
    assert.match(signIn.stderr, /DBUS_SESSION_BUS_ADDRESS/);
    assert.equal(existsSync(join(home, '.config', 'oe', 'config.json')), false, 'no environment without its credentials');

    // Signed in where there is a keychain, then run where there is none.
    assert.equal((await login(api, home)).code, 0);
    const events = await runOe(['events', TEST_SERIALS.onboarded], { cwd: home });
    assert.equal(events.code, 3, events.stderr);
    assert.match(events.stderr, /No keychain is available/);
    const withVariables = await runOe(['events', TEST_SERIALS.onboarded], { cwd: home, env: signedInEnv(api) });
    assert.equal(withVariables.code, 0, withVariables.stderr);
  });
});
