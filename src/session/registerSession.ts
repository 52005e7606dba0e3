// Wiring for sign-in: the credential store, the session, the Accounts-menu
// provider, the status bar, the commands and the context keys that menus and
// welcome views read. Everything registered here is disposed with the session.
import * as vscode from 'vscode';
import type { Log } from '../workbench/log';
import type { ApiSession } from '../workbench/contracts/apiSession';
import type { SessionState } from '../domain/session/sessionState';
import { AUTH_PROVIDER_ID, authProviderLabel, OnboardingAuthenticationProvider } from './authProvider';
import { CLIENT_SETTINGS, readClientSettings } from '../domain/settings/clientSettings';
import { CredentialStore, secretKey } from './credentialStore';
import { Notifier, type ShownNotification } from './notify';
import { registerSessionCommands } from './sessionCommands';
import { SessionManager } from './sessionManager';
import { SignInFlow } from './signInFlow';
import { SessionStatusBar } from './statusBar';

/**
 * What integration tests may see of sign-in through the extension API. It
 * holds no credentials, tokens or clients: names, state kinds, our own
 * notification texts, and the non-secret state the extension stored.
 */
export interface SessionDiagnostics {
  state(): { readonly kind: SessionState['kind']; readonly environment?: string };
  environmentNames(): string[];
  notifications(): readonly ShownNotification[];
  /** Global and workspace state (keys and values) as JSON: everything the extension stored outside SecretStorage. */
  storedStateJson(): string;
  /** Whether SecretStorage still holds an entry for this environment id (the values stay inside). */
  hasStoredSecret(environmentId: string): Promise<boolean>;
  /** The folder of the extension's log files (context.logUri), to search them. */
  readonly logDirectory: string;
}

/** The session every view reads through, plus the test hook (ExtensionMode.Test only). */
export type RegisteredSession = ApiSession & { readonly testHook: SessionDiagnostics | undefined };

export function registerSession(context: vscode.ExtensionContext, log: Log): RegisteredSession {
  const notifier = new Notifier();
  const store = new CredentialStore(context.secrets, context.globalState);
  const session = new SessionManager({
    store,
    log,
    notifier,
    readSettings: () => readClientSettings((section, key) => vscode.workspace.getConfiguration(section).get<unknown>(key)),
    signInAgain: () => {
      void vscode.commands.executeCommand('onboardingEvents.signInAgain');
    },
  });
  const flow = new SignInFlow(session, notifier);
  const provider = new OnboardingAuthenticationProvider(session, () => flow.run());
  const statusBar = new SessionStatusBar();

  const updateUi = (): void => {
    const hasEnvironments = session.environments().length > 0;
    void vscode.commands.executeCommand('setContext', 'onboardingEvents.signedIn', session.state.kind === 'signed-in');
    void vscode.commands.executeCommand('setContext', 'onboardingEvents.hasEnvironments', hasEnvironments);
    statusBar.update(session.state, hasEnvironments);
  };

  session.own(
    statusBar,
    provider,
    vscode.authentication.registerAuthenticationProvider(AUTH_PROVIDER_ID, authProviderLabel(), provider, { supportsMultipleAccounts: true }),
    ...registerSessionCommands({ session, flow, notifier, log }),
    session.onDidChangeState(updateUi),
    session.onDidChangeEnvironments(updateUi),
    context.secrets.onDidChange((event) => void session.handleSecretChange(event.key)),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (CLIENT_SETTINGS.some((setting) => event.affectsConfiguration(setting))) session.rebuildClient();
    }),
  );
  updateUi();
  void session.initialize().catch((error: unknown) => {
    log.error('Could not restore the last sign-in', error);
  });

  const diagnostics: SessionDiagnostics = {
    state: () => {
      const state = session.state;
      return state.kind === 'signed-out' ? { kind: state.kind } : { kind: state.kind, environment: state.environment.name };
    },
    environmentNames: () => session.environments().map((env) => env.name),
    notifications: () => [...notifier.shown],
    storedStateJson: () =>
      JSON.stringify({
        globalState: Object.fromEntries(context.globalState.keys().map((key) => [key, context.globalState.get<unknown>(key)])),
        workspaceState: Object.fromEntries(context.workspaceState.keys().map((key) => [key, context.workspaceState.get<unknown>(key)])),
      }),
    hasStoredSecret: async (environmentId) => (await context.secrets.get(secretKey(environmentId))) !== undefined,
    logDirectory: context.logUri.fsPath,
  };

  session.testHook = context.extensionMode === vscode.ExtensionMode.Test ? diagnostics : undefined;
  return session;
}
