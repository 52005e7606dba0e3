// Wiring for sign-in: the credential store, the session, the Accounts-menu
// provider, the status bar, the commands and the context keys that menus and
// welcome views read. Everything registered here goes to
// context.subscriptions, the session included. The session is the vscode-free
// SessionMachine (domain/session/sessionMachine.ts, where the rules of sign-in,
// switch, sign-out and rejected credentials live) given VS Code's pieces here:
// SecretStorage, the settings, the log and the user's notifications. It follows
// SecretStorage changes from other windows and rebuilds the client when a client
// setting changes.
import * as vscode from 'vscode';
import { verifiedState } from '../../core/common/verifiedState';
import { registerCommands, setContext } from '../workbench/commands';
import { COMMANDS, CONTEXT_KEYS } from '../workbench/constants';
import type { Log } from '../workbench/log';
import type { SettingsReader } from '../workbench/settings';
import { AUTH_PROVIDER_ID, authProviderLabel, OnboardingAuthenticationProvider } from './authProvider';
import { ConfirmedEndpoints, CredentialStore, environmentIdOfSecretKey } from './credentialStore';
import { inertNotificationText } from '../../core/common/notificationText';
import type { Environment, SessionState } from '../../core/domain/session/sessionState';
import { sessionCommands } from './sessionCommands';
import { showConnectionReport } from './testConnection';
import { SignInFlow } from './signInFlow';
import { onboardingClients } from './clientFactory';
import type { OnboardingClient } from '../../core/client/onboardingClient';
import { SessionMachine } from '../../core/domain/session/sessionMachine';
import { CLIENT_SETTINGS, clientSettingsOf } from '../../core/domain/settings/clientSettings';
import { DEMO_VARIABLE, demoGrant, demoVariable } from '../../core/domain/session/argumentSignIn';
import { readFileSync } from 'node:fs';
import type { ArgumentTrust } from '../workbench/argumentTrust';

export interface SessionDeps {
  readonly log: Log;
  readonly settings: SettingsReader;
  readonly trust: ArgumentTrust;
}

export function registerSession(context: vscode.ExtensionContext, deps: SessionDeps): SessionMachine<OnboardingClient> {
  const { log, settings, trust } = deps;
  // Global state can drop a write for an older copy echoed back (common/verifiedState.ts): an environment's record is read back.
  const globalState = verifiedState(context.globalState, (message) => {
    log.info(message);
  });
  const store = new CredentialStore(context.secrets, globalState);
  const session = new SessionMachine<OnboardingClient>({
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
      announceCredentialsRejected(env);
    },
    rememberSecret: (value) => {
      log.redactor.addSecret(value);
    },
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    localize: vscode.l10n.t,
  });
  const confirmed = new ConfirmedEndpoints(globalState);
  const { version } = context.extension.packageJSON as { version?: unknown };
  const extensionVersion = typeof version === 'string' ? version : 'unknown';
  const reportDeps = { settings, log, extensionVersion };
  const flow = new SignInFlow(session, settings, confirmed, (draft) =>
    // What the user just typed, in memory only: the same credentials the failed verification sent.
    showConnectionReport(reportDeps, {
      name: session.resolveEnvironment(draft).name,
      apiBaseUrl: draft.apiBaseUrl,
      authUrl: draft.authUrl,
      credentials: { clientId: draft.clientId, clientSecret: draft.clientSecret, username: draft.username, password: draft.password },
    }),
  );
  // Read once, at activation: see demoVariable() and demoGrant() for why only the demo's extension host can use it.
  const demo = {
    grant: demoGrant(
      demoVariable({
        launchEnviron: launchEnvironment(),
        processValue: process.env[DEMO_VARIABLE],
        development: context.extensionMode === vscode.ExtensionMode.Development,
      }),
    ),
  };
  for (const serialNumber of [...(demo.grant?.pin ?? []), ...(demo.grant?.watch ?? [])]) trust.grantOnce({ serialNumber });
  const provider = new OnboardingAuthenticationProvider(session, () => flow.run());
  const statusBar = vscode.window.createStatusBarItem('onboardingEvents.session', vscode.StatusBarAlignment.Left, -100);
  statusBar.name = vscode.l10n.t('Onboarding Events Sign-In');
  statusBar.command = COMMANDS.sessionMenu;

  const updateUi = (): void => {
    const hasEnvironments = session.environments().length > 0;
    setContext(CONTEXT_KEYS.signedIn, session.state.kind === 'signed-in');
    setContext(CONTEXT_KEYS.hasEnvironments, hasEnvironments);
    showSessionState(statusBar, session.state, hasEnvironments);
  };

  context.subscriptions.push(
    session,
    statusBar,
    provider,
    vscode.authentication.registerAuthenticationProvider(AUTH_PROVIDER_ID, authProviderLabel(), provider, {
      supportsMultipleAccounts: true,
    }),
    ...registerCommands(sessionCommands, { session, flow, log, trust, confirmed, demo, store, settings, extensionVersion }),
    session.onDidChangeState(updateUi),
    session.onDidChangeEnvironments(updateUi),
    // SecretStorage is shared by all windows: another window's sign-in or sign-out arrives here.
    context.secrets.onDidChange((event) => {
      const id = environmentIdOfSecretKey(event.key);
      if (id !== undefined) void session.handleSecretChange(id);
    }),
    settings.onDidChange((change) => {
      if (CLIENT_SETTINGS.some((setting) => change.event.affectsConfiguration(setting))) session.rebuildClient();
    }),
  );
  updateUi();
  void session.initialize().catch((error: unknown) => {
    log.error('Could not restore the last sign-in', error);
  });

  return session;
}

/**
 * What the user sees when the stored credentials of the active environment
 * stop working: one warning per episode (the session machine decides when),
 * with a button that opens the sign-in prefilled from that environment.
 */
function announceCredentialsRejected(env: Environment): void {
  const signInAgain = vscode.l10n.t('Sign In Again');
  void vscode.window
    .showWarningMessage(
      inertNotificationText(
        vscode.l10n.t(
          'Onboarding Events: the credentials stored for "{0}" no longer work (the password may have changed or the API user was removed). Sign in again to see events.',
          env.name,
        ),
      ),
      signInAgain,
    )
    .then((choice) => {
      if (choice === signInAgain) void vscode.commands.executeCommand(COMMANDS.signInAgain);
    });
}

/** The status-bar entry: the active environment and whether it is signed in; a click opens the session menu. */
function showSessionState(item: vscode.StatusBarItem, state: SessionState, hasEnvironments: boolean): void {
  const tooltip = new vscode.MarkdownString(undefined, false);
  tooltip.isTrusted = false;
  tooltip.supportHtml = false;
  switch (state.kind) {
    case 'signed-in': {
      const env = state.environment;
      item.text = `$(account) ${env.name}`;
      item.backgroundColor = undefined;
      item.accessibilityInformation = { label: vscode.l10n.t('Onboarding Events: signed in to {0} as {1}', env.name, env.username) };
      tooltip.appendMarkdown(`**${vscode.l10n.t('Onboarding Events')}**\n\n`);
      tooltip.appendText(vscode.l10n.t('Signed in to {0} as {1}', env.name, env.username));
      tooltip.appendMarkdown('\n\n');
      tooltip.appendText(vscode.l10n.t('API: {0}', env.apiBaseUrl));
      break;
    }
    case 'credentials-rejected': {
      const env = state.environment;
      item.text = `$(warning) ${env.name}`;
      item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
      item.accessibilityInformation = {
        label: vscode.l10n.t('Onboarding Events: the credentials for {0} no longer work', env.name),
      };
      tooltip.appendMarkdown(`**${vscode.l10n.t('Onboarding Events')}**\n\n`);
      tooltip.appendText(
        vscode.l10n.t('The credentials stored for {0} ({1}) no longer work. Click to sign in again.', env.name, env.username),
      );
      break;
    }
    case 'signed-out':
      item.text = `$(account) ${vscode.l10n.t('Onboarding Events: Signed Out')}`;
      item.backgroundColor = undefined;
      item.accessibilityInformation = { label: vscode.l10n.t('Onboarding Events: signed out') };
      tooltip.appendMarkdown(`**${vscode.l10n.t('Onboarding Events')}**\n\n`);
      tooltip.appendText(
        hasEnvironments
          ? vscode.l10n.t('Signed out. Click to switch to a saved environment or sign in.')
          : vscode.l10n.t('Signed out. Click to sign in.'),
      );
      break;
  }
  item.tooltip = tooltip;
  item.show();
}

/** The environment this extension host was started with (Linux), which code running in the host cannot rewrite; undefined elsewhere. */
function launchEnvironment(): string | undefined {
  try {
    // Bounded: an environment larger than this is not one the demo starts.
    const environ = readFileSync('/proc/self/environ', 'utf8');
    return environ.length > 1_000_000 ? '' : environ;
  } catch {
    return undefined;
  }
}
