// What integration tests may see of sign-in through the extension API. Built
// always (it is a handful of closures); publicApi.ts exports it only in
// ExtensionMode.Test. Kept apart from the session so nothing the session is
// made of depends on its tests.
import type * as vscode from 'vscode';
import type { SessionState } from '../domain/session/sessionState';
import type { ApiSession } from '../workbench/contracts/apiSession';
import { secretKey } from './credentialStore';
import type { Confirmer, Notifier, ShownNotification } from './notify';

/**
 * It holds no credentials, tokens or clients: names, state kinds, our own
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
  /** Answers sign-in's modal questions in place of the user until disposed (records them in notifications() as 'confirm'). */
  answerConfirmations(confirmer: Confirmer): { dispose(): void };
}

export function sessionDiagnostics(
  context: Pick<vscode.ExtensionContext, 'globalState' | 'workspaceState' | 'secrets' | 'logUri'>,
  session: Pick<ApiSession, 'state' | 'environments'>,
  notifier: Pick<Notifier, 'shown' | 'answerConfirmations'>,
): SessionDiagnostics {
  return {
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
    answerConfirmations: (confirmer) => notifier.answerConfirmations(confirmer),
  };
}
