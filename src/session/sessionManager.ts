// The ApiSession every view reads through: which environment is active,
// whether its credentials work, and the one OnboardingClient for it. It owns
// the rules of sign-in (verify before storing), sign-out (remove everything
// stored), switching, and the "credentials stopped working" state that is
// announced once rather than once per failed request.
import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import { invalidCredentialsError } from '../core/apiErrors';
import type { ApiError } from '../core/errors';
import { isApiError } from '../core/errors';
import { OnboardingClient, type ClientOptions, type Credentials } from '../core/onboardingClient';
import type { Log } from '../workbench/log';
import type { ApiSession } from '../workbench/contracts/apiSession';
import type { Environment, SessionState } from '../domain/session/sessionState';
import type { ClientSettings } from '../domain/settings/clientSettings';
import { environmentIdOfSecretKey, type CredentialStore, type StoredSecrets } from './credentialStore';
import { findSameAccount, newEnvironmentId, sameName, suggestEnvironmentName } from '../domain/session/environmentRules';
import type { Notifier } from './notify';
import type { SessionDiagnostics } from './registerSession';

/** Everything a sign-in needs; lives only in memory while the flow runs. */
export interface SignInDraft {
  readonly apiBaseUrl: string;
  readonly authUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly username: string;
  readonly password: string;
  /** Name for the environment; derived from the API host when absent. */
  readonly environment?: string;
}

export type VerifyOutcome = { readonly ok: true } | { readonly ok: false; readonly error: ApiError | Error };

export interface SessionManagerOptions {
  readonly store: CredentialStore;
  readonly log: Log;
  readonly notifier: Notifier;
  readonly readSettings: () => ClientSettings;
  /** Opens the interactive sign-in prefilled from an environment ("Sign In Again"). */
  readonly signInAgain: (env: Environment) => void;
}

/**
 * The core client, watched: an ApiError of kind 'invalid-credentials' from
 * any call means the stored secrets stopped working (the core already tried
 * one fresh grant), so the session flips to 'credentials-rejected'.
 */
class WatchedClient extends OnboardingClient {
  constructor(
    options: ClientOptions,
    private readonly onRejected: (client: WatchedClient) => void,
  ) {
    super(options);
  }

  override getEvents(...args: Parameters<OnboardingClient['getEvents']>): ReturnType<OnboardingClient['getEvents']> {
    return this.watch(super.getEvents(...args));
  }

  override fetchLink(...args: Parameters<OnboardingClient['fetchLink']>): ReturnType<OnboardingClient['fetchLink']> {
    return this.watch(super.fetchLink(...args));
  }

  override verifyCredentials(...args: Parameters<OnboardingClient['verifyCredentials']>): ReturnType<OnboardingClient['verifyCredentials']> {
    return this.watch(super.verifyCredentials(...args));
  }

  private async watch<T>(call: Promise<T>): Promise<T> {
    try {
      return await call;
    } catch (error) {
      if (isApiError(error) && error.kind === 'invalid-credentials') this.onRejected(this);
      throw error;
    }
  }
}

interface Active {
  readonly env: Environment;
  client: WatchedClient | undefined;
  /** sha-256 of the secrets the client was built with: tells another window's change from our own write. */
  fingerprint: string;
}

export class SessionManager extends vscode.Disposable implements ApiSession {
  private current: SessionState = { kind: 'signed-out' };
  private active: Active | undefined;
  private readonly stateEmitter = new vscode.EventEmitter<SessionState>();
  private readonly environmentsEmitter = new vscode.EventEmitter<void>();
  private readonly disposables: { dispose(): unknown }[] = [this.stateEmitter, this.environmentsEmitter];
  /** Serializes state changes (sign-in, switch, sign-out, another window's change) so they never interleave. */
  private queue: Promise<unknown> = Promise.resolve();

  readonly onDidChangeState = this.stateEmitter.event;
  /** Set by registerSession in ExtensionMode.Test only; holds no credentials. */
  testHook: SessionDiagnostics | undefined;
  /** The list of environments, or which of them have secrets, may have changed (Accounts menu, status bar). */
  readonly onDidChangeEnvironments = this.environmentsEmitter.event;

  constructor(private readonly options: SessionManagerOptions) {
    super(() => undefined);
  }

  get state(): SessionState {
    return this.current;
  }

  get activeEnvironment(): Environment | undefined {
    return this.active?.env;
  }

  environments(): Environment[] {
    return this.options.store.environments();
  }

  client(): OnboardingClient | undefined {
    return this.current.kind === 'signed-in' ? this.active?.client : undefined;
  }

  /** Starts from the environment this or another window used last. No network: that waits for the first view. */
  initialize(): Promise<void> {
    return this.serialized(async () => {
      const id = this.options.store.lastEnvironmentId();
      if (id !== undefined) await this.activateStored(id, { remember: false });
      this.environmentsEmitter.fire();
    });
  }

  reportCredentialsRejected(): void {
    if (this.active?.client !== undefined) this.rejected(this.active.client);
  }

  /** Proves credentials with one fresh password grant, through a throwaway client. Stores nothing. */
  async verify(draft: SignInDraft, signal?: AbortSignal): Promise<VerifyOutcome> {
    this.rememberSecrets(draft);
    const client = new OnboardingClient(this.clientOptions(draft.apiBaseUrl, draft.authUrl, () => Promise.resolve(credentialsOf(draft))));
    try {
      await client.verifyCredentials(signal);
      this.options.log.info(`Credentials verified for ${draft.username} at ${draft.authUrl}`);
      return { ok: true };
    } catch (error) {
      this.options.log.warn(`Credentials not verified for ${draft.username} at ${draft.authUrl}: ${isApiError(error) ? `${error.kind}: ${error.message}` : String(error)}`);
      return { ok: false, error: error instanceof Error ? error : new Error(String(error)) };
    } finally {
      client.dispose();
    }
  }

  /** The environment a draft would create or replace: same account, else same name (the argument form's contract). */
  resolveEnvironment(draft: SignInDraft): Environment {
    const environments = this.environments();
    const sameAccount = findSameAccount(environments, draft);
    const named = draft.environment === undefined ? undefined : environments.find((env) => sameName(env.name, draft.environment ?? ''));
    const existing = named ?? sameAccount;
    const name = draft.environment?.trim() ?? sameAccount?.name ?? suggestEnvironmentName(draft.apiBaseUrl, environments, vscode.l10n.t);
    return {
      id: existing?.id ?? newEnvironmentId(),
      name,
      apiBaseUrl: draft.apiBaseUrl,
      authUrl: draft.authUrl,
      clientId: draft.clientId,
      username: draft.username,
    };
  }

  /** Stores verified credentials and makes them the active environment. */
  completeSignIn(draft: SignInDraft): Promise<Environment> {
    return this.serialized(async () => {
      const env = this.resolveEnvironment(draft);
      await this.options.store.save(env, { clientSecret: draft.clientSecret, password: draft.password });
      this.options.log.info(`Signed in to ${env.name} as ${env.username}`);
      await this.activate(env, { clientSecret: draft.clientSecret, password: draft.password }, { remember: true });
      this.environmentsEmitter.fire();
      return env;
    });
  }

  /** Makes a stored environment active. False when it has no stored secrets (signed out elsewhere). */
  switchTo(id: string): Promise<boolean> {
    return this.serialized(async () => {
      const ok = await this.activateStored(id, { remember: true });
      this.environmentsEmitter.fire();
      return ok;
    });
  }

  /** Removes everything stored for one environment; the session is signed out when it was the active one. */
  signOut(id: string): Promise<void> {
    return this.serialized(async () => {
      const env = this.options.store.find(id);
      await this.options.store.remove(id);
      this.options.log.info(`Signed out of ${env?.name ?? id}`);
      if (this.active?.env.id === id) this.deactivate();
      this.environmentsEmitter.fire();
    });
  }

  /** Whether an environment has its secrets stored (it can be switched to without signing in). */
  async hasSecrets(id: string): Promise<boolean> {
    try {
      return (await this.options.store.readSecrets(id)) !== undefined;
    } catch {
      return false;
    }
  }

  /**
   * SecretStorage is shared by all windows: another window signed in, signed
   * out or re-entered a password. Our own writes arrive here too and change
   * nothing (same fingerprint).
   */
  handleSecretChange(key: string): Promise<void> {
    const id = environmentIdOfSecretKey(key);
    if (id === undefined) return Promise.resolve();
    return this.serialized(async () => {
      // The other window writes global state first, but it may reach us after the secret.
      for (let attempt = 0; attempt < 5 && this.options.store.find(id) === undefined; attempt++) {
        if (!(await this.hasSecrets(id))) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      if (this.active?.env.id === id) {
        const secrets = await this.readSecretsSafely(id);
        const env = this.options.store.find(id);
        if (secrets === undefined || env === undefined) {
          this.options.log.info(`Signed out of ${this.active.env.name} in another window`);
          this.deactivate();
        } else if (fingerprint(secrets) !== this.active.fingerprint || this.current.kind === 'credentials-rejected') {
          this.options.log.info(`The credentials of ${env.name} changed in another window`);
          await this.activate(env, secrets, { remember: false });
        }
      }
      this.environmentsEmitter.fire();
    });
  }

  /** Settings the client depends on changed: build a new one (the old one is disposed, its requests cancelled). */
  rebuildClient(): void {
    const active = this.active;
    if (active?.client === undefined) return;
    active.client.dispose();
    active.client = this.createClient(active.env);
    this.options.log.info('Settings changed: the API client was rebuilt');
    if (this.current.kind === 'signed-in') this.stateEmitter.fire(this.current);
  }

  /** Ties registrations made around the session (commands, provider, listeners) to its lifetime. */
  own(...disposables: { dispose(): unknown }[]): void {
    this.disposables.push(...disposables);
  }

  override dispose(): void {
    this.active?.client?.dispose();
    this.active = undefined;
    for (const disposable of this.disposables) disposable.dispose();
  }

  private async activateStored(id: string, options: { remember: boolean }): Promise<boolean> {
    const env = this.options.store.find(id);
    const secrets = env === undefined ? undefined : await this.readSecretsSafely(id);
    if (env === undefined || secrets === undefined) return false;
    await this.activate(env, secrets, options);
    return true;
  }

  private async activate(env: Environment, secrets: StoredSecrets, options: { remember: boolean }): Promise<void> {
    this.rememberSecrets(secrets);
    this.active?.client?.dispose();
    this.active = { env, client: this.createClient(env), fingerprint: fingerprint(secrets) };
    if (options.remember) await this.options.store.rememberLast(env.id);
    this.setState({ kind: 'signed-in', environment: env });
  }

  private deactivate(): void {
    this.active?.client?.dispose();
    this.active = undefined;
    this.setState({ kind: 'signed-out' });
  }

  private rejected(client: WatchedClient): void {
    const active = this.active;
    // Late failures of a replaced client, or a second failure of the same episode, change nothing.
    if (active === undefined || active.client !== client || this.current.kind !== 'signed-in') return;
    const env = active.env;
    this.options.log.warn(`The stored credentials of ${env.name} (${env.username}) were rejected`);
    this.setState({ kind: 'credentials-rejected', environment: env });
    const signInAgain = vscode.l10n.t('Sign In Again');
    void this.options.notifier
      .warning(
        vscode.l10n.t(
          'Onboarding Events: the credentials stored for "{0}" no longer work (the password may have changed or the API user was removed). Sign in again to see events.',
          env.name,
        ),
        signInAgain,
      )
      .then((choice) => {
        if (choice === signInAgain) this.options.signInAgain(env);
      });
  }

  private setState(state: SessionState): void {
    this.current = state;
    this.stateEmitter.fire(state);
  }

  private createClient(env: Environment): WatchedClient {
    return new WatchedClient(
      this.clientOptions(env.apiBaseUrl, env.authUrl, async () => {
        const secrets = await this.options.store.readSecrets(env.id);
        // Signed out in another window a moment ago: the same as rejected credentials.
        if (secrets === undefined) throw invalidCredentialsError('POST /token');
        this.rememberSecrets(secrets);
        return credentialsOf({ clientId: env.clientId, username: env.username, ...secrets });
      }),
      (client) => {
        this.rejected(client);
      },
    );
  }

  private clientOptions(apiBaseUrl: string, authUrl: string, credentials: () => Promise<Credentials>): ClientOptions {
    const settings = this.options.readSettings();
    return {
      apiBaseUrl,
      authUrl,
      credentials,
      timestampUnit: settings.timestampUnit,
      http: settings.http,
      onRequest: (entry) => {
        this.options.log.request(entry);
      },
    };
  }

  private async readSecretsSafely(id: string): Promise<StoredSecrets | undefined> {
    try {
      return await this.options.store.readSecrets(id);
    } catch (error) {
      // A locked or missing OS keyring: say so in the log, stay signed out.
      this.options.log.error('Could not read the stored credentials from VS Code secret storage', error);
      return undefined;
    }
  }

  /** A secret value the user just typed: from now on the log never prints it. */
  rememberTyped(value: string): void {
    this.options.log.redactor.addSecret(value);
  }

  private rememberSecrets(secrets: Pick<StoredSecrets, 'clientSecret' | 'password'>): void {
    this.options.log.redactor.addSecret(secrets.clientSecret);
    this.options.log.redactor.addSecret(secrets.password);
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
  return createHash('sha256').update(JSON.stringify([secrets.clientSecret, secrets.password])).digest('base64');
}
