// Client secret and password in SecretStorage only, one entry per environment so another window never
// sees half an update; the rest in global state; and the URLs the user confirmed.
import { isRecord } from '../../core/common/guards';
import type { Environment } from '../../core/domain/session/sessionState';
import { endpointsKey } from '../../core/domain/session/argumentSignIn';
import { parseStoredEnvironments } from '../../core/domain/session/environmentRules';
import { STATE_KEYS } from '../workbench/constants';
import type { CredentialStorage, StoredSecrets } from '../../core/domain/session/sessionMachine';

export interface SecretBackend {
  get(key: string): Thenable<string | undefined>;
  store(key: string, value: string): Thenable<void>;
  delete(key: string): Thenable<void>;
}

export interface StateBackend {
  get(key: string): unknown;
  update(key: string, value: unknown): Thenable<void>;
}

export const ENVIRONMENTS_KEY = 'onboardingEvents.environments';
export const LAST_ENVIRONMENT_KEY = 'onboardingEvents.lastEnvironment';
const SECRET_PREFIX = 'onboardingEvents.credentials.';

export function secretKey(environmentId: string): string {
  return `${SECRET_PREFIX}${environmentId}`;
}

/** The environment id a SecretStorage key belongs to, or undefined when it is not one of ours. */
export function environmentIdOfSecretKey(key: string): string | undefined {
  return key.startsWith(SECRET_PREFIX) ? key.slice(SECRET_PREFIX.length) : undefined;
}

export function parseStoredSecrets(raw: string | undefined): StoredSecrets | undefined {
  if (raw === undefined) return undefined;
  try {
    const value = JSON.parse(raw) as unknown;
    if (!isRecord(value)) return undefined;
    const { clientSecret, password } = value;
    if (typeof clientSecret !== 'string' || typeof password !== 'string') return undefined;
    return { clientSecret, password };
  } catch {
    return undefined;
  }
}

export class CredentialStore implements CredentialStorage {
  constructor(
    private readonly secrets: SecretBackend,
    private readonly state: StateBackend,
  ) {}

  environments(): Environment[] {
    return parseStoredEnvironments(this.state.get(ENVIRONMENTS_KEY));
  }

  find(id: string): Environment | undefined {
    return this.environments().find((env) => env.id === id);
  }

  /** The environment this or another window used last; the starting point of a new window. */
  lastEnvironmentId(): string | undefined {
    const id = this.state.get(LAST_ENVIRONMENT_KEY);
    return typeof id === 'string' && this.find(id) !== undefined ? id : undefined;
  }

  async rememberLast(id: string | undefined): Promise<void> {
    await this.state.update(LAST_ENVIRONMENT_KEY, id);
  }

  async readSecrets(id: string): Promise<StoredSecrets | undefined> {
    return parseStoredSecrets(await this.secrets.get(secretKey(id)));
  }

  /** The list first: a window that hears of the new secret can then find its metadata. */
  async save(env: Environment, secrets: StoredSecrets): Promise<void> {
    const others = this.environments().filter((existing) => existing.id !== env.id);
    const record: Environment = {
      id: env.id,
      name: env.name,
      apiBaseUrl: env.apiBaseUrl,
      authUrl: env.authUrl,
      clientId: env.clientId,
      username: env.username,
    };
    await this.state.update(ENVIRONMENTS_KEY, [...others, record]);
    try {
      await this.secrets.store(secretKey(env.id), JSON.stringify({ clientSecret: secrets.clientSecret, password: secrets.password }));
    } catch (error) {
      // Without its secrets the entry would be a sign-in that cannot work.
      await this.state.update(ENVIRONMENTS_KEY, others);
      throw error;
    }
  }

  async rename(id: string, name: string): Promise<void> {
    const updated = this.environments().map((env) => (env.id === id ? { ...env, name } : env));
    await this.state.update(ENVIRONMENTS_KEY, updated);
  }

  async remove(id: string): Promise<void> {
    await this.secrets.delete(secretKey(id));
    await this.state.update(
      ENVIRONMENTS_KEY,
      this.environments().filter((env) => env.id !== id),
    );
    if (this.state.get(LAST_ENVIRONMENT_KEY) === id) await this.state.update(LAST_ENVIRONMENT_KEY, undefined);
  }
}

export const CONFIRMED_ENDPOINTS_KEY = STATE_KEYS.confirmedEndpoints;

/**
 * "Sign In Again" starts at the client-id step only for URLs the user confirmed; changed since, it
 * starts at the URL steps, so the user sees where the secret will go.
 */
export class ConfirmedEndpoints {
  constructor(private readonly state: StateBackend) {}

  of(id: string): string | undefined {
    const all = this.state.get(CONFIRMED_ENDPOINTS_KEY);
    const value = isRecord(all) ? all[id] : undefined;
    return typeof value === 'string' ? value : undefined;
  }

  isConfirmed(env: Environment): boolean {
    return this.of(env.id) === endpointsKey(env);
  }

  async confirm(env: Environment): Promise<void> {
    const all = this.state.get(CONFIRMED_ENDPOINTS_KEY);
    await this.state.update(CONFIRMED_ENDPOINTS_KEY, { ...(isRecord(all) ? all : {}), [env.id]: endpointsKey(env) });
  }
}
