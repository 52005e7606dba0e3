import * as assert from 'node:assert/strict';
import type { Environment } from '../../../src/core/domain/session/sessionState';
import {
  CredentialStore,
  ENVIRONMENTS_KEY,
  LAST_ENVIRONMENT_KEY,
  environmentIdOfSecretKey,
  secretKey,
  type SecretBackend,
  type StateBackend,
} from '../../../src/extension/session/credentialStore';

class MemorySecrets implements SecretBackend {
  readonly values = new Map<string, string>();
  failNextStore = false;
  get(key: string): Promise<string | undefined> {
    return Promise.resolve(this.values.get(key));
  }
  store(key: string, value: string): Promise<void> {
    if (this.failNextStore) {
      this.failNextStore = false;
      return Promise.reject(new Error('keyring locked'));
    }
    this.values.set(key, value);
    return Promise.resolve();
  }
  delete(key: string): Promise<void> {
    this.values.delete(key);
    return Promise.resolve();
  }
}

class MemoryState implements StateBackend {
  readonly values = new Map<string, unknown>();
  get(key: string): unknown {
    return this.values.get(key);
  }
  update(key: string, value: unknown): Promise<void> {
    // Like Memento: what is stored is a JSON copy, and undefined removes the key.
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, JSON.parse(JSON.stringify(value)) as unknown);
    return Promise.resolve();
  }
}

const PROD: Environment = {
  id: 'prod',
  name: 'Production',
  apiBaseUrl: 'https://api.example.com',
  authUrl: 'https://auth.example.com',
  clientId: 'client-1',
  username: 'api.user',
};
const TEST: Environment = {
  ...PROD,
  id: 'test',
  name: 'Test',
  apiBaseUrl: 'http://127.0.0.1:4000',
  authUrl: 'http://127.0.0.1:4000/oauth',
};
const SECRETS = { clientSecret: 'client-secret-value', password: 'password-value' };

describe('credential store', () => {
  let secrets: MemorySecrets;
  let state: MemoryState;
  let store: CredentialStore;

  beforeEach(() => {
    secrets = new MemorySecrets();
    state = new MemoryState();
    store = new CredentialStore(secrets, state);
  });

  it('keeps the client secret and password in secret storage only, one entry per environment', async () => {
    await store.save(PROD, SECRETS);
    assert.deepEqual([...secrets.values.keys()], [secretKey('prod')]);
    assert.deepEqual(await store.readSecrets('prod'), SECRETS);
    const stateText = JSON.stringify([...state.values.entries()]);
    assert.equal(stateText.includes(SECRETS.clientSecret), false);
    assert.equal(stateText.includes(SECRETS.password), false);
    assert.deepEqual(store.environments(), [PROD]);
  });

  it('stores only the known non-secret fields in global state, even if handed more', async () => {
    await store.save({ ...PROD, password: 'smuggled' } as Environment, SECRETS);
    assert.equal(JSON.stringify(state.get(ENVIRONMENTS_KEY)).includes('smuggled'), false);
  });

  it('replaces an environment with the same id instead of adding a twin', async () => {
    await store.save(PROD, SECRETS);
    await store.save(TEST, SECRETS);
    await store.save({ ...PROD, name: 'Prod (EU)' }, { ...SECRETS, password: 'new-password' });
    assert.deepEqual(
      store.environments().map((e) => e.name),
      ['Test', 'Prod (EU)'],
    );
    assert.equal((await store.readSecrets('prod'))?.password, 'new-password');
  });

  it('leaves no entry behind when secret storage refuses the secrets', async () => {
    secrets.failNextStore = true;
    await assert.rejects(store.save(PROD, SECRETS), /keyring locked/);
    assert.deepEqual(store.environments(), []);
  });

  it('removes everything it stored for one environment and nothing of another', async () => {
    await store.save(PROD, SECRETS);
    await store.save(TEST, SECRETS);
    await store.rememberLast('test');
    await store.remove('test');
    assert.deepEqual(store.environments(), [PROD]);
    assert.equal(await store.readSecrets('test'), undefined);
    assert.equal(state.get(LAST_ENVIRONMENT_KEY), undefined);
    assert.deepEqual(await store.readSecrets('prod'), SECRETS);
  });

  it('remembers the last environment only while it exists', async () => {
    await store.save(PROD, SECRETS);
    await store.rememberLast('prod');
    assert.equal(store.lastEnvironmentId(), 'prod');
    await state.update(ENVIRONMENTS_KEY, []);
    assert.equal(store.lastEnvironmentId(), undefined);
  });

  it('reads damaged secret entries as missing', async () => {
    await secrets.store(secretKey('prod'), 'not json');
    assert.equal(await store.readSecrets('prod'), undefined);
    await secrets.store(secretKey('prod'), JSON.stringify({ clientSecret: 1, password: 'x' }));
    assert.equal(await store.readSecrets('prod'), undefined);
  });

  it('tells its own secret keys from other keys', () => {
    assert.equal(environmentIdOfSecretKey(secretKey('abc')), 'abc');
    assert.equal(environmentIdOfSecretKey('someone.else'), undefined);
  });
});
