// The rules of a session, under plain mocha: an in-memory credential store
// (which a test may change behind the machine's back, as another window
// would) and fake clients whose server refusal the test triggers.
import * as assert from 'node:assert/strict';
import type { Credentials } from '../../../../../src/core/client/auth/tokenClient';
import { invalidCredentialsError, isApiError } from '../../../../../src/core/client/errors';
import {
  SessionMachine,
  type ClientFactory,
  type CredentialStorage,
  type Endpoints,
  type SignInDraft,
  type StoredSecrets,
} from '../../../../../src/core/domain/session/sessionMachine';
import type { Environment, SessionState } from '../../../../../src/core/domain/session/sessionState';

class MemoryStorage implements CredentialStorage {
  list: Environment[] = [];
  readonly secrets = new Map<string, StoredSecrets>();
  last: string | undefined;
  /** When set, save() waits for it before writing (to interleave transitions). */
  saveGate: Promise<void> | undefined;
  failNextSave = false;
  /** When set, reading secrets fails (a locked OS keyring). */
  failReads = false;
  /** Every id rememberLast was asked to store, in order. */
  readonly rememberedLast: (string | undefined)[] = [];

  environments(): Environment[] {
    return [...this.list];
  }
  find(id: string): Environment | undefined {
    return this.list.find((env) => env.id === id);
  }
  lastEnvironmentId(): string | undefined {
    return this.last !== undefined && this.find(this.last) !== undefined ? this.last : undefined;
  }
  rememberLast(id: string | undefined): Promise<void> {
    this.rememberedLast.push(id);
    this.last = id;
    return Promise.resolve();
  }
  readSecrets(id: string): Promise<StoredSecrets | undefined> {
    if (this.failReads) return Promise.reject(new Error('keyring locked'));
    return Promise.resolve(this.secrets.get(id));
  }
  async save(env: Environment, secrets: StoredSecrets): Promise<void> {
    if (this.saveGate !== undefined) await this.saveGate;
    if (this.failNextSave) {
      this.failNextSave = false;
      throw new Error('keyring locked');
    }
    this.list = [...this.list.filter((existing) => existing.id !== env.id), env];
    this.secrets.set(env.id, secrets);
  }
  remove(id: string): Promise<void> {
    this.secrets.delete(id);
    this.list = this.list.filter((env) => env.id !== id);
    if (this.last === id) this.last = undefined;
    return Promise.resolve();
  }
}

class FakeClient {
  disposed = false;
  constructor(
    readonly endpoints: Endpoints,
    readonly credentials: () => Promise<Credentials>,
    private readonly onRejected: () => void,
    /** What the verification before it handed on (the extension's: its token). */
    readonly verified?: unknown,
  ) {}
  /** The server refused this client's credentials. */
  reject(): void {
    this.onRejected();
  }
  dispose(): void {
    this.disposed = true;
  }
}

class FakeClients implements ClientFactory<FakeClient> {
  readonly created: FakeClient[] = [];
  readonly verified: Credentials[] = [];
  /** Passwords the fake authorization server accepts. */
  readonly accepted = new Set(['right-password', 'new-password']);
  /** When set, verification fails with this instead (a failure that is not the API's answer). */
  failWith: Error | undefined;

  create(endpoints: Endpoints, credentials: () => Promise<Credentials>, onRejected: () => void, verified?: unknown): FakeClient {
    const client = new FakeClient(endpoints, credentials, onRejected, verified);
    this.created.push(client);
    return client;
  }
  /** Resolves with a token-like marker, as the extension's factory resolves with the grant. */
  verify(_endpoints: Endpoints, credentials: Credentials): Promise<string> {
    this.verified.push(credentials);
    if (this.failWith !== undefined) return Promise.reject(this.failWith);
    return this.accepted.has(credentials.password)
      ? Promise.resolve(`grant-${this.verified.length}`)
      : Promise.reject(invalidCredentialsError('POST /token'));
  }
  get last(): FakeClient | undefined {
    return this.created.at(-1);
  }
}

/** A draft without a name: the machine names it (after the API host) or finds the environment it updates. */
const PROD_ACCOUNT: SignInDraft = {
  apiBaseUrl: 'https://api.example.com',
  authUrl: 'https://auth.example.com/oauth',
  clientId: 'client-1',
  clientSecret: 'client-secret-1',
  username: 'api.user',
  password: 'right-password',
};
const PROD: SignInDraft = { ...PROD_ACCOUNT, environment: 'Production' };
const TEST: SignInDraft = { ...PROD, apiBaseUrl: 'https://test.example.com', environment: 'Test' };

describe('session machine', () => {
  let store: MemoryStorage;
  let clients: FakeClients;
  let rejectedNotices: Environment[];
  let remembered: string[];
  let sleeps: number;
  let onSleep: () => void;
  let states: SessionState[];
  let environmentChanges: number;
  let machine: SessionMachine<FakeClient>;
  let ids: number;
  let logged: string[];

  beforeEach(() => {
    store = new MemoryStorage();
    clients = new FakeClients();
    rejectedNotices = [];
    remembered = [];
    sleeps = 0;
    onSleep = () => undefined;
    states = [];
    environmentChanges = 0;
    ids = 0;
    logged = [];
    machine = new SessionMachine({
      store,
      clients,
      log: {
        info: (message) => logged.push(`info: ${message}`),
        warn: (message) => logged.push(`warn: ${message}`),
        error: (message, error) => logged.push(`error: ${message} (${error instanceof Error ? error.message : String(error)})`),
      },
      notifyRejected: (env) => rejectedNotices.push(env),
      rememberSecret: (value) => remembered.push(value),
      sleep: () => {
        sleeps++;
        onSleep();
        return Promise.resolve();
      },
      newId: () => `env-${++ids}`,
    });
    machine.onDidChangeState((state) => states.push(state));
    machine.onDidChangeEnvironments(() => environmentChanges++);
  });

  afterEach(() => {
    machine.dispose();
  });

  /** Verify, then store and activate: what both forms of the Sign In command do. */
  async function signIn(draft: SignInDraft): Promise<Environment> {
    const outcome = await machine.verify(draft);
    assert.ok(outcome.ok, 'the credentials are accepted');
    return machine.completeSignIn(draft);
  }

  function activeClient(): FakeClient {
    const client = machine.client();
    assert.ok(client, 'there is an active client');
    return client;
  }

  describe('sign-in', () => {
    it('verifies without storing anything, and refused credentials leave everything as it was', async () => {
      const outcome = await machine.verify({ ...PROD, password: 'wrong-password' });
      assert.ok(!outcome.ok, 'the credentials are refused');
      assert.ok(isApiError(outcome.error) && outcome.error.kind === 'invalid-credentials');
      assert.deepEqual(store.environments(), []);
      assert.equal(store.secrets.size, 0);
      assert.deepEqual(machine.state, { kind: 'signed-out' });
      assert.equal(clients.created.length, 0, 'the throwaway verification is never the active client');
      assert.deepEqual(states, []);
    });

    it('stores the verified credentials, activates them and remembers them as the last environment', async () => {
      const env = await signIn(PROD);
      assert.deepEqual(store.environments(), [env]);
      assert.deepEqual(store.secrets.get(env.id), { clientSecret: PROD.clientSecret, password: PROD.password });
      assert.equal(store.last, env.id);
      assert.deepEqual(machine.state, { kind: 'signed-in', environment: env });
      assert.deepEqual(states, [{ kind: 'signed-in', environment: env }]);
      assert.equal(machine.client(), clients.last);
      assert.equal(environmentChanges, 1);
      assert.equal(env.name, 'Production');
    });

    it('hands what the verification obtained to the client it activates, so a sign-in makes one grant', async () => {
      await signIn(PROD);
      assert.equal(activeClient().verified, 'grant-1');
    });

    it('hands on only the verification of the very draft it stores, and only once', async () => {
      await machine.verify(PROD);
      await machine.completeSignIn({ ...PROD, password: 'new-password' });
      assert.equal(activeClient().verified, undefined, 'another draft was never proven by that grant');
      await machine.verify(PROD);
      await machine.verify({ ...PROD, password: 'wrong-password' });
      await machine.completeSignIn(PROD);
      assert.equal(activeClient().verified, undefined, 'a later failed verification voids the earlier grant');
    });

    it('hands the log redactor both secrets before anything can print them', async () => {
      await machine.verify(PROD);
      assert.deepEqual(remembered, [PROD.clientSecret, PROD.password]);
    });

    it('hands the log redactor a value the user just typed, before any verification', () => {
      machine.rememberTyped('typed-secret');
      assert.deepEqual(remembered, ['typed-secret']);
    });

    it('gives the client the stored credentials, read when it needs a token', async () => {
      const env = await signIn(PROD);
      store.secrets.set(env.id, { clientSecret: PROD.clientSecret, password: 'new-password' });
      assert.deepEqual(await activeClient().credentials(), {
        clientId: PROD.clientId,
        clientSecret: PROD.clientSecret,
        username: PROD.username,
        password: 'new-password',
      });
    });

    it('updates the same account instead of adding a twin', async () => {
      const first = await signIn(PROD_ACCOUNT);
      const second = await signIn({ ...PROD_ACCOUNT, password: 'new-password' });
      assert.equal(first.name, 'api.example.com');
      assert.equal(second.id, first.id);
      assert.equal(store.environments().length, 1);
      assert.equal(store.secrets.get(first.id)?.password, 'new-password');
    });

    it('logs who was verified where, and why a refusal happened, without the password', async () => {
      await machine.verify(PROD);
      await machine.verify({ ...PROD, password: 'wrong-password' });
      clients.failWith = new Error('socket hang up');
      const outcome = await machine.verify(PROD);
      assert.deepEqual(outcome, { ok: false, error: clients.failWith });
      assert.deepEqual(logged, [
        'info: Credentials verified for api.user at https://auth.example.com/oauth',
        `warn: Credentials not verified for api.user at https://auth.example.com/oauth: invalid-credentials: ${invalidCredentialsError('POST /token').message}`,
        'warn: Credentials not verified for api.user at https://auth.example.com/oauth: socket hang up',
      ]);
      assert.ok(!logged.join('\n').includes('right-password'));
    });

    it('logs the environment and user it signed in to', async () => {
      await signIn(PROD);
      assert.ok(logged.includes('info: Signed in to Production as api.user'), logged.join('\n'));
    });

    it('with a name, replaces the environment of that name even for another account, and keeps the name as typed but trimmed', async () => {
      const prod = await signIn(PROD);
      const renamed = await signIn({ ...PROD, username: 'other.user', environment: '  PRODUCTION ' });
      assert.equal(renamed.id, prod.id);
      assert.equal(renamed.name, 'PRODUCTION');
      assert.equal(renamed.username, 'other.user');
      assert.deepEqual(store.environments(), [renamed]);
    });

    it('with a new name for the same account, keeps the account under its new name', async () => {
      const first = await signIn(PROD);
      const second = await signIn({ ...PROD, environment: 'Live' });
      assert.equal(second.id, first.id);
      assert.equal(second.name, 'Live');
    });

    it('without a name, for a new account whose API URL has no host, suggests the localized default name', () => {
      const localized = new SessionMachine<FakeClient>({
        store,
        clients,
        log: { info: () => undefined, warn: () => undefined, error: () => undefined },
        notifyRejected: () => undefined,
        rememberSecret: () => undefined,
        sleep: () => Promise.resolve(),
        localize: (message) => `[${message}]`,
        newId: () => 'new-id',
      });
      try {
        const env = localized.resolveEnvironment({ ...PROD_ACCOUNT, apiBaseUrl: 'not a url' });
        assert.equal(env.name, '[Default]');
        assert.equal(env.id, 'new-id');
        assert.equal(machine.resolveEnvironment({ ...PROD_ACCOUNT, apiBaseUrl: 'not a url' }).name, 'Default');
      } finally {
        localized.dispose();
      }
    });
  });

  describe('switch', () => {
    it('activates another stored environment with its own client', async () => {
      const prod = await signIn(PROD);
      const test = await signIn(TEST);
      const testClient = activeClient();
      assert.equal(await machine.switchTo(prod.id), true);
      assert.deepEqual(machine.state, { kind: 'signed-in', environment: prod });
      assert.equal(testClient.disposed, true, 'the replaced client is dropped');
      assert.notEqual(machine.client(), testClient);
      assert.equal(store.last, prod.id);
      assert.equal(activeClient().endpoints.apiBaseUrl, PROD.apiBaseUrl);
      assert.notEqual(test.id, prod.id);
    });

    it('refuses an environment whose secrets are gone and keeps the current one', async () => {
      const prod = await signIn(PROD);
      const test = await signIn(TEST);
      store.secrets.delete(prod.id);
      assert.equal(await machine.switchTo(prod.id), false);
      assert.deepEqual(machine.state, { kind: 'signed-in', environment: test });
    });

    it('refuses an id whose secrets arrived without its environment entry', async () => {
      const test = await signIn(TEST);
      store.secrets.set('orphan', { clientSecret: 'client-secret-2', password: 'password-2' });
      assert.equal(await machine.switchTo('orphan'), false);
      assert.deepEqual(machine.state, { kind: 'signed-in', environment: test });
    });

    it('with a locked keyring, is refused, says why in the log and keeps the current one', async () => {
      const prod = await signIn(PROD);
      const test = await signIn(TEST);
      store.failReads = true;
      assert.equal(await machine.switchTo(prod.id), false);
      assert.deepEqual(machine.state, { kind: 'signed-in', environment: test });
      assert.equal(logged.at(-1), 'error: Could not read the stored credentials from VS Code secret storage (keyring locked)');
    });

    it('knows which environments have their secrets stored; a locked keyring counts as none', async () => {
      const prod = await signIn(PROD);
      assert.equal(await machine.hasSecrets(prod.id), true);
      assert.equal(await machine.hasSecrets('unknown'), false);
      store.failReads = true;
      assert.equal(await machine.hasSecrets(prod.id), false);
    });
  });

  describe('sign-out', () => {
    it('removes everything stored for the active environment and signs out', async () => {
      const env = await signIn(PROD);
      const client = activeClient();
      await machine.signOut(env.id);
      assert.deepEqual(store.environments(), []);
      assert.equal(store.secrets.size, 0);
      assert.equal(store.last, undefined);
      assert.deepEqual(machine.state, { kind: 'signed-out' });
      assert.equal(machine.client(), undefined);
      assert.equal(client.disposed, true);
    });

    it('of an inactive environment removes it and keeps the active one', async () => {
      const prod = await signIn(PROD);
      const test = await signIn(TEST);
      await machine.signOut(prod.id);
      assert.deepEqual(store.environments(), [test]);
      assert.equal(store.secrets.has(prod.id), false);
      assert.deepEqual(machine.state, { kind: 'signed-in', environment: test });
    });

    it('logs the environment by name, or by id when no entry is left', async () => {
      const prod = await signIn(PROD);
      await machine.signOut(prod.id);
      await machine.signOut('gone');
      assert.deepEqual(logged.slice(-2), ['info: Signed out of Production', 'info: Signed out of gone']);
    });
  });

  describe('revoked credentials', () => {
    it('turn into credentials-rejected and exactly one notification', async () => {
      const env = await signIn(PROD);
      activeClient().reject();
      assert.deepEqual(machine.state, { kind: 'credentials-rejected', environment: env });
      assert.equal(machine.client(), undefined, 'views get no client while the credentials are rejected');
      assert.deepEqual(rejectedNotices, [env]);
      assert.equal(logged.at(-1), 'warn: The stored credentials of Production (api.user) were rejected');
    });

    it('reported by a view start the episode just as the client would', async () => {
      const env = await signIn(PROD);
      machine.reportCredentialsRejected();
      assert.deepEqual(machine.state, { kind: 'credentials-rejected', environment: env });
      assert.deepEqual(rejectedNotices, [env]);
    });

    it('leave the state the one answer to "signed in?": a client exactly while the state is signed-in', async () => {
      const signedInHasClient = (): boolean => (machine.state.kind === 'signed-in') === (machine.client() !== undefined);
      assert.ok(signedInHasClient(), 'signed out');
      await signIn(PROD);
      assert.ok(signedInHasClient(), 'signed in');
      activeClient().reject();
      assert.ok(signedInHasClient(), 'credentials rejected');
      await machine.signOut(store.environments()[0]?.id ?? '');
      assert.ok(signedInHasClient(), 'signed out again');
    });

    it('reported while signed out change nothing', () => {
      machine.reportCredentialsRejected();
      assert.deepEqual(machine.state, { kind: 'signed-out' });
      assert.deepEqual(rejectedNotices, []);
    });

    it('a second rejection in the same episode changes nothing', async () => {
      await signIn(PROD);
      const client = activeClient();
      client.reject();
      const before = states.length;
      client.reject();
      machine.reportCredentialsRejected();
      assert.equal(rejectedNotices.length, 1);
      assert.equal(states.length, before);
    });

    it('a replaced client failing late changes nothing', async () => {
      await signIn(PROD);
      const old = activeClient();
      machine.rebuildClient();
      old.reject();
      await signIn(TEST);
      old.reject();
      assert.equal(machine.state.kind, 'signed-in');
      assert.deepEqual(rejectedNotices, []);
    });

    it('are announced again in the next episode, after signing in again', async () => {
      await signIn(PROD);
      activeClient().reject();
      await signIn(PROD);
      assert.equal(machine.state.kind, 'signed-in');
      activeClient().reject();
      assert.equal(rejectedNotices.length, 2);
    });

    it('include secrets removed in another window a moment ago: the client gets invalid credentials', async () => {
      const env = await signIn(PROD);
      store.secrets.delete(env.id);
      await assert.rejects(
        activeClient().credentials(),
        (error: unknown) => isApiError(error) && error.kind === 'invalid-credentials' && error.details.request === 'POST /token',
      );
    });
  });

  describe('a change in another window', () => {
    it('signed out there: signed out here', async () => {
      const env = await signIn(PROD);
      const client = activeClient();
      await store.remove(env.id);
      await machine.handleSecretChange(env.id);
      assert.deepEqual(machine.state, { kind: 'signed-out' });
      assert.equal(client.disposed, true);
      assert.equal(logged.at(-1), 'info: Signed out of Production in another window');
    });

    it('changed secrets there: re-activated here with a new client', async () => {
      const env = await signIn(PROD);
      const client = activeClient();
      states = [];
      store.secrets.set(env.id, { clientSecret: PROD.clientSecret, password: 'new-password' });
      await machine.handleSecretChange(env.id);
      assert.deepEqual(states, [{ kind: 'signed-in', environment: env }]);
      assert.notEqual(machine.client(), client);
      assert.equal(client.disposed, true);
      assert.equal(logged.at(-1), 'info: The credentials of Production changed in another window');
      assert.deepEqual(store.rememberedLast, [env.id], 'following another window is not choosing an environment');
    });

    it('our own write, arriving as a change with the same secrets, changes nothing', async () => {
      const env = await signIn(PROD);
      const client = activeClient();
      states = [];
      await machine.handleSecretChange(env.id);
      assert.deepEqual(states, []);
      assert.equal(machine.client(), client);
      assert.equal(client.disposed, false);
    });

    it('the same secrets written again there end a credentials-rejected episode', async () => {
      const env = await signIn(PROD);
      activeClient().reject();
      await machine.handleSecretChange(env.id);
      assert.deepEqual(machine.state, { kind: 'signed-in', environment: env });
    });

    it('waits for the environment entry when the secret arrives first', async () => {
      const env: Environment = {
        id: 'elsewhere',
        name: 'Elsewhere',
        apiBaseUrl: PROD.apiBaseUrl,
        authUrl: PROD.authUrl,
        clientId: PROD.clientId,
        username: PROD.username,
      };
      store.secrets.set(env.id, { clientSecret: 'client-secret-2', password: 'password-2' });
      onSleep = () => {
        store.list = [env];
      };
      const before = environmentChanges;
      await machine.handleSecretChange(env.id);
      assert.equal(sleeps, 1);
      assert.equal(environmentChanges, before + 1);
      assert.equal(await machine.switchTo(env.id), true);
    });

    it('stops waiting for the environment entry after five looks', async () => {
      store.secrets.set('elsewhere', { clientSecret: 'client-secret-2', password: 'password-2' });
      await machine.handleSecretChange('elsewhere');
      assert.equal(sleeps, 5);
      assert.deepEqual(machine.state, { kind: 'signed-out' });
      assert.equal(environmentChanges, 1);
    });

    it('does not wait for an entry when the secret is gone as well', async () => {
      await machine.handleSecretChange('gone');
      assert.equal(sleeps, 0);
      assert.equal(environmentChanges, 1);
    });

    it('of an environment that is not active leaves the active one alone', async () => {
      const prod = await signIn(PROD);
      const test = await signIn(TEST);
      await store.remove(prod.id);
      await machine.handleSecretChange(prod.id);
      assert.deepEqual(machine.state, { kind: 'signed-in', environment: test });
    });
  });

  describe('start-up', () => {
    it('initializes from the last environment without verifying (no network)', async () => {
      const env: Environment = {
        id: 'stored',
        name: 'Stored',
        apiBaseUrl: PROD.apiBaseUrl,
        authUrl: PROD.authUrl,
        clientId: PROD.clientId,
        username: PROD.username,
      };
      store.list = [env];
      store.secrets.set(env.id, { clientSecret: PROD.clientSecret, password: PROD.password });
      store.last = env.id;
      await machine.initialize();
      assert.deepEqual(machine.state, { kind: 'signed-in', environment: env });
      assert.equal(clients.verified.length, 0);
      assert.equal(environmentChanges, 1);
      assert.deepEqual(store.rememberedLast, [], 'starting up is not choosing an environment');
    });

    it('stays signed out when the last environment has no secrets', async () => {
      const env: Environment = {
        id: 'stored',
        name: 'Stored',
        apiBaseUrl: PROD.apiBaseUrl,
        authUrl: PROD.authUrl,
        clientId: PROD.clientId,
        username: PROD.username,
      };
      store.list = [env];
      store.last = env.id;
      await machine.initialize();
      assert.deepEqual(machine.state, { kind: 'signed-out' });
    });
  });

  describe('transitions', () => {
    it('run one at a time: a sign-out asked for during a sign-in waits for it', async () => {
      let open: () => void = () => undefined;
      store.saveGate = new Promise((resolve) => {
        open = resolve;
      });
      const signingIn = machine.completeSignIn(PROD);
      // The sign-in's environment gets the first id once its turn comes.
      const signingOut = machine.signOut('env-1');
      await Promise.resolve();
      open();
      await Promise.all([signingIn, signingOut]);
      assert.deepEqual(store.environments(), []);
      assert.deepEqual(machine.state, { kind: 'signed-out' });
    });

    it('a failed transition does not block the next one', async () => {
      store.failNextSave = true;
      await assert.rejects(machine.completeSignIn(PROD), /keyring locked/);
      await signIn(PROD);
      assert.equal(machine.state.kind, 'signed-in');
    });

    it('a rebuilt client replaces the old one and is announced while signed in', async () => {
      const env = await signIn(PROD);
      const old = activeClient();
      states = [];
      machine.rebuildClient();
      assert.equal(old.disposed, true);
      assert.equal(machine.client(), clients.last);
      assert.notEqual(machine.client(), old);
      assert.deepEqual(states, [{ kind: 'signed-in', environment: env }]);
      assert.equal(logged.at(-1), 'info: Settings changed: the API client was rebuilt');
    });

    it('a client rebuilt while the credentials are rejected is neither announced nor handed out', async () => {
      await signIn(PROD);
      activeClient().reject();
      states = [];
      machine.rebuildClient();
      assert.deepEqual(states, []);
      assert.equal(machine.client(), undefined);
    });

    it('no client is built while signed out', () => {
      machine.rebuildClient();
      assert.equal(clients.created.length, 0);
      assert.deepEqual(logged, []);
    });

    it('dispose drops the active client', async () => {
      await signIn(PROD);
      const client = activeClient();
      machine.dispose();
      assert.equal(client.disposed, true);
    });
  });
});
