// What the Onboarding Events view's commands share: their dependencies, and reading
// their argument. Each command accepts what its menu passes (a tree element)
// and, for tests and other features, a plain argument (a serial number,
// `{ serialNumber }`, an event), so none of them needs a dialog when told
// what to do; without one they act on the view's selection.
import * as vscode from 'vscode';
import type { OnboardingEvent } from '../core/model';
import { serialNumberArgument } from '../domain/serialNumbers/serialNumberInput';
import type { SerialMatcher } from '../domain/serialNumbers/serialMatcher';
import type { ApiSession } from '../workbench/contracts/apiSession';
import type { Log } from '../workbench/log';
import type { MachineLists } from './machineLists';
import type { RefreshCount } from './machineRefresh';
import type { MachinesModel } from './machinesModel';
import type { MachinesView } from './machinesView';
import { eventOf } from './treeNodes';
import { inertNotificationText } from '../common/notificationText';
import type { ArgumentTrust } from '../workbench/argumentTrust';

export interface MachineCommandDeps {
  readonly model: MachinesModel;
  readonly lists: MachineLists;
  readonly view: MachinesView;
  readonly session: ApiSession;
  readonly log: Log;
  /** Refreshes the given machines (default: every listed one), with progress in the view. */
  readonly refresh: (serials?: readonly string[]) => Thenable<RefreshCount>;
  /** Scans the workspace with progress in a notification. */
  readonly scanWorkspace: () => Promise<void>;
  readonly matcher: () => SerialMatcher;
  readonly trust: ArgumentTrust;
}

/** The machine the argument names, else the selected one; asks the user to select one when there is none. */
export function requireSerial(deps: MachineCommandDeps, argument: unknown): string | undefined {
  const serial = serialNumberArgument(argument) ?? serialNumberArgument(deps.view.treeView.selection[0]);
  if (serial === undefined)
    void vscode.window.showInformationMessage(vscode.l10n.t('Select a machine in the Onboarding Events view first.'));
  return serial;
}

/** The event the argument names, else the selected one; asks the user to select one when there is none. */
export function requireEvent(deps: MachineCommandDeps, argument: unknown): OnboardingEvent | undefined {
  const event = eventOf(argument) ?? eventOf(deps.view.treeView.selection[0]);
  if (event === undefined) void vscode.window.showInformationMessage(vscode.l10n.t('Select an event in the Onboarding Events view first.'));
  return event;
}

/** Copies to the clipboard and says so in the status bar; returns the text copied. */
export async function copy(text: string, what: string): Promise<string> {
  await vscode.env.clipboard.writeText(text);
  vscode.window.setStatusBarMessage(inertNotificationText(vscode.l10n.t('Copied {0}', what)), 2500);
  return text;
}
