// Sign In, interactively: seven steps, then one token request that proves the credentials before
// anything is stored. What was typed stays in memory only while the flow runs.
import * as vscode from 'vscode';
import { extensionErrorText } from '../workbench/remedies';
import { abortSignalFor } from '../../core/common/cancellation';
import { definedOnly } from '../../core/common/definedOnly';
import { isApiError } from '../../core/client/errors';
import type { Environment } from '../../core/domain/session/sessionState';
import {
  checkEndpointUrl,
  checkEnvironmentName,
  suggestEnvironmentName,
  urlProblemMessage,
} from '../../core/domain/session/environmentRules';
import type { SignInDraft } from '../../core/domain/session/sessionMachine';
import type { SettingsReader } from '../workbench/settings';
import { runMultiStepInput, type InputStep } from './multiStepInput';
import type { SessionClient, SessionMachine } from '../../core/domain/session/sessionMachine';
import type { ConfirmedEndpoints } from './credentialStore';
import { inertNotificationText } from '../../core/common/notificationText';

type Field = 'apiBaseUrl' | 'authUrl' | 'clientId' | 'clientSecret' | 'username' | 'password' | 'environment';

export type SignInPrefill = Partial<Record<Field, string>>;

const CLIENT_ID_STEP = 2;
const FIRST_ACCOUNT_STEP = CLIENT_ID_STEP;

export class SignInFlow {
  constructor(
    private readonly session: SessionMachine<SessionClient>,
    private readonly settings: Pick<SettingsReader, 'value'>,
    private readonly confirmed: ConfirmedEndpoints,
    /** Test Connection with what was typed, offered when the check could not reach the server. */
    private readonly testConnection: (draft: SignInDraft) => Promise<unknown>,
  ) {}

  /**
   * Undefined when the user gave up. Past the URL steps only for URLs confirmed before, so nobody types
   * a secret for a /token they never saw.
   */
  async run(prefill: SignInPrefill = {}, startAt = 0): Promise<Environment | undefined> {
    let values: SignInPrefill = { ...this.defaults(), ...definedOnly(prefill) };
    let step = startAt >= FIRST_ACCOUNT_STEP && !this.urlsConfirmed(values) ? 0 : startAt;
    for (;;) {
      const collected = await runMultiStepInput(vscode.l10n.t('Sign In to Onboarding Events'), this.steps(), values, step);
      if (collected === undefined) return undefined;
      values = collected;
      const draft = draftFrom(collected);
      if (draft === undefined) return undefined;
      const next = await this.verifyAndStore(draft);
      if (next.kind === 'done') return next.env;
      if (next.kind === 'cancelled') return undefined;
      step = next.restartAt;
    }
  }

  private async verifyAndStore(
    draft: SignInDraft,
  ): Promise<{ kind: 'done'; env: Environment } | { kind: 'cancelled' } | { kind: 'edit'; restartAt: number }> {
    for (;;) {
      const outcome = await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: inertNotificationText(vscode.l10n.t('Checking the credentials with {0}…', hostOf(draft.authUrl))),
          cancellable: true,
        },
        (_progress, token) => {
          const abort = abortSignalFor(token);
          return this.session.verify(draft, abort.signal).finally(() => {
            abort.dispose();
          });
        },
      );
      if (outcome.ok) {
        const env = await this.session.completeSignIn(draft);
        // The flow showed the URL steps (or started past them only for confirmed URLs).
        await this.confirmed.confirm(env);
        void vscode.window.showInformationMessage(inertNotificationText(vscode.l10n.t('Signed in to {0} as {1}.', env.name, env.username)));
        return { kind: 'done', env };
      }
      const error = outcome.error;
      const kind = isApiError(error) ? error.kind : undefined;
      if (kind === 'cancelled') return { kind: 'cancelled' };
      const edit = vscode.l10n.t('Edit Sign-In');
      if (kind === 'invalid-credentials') {
        const choice = await vscode.window.showErrorMessage(
          vscode.l10n.t('The authorization server rejected the client id, client secret, username or password. Nothing was stored.'),
          edit,
        );
        return choice === edit ? { kind: 'edit', restartAt: CLIENT_ID_STEP } : { kind: 'cancelled' };
      }
      if (kind === 'network' || kind === 'timeout') {
        const retry = vscode.l10n.t('Try Again');
        const test = vscode.l10n.t('Test Connection');
        let choice: string | undefined;
        // The report opens beside; the message comes back so Try Again and Edit stay one click away.
        for (;;) {
          choice = await vscode.window.showErrorMessage(
            inertNotificationText(
              vscode.l10n.t(
                'Could not check the credentials: {0} Nothing was stored; what you typed is kept until you close this message.',
                extensionErrorText(error, vscode.l10n.t),
              ),
            ),
            retry,
            test,
            edit,
          );
          if (choice !== test) break;
          await this.testConnection(draft);
        }
        if (choice === retry) continue;
        return choice === edit ? { kind: 'edit', restartAt: 0 } : { kind: 'cancelled' };
      }
      const choice = await vscode.window.showErrorMessage(
        inertNotificationText(vscode.l10n.t('Sign-in failed: {0} Nothing was stored.', extensionErrorText(error, vscode.l10n.t))),
        edit,
      );
      return choice === edit ? { kind: 'edit', restartAt: 0 } : { kind: 'cancelled' };
    }
  }

  private urlsConfirmed(values: SignInPrefill): boolean {
    const draft = accountDraft(values);
    if (draft === undefined) return false;
    const env = this.session
      .environments()
      .find(
        (candidate) =>
          candidate.apiBaseUrl === draft.apiBaseUrl && candidate.authUrl === draft.authUrl && candidate.username === draft.username,
      );
    return env !== undefined && this.confirmed.isConfirmed(env);
  }

  /** URLs from the settings, else from the environment in use, so a second sign-in is mostly Enter. */
  private defaults(): SignInPrefill {
    const settings = this.settings.value;
    const last = this.session.activeEnvironment ?? this.session.environments().at(-1);
    const apiBaseUrl = nonEmpty(settings.apiBaseUrl) ?? last?.apiBaseUrl;
    const authUrl = nonEmpty(settings.authUrl) ?? last?.authUrl;
    return definedOnly({ apiBaseUrl, authUrl });
  }

  private steps(): InputStep<Field>[] {
    const required = (what: string) => (value: string) => (value.trim() === '' ? vscode.l10n.t('Enter the {0}.', what) : undefined);
    const remember = (value: string): void => {
      this.session.rememberTyped(value);
    };
    return [
      {
        key: 'apiBaseUrl',
        prompt: vscode.l10n.t('API base URL: the address the events API is served under (…/public/api/onboarding-events is added).'),
        placeholder: 'https://api.example.com',
        validate: (value) => urlMessage(value),
      },
      {
        key: 'authUrl',
        prompt: vscode.l10n.t('Authorization server URL: tokens are requested from <this URL>/token.'),
        placeholder: 'https://auth.example.com/oauth',
        validate: (value) => urlMessage(value),
      },
      {
        key: 'clientId',
        prompt: vscode.l10n.t('Client ID of the API user (from the API access page of the management application).'),
        validate: required(vscode.l10n.t('client ID')),
      },
      {
        key: 'clientSecret',
        prompt: vscode.l10n.t('Client secret. Kept in VS Code secret storage only.'),
        password: true,
        validate: required(vscode.l10n.t('client secret')),
        onAccept: remember,
      },
      { key: 'username', prompt: vscode.l10n.t('Username of the API user.'), validate: required(vscode.l10n.t('username')) },
      {
        key: 'password',
        prompt: vscode.l10n.t('Password of the API user. Kept in VS Code secret storage only.'),
        password: true,
        validate: required(vscode.l10n.t('password')),
        onAccept: remember,
      },
      {
        key: 'environment',
        prompt: vscode.l10n.t('A name for this environment, shown in the status bar and the Accounts menu (e.g. Production, Test system).'),
        suggest: (values) => {
          const draft = accountDraft(values);
          return draft === undefined ? undefined : this.session.resolveEnvironment(draft).name;
        },
        validate: (value, values) => {
          const draft = accountDraft(values);
          const ownId = draft === undefined ? undefined : this.session.resolveEnvironment(draft).id;
          const problem = checkEnvironmentName(value, this.session.environments(), ownId);
          if (problem === 'empty')
            return vscode.l10n.t('Enter a name, e.g. {0}.', suggestEnvironmentName(values.apiBaseUrl ?? '', [], vscode.l10n.t));
          if (problem === 'too-long') return vscode.l10n.t('Use one line of at most 60 characters.');
          if (problem === 'taken')
            return vscode.l10n.t(
              'Another sign-in is already called "{0}". Choose another name, or sign out of that one first.',
              value.trim(),
            );
          return undefined;
        },
      },
    ];
  }
}

export function urlMessage(value: string): string | undefined {
  const check = checkEndpointUrl(value);
  return check.ok ? undefined : urlProblemMessage(check.problem, vscode.l10n.t);
}

/** The draft without its name: which account it is, for suggesting and checking names. */
function accountDraft(values: SignInPrefill): SignInDraft | undefined {
  const account: SignInPrefill = { ...values };
  delete account.environment;
  return draftFrom(account);
}

function draftFrom(values: SignInPrefill): SignInDraft | undefined {
  const { apiBaseUrl, authUrl, clientId, clientSecret, username, password } = values;
  if (apiBaseUrl === undefined || authUrl === undefined || clientId === undefined || username === undefined) return undefined;
  const api = checkEndpointUrl(apiBaseUrl);
  const auth = checkEndpointUrl(authUrl);
  if (!api.ok || !auth.ok) return undefined;
  const draft = { apiBaseUrl: api.url, authUrl: auth.url, clientId, username, clientSecret: clientSecret ?? '', password: password ?? '' };
  const environment = values.environment?.trim();
  return environment === undefined || environment === '' ? draft : { ...draft, environment };
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}
