// The modal that asks the user before the exported API does something that
// leads to a request in their name (another extension pinning a machine,
// whose events the tree then loads). VS Code's own modal: another extension
// cannot answer it.
import * as vscode from 'vscode';
import { inertNotificationText } from '../common/notificationText';

export async function confirmForExtension(serialNumber: string, what: 'pin' | 'recent'): Promise<boolean> {
  const action = what === 'pin' ? vscode.l10n.t('Pin') : vscode.l10n.t('Add');
  const choice = await vscode.window.showWarningMessage(
    inertNotificationText(
      what === 'pin'
        ? vscode.l10n.t('Another extension asks to pin {0} in the Machines view.', serialNumber)
        : vscode.l10n.t('Another extension asks to add {0} to the recent machines.', serialNumber),
    ),
    {
      modal: true,
      detail: vscode.l10n.t('The Machines view then loads its onboarding events with your sign-in. Continue only if you expected this.'),
    },
    action,
  );
  return choice === action;
}
