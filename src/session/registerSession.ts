// Wiring for sign-in: the credential store, the session, the Accounts-menu
// provider, the status bar, the commands and the context keys that menus and
// welcome views read. Everything registered here goes to
// context.subscriptions, the session included.
import * as vscode from 'vscode';
import type { ApiSession } from '../workbench/contracts/apiSession';
import { registerCommands } from '../workbench/commands';
import { CONTEXT_KEYS } from '../workbench/constants';
import { setContext } from '../workbench/contextKeys';
import type { Log } from '../workbench/log';
import type { SettingsReader } from '../workbench/settings';
import { AUTH_PROVIDER_ID, authProviderLabel, OnboardingAuthenticationProvider } from './authProvider';
import { CredentialStore } from './credentialStore';
import { Notifier } from './notify';
import { sessionCommands } from './sessionCommands';
import { SessionManager } from './sessionManager';
import { SignInFlow } from './signInFlow';
import { SessionStatusBar } from './statusBar';
import { sessionDiagnostics, type SessionDiagnostics } from './testHook';
import { ConfirmedEndpoints } from './confirmedEndpoints';
import { demoGrant } from '../domain/session/argumentSignIn';
import type { ArgumentTrust } from '../workbench/argumentTrust';

export interface RegisteredSession {
  /** The session every view reads through. */
  readonly session: ApiSession;
  /** Observations for integration tests, no credentials; publicApi.ts exports it in ExtensionMode.Test only. */
  readonly testHook: SessionDiagnostics;
}

export function registerSession(
  context: vscode.ExtensionContext,
  log: Log,
  settings: SettingsReader,
  trust: ArgumentTrust,
): RegisteredSession {
  const notifier = new Notifier();
  const store = new CredentialStore(context.secrets, context.globalState);
  const session = new SessionManager({
    store,
    log,
    notifier,
    settings,
    localize: vscode.l10n.t,
    onDidChangeSecrets: (listener) => context.secrets.onDidChange(listener),
  });
  const confirmed = new ConfirmedEndpoints(context.globalState);
  const flow = new SignInFlow(session, notifier, settings, confirmed);
  // Read once, at activation: see demoGrant() for why only the demo's extension host can use it.
  const demo = { grant: demoGrant(process.env['OE_DEMO_SIGN_IN']) };
  const provider = new OnboardingAuthenticationProvider(session, () => flow.run());
  const statusBar = new SessionStatusBar();

  const updateUi = (): void => {
    const hasEnvironments = session.environments().length > 0;
    setContext(CONTEXT_KEYS.signedIn, session.state.kind === 'signed-in');
    setContext(CONTEXT_KEYS.hasEnvironments, hasEnvironments);
    statusBar.update(session.state, hasEnvironments);
  };

  context.subscriptions.push(
    session,
    statusBar,
    provider,
    vscode.authentication.registerAuthenticationProvider(AUTH_PROVIDER_ID, authProviderLabel(), provider, {
      supportsMultipleAccounts: true,
    }),
    ...registerCommands(sessionCommands, { session, flow, notifier, log, trust, confirmed, demo }),
    session.onDidChangeState(updateUi),
    session.onDidChangeEnvironments(updateUi),
  );
  updateUi();
  void session.initialize().catch((error: unknown) => {
    log.error('Could not restore the last sign-in', error);
  });

  return { session, testHook: sessionDiagnostics(context, session, notifier) };
}
