// The sign-in commands and the status-bar menu, as one command table; an argument object is asked
// about (workbench/argumentTrust.ts), none means step by step.
import * as vscode from 'vscode';
import { extensionErrorText } from '../workbench/remedies';
import { inertNotificationText } from '../../core/common/notificationText';
import { isRecord } from '../../core/common/guards';
import { isApiError } from '../../core/client/errors';
import type { Environment } from '../../core/domain/session/sessionState';
import { checkEndpointUrl, sameName, urlProblemMessage } from '../../core/domain/session/environmentRules';
import type { SignInDraft } from '../../core/domain/session/sessionMachine';
import type { CommandHandler, CommandTable } from '../workbench/commands';
import { COMMANDS } from '../workbench/constants';
import type { Log } from '../workbench/log';
import { plainArgument, type ArgumentTrust } from '../workbench/argumentTrust';
import { planArgumentSignIn, signInFields, type DemoGrant } from '../../core/domain/session/argumentSignIn';
import type { ConfirmedEndpoints } from './credentialStore';
import type { SessionClient, SessionMachine } from '../../core/domain/session/sessionMachine';
import type { SignInFlow, SignInPrefill } from './signInFlow';
import { testConnection, type TestConnectionDeps } from './testConnection';

export interface SessionCommandDeps extends TestConnectionDeps {
  readonly session: SessionMachine<SessionClient>;
  readonly flow: SignInFlow;
  readonly log: Log;
  readonly trust: ArgumentTrust;
  readonly confirmed: ConfirmedEndpoints;
  /** The demo's one-step sign-in (argumentSignIn.ts), read from the environment at activation; consumed on use. */
  readonly demo: { grant: DemoGrant | undefined };
}

const AUTOMATION_KEYS = ['apiBaseUrl', 'authUrl', 'clientId', 'clientSecret', 'username', 'password'] as const;

/** The keys of Sign In's argument; read once into a plain copy (workbench/argumentTrust.ts) before anything decides. */
const SIGN_IN_ARGUMENT = [...AUTOMATION_KEYS, 'environment'] as const;

/** Interactive, or (given the automation keys) after a modal showing the URLs — without it only for the demo; returns only the environment's name. */
function signIn(deps: SessionCommandDeps): CommandHandler {
  return async (arg?: unknown): Promise<{ environment: string } | undefined> => {
    const copy = plainArgument(arg, SIGN_IN_ARGUMENT, { prefill: SIGN_IN_ARGUMENT });
    if (copy !== undefined && AUTOMATION_KEYS.some((key) => key in copy)) {
      // An incomplete argument only prefills the interactive flow (never its secrets).
      if (signInFields(copy) === undefined) {
        const prefill = stringFields(copy);
        delete prefill.clientSecret;
        delete prefill.password;
        const env = await deps.flow.run(prefill);
        return env === undefined ? undefined : { environment: env.name };
      }
      return signInWithArguments(deps, copy);
    }
    const prefill = copy !== undefined && isRecord(copy['prefill']) ? stringFields(copy['prefill']) : {};
    const env = await deps.flow.run(prefill);
    return env === undefined ? undefined : { environment: env.name };
  };
}

/** Kept out of the palette: the status bar, the welcome view and "Sign In Again" use it. Starts at the secret steps only for URLs the user confirmed (the flow checks). */
function signInAgain({ session, flow }: SessionCommandDeps): CommandHandler {
  return async () => {
    const env = session.state.kind === 'signed-out' ? undefined : session.state.environment;
    await flow.run(env === undefined ? {} : prefillFrom(env), env === undefined ? 0 : 3);
  };
}

function signOut(deps: SessionCommandDeps): CommandHandler {
  return (arg?: unknown) => signOutOf(deps, arg);
}

function switchEnvironment(deps: SessionCommandDeps): CommandHandler {
  return (arg?: unknown) => switchTo(deps, arg);
}

function showLog({ log }: SessionCommandDeps): CommandHandler {
  return () => {
    log.show();
  };
}

function sessionMenu(deps: SessionCommandDeps): CommandHandler {
  return () => showSessionMenu(deps);
}

export const sessionCommands: CommandTable<SessionCommandDeps> = {
  [COMMANDS.signIn]: signIn,
  // The same flow: its last step names the new environment, and signing in to it makes it the active one.
  [COMMANDS.addEnvironment]: signIn,
  [COMMANDS.signInAgain]: signInAgain,
  [COMMANDS.signOut]: signOut,
  [COMMANDS.switchEnvironment]: switchEnvironment,
  [COMMANDS.showLog]: showLog,
  [COMMANDS.sessionMenu]: sessionMenu,
  [COMMANDS.testConnection]: testConnection,
};

/** Except for the demo's grant, shows the URLs in a modal first and stores nothing unless confirmed. */
async function signInWithArguments(deps: SessionCommandDeps, arg: Record<string, unknown>): Promise<{ environment: string } | undefined> {
  const fields = stringFields(arg);
  const missing = AUTOMATION_KEYS.filter((key) => (fields[key] ?? '') === '');
  if (missing.length > 0) throw new Error(vscode.l10n.t('Sign-in needs {0}.', missing.join(', ')));
  const api = checkEndpointUrl(fields.apiBaseUrl ?? '');
  if (!api.ok) throw new Error(`apiBaseUrl: ${urlProblemMessage(api.problem, vscode.l10n.t)}`);
  const auth = checkEndpointUrl(fields.authUrl ?? '');
  if (!auth.ok) throw new Error(`authUrl: ${urlProblemMessage(auth.problem, vscode.l10n.t)}`);
  const draft: SignInDraft = {
    apiBaseUrl: api.url,
    authUrl: auth.url,
    clientId: fields.clientId ?? '',
    clientSecret: fields.clientSecret ?? '',
    username: fields.username ?? '',
    password: fields.password ?? '',
    ...(fields.environment !== undefined && fields.environment.trim() !== '' ? { environment: fields.environment.trim() } : {}),
  };
  const resolved = deps.session.resolveEnvironment(draft);
  const existing = deps.session.environments().find((env) => env.id === resolved.id);
  // `arg` is a plain copy, so these are the fields checked above; none can be missing here.
  const complete = signInFields(arg);
  if (complete === undefined) throw new Error(vscode.l10n.t('Sign-in needs {0}.', AUTOMATION_KEYS.join(', ')));
  const plan = planArgumentSignIn({
    fields: complete,
    apiBaseUrl: api.url,
    authUrl: auth.url,
    existing,
    grant: deps.demo.grant,
  });
  if (plan.kind === 'granted') {
    deps.demo.grant = undefined;
  } else {
    const action = vscode.l10n.t('Sign In');
    const lines = [
      vscode.l10n.t('API: {0}', plan.apiBaseUrl),
      vscode.l10n.t('Authorization server (receives the password): {0}/token', plan.authUrl.replace(/\/+$/, '')),
      vscode.l10n.t('User: {0}', plan.username),
    ];
    if (plan.replaces !== undefined) {
      lines.push(
        '',
        vscode.l10n.t(
          'This replaces the URLs of your environment "{0}" (API {1}, authorization server {2}).',
          plan.replaces.name,
          plan.replaces.apiBaseUrl,
          plan.replaces.authUrl,
        ),
      );
    }
    const title = vscode.l10n.t('Sign in to "{0}" with these URLs?', resolved.name);
    if (!(await deps.trust.confirm({ title, detail: lines.join('\n'), action }))) return undefined;
  }
  const outcome = await deps.session.verify(draft);
  if (!outcome.ok) {
    const error = outcome.error;
    if (isApiError(error) && error.kind === 'invalid-credentials') {
      throw new Error(
        vscode.l10n.t('The authorization server rejected the client id, client secret, username or password. Nothing was stored.'),
      );
    }
    throw new Error(vscode.l10n.t('Sign-in failed: {0} Nothing was stored.', extensionErrorText(error, vscode.l10n.t)));
  }
  const env = await deps.session.completeSignIn(draft);
  // Only a confirmed modal counts as the user having seen these URLs.
  if (plan.kind === 'confirm') await deps.confirmed.confirm(env);
  return { environment: env.name };
}

async function signOutOf(deps: SessionCommandDeps, arg: unknown): Promise<void> {
  const { session } = deps;
  const environments = session.environments();
  const options = plainArgument(arg, ['environment']);
  let env: Environment | undefined;
  if (typeof options?.['environment'] === 'string') {
    env = findEnvironment(environments, options['environment']);
    if (env === undefined) throw new Error(vscode.l10n.t('No environment called "{0}" is signed in.', options['environment']));
  } else if (environments.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Onboarding Events: not signed in.'));
    return;
  } else if (environments.length === 1 || options !== undefined) {
    env = session.activeEnvironment ?? environments[0];
  } else {
    env = await pickEnvironment(session, vscode.l10n.t('Sign out of which environment?'));
  }
  if (env === undefined) return;
  // Every caller is asked, an argument's too: removing the secrets is the user's to confirm.
  const action = vscode.l10n.t('Sign Out');
  const choice = await vscode.window.showWarningMessage(
    inertNotificationText(vscode.l10n.t('Sign out of {0} ({1})?', env.name, env.username)),
    {
      modal: true,
      detail: vscode.l10n.t(
        'The client secret and password of this environment are removed from this computer. You can sign in again at any time.',
      ),
    },
    action,
  );
  if (choice !== action) return;
  await session.signOut(env.id);
}

async function switchTo(deps: SessionCommandDeps, arg: unknown): Promise<{ environment: string } | undefined> {
  const { session, flow } = deps;
  const options = plainArgument(arg, ['environment', 'via']);
  let env: Environment | undefined;
  if (typeof options?.['environment'] === 'string') {
    const name = options['environment'];
    env = findEnvironment(session.environments(), name);
    if (env === undefined) throw new Error(vscode.l10n.t('No environment called "{0}" is signed in.', name));
    // Switching changes which credentials every view, hover and tool uses: an argument's switch is the user's to confirm,
    // unless our own UI asked them already (a link's "Switch to" button carries our mark).
    const asked =
      deps.trust.fromOwnUi(options) ||
      (await deps.trust.confirm({
        title: vscode.l10n.t('Switch Onboarding Events to the environment "{0}"?', env.name),
        detail: vscode.l10n.t('Every view, hover and agent tool then reads {0} as {1}.', env.apiBaseUrl, env.username),
        action: vscode.l10n.t('Switch'),
      }));
    if (!asked) return undefined;
  } else {
    env = await pickEnvironment(session, vscode.l10n.t('Switch to which environment?'), true);
    if (env === undefined) return undefined;
  }
  if (await session.switchTo(env.id)) return { environment: env.name };
  // Its secrets are gone (signed out in another window): sign in again, prefilled.
  const signedIn = await flow.run(prefillFrom(env), 3);
  return signedIn === undefined ? undefined : { environment: signedIn.name };
}

interface EnvironmentItem extends vscode.QuickPickItem {
  readonly env?: Environment;
}

async function pickEnvironment(
  session: SessionMachine<SessionClient>,
  placeHolder: string,
  offerNew = false,
): Promise<Environment | undefined> {
  const activeId = session.activeEnvironment?.id;
  const environments = [...session.environments()].sort((a, b) => Number(b.id === activeId) - Number(a.id === activeId));
  const items: EnvironmentItem[] = environments.map((env) => ({
    label: `${env.id === activeId ? '$(check)' : '$(blank)'} ${env.name}`,
    description: env.username,
    detail: env.apiBaseUrl,
    env,
  }));
  if (offerNew) {
    items.push(
      { label: '', kind: vscode.QuickPickItemKind.Separator },
      { label: `$(add) ${vscode.l10n.t('Sign In to Another Environment…')}` },
    );
  }
  const picked = await vscode.window.showQuickPick(items, { placeHolder, matchOnDescription: true, matchOnDetail: true });
  if (picked === undefined) return undefined;
  if (picked.env === undefined) {
    await vscode.commands.executeCommand(COMMANDS.signIn);
    return undefined;
  }
  return picked.env;
}

interface MenuItem extends vscode.QuickPickItem {
  readonly run?: () => unknown;
}

/** The status bar's menu: what makes sense in the current state, most likely first. */
async function showSessionMenu(deps: SessionCommandDeps): Promise<void> {
  const { session } = deps;
  const state = session.state;
  const environments = session.environments();
  const items: MenuItem[] = [];
  const run = (command: string, arg?: unknown) => () => vscode.commands.executeCommand(command, arg);
  if (state.kind === 'credentials-rejected') {
    items.push({ label: `$(sign-in) ${vscode.l10n.t('Sign In Again to {0}…', state.environment.name)}`, run: run(COMMANDS.signInAgain) });
  }
  if (environments.length > (state.kind === 'signed-out' ? 0 : 1)) {
    items.push({ label: `$(arrow-swap) ${vscode.l10n.t('Switch Environment…')}`, run: run(COMMANDS.switchEnvironment) });
  }
  items.push({
    label: `$(sign-in) ${state.kind === 'signed-out' ? vscode.l10n.t('Sign In…') : vscode.l10n.t('Sign In to Another Environment…')}`,
    run: run(COMMANDS.signIn),
  });
  if (state.kind !== 'signed-out') {
    items.push({
      label: `$(sign-out) ${vscode.l10n.t('Sign Out of {0}…', state.environment.name)}`,
      run: run(COMMANDS.signOut, { environment: state.environment.id }),
    });
  }
  items.push(
    { label: '', kind: vscode.QuickPickItemKind.Separator },
    { label: `$(pulse) ${vscode.l10n.t('Test Connection')}`, run: run(COMMANDS.testConnection) },
    { label: `$(output) ${vscode.l10n.t('Show Log')}`, run: run(COMMANDS.showLog) },
  );
  const title =
    state.kind === 'signed-in'
      ? vscode.l10n.t('Onboarding Events: {0} ({1})', state.environment.name, state.environment.username)
      : state.kind === 'credentials-rejected'
        ? vscode.l10n.t('Onboarding Events: credentials for {0} no longer work', state.environment.name)
        : vscode.l10n.t('Onboarding Events: signed out');
  const picked = await vscode.window.showQuickPick(items, { title });
  await picked?.run?.();
}

function findEnvironment(environments: readonly Environment[], nameOrId: string): Environment | undefined {
  return environments.find((env) => env.id === nameOrId) ?? environments.find((env) => sameName(env.name, nameOrId));
}

export function prefillFrom(env: Environment): SignInPrefill {
  return { apiBaseUrl: env.apiBaseUrl, authUrl: env.authUrl, clientId: env.clientId, username: env.username, environment: env.name };
}

function stringFields(record: Record<string, unknown>): SignInPrefill {
  const out: SignInPrefill = {};
  for (const key of [...AUTOMATION_KEYS, 'environment'] as const) {
    const value = record[key];
    if (typeof value === 'string') out[key] = value;
  }
  return out;
}
