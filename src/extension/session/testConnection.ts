// "Onboarding Events: Test Connection": runs core/connectionCheck.ts for the
// active environment (or what the sign-in flow just tried) under a cancellable
// progress notification, then opens the report beside the editor as an
// untitled Markdown document the user can read, save or paste into a ticket,
// with a "Copy Report" button. The report passes through the log's redactor
// too, so a secret the check never meant to show still cannot appear.
import * as vscode from 'vscode';
import { abortSignalFor } from '../../core/common/cancellation';
import { definedOnly } from '../../core/common/definedOnly';
import { isApiError } from '../../core/client/errors';
import { EXTENSION_WORDING } from '../workbench/remedies';
import type { Credentials } from '../../core/client/auth/tokenClient';
import { runConnectionCheck } from '../../core/client/connectionCheck';
import { renderConnectionReport } from '../../core/client/connectionReport';
import { clientSettingsOf } from '../../core/domain/settings/clientSettings';
import type { SessionClient, SessionMachine, StoredSecrets } from '../../core/domain/session/sessionMachine';
import type { Log } from '../workbench/log';
import type { SettingsReader } from '../workbench/settings';
import { COMMANDS } from '../workbench/constants';
import { inertNotificationText } from '../../core/common/notificationText';

export interface TestConnectionDeps {
  readonly session: SessionMachine<SessionClient>;
  readonly store: { readSecrets(id: string): Promise<StoredSecrets | undefined> };
  readonly settings: Pick<SettingsReader, 'value'>;
  readonly log: Log;
  readonly extensionVersion: string;
}

/** What to test: an environment's URLs and, when known, its credentials. */
export interface ConnectionTarget {
  readonly name: string;
  readonly apiBaseUrl: string;
  readonly authUrl: string;
  readonly credentials?: Credentials;
}

/**
 * The command: the active environment, else the last one used, else the URL
 * settings (without credentials). Takes no argument: another extension cannot
 * point it at a host of its choosing with our credentials.
 */
export function testConnection(deps: TestConnectionDeps): () => Promise<{ ok: boolean } | undefined> {
  return async () => {
    const target = await currentTarget(deps);
    if (target === undefined) {
      const signIn = vscode.l10n.t('Sign In');
      void vscode.window
        .showInformationMessage(
          vscode.l10n.t('Onboarding Events: nothing to test yet. Sign in, or set the API base URL and authorization URL settings.'),
          signIn,
        )
        .then((choice) => {
          if (choice === signIn) void vscode.commands.executeCommand(COMMANDS.signIn);
        });
      return undefined;
    }
    return showConnectionReport(deps, target);
  };
}

async function currentTarget(deps: TestConnectionDeps): Promise<ConnectionTarget | undefined> {
  const env = deps.session.activeEnvironment ?? deps.session.environments().at(-1);
  if (env !== undefined) {
    let secrets: StoredSecrets | undefined;
    try {
      secrets = await deps.store.readSecrets(env.id);
    } catch {
      // A locked keyring: the network stages are still worth running.
      secrets = undefined;
    }
    const credentials =
      secrets === undefined
        ? undefined
        : { clientId: env.clientId, clientSecret: secrets.clientSecret, username: env.username, password: secrets.password };
    return { name: env.name, apiBaseUrl: env.apiBaseUrl, authUrl: env.authUrl, ...definedOnly({ credentials }) };
  }
  const { apiBaseUrl, authUrl } = deps.settings.value;
  if (apiBaseUrl.trim() === '' || authUrl.trim() === '') return undefined;
  return { name: vscode.l10n.t('from the settings'), apiBaseUrl: apiBaseUrl.trim(), authUrl: authUrl.trim() };
}

/** Runs the check with a cancellable progress, opens the report beside, and offers to copy it; undefined when cancelled. */
export async function showConnectionReport(
  deps: Pick<TestConnectionDeps, 'settings' | 'log' | 'extensionVersion'>,
  target: ConnectionTarget,
): Promise<{ ok: boolean } | undefined> {
  const { log } = deps;
  const credentials = target.credentials;
  if (credentials !== undefined) {
    log.redactor.addSecret(credentials.clientSecret);
    log.redactor.addSecret(credentials.password);
  }
  const report = await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: vscode.l10n.t('Onboarding Events: testing the connection…'),
      cancellable: true,
    },
    async (_progress, token) => {
      const abort = abortSignalFor(token);
      try {
        return await runConnectionCheck({
          // The user reads the report: every stage and verdict in the display language.
          t: vscode.l10n.t,
          wording: EXTENSION_WORDING,
          environment: target.name,
          apiBaseUrl: target.apiBaseUrl,
          authUrl: target.authUrl,
          ...definedOnly({ credentials: credentials && (() => Promise.resolve(credentials)) }),
          // As the session's clients (clientFactory.ts): in the extension host, VS Code's network stack.
          http: { ...clientSettingsOf(deps.settings.value).http, engine: 'vscode' },
          signal: abort.signal,
          facts: [
            ['Onboarding Events', deps.extensionVersion],
            [vscode.env.appName, vscode.version],
            ...(vscode.env.remoteName !== undefined ? ([[vscode.l10n.t('Remote'), vscode.env.remoteName]] as const) : []),
          ],
          onToken: (value) => {
            log.redactor.addToken(value);
          },
        });
      } catch (error) {
        if (isApiError(error) && error.kind === 'cancelled') return undefined;
        throw error;
      } finally {
        abort.dispose();
      }
    },
  );
  if (report === undefined) return undefined;
  const text = log.redactor.redact(renderConnectionReport(report, vscode.l10n.t));
  // The headline is in the user's language (the report was worded for them); the words around it stay English.
  // The headline comes in the user's language, as the report was worded for them: the log quotes what they saw.
  log.info(`Test Connection: ${report.verdict.ok ? 'the connection works' : report.verdict.headline}`);
  const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: text });
  // Beside what the user is looking at; in the first group when nothing is open, rather than next to an empty one.
  const viewColumn = vscode.window.activeTextEditor === undefined ? vscode.ViewColumn.Active : vscode.ViewColumn.Beside;
  await vscode.window.showTextDocument(document, { viewColumn, preview: false });
  const copy = vscode.l10n.t('Copy Report');
  const shown = report.verdict.ok
    ? vscode.window.showInformationMessage(inertNotificationText(vscode.l10n.t('Onboarding Events: {0}', report.verdict.headline)), copy)
    : vscode.window.showWarningMessage(inertNotificationText(vscode.l10n.t('Onboarding Events: {0}', report.verdict.headline)), copy);
  void shown.then((choice) => {
    if (choice === copy) void vscode.env.clipboard.writeText(text);
  });
  return { ok: report.verdict.ok };
}
