// Settings Sync: the one place that says which global state follows the user
// to their other machines (the keys are in constants.ts).
import type * as vscode from 'vscode';
import { SYNCED_STATE_KEYS } from './constants';

export function registerSettingsSync(context: {
  readonly globalState: Pick<vscode.ExtensionContext['globalState'], 'setKeysForSync'>;
}): void {
  context.globalState.setKeysForSync(SYNCED_STATE_KEYS);
}
