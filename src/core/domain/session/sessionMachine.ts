// The session's rules without VS Code: which environment is active, whether its credentials work, and
// its one client. Every transition runs in one queue; another window's change to the shared secrets is
// followed, our own write is not mistaken for one. It is the ApiSession every view reads.
import { createHash } from 'node:crypto';
import type { Credentials } from '../../client/auth/tokenClient';
import { invalidCredentialsError, isApiError, type ApiError } from '../../client/errors';
import { Emitter, type Event } from '../../common/emitter';
import { asError, errorMessage } from '../../common/errors';
import { Disposable, toDisposable } from '../../common/lifecycle';
import { plainLocalize, type Localize } from '../../common/localize';
import { findSameAccount, newEnvironmentId, sameName, suggestEnvironmentName } from './environmentRules';
import type { Environment, SessionState } from './sessionState';

export interface StoredSecrets {
  readonly clientSecret: string;
  readonly password: string;
}

export interface SignInDraft {
  readonly apiBaseUrl: string;
  readonly authUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly username: string;
  readonly password: string;
  /** Derived from the API host when absent. */
  readonly environment?: string;
}

export type VerifyOutcome = { readonly ok: true } | { readonly ok: false; readonly error: ApiError | Error };

export interface CredentialStorage {
  /** Read fresh each time: another window may have changed them. */
  environments(): Environment[];
  find(id: string): Environment | undefined;
  lastEnvironmentId(): string | undefined;
  rememberLast(id: string | undefined): Promise<void>;
  readSecrets(id: string): Promise<StoredSecrets | undefined>;
  save(env: Environment, secrets: StoredSecrets): Promise<void>;
  remove(id: string): Promise<void>;
}

export interface Endpoints {
  readonly apiBaseUrl: string;
  readonly authUrl: string;
}

export interface SessionClient {
  dispose(): void;
}

/** `V` is what a verification hands to the client built right after it, so a sign-in makes one password grant. */
export interface ClientFactory<C extends SessionClient, V = unknown> {
  /**
   * `onRejected` is this client's own report of refused credentials (the extension's leave it unused: the
   * events cache reports them); `verified` is the sign-in's verification of these same credentials.
   */
  create(endpoints: Endpoints, credentials: () => Promise<Credentials>, onRejected: () => void, verified?: V): C;
  verify(endpoints: Endpoints, credentials: Credentials, signal?: AbortSignal): Promise<V>;
}

export interface SessionLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string, error?: unknown): void;
}

export interface SessionMachineDeps<C extends SessionClient> {
  readonly store: CredentialStorage;
  readonly clients: ClientFactory<C>;
  readonly log: SessionLog;
  readonly notifyRejected: (env: Environment) => void;
  readonly rememberSecret: (value: string) => void;
  readonly sleep: (ms: number) => Promise<void>;
  readonly localize?: Localize;
  readonly newId?: () => string;
}

interface Active<C> {
  readonly env: Environment;
  client: C | undefined;
  /** sha-256 of the secrets the client was built with: tells another window's change from our own write. */
  readonly fingerprint: string;
}

/** How often, and how long apart, to look for the environment entry another window writes with its secret. */
const ENTRY_ATTEMPTS = 5;
const ENTRY_WAIT_MS = 200;

export class SessionMachine<C extends SessionClient> extends Disposable {
  private current: SessionState = { kind: 'signed-out' };
  private active: Active<C> | undefined;
  private readonly stateEmitter = this.register(new Emitter<SessionState>());
  private readonly environmentsEmitter = this.register(new Emitter<void>());
  /** The last successful verification and the draft it proved: completeSignIn of that draft hands it to the new client. */
  private lastVerified: { readonly draft: SignInDraft; readonly verified: unknown } | undefined;
  /** Serializes state changes (sign-in, switch, sign-out, another window's change) so they never interleave. */
  private queue: Promise<unknown> = Promise.resolve();

  readonly onDidChangeState: Event<SessionState> = this.stateEmitter.event;
  readonly onDidChangeEnvironments: Event<void> = this.environmentsEmitter.event;

  constructor(private readonly deps: SessionMachineDeps<C>) {
    super();
    this.register(
      toDisposable(() => {
        this.active?.client?.dispose();
        this.active = undefined;
      }),
    );
  }

  get state(): SessionState {
    return this.current;
  }

  get activeEnvironment(): Environment | undefined {
    return this.active?.env;
  }

  environments(): Environment[] {
    return this.deps.store.environments();
  }

  client(): C | undefined {
    return this.current.kind === 'signed-in' ? this.active?.client : undefined;
  }

  initialize(): Promise<void> {
    return this.serialized(async () => {
      const id = this.deps.store.lastEnvironmentId();
      if (id !== undefined) await this.activateStored(id, { remember: false });
      this.environmentsEmitter.fire();
    });
  }

  reportCredentialsRejected(): void {
    if (this.active?.client !== undefined) this.rejected(this.active.client);
  }

  rememberTyped(value: string): void {
    this.deps.rememberSecret(value);
  }

  async verify(draft: SignInDraft, signal?: AbortSignal): Promise<VerifyOutcome> {
    this.rememberSecrets(draft);
    this.lastVerified = undefined;
    try {
      const verified = await this.deps.clients.verify(draft, credentialsOf(draft), signal);
      this.lastVerified = { draft, verified };
      this.deps.log.info(`Credentials verified for ${draft.username} at ${draft.authUrl}`);
      return { ok: true };
    } catch (error) {
      this.deps.log.warn(
        `Credentials not verified for ${draft.username} at ${draft.authUrl}: ${isApiError(error) ? `${error.kind}: ${error.message}` : errorMessage(error)}`,
      );
      return { ok: false, error: asError(error) };
    }
  }

  /** The environment a draft would create or replace: same account, else same name (the argument form's contract). */
  resolveEnvironment(draft: SignInDraft): Environment {
    const environments = this.environments();
    const sameAccount = findSameAccount(environments, draft);
    const wanted = draft.environment;
    const named = wanted === undefined ? undefined : environments.find((env) => sameName(env.name, wanted));
    const existing = named ?? sameAccount;
    const name =
      draft.environment?.trim() ??
      sameAccount?.name ??
      suggestEnvironmentName(draft.apiBaseUrl, environments, this.deps.localize ?? plainLocalize);
    return {
      id: existing?.id ?? (this.deps.newId ?? newEnvironmentId)(),
      name,
      apiBaseUrl: draft.apiBaseUrl,
      authUrl: draft.authUrl,
      clientId: draft.clientId,
      username: draft.username,
    };
  }

  completeSignIn(draft: SignInDraft): Promise<Environment> {
    // Only the draft that was just verified (the same object, so the same credentials and URLs) hands its grant on.
    const verified = this.lastVerified?.draft === draft ? this.lastVerified.verified : undefined;
    this.lastVerified = undefined;
    return this.serialized(async () => {
      const env = this.resolveEnvironment(draft);
      const secrets: StoredSecrets = { clientSecret: draft.clientSecret, password: draft.password };
      await this.deps.store.save(env, secrets);
      this.deps.log.info(`Signed in to ${env.name} as ${env.username}`);
      await this.activate(env, secrets, { remember: true, verified });
      this.environmentsEmitter.fire();
      return env;
    });
  }

  switchTo(id: string): Promise<boolean> {
    return this.serialized(async () => {
      const ok = await this.activateStored(id, { remember: true });
      this.environmentsEmitter.fire();
      return ok;
    });
  }

  signOut(id: string): Promise<void> {
    return this.serialized(async () => {
      const env = this.deps.store.find(id);
      await this.deps.store.remove(id);
      this.deps.log.info(`Signed out of ${env?.name ?? id}`);
      if (this.active?.env.id === id) this.deactivate();
      this.environmentsEmitter.fire();
    });
  }

  async hasSecrets(id: string): Promise<boolean> {
    try {
      return (await this.deps.store.readSecrets(id)) !== undefined;
    } catch {
      return false;
    }
  }

  /**
   * Secret storage is shared by all windows: another may have signed in, out or re-entered a password.
   * Our own writes arrive here too and change nothing (same fingerprint).
   */
  handleSecretChange(id: string): Promise<void> {
    return this.serialized(async () => {
      // The other window writes the environment list first, but it may reach us after the secret.
      for (let attempt = 0; attempt < ENTRY_ATTEMPTS && this.deps.store.find(id) === undefined; attempt++) {
        if (!(await this.hasSecrets(id))) break;
        await this.deps.sleep(ENTRY_WAIT_MS);
      }
      if (this.active?.env.id === id) {
        const secrets = await this.readSecretsSafely(id);
        const env = this.deps.store.find(id);
        if (secrets === undefined || env === undefined) {
          this.deps.log.info(`Signed out of ${this.active.env.name} in another window`);
          this.deactivate();
        } else if (fingerprint(secrets) !== this.active.fingerprint || this.current.kind === 'credentials-rejected') {
          this.deps.log.info(`The credentials of ${env.name} changed in another window`);
          await this.activate(env, secrets, { remember: false });
        }
      }
      this.environmentsEmitter.fire();
    });
  }

  rebuildClient(): void {
    const active = this.active;
    if (active?.client === undefined) return;
    active.client.dispose();
    active.client = this.createClient(active.env);
    this.deps.log.info('Settings changed: the API client was rebuilt');
    if (this.current.kind === 'signed-in') this.stateEmitter.fire(this.current);
  }

  private async activateStored(id: string, options: { remember: boolean }): Promise<boolean> {
    const env = this.deps.store.find(id);
    if (env === undefined) return false;
    const secrets = await this.readSecretsSafely(id);
    if (secrets === undefined) return false;
    await this.activate(env, secrets, options);
    return true;
  }

  private async activate(env: Environment, secrets: StoredSecrets, options: { remember: boolean; verified?: unknown }): Promise<void> {
    this.rememberSecrets(secrets);
    this.active?.client?.dispose();
    this.active = { env, client: this.createClient(env, options.verified), fingerprint: fingerprint(secrets) };
    if (options.remember) await this.deps.store.rememberLast(env.id);
    this.setState({ kind: 'signed-in', environment: env });
  }

  private deactivate(): void {
    this.active?.client?.dispose();
    this.active = undefined;
    this.setState({ kind: 'signed-out' });
  }

  private rejected(client: C): void {
    const active = this.active;
    // Late failures of a replaced client, or a second failure of the same episode, change nothing.
    if (active === undefined || active.client !== client || this.current.kind !== 'signed-in') return;
    const env = active.env;
    this.deps.log.warn(`The stored credentials of ${env.name} (${env.username}) were rejected`);
    this.setState({ kind: 'credentials-rejected', environment: env });
    this.deps.notifyRejected(env);
  }

  private setState(state: SessionState): void {
    this.current = state;
    this.stateEmitter.fire(state);
  }

  private createClient(env: Environment, verified?: unknown): C {
    const client: C = this.deps.clients.create(
      env,
      async () => {
        const secrets = await this.deps.store.readSecrets(env.id);
        // Signed out in another window a moment ago: the same as rejected credentials.
        if (secrets === undefined) throw invalidCredentialsError('POST /token');
        this.rememberSecrets(secrets);
        return credentialsOf({ clientId: env.clientId, username: env.username, ...secrets });
      },
      () => {
        this.rejected(client);
      },
      ...(verified === undefined ? [] : [verified]),
    );
    return client;
  }

  private async readSecretsSafely(id: string): Promise<StoredSecrets | undefined> {
    try {
      return await this.deps.store.readSecrets(id);
    } catch (error) {
      // A locked or missing OS keyring: say so in the log, stay signed out.
      this.deps.log.error('Could not read the stored credentials from VS Code secret storage', error);
      return undefined;
    }
  }

  private rememberSecrets(secrets: Pick<StoredSecrets, 'clientSecret' | 'password'>): void {
    this.deps.rememberSecret(secrets.clientSecret);
    this.deps.rememberSecret(secrets.password);
  }

  private serialized<T>(run: () => Promise<T>): Promise<T> {
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }
}

function credentialsOf(values: Pick<SignInDraft, 'clientId' | 'clientSecret' | 'username' | 'password'>): Credentials {
  return { clientId: values.clientId, clientSecret: values.clientSecret, username: values.username, password: values.password };
}

function fingerprint(secrets: StoredSecrets): string {
  return createHash('sha256')
    .update(JSON.stringify([secrets.clientSecret, secrets.password]))
    .digest('base64');
}
