// The editor's own commands: the context-menu look-up and the "Not a serial number" quick fix.
import * as vscode from 'vscode';
import { inertNotificationText } from '../../core/common/notificationText';
import { checkSerialNumber, serialNumberArgument } from '../../core/domain/serialNumbers/serialNumberInput';
import { SECTION } from '../../core/domain/settings/settingsRules';
import { plainArgument, type ArgumentTrust } from '../workbench/argumentTrust';
import type { CommandFactory, CommandTable } from '../workbench/commands';
import { COMMANDS } from '../workbench/constants';
import type { SerialSettings } from '../workbench/serialSettings';
import { serialAtCursor } from './serialAtCursor';

export interface EditorCommandDeps {
  readonly serialSettings: SerialSettings;
  readonly trust: Pick<ArgumentTrust, 'ownArgument'>;
}

/** Hands the serial number to the look-up through its command id (the look-up is another feature). */
const lookUpSerialAtCursor: CommandFactory<EditorCommandDeps> = (deps) => () => {
  const editor = vscode.window.activeTextEditor;
  const found = editor === undefined ? undefined : serialAtCursor(editor, deps.serialSettings);
  if (found === undefined) {
    void vscode.window.showInformationMessage(vscode.l10n.t('There is no serial number at the cursor.'));
    return Promise.resolve();
  }
  return vscode.commands.executeCommand(COMMANDS.lookUpMachine, deps.trust.ownArgument({ serialNumber: found.serialNumber }));
};

// The scope pick is the user's consent to the write (it names the string and where it goes), so
// every caller gets it; no argument names the scope.
const DENY_LIST = 'serialNumber.denyList';

interface ScopeItem extends vscode.QuickPickItem {
  readonly target: vscode.ConfigurationTarget;
}

async function pickTarget(
  serialNumber: string,
  folder: vscode.WorkspaceFolder | undefined,
): Promise<vscode.ConfigurationTarget | undefined> {
  const items: ScopeItem[] = [
    { label: vscode.l10n.t('User Settings'), description: vscode.l10n.t('every workspace'), target: vscode.ConfigurationTarget.Global },
  ];
  if (vscode.workspace.workspaceFolders !== undefined) {
    items.push({
      label: vscode.l10n.t('Workspace Settings'),
      description: vscode.l10n.t('this workspace, shared through its settings file'),
      target: vscode.ConfigurationTarget.Workspace,
    });
  }
  if (folder !== undefined && vscode.workspace.workspaceFile !== undefined) {
    items.push({ label: vscode.l10n.t('Folder Settings'), description: folder.name, target: vscode.ConfigurationTarget.WorkspaceFolder });
  }
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Treat {0} as not a serial number in…', serialNumber),
    placeHolder: vscode.l10n.t('Where to add it to the deny list'),
  });
  return picked?.target;
}

const notASerialNumber: CommandFactory<EditorCommandDeps> = () => async (arg) => {
  // Read once; what is written to a settings file is a string that passes the serial-number input rule, nothing else.
  const copy = typeof arg === 'string' ? { serialNumber: arg } : plainArgument(arg, ['serialNumber']);
  const named = serialNumberArgument(copy);
  if (named === undefined || named.trim() === '') return undefined;
  const checked = checkSerialNumber(named, vscode.l10n.t);
  if (!checked.ok) {
    void vscode.window.showErrorMessage(inertNotificationText(checked.message));
    return undefined;
  }
  const serialNumber = checked.serialNumber;
  const document = vscode.window.activeTextEditor?.document;
  const folder = document === undefined ? undefined : vscode.workspace.getWorkspaceFolder(document.uri);
  const target = await pickTarget(serialNumber, folder);
  if (target === undefined) return undefined;
  const configuration = vscode.workspace.getConfiguration(
    SECTION,
    target === vscode.ConfigurationTarget.WorkspaceFolder ? folder?.uri : undefined,
  );
  const inspected = configuration.inspect<unknown>(DENY_LIST);
  const current =
    target === vscode.ConfigurationTarget.Global
      ? inspected?.globalValue
      : target === vscode.ConfigurationTarget.Workspace
        ? inspected?.workspaceValue
        : inspected?.workspaceFolderValue;
  const list = Array.isArray(current) ? current.filter((entry): entry is string => typeof entry === 'string') : [];
  if (!list.some((entry) => entry.trim().toUpperCase() === serialNumber.toUpperCase())) {
    await configuration.update(DENY_LIST, [...list, serialNumber], target);
  }
  vscode.window.setStatusBarMessage(
    inertNotificationText(vscode.l10n.t('{0} is no longer treated as a serial number.', serialNumber)),
    3000,
  );
  return { target };
};

export const EDITOR_COMMANDS: CommandTable<EditorCommandDeps> = {
  [COMMANDS.lookUpSerialAtCursor]: lookUpSerialAtCursor,
  [COMMANDS.notASerialNumber]: notASerialNumber,
};
