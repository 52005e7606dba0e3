// Watch Onboarding, Stop Watching and the Watched Machines quick pick, as one command table.
import * as vscode from 'vscode';
import { extensionErrorText } from '../workbench/remedies';
import type { IDisposable } from '../../core/common/lifecycle';
import { inertNotificationText } from '../../core/common/notificationText';
import { lineText } from '../../core/common/serverText';
import { checkSerialNumber, serialNumberArgument } from '../../core/domain/serialNumbers/serialNumberInput';
import { MAX_WATCHES } from '../../core/domain/watch/watchRules';
import { plainArgument, type ArgumentTrust } from '../workbench/argumentTrust';
import type { CommandFactory, CommandTable } from '../workbench/commands';
import { COMMANDS } from '../workbench/constants';
import type { ApiSession } from '../workbench/contracts/apiSession';
import type { MachinesApi } from '../workbench/contracts/features';
import type { Log } from '../workbench/log';
import { textContext } from './watchDisplay';
import type { WatchInfo, WatchList } from './watchList';
import { age as watchAge, progressDetail, watchDescription } from './watchText';
import type { CachedLineHistory } from '../../core/eventsCache/cachedLineHistory';

const t = (message: string, ...args: (string | number | boolean)[]): string => vscode.l10n.t(message, ...args);

export interface WatchCommandDeps {
  readonly list: WatchList;
  readonly start: (serialNumber: string) => ReturnType<WatchList['start']>;
  readonly session: ApiSession;
  readonly machines: MachinesApi;
  readonly trust: Pick<ArgumentTrust, 'fromOwnUi' | 'confirm'>;
  readonly showDetailsOf: (watch: WatchInfo) => Promise<void>;
  readonly log: Log;
  /** The line's history: Watched Machines says where each watched machine is in its onboarding. */
  readonly lineHistory: Pick<CachedLineHistory, 'progressOf'>;
}

/**
 * Our own UI's argument, else a serial number another extension or link chose, which the user confirms:
 * a watch sends requests in their name for as long as it runs.
 */
async function watchTarget(deps: WatchCommandDeps, argument: unknown): Promise<string | undefined> {
  const copy = typeof argument === 'string' ? { serialNumber: argument } : plainArgument(argument, ['serialNumber', 'via']);
  const named = serialNumberArgument(copy);
  if (named === undefined) {
    const typed = await vscode.window.showInputBox({
      title: t('Watch Onboarding'),
      prompt: t('The serial number of the machine to watch until it is onboarded or fails'),
      placeHolder: t('e.g. MX-4711-A0023'),
      ignoreFocusOut: true,
      validateInput: (value) => {
        const checked = checkSerialNumber(value, t);
        return checked.ok ? undefined : checked.message;
      },
    });
    if (typed === undefined) return undefined;
    const checked = checkSerialNumber(typed, t);
    return checked.ok ? checked.serialNumber : undefined;
  }
  const checked = checkSerialNumber(named, t);
  if (!checked.ok) {
    void vscode.window.showErrorMessage(inertNotificationText(checked.message));
    return undefined;
  }
  if (deps.machines.ownsElement?.(argument) === true || deps.trust.fromOwnUi(copy)) return checked.serialNumber;
  const agreed = await deps.trust.confirm({
    title: t('Another extension or a link asks to watch the onboarding of {0}.', checked.serialNumber),
    detail: t('The machine is then polled with your sign-in until it is onboarded or fails, and you are notified of the outcome.'),
    action: t('Watch'),
  });
  return agreed ? checked.serialNumber : undefined;
}

const watchMachine: CommandFactory<WatchCommandDeps> = (deps) => async (argument) => {
  if (deps.session.state.kind !== 'signed-in') {
    void vscode.window.showInformationMessage(inertNotificationText(t('Sign in to Onboarding Events to watch a machine.')));
    return undefined;
  }
  const serial = await watchTarget(deps, argument);
  if (serial === undefined) return undefined;
  try {
    const result = await deps.start(serial);
    switch (result.kind) {
      case 'started':
        vscode.window.setStatusBarMessage(inertNotificationText(t('Watching the onboarding of {0}.', serial)), 3000);
        break;
      case 'already-watched':
        vscode.window.setStatusBarMessage(inertNotificationText(t('{0} is already being watched.', serial)), 3000);
        break;
      case 'already-onboarded':
        void vscode.window.showInformationMessage(
          inertNotificationText(
            t(
              '{0} is already onboarded ({1}, {2}): there is nothing left to watch.',
              serial,
              lineText(result.step.type),
              watchAge(result.step.at, textContext()),
            ),
          ),
        );
        break;
      case 'limit':
        void vscode.window
          .showWarningMessage(
            inertNotificationText(
              t('{0} machines are being watched already, the most there can be. Stop a watch to start another.', result.max),
            ),
            t('Show Watches'),
          )
          .then((choice) => (choice === undefined ? undefined : vscode.commands.executeCommand(COMMANDS.showWatches)));
        break;
      case 'not-signed-in':
        void vscode.window.showInformationMessage(inertNotificationText(t('Sign in to Onboarding Events to watch a machine.')));
        break;
    }
    return result.kind;
  } catch (error) {
    deps.log.error(`Watch ${serial}`, error);
    void vscode.window.showErrorMessage(inertNotificationText(t('Could not watch {0}: {1}', serial, extensionErrorText(error, t))));
    return undefined;
  }
};

const stopWatching: CommandFactory<WatchCommandDeps> = (deps) => async (argument) => {
  // Stopping sends nothing and only shrinks what is stored: any caller may.
  const serial = serialNumberArgument(typeof argument === 'string' ? argument : plainArgument(argument, ['serialNumber']));
  if (serial === undefined) return false;
  const stopped = await deps.list.stop(serial);
  if (stopped) vscode.window.setStatusBarMessage(inertNotificationText(t('Stopped watching {0}.', serial)), 3000);
  return stopped;
};

interface WatchPick extends vscode.QuickPickItem {
  readonly watch?: WatchInfo;
  readonly action?: 'clear' | 'watch';
}

function pickIcon(watch: WatchInfo): string {
  switch (watch.status) {
    case 'watching':
      return '$(eye-watch)';
    case 'paused':
      return '$(eye-closed)';
    case 'onboarded':
      return '$(pass)';
    case 'failed':
      return '$(error)';
  }
}

const showWatches: CommandFactory<WatchCommandDeps> = (deps) => () => {
  const { list } = deps;
  const stop: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('close'), tooltip: t('Stop Watching') };
  const detailsButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('go-to-file'), tooltip: t('Show Details') };
  const pick = vscode.window.createQuickPick<WatchPick>();
  pick.title = t('Watched Machines');
  pick.placeholder = t('Select a machine to show it in the Machines view');
  pick.matchOnDescription = true;
  const detailOf = (watch: WatchInfo): { readonly detail?: string } => {
    if (watch.status === 'paused') return { detail: t('Paused: its environment is not the one signed in.') };
    const detail = watch.status === 'watching' ? progressDetail(deps.lineHistory.progressOf(watch.serialNumber), textContext()) : undefined;
    return detail === undefined ? {} : { detail };
  };
  const items = (): WatchPick[] => {
    const watches = list.list();
    const rows: WatchPick[] = watches.map((watch) => ({
      label: `${pickIcon(watch)} ${watch.serialNumber}`,
      description: watchDescription(watch, textContext()),
      ...detailOf(watch),
      buttons: [detailsButton, stop],
      watch,
    }));
    if (watches.length < MAX_WATCHES) rows.push({ label: `$(add) ${t('Watch a Machine…')}`, action: 'watch', alwaysShow: true });
    if (watches.some((watch) => watch.outcome !== undefined))
      rows.push({ label: `$(clear-all) ${t('Clear Ended Watches')}`, action: 'clear', alwaysShow: true });
    return rows;
  };
  pick.items = items();
  const subscriptions: IDisposable[] = [
    list.onDidChange(() => {
      pick.items = items();
    }),
    pick.onDidTriggerItemButton(async ({ item, button }) => {
      if (item.watch === undefined) return;
      if (button === stop) await list.stop(item.watch.serialNumber);
      else {
        pick.hide();
        await deps.showDetailsOf(item.watch);
      }
    }),
    pick.onDidAccept(async () => {
      const [chosen] = pick.selectedItems;
      pick.hide();
      if (chosen?.action === 'clear') await list.clearEnded();
      else if (chosen?.action === 'watch') await vscode.commands.executeCommand(COMMANDS.watchMachine);
      else if (chosen?.watch !== undefined) {
        list.lookedAt(chosen.watch.serialNumber);
        await deps.machines.reveal(chosen.watch.serialNumber);
      }
    }),
    pick.onDidHide(() => {
      for (const subscription of subscriptions) subscription.dispose();
      pick.dispose();
    }),
  ];
  pick.show();
};

export const WATCH_COMMANDS: CommandTable<WatchCommandDeps> = {
  [COMMANDS.watchMachine]: watchMachine,
  [COMMANDS.stopWatching]: stopWatching,
  [COMMANDS.showWatches]: showWatches,
};
