// oe's environments in this process: where the config file is, what a bad one
// says, which environment a run uses (--env, OE_ENV, the default), that the
// options and OE_* variables win over it, and oe auth's answers that need no
// keychain. The keychain itself is tested against a real one in test/cli/keychain.test.ts;
// none of these runs reaches it (the secrets come from the variables).
import * as assert from 'node:assert/strict';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configPath, parseConfig, readConfig, withEnvironment, writeConfig, type CliEnvironment } from '../../../src/cli/cliConfig';
import { localizeFor } from '../../../src/cli/cliIo';
import { startFakeApi, TEST_CREDENTIALS, TEST_SERIALS, type FakeApi } from '../../support/fakeApi';
import { signedInEnv, tempFolder } from '../../support/cli/runOe';
import { runOeInProcess } from '../../support/cli/testIo';

const t = localizeFor({});

function environment(name: string, api: FakeApi): CliEnvironment {
  return { name, apiBaseUrl: api.baseUrl, authUrl: api.authUrl, clientId: TEST_CREDENTIALS.clientId, username: TEST_CREDENTIALS.username };
}

/** A HOME whose config file holds `config` (as text when a string). */
function homeWith(config: unknown): string {
  const home = tempFolder('auth');
  mkdirSync(join(home, '.config', 'oe'), { recursive: true });
  writeFileSync(join(home, '.config', 'oe', 'config.json'), typeof config === 'string' ? config : JSON.stringify(config));
  return home;
}

/** Only the secrets: where to go and who signs in come from the environment. */
const SECRETS_ONLY = { OE_CLIENT_SECRET: TEST_CREDENTIALS.clientSecret, OE_PASSWORD: TEST_CREDENTIALS.password };

describe('oe environments (config file, --env, OE_ENV, precedence)', function () {
  this.timeout(60_000);
  let production: FakeApi | undefined;
  let test: FakeApi | undefined;
  before(async () => {
    production = await startFakeApi();
    test = await startFakeApi();
  });
  after(async () => {
    await production?.close();
    await test?.close();
  });
  beforeEach(() => {
    production?.clearRequests();
    test?.clearRequests();
  });
  const two = (): { production: FakeApi; test: FakeApi; home: string } => {
    assert.ok(production !== undefined && test !== undefined);
    const home = homeWith({
      default: 'Production',
      environments: [environment('Production', production), environment('Test system', test)],
    });
    return { production, test, home };
  };

  describe('the config file', () => {
    it('is in XDG_CONFIG_HOME (absolute only), else ~/.config; %APPDATA% on Windows', () => {
      assert.equal(configPath({ XDG_CONFIG_HOME: '/x/conf', HOME: '/home/u' }, 'linux'), join('/x/conf', 'oe', 'config.json'));
      assert.equal(configPath({ XDG_CONFIG_HOME: 'relative', HOME: '/home/u' }, 'linux'), join('/home/u', '.config', 'oe', 'config.json'));
      assert.equal(configPath({ HOME: '/Users/u' }, 'darwin'), join('/Users/u', '.config', 'oe', 'config.json'));
      assert.equal(configPath({ APPDATA: '/c/AppData/Roaming', HOME: '/h' }, 'win32'), join('/c/AppData/Roaming', 'oe', 'config.json'));
    });

    it('is read field by field: URLs by the sign-in rule, names unique without regard to case, the default one of them', () => {
      const fail = (why: string): Error => new Error(why);
      const good = {
        name: 'Production',
        apiBaseUrl: 'https://api.example.com/',
        authUrl: 'https://auth.example.com',
        clientId: 'c',
        username: 'u',
      };
      assert.deepEqual(parseConfig({ default: 'production', environments: [good] }, fail, t), {
        default: 'Production',
        environments: [{ ...good, apiBaseUrl: 'https://api.example.com' }],
      });
      const refused = (raw: unknown): string => {
        try {
          parseConfig(raw, fail, t);
        } catch (error) {
          return (error as Error).message;
        }
        return 'accepted';
      };
      assert.equal(refused([]), 'it is not a JSON object.');
      assert.equal(refused({}), '"environments" is not a list.');
      assert.equal(
        refused({ environments: [{ ...good, apiBaseUrl: 'http://api.example.com' }] }),
        'environment 1 has no usable "apiBaseUrl".',
      );
      assert.equal(refused({ environments: [{ ...good, username: 'u\u001b[2J' }] }), 'environment 1 has no usable "username".');
      assert.equal(refused({ environments: [{ ...good, name: 'x'.repeat(61) }] }), 'environment 1 has no usable "name".');
      assert.equal(refused({ environments: [good, { ...good, name: 'PRODUCTION' }] }), 'the environment "PRODUCTION" is there twice.');
      assert.equal(refused({ default: 'Test', environments: [good] }), '"default" does not name one of its environments.');
      assert.equal(
        refused({ environments: Array.from({ length: 101 }, (_, i) => ({ ...good, name: `e${i}` })) }),
        'it has more than 100 environments.',
      );
    });

    it('a file that is not JSON or too large is refused with its path; none means no environments', () => {
      const home = homeWith('{ "environments": [');
      const path = join(home, '.config', 'oe', 'config.json');
      assert.throws(
        () => readConfig(path, t),
        /The config file .*config\.json cannot be used: it is not valid JSON\. Fix or delete it, then run oe auth login\./,
      );
      writeFileSync(path, ' '.repeat(256 * 1024 + 1));
      assert.throws(() => readConfig(path, t), /config\.json cannot be used: .*larger than the limit/);
      assert.deepEqual(readConfig(join(home, 'nothing.json'), t), { environments: [] });
    });

    it('is written with mode 0600, the first environment the default, a later one only when asked', async () => {
      assert.ok(production !== undefined && test !== undefined);
      const path = join(tempFolder('auth'), 'oe', 'config.json');
      const first = withEnvironment({ environments: [] }, environment('Production', production), false);
      const both = withEnvironment(first, environment('Test system', test), false);
      await writeConfig(path, both);
      if (process.platform !== 'win32') assert.equal(statSync(path).mode & 0o777, 0o600);
      assert.deepEqual(readConfig(path, t), both);
      assert.equal(both.default, 'Production');
      assert.equal(withEnvironment(both, environment('test SYSTEM', test), true).default, 'test SYSTEM');
      assert.ok(!readFileSync(path, 'utf8').includes(TEST_CREDENTIALS.password));
    });
  });

  describe('which environment a run uses', () => {
    it('the default one; --env and OE_ENV another (names without regard to case); --env wins over OE_ENV', async () => {
      const { production: prod, test: other, home } = two();
      const serial = TEST_SERIALS.onboarded;
      assert.equal((await runOeInProcess(['events', serial], { cwd: home, env: SECRETS_ONLY })).code, 0);
      assert.deepEqual([prod.eventRequests().length, other.eventRequests().length], [1, 0], 'the default');
      assert.equal((await runOeInProcess(['events', serial, '--env', 'test system'], { cwd: home, env: SECRETS_ONLY })).code, 0);
      assert.deepEqual([prod.eventRequests().length, other.eventRequests().length], [1, 1], '--env');
      assert.equal((await runOeInProcess(['events', serial], { cwd: home, env: { ...SECRETS_ONLY, OE_ENV: 'Test system' } })).code, 0);
      assert.deepEqual([prod.eventRequests().length, other.eventRequests().length], [1, 2], 'OE_ENV');
      const both = await runOeInProcess(['events', serial, '--env', 'Production'], {
        cwd: home,
        env: { ...SECRETS_ONLY, OE_ENV: 'Test system' },
      });
      assert.equal(both.code, 0, both.stderr);
      assert.deepEqual([prod.eventRequests().length, other.eventRequests().length], [2, 2], '--env over OE_ENV');
    });

    it('the options and OE_* variables win over the environment, field by field', async () => {
      const { production: prod, test: other, home } = two();
      const urls = { OE_API_URL: other.baseUrl, OE_AUTH_URL: other.authUrl };
      const run = await runOeInProcess(['events', TEST_SERIALS.onboarded], { cwd: home, env: { ...SECRETS_ONLY, ...urls } });
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual([other.tokenRequests().length, other.eventRequests().length], [1, 1], 'OE_API_URL and OE_AUTH_URL over the default');
      assert.equal(prod.requests.length, 0);
      const option = await runOeInProcess(['events', TEST_SERIALS.onboarded, '--api-url', prod.baseUrl, '--auth-url', prod.authUrl], {
        cwd: home,
        env: { ...SECRETS_ONLY, OE_ENV: 'Test system' },
      });
      assert.equal(option.code, 0, option.stderr);
      assert.equal(prod.eventRequests().length, 1, 'the options over the environment OE_ENV names');
      assert.equal(other.eventRequests().length, 1);
    });

    it('every variable set: the config file is not read, so a bad one does not stop a pipeline', async () => {
      assert.ok(production !== undefined);
      const home = homeWith('not json');
      const run = await runOeInProcess(['events', TEST_SERIALS.onboarded], { cwd: home, env: signedInEnv(production) });
      assert.equal(run.code, 0, run.stderr);
      const missing = await runOeInProcess(['events', TEST_SERIALS.onboarded], { cwd: home, env: SECRETS_ONLY });
      assert.equal(missing.code, 64);
      assert.match(missing.stderr, /^oe events: The config file .*\.config\/oe\/config\.json cannot be used: it is not valid JSON\./);
    });

    it('an unknown --env is bad input that names the file, the known environments and what to do', async () => {
      const { home } = two();
      const run = await runOeInProcess(['events', TEST_SERIALS.onboarded, '--env', 'Staging'], { cwd: home, env: SECRETS_ONLY });
      assert.equal(run.code, 64);
      assert.match(
        run.stderr,
        /^oe events: There is no environment "Staging" in .*config\.json\. Known: Production, Test system\. Run oe auth login --env NAME to add it\./,
      );
      const curl = await runOeInProcess(['curl', TEST_SERIALS.onboarded, '--env', 'test system'], { cwd: home });
      assert.equal(curl.code, 0, curl.stderr);
      assert.ok(curl.stdout.includes(test?.baseUrl ?? '?'), 'oe curl takes the URLs of the environment');
    });

    it('no URL anywhere: the message names the variable, the option and oe auth login', async () => {
      const run = await runOeInProcess(['events', TEST_SERIALS.onboarded], { env: SECRETS_ONLY });
      assert.equal(run.code, 64);
      assert.match(
        run.stderr,
        /Set OE_API_URL \(or --api-url\) to the URL your administrator gave you\. Or sign in once with oe auth login\./,
      );
    });
  });

  describe('oe auth without a keychain', () => {
    it('status: no environment yet, or an unknown one, exits 1 and says to sign in', async () => {
      const none = await runOeInProcess(['auth', 'status']);
      assert.equal(none.code, 1);
      assert.equal(none.stderr, 'oe auth: Not signed in: there is no environment yet. Run oe auth login.\n');
      assert.equal(none.stdout, '');
      const { home } = two();
      const unknown = await runOeInProcess(['auth', 'status', '--env', 'Staging'], { cwd: home });
      assert.equal(unknown.code, 1);
      assert.match(unknown.stderr, /There is no environment "Staging"/);
    });

    it('login, not in a terminal, without a URL: bad input that names the variable; no file is written', async () => {
      const home = tempFolder('auth');
      const run = await runOeInProcess(['auth', 'login', '--password-stdin'], { cwd: home, env: SECRETS_ONLY, stdin: 'x' });
      assert.equal(run.code, 64);
      assert.match(run.stderr, /^oe auth: Set OE_API_URL \(or --api-url\)/);
      const config = await runOeInProcess(['auth', 'status'], { cwd: home });
      assert.equal(config.code, 1, 'still no environment');
    });

    it('login refused by the authorization server stores nothing and says which credential to check', async () => {
      assert.ok(production !== undefined);
      const home = tempFolder('auth');
      const run = await runOeInProcess(['auth', 'login', '--env', 'Production'], {
        cwd: home,
        env: { ...signedInEnv(production), OE_PASSWORD: 'wrong' },
      });
      assert.equal(run.code, 3, run.stderr);
      assert.match(run.stderr, /OE_PASSWORD/);
      assert.equal((await runOeInProcess(['auth', 'status'], { cwd: home })).code, 1);
    });

    it('a subcommand is required, --default belongs to login, a secret is never an option', async () => {
      const none = await runOeInProcess(['auth']);
      assert.equal(none.code, 64);
      assert.match(none.stderr, /Name one of login, status, logout or token\./);
      assert.equal((await runOeInProcess(['auth', 'status', '--default'])).code, 64);
      const secret = await runOeInProcess(['auth', 'login', '--password=hunter2']);
      assert.equal(secret.code, 64);
      assert.ok(!secret.stderr.includes('hunter2'));
      assert.match((await runOeInProcess(['auth', '--help'])).stdout, /^Usage: oe auth login \[--env NAME\]/);
    });
  });
});
