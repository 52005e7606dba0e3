// What the user sees when the stored credentials of the active environment
// stop working: one warning per episode (the session machine decides when),
// with a button that opens the sign-in prefilled from that environment.
import * as vscode from 'vscode';
import type { Environment } from '../domain/session/sessionState';
import { COMMANDS } from '../workbench/constants';
import type { Notifier } from './notify';

export function announceCredentialsRejected(notifier: Notifier, env: Environment): void {
  const signInAgain = vscode.l10n.t('Sign In Again');
  void notifier
    .warning(
      vscode.l10n.t(
        'Onboarding Events: the credentials stored for "{0}" no longer work (the password may have changed or the API user was removed). Sign in again to see events.',
        env.name,
      ),
      signInAgain,
    )
    .then((choice) => {
      if (choice === signInAgain) void vscode.commands.executeCommand(COMMANDS.signInAgain);
    });
}
