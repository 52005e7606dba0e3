// The Accounts-menu face of sign-in: every environment with stored secrets is
// one account ("username · Environment"), and signing out there removes it.
import * as vscode from 'vscode';
import { Emitter } from '../../core/common/emitter';
import { Disposable } from '../../core/common/lifecycle';
import type { Environment } from '../../core/domain/session/sessionState';
import { accountLabel } from '../../core/domain/session/environmentRules';
import type { SessionClient, SessionMachine } from '../../core/domain/session/sessionMachine';

export const AUTH_PROVIDER_ID = 'onboarding-events';
/** The Accounts menu's name for the provider; package.json's authentication label says the same. */
export function authProviderLabel(): string {
  return vscode.l10n.t('Onboarding Events');
}

export class OnboardingAuthenticationProvider extends Disposable implements vscode.AuthenticationProvider {
  private readonly changeEmitter = this.register(new Emitter<vscode.AuthenticationProviderAuthenticationSessionsChangeEvent>());
  readonly onDidChangeSessions = this.changeEmitter.event;
  /** What we last told VS Code, so change events carry exactly what was added, removed or renamed. */
  private known = new Map<string, vscode.AuthenticationSession>();

  constructor(
    private readonly session: SessionMachine<SessionClient>,
    /** The interactive sign-in, for "Sign in" requests coming from the Accounts menu or another extension. */
    private readonly signIn: () => Promise<Environment | undefined>,
  ) {
    super();
    this.register(session.onDidChangeEnvironments(() => void this.refresh()));
  }

  /** Every environment that has its secrets stored, whatever the scopes (the API has one scope, `api`). */
  async getSessions(_scopes?: readonly string[]): Promise<vscode.AuthenticationSession[]> {
    const sessions: vscode.AuthenticationSession[] = [];
    for (const env of this.session.environments()) {
      if (await this.session.hasSecrets(env.id)) sessions.push(toSession(env));
    }
    return sessions;
  }

  async createSession(_scopes: readonly string[]): Promise<vscode.AuthenticationSession> {
    const env = await this.signIn();
    if (env === undefined) throw new Error(vscode.l10n.t('Sign-in to Onboarding Events was cancelled.'));
    await this.refresh();
    return toSession(env);
  }

  /** VS Code has already asked the user to confirm. */
  async removeSession(sessionId: string): Promise<void> {
    await this.session.signOut(sessionId);
    await this.refresh();
  }

  private async refresh(): Promise<void> {
    const current = new Map((await this.getSessions()).map((session) => [session.id, session]));
    const added = [...current.values()].filter((session) => !this.known.has(session.id));
    const removed = [...this.known.values()].filter((session) => !current.has(session.id));
    const changed = [...current.values()].filter((session) => {
      const before = this.known.get(session.id);
      return before !== undefined && before.account.label !== session.account.label;
    });
    this.known = current;
    if (added.length + removed.length + changed.length > 0) this.changeEmitter.fire({ added, removed, changed });
  }
}

function toSession(env: Environment): vscode.AuthenticationSession {
  return {
    id: env.id,
    // Deliberately opaque. VS Code hands this object to any extension the user
    // lets use the account. The real bearer token is short-lived, renewed
    // inside our client and must only reach the configured API origin; the
    // client secret and password never leave SecretStorage. Other extensions
    // learn who is signed in, not how to call the API as that user.
    accessToken: `onboarding-events-session:${env.id}`,
    account: { id: env.id, label: accountLabel(env) },
    scopes: ['api'],
  };
}
