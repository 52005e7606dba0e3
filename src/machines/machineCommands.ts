// The Machines view's commands about which machines it lists and loads:
// refresh, add, pin, remove, reveal, load more, scan the workspace, copy the
// serial number. Each is a named factory `(deps) => handler`; the table is
// registered with the event commands (eventCommands.ts) in registerMachines.ts.
// Reveal, Pin and Copy are also the actions of the serial-number hover and
// quick fixes, which pass `{ serialNumber }`.
import * as vscode from 'vscode';
import { errorMessage } from '../common/errors';
import { normalizeSerialNumber } from '../core/serialNumber';
import { checkSerialNumber, serialNumberArgument } from '../domain/serialNumbers/serialNumberInput';
import type { CommandHandler, CommandTable } from '../workbench/commands';
import { COMMANDS } from '../workbench/constants';
import { copy, requireSerial, type MachineCommandDeps } from './commandSupport';
import { inertNotificationText } from '../common/notificationText';

function refreshAll(deps: MachineCommandDeps): CommandHandler {
  return () => deps.refresh();
}

/** Refresh Machine and Retry (on a machine's error entry). */
function refreshOne(deps: MachineCommandDeps): CommandHandler {
  return async (argument) => {
    const serial = requireSerial(deps, argument);
    return serial === undefined ? undefined : deps.refresh([serial]);
  };
}

function addMachine(deps: MachineCommandDeps): CommandHandler {
  const { lists, log } = deps;
  const validateSerial = (value: string): vscode.InputBoxValidationMessage | string | undefined => {
    const checked = checkSerialNumber(value, vscode.l10n.t);
    if (!checked.ok) return checked.message;
    if (deps.matcher().isSerialNumber(checked.serialNumber)) return undefined;
    return {
      message: vscode.l10n.t('This does not match the serial-number pattern setting; it can be added anyway.'),
      severity: vscode.InputBoxValidationSeverity.Warning,
    };
  };
  return async (argument?: unknown): Promise<string | undefined> => {
    let input = serialNumberArgument(argument);
    if (input === undefined) {
      input = await vscode.window.showInputBox({
        title: vscode.l10n.t('Add Machine'),
        prompt: vscode.l10n.t('The serial number of the machine to pin to the Onboarding Events view'),
        placeHolder: vscode.l10n.t('e.g. MX-4711-A0023'),
        ignoreFocusOut: true,
        validateInput: validateSerial,
      });
      if (input === undefined) return undefined;
    }
    const checked = checkSerialNumber(input, vscode.l10n.t);
    if (!checked.ok) {
      void vscode.window.showErrorMessage(inertNotificationText(checked.message));
      return undefined;
    }
    const serial = checked.serialNumber;
    if (!(await lists.pin(serial))) {
      void vscode.window.showInformationMessage(inertNotificationText(vscode.l10n.t('{0} is already pinned.', serial)));
    }
    log.info(`Pinned ${serial}.`);
    if (deps.session.state.kind === 'signed-in') {
      void deps.view.reveal(serial).catch((error: unknown) => {
        log.warn(`Could not reveal ${serial}: ${String(error)}`);
      });
    }
    return serial;
  };
}

function removeMachine(deps: MachineCommandDeps): CommandHandler {
  const { model, lists, log } = deps;
  return async (argument?: unknown): Promise<boolean> => {
    const serial = requireSerial(deps, argument);
    if (serial === undefined) return false;
    const removed = (await lists.unpin(serial)) || (await lists.removeRecent(serial));
    if (removed) {
      if (!model.allListed().includes(serial)) model.forget(serial);
      log.info(`Removed ${serial} from the Machines view.`);
    }
    return removed;
  };
}

function pinMachine(deps: MachineCommandDeps): CommandHandler {
  return async (argument) => {
    const serial = requireSerial(deps, argument);
    if (serial === undefined) return false;
    const pinned = await deps.lists.pin(normalizeSerialNumber(serial));
    if (pinned) deps.log.info(`Pinned ${serial}.`);
    // Said also when it was pinned already: from a hover or a quick fix the tree may be out of sight.
    vscode.window.setStatusBarMessage(inertNotificationText(vscode.l10n.t('Pinned {0}.', serial)), 3000);
    return pinned;
  };
}

function scanWorkspace(deps: MachineCommandDeps): CommandHandler {
  const { model, view } = deps;
  return async () => {
    if ((vscode.workspace.workspaceFolders?.length ?? 0) === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Open a folder to scan it for serial numbers.'));
      return undefined;
    }
    await deps.scanWorkspace();
    const scan = model.workspaceScan;
    if (scan.kind !== 'scanned') return undefined;
    if (scan.found.length === 0)
      void vscode.window.showInformationMessage(
        inertNotificationText(vscode.l10n.t('No serial numbers were found in {0} files.', scan.filesScanned)),
      );
    else
      await view.treeView
        .reveal(view.provider.groupNode('workspace'), { expand: true, select: false, focus: false })
        .then(undefined, () => undefined);
    return { found: scan.found.map((found) => found.serialNumber), filesScanned: scan.filesScanned, capped: scan.capped };
  };
}

function loadMore(deps: MachineCommandDeps): CommandHandler {
  return (argument) => {
    const serial = requireSerial(deps, argument);
    if (serial !== undefined) deps.model.loadMore(serial);
    return serial === undefined ? undefined : deps.model.limitOf(serial);
  };
}

function copySerialNumber(deps: MachineCommandDeps): CommandHandler {
  return (argument) => {
    const serial = requireSerial(deps, argument);
    return serial === undefined ? undefined : copy(serial, vscode.l10n.t('serial number {0}', serial));
  };
}

function revealMachine(deps: MachineCommandDeps): CommandHandler {
  return async (argument) => {
    const serial = requireSerial(deps, argument);
    if (serial === undefined) return;
    // A failure is logged and shown (as the look-up's and the links' reveal do), not thrown at a hover link.
    try {
      await deps.view.reveal(serial);
    } catch (error) {
      deps.log.error(`Reveal ${serial}`, error);
      void vscode.window.showErrorMessage(
        inertNotificationText(vscode.l10n.t('Could not show {0} in the sidebar: {1}', serial, errorMessage(error))),
      );
    }
  };
}

export const MACHINE_COMMANDS: CommandTable<MachineCommandDeps> = {
  [COMMANDS.refresh]: refreshAll,
  [COMMANDS.refreshMachine]: refreshOne,
  [COMMANDS.retryMachine]: refreshOne,
  [COMMANDS.addMachine]: addMachine,
  [COMMANDS.removeMachine]: removeMachine,
  [COMMANDS.pinMachine]: pinMachine,
  [COMMANDS.revealMachine]: revealMachine,
  [COMMANDS.scanWorkspace]: scanWorkspace,
  [COMMANDS.loadMore]: loadMore,
  [COMMANDS.copySerialNumber]: copySerialNumber,
};
