// The ApiSession every view reads through, as VS Code sees it: the session
// machine (domain/session/sessionMachine.ts, where the rules of sign-in,
// switch, sign-out and rejected credentials live) wired to SecretStorage,
// the settings, the log and the user. It follows SecretStorage changes from
// other windows and rebuilds the client when a client setting changes.
import { Disposable } from '../common/lifecycle';
import type { Event } from '../common/emitter';
import type { Localize } from '../common/localize';
import type { OnboardingClient } from '../core/onboardingClient';
import type { Environment, SessionState } from '../domain/session/sessionState';
import { SessionMachine, type SignInDraft, type VerifyOutcome } from '../domain/session/sessionMachine';
import { CLIENT_SETTINGS, clientSettingsOf } from '../domain/settings/clientSettings';
import type { ApiSession } from '../workbench/contracts/apiSession';
import type { Log } from '../workbench/log';
import type { SettingsReader } from '../workbench/settings';
import { announceCredentialsRejected } from './credentialsRejectedNotice';
import { environmentIdOfSecretKey, type CredentialStore } from './credentialStore';
import type { Notifier } from './notify';
import { onboardingClients } from './clientFactory';

export interface SessionManagerOptions {
  readonly store: CredentialStore;
  readonly log: Log;
  readonly notifier: Notifier;
  readonly settings: SettingsReader;
  /** vscode.l10n.t, for the suggested name of a new environment. */
  readonly localize: Localize;
  /** SecretStorage's changes: shared by all windows, so another window's sign-in or sign-out arrives here. */
  readonly onDidChangeSecrets: Event<{ readonly key: string }>;
}

export class SessionManager extends Disposable implements ApiSession {
  private readonly machine: SessionMachine<OnboardingClient>;
  readonly onDidChangeState: Event<SessionState>;
  /** The list of environments, or which of them have secrets, may have changed (Accounts menu, status bar). */
  readonly onDidChangeEnvironments: Event<void>;

  constructor(private readonly options: SessionManagerOptions) {
    super();
    const { store, log, notifier, settings } = options;
    this.machine = this.register(
      new SessionMachine<OnboardingClient>({
        store,
        clients: onboardingClients({
          settings: () => clientSettingsOf(settings.value),
          onRequest: (entry) => {
            log.request(entry);
          },
          onToken: (value) => {
            log.redactor.addToken(value);
          },
        }),
        log,
        notifyRejected: (env) => {
          announceCredentialsRejected(notifier, env);
        },
        rememberSecret: (value) => {
          log.redactor.addSecret(value);
        },
        sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
        localize: options.localize,
      }),
    );
    this.onDidChangeState = this.machine.onDidChangeState;
    this.onDidChangeEnvironments = this.machine.onDidChangeEnvironments;
    this.register(
      options.onDidChangeSecrets((event) => {
        const id = environmentIdOfSecretKey(event.key);
        if (id !== undefined) void this.machine.handleSecretChange(id);
      }),
    );
    this.register(
      settings.onDidChange((change) => {
        if (CLIENT_SETTINGS.some((setting) => change.event.affectsConfiguration(setting))) this.machine.rebuildClient();
      }),
    );
  }

  get state(): SessionState {
    return this.machine.state;
  }

  get activeEnvironment(): Environment | undefined {
    return this.machine.activeEnvironment;
  }

  environments(): Environment[] {
    return this.machine.environments();
  }

  client(): OnboardingClient | undefined {
    return this.machine.client();
  }

  reportCredentialsRejected(): void {
    this.machine.reportCredentialsRejected();
  }

  /** Starts from the environment this or another window used last. No network: that waits for the first view. */
  initialize(): Promise<void> {
    return this.machine.initialize();
  }

  verify(draft: SignInDraft, signal?: AbortSignal): Promise<VerifyOutcome> {
    return this.machine.verify(draft, signal);
  }

  resolveEnvironment(draft: SignInDraft): Environment {
    return this.machine.resolveEnvironment(draft);
  }

  completeSignIn(draft: SignInDraft): Promise<Environment> {
    return this.machine.completeSignIn(draft);
  }

  switchTo(id: string): Promise<boolean> {
    return this.machine.switchTo(id);
  }

  signOut(id: string): Promise<void> {
    return this.machine.signOut(id);
  }

  hasSecrets(id: string): Promise<boolean> {
    return this.machine.hasSecrets(id);
  }

  /** A secret value the user just typed: from now on the log never prints it. */
  rememberTyped(value: string): void {
    this.options.log.redactor.addSecret(value);
  }
}
