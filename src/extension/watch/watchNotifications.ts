// What the watches tell the user in notifications: an outcome and a stall (in
// the one window that claimed it, per the watch.notifications setting), once
// that the API refused the sign-in the watches poll with, and that watches
// cannot reach the API any more.
import * as vscode from 'vscode';
import { DisposableStore, type IDisposable } from '../../core/common/lifecycle';
import { inertNotificationText } from '../../core/common/notificationText';
import { clipboardText, notificationText } from '../../core/common/serverText';
import { DEFAULT_WATCH_TIMING } from '../../core/domain/watch/watchRules';
import { stallNotice } from '../../core/domain/progress/machineProgress';
import { COMMANDS } from '../workbench/constants';
import type { ApiSession } from '../workbench/contracts/apiSession';
import type { SettingsReader } from '../workbench/settings';
import type { Watch, WatchList } from './watchList';
import { formatDuration } from '../../core/common/time';

const t = (message: string, ...args: (string | number | boolean)[]): string => vscode.l10n.t(message, ...args);

export interface WatchNotificationDeps {
  readonly list: WatchList;
  readonly session: ApiSession;
  readonly settings: SettingsReader;
  readonly showDetailsOf: (watch: Watch) => Promise<void>;
}

export function notifyWatchNews(deps: WatchNotificationDeps): IDisposable {
  const { list, session, settings, showDetailsOf } = deps;
  const store = new DisposableStore();

  // Watches belong to their environment: a refused sign-in pauses them, said once until signed in again.
  let refusalSaid = false;
  store.add(
    session.onDidChangeState((state) => {
      if (state.kind === 'signed-in') refusalSaid = false;
      if (state.kind !== 'credentials-rejected' || refusalSaid) return;
      const paused = list.list().filter((watch) => watch.environmentId === state.environment.id && watch.outcome === undefined).length;
      if (paused === 0) return;
      refusalSaid = true;
      const signInAgain = t('Sign In Again');
      void vscode.window
        .showWarningMessage(
          inertNotificationText(
            paused === 1
              ? t(
                  'The API refused the sign-in of "{0}": the watched machine is paused. Sign in again to go on watching it.',
                  state.environment.name,
                )
              : t(
                  'The API refused the sign-in of "{0}": {1} watched machines are paused. Sign in again to go on watching them.',
                  state.environment.name,
                  paused,
                ),
          ),
          signInAgain,
        )
        .then((choice) => (choice === signInAgain ? vscode.commands.executeCommand(COMMANDS.signInAgain) : undefined));
    }),
  );

  store.add(
    list.onDidGoUnreachable(({ watching }) => {
      const testConnection = t('Test Connection');
      const showLog = t('Show Log');
      void vscode.window
        .showWarningMessage(
          inertNotificationText(
            t(
              'The Onboarding Events API could not be reached for {0}: {1} watched machines are not being updated. Watching goes on, less often; Test Connection shows what is in the way.',
              formatDuration(DEFAULT_WATCH_TIMING.unreachableAfterMs, t),
              watching,
            ),
          ),
          testConnection,
          showLog,
        )
        .then((choice) =>
          choice === testConnection
            ? vscode.commands.executeCommand(COMMANDS.testConnection)
            : choice === showLog
              ? vscode.commands.executeCommand(COMMANDS.showLog)
              : undefined,
        );
    }),
  );

  // A stall is trouble as a failure is: told under 'all' and 'failures' alike (a user who hears only of
  // failures wants to hear of a machine stuck on its way to one); 'off' tells nothing.
  store.add(
    list.onDidStall(({ watch, progress }) => {
      if (settings.value['watch.notifications'] === 'off') return;
      const message = stallNotice(watch.serialNumber, progress, t, notificationText);
      if (message === undefined) return;
      const showDetails = t('Show Details');
      const stopWatching = t('Stop Watching');
      void vscode.window
        .showWarningMessage(inertNotificationText(message), showDetails, stopWatching)
        .then((choice) =>
          choice === showDetails
            ? showDetailsOf(watch)
            : choice === stopWatching
              ? vscode.commands.executeCommand(COMMANDS.stopWatching, { serialNumber: watch.serialNumber })
              : undefined,
        );
    }),
  );

  store.add(
    list.onDidEnd(({ watch, tellUser }) => {
      const mode = settings.value['watch.notifications'];
      if (!tellUser || mode === 'off' || (mode === 'failures' && watch.outcome.state !== 'failed')) return;
      const showDetails = t('Show Details');
      if (watch.outcome.state === 'onboarded') {
        const copyLink = t('Copy Link');
        void vscode.window
          .showInformationMessage(
            inertNotificationText(t('{0} onboarded in {1}', watch.serialNumber, formatDuration(watch.outcome.tookMs, t))),
            showDetails,
            copyLink,
          )
          .then((choice) =>
            choice === showDetails
              ? showDetailsOf(watch)
              : choice === copyLink
                ? vscode.commands.executeCommand(COMMANDS.copyLinkToMachine, { serialNumber: watch.serialNumber })
                : undefined,
          );
        return;
      }
      const copyMessage = t('Copy Message');
      void vscode.window
        .showWarningMessage(
          inertNotificationText(t('{0} failed to onboard: {1}', watch.serialNumber, notificationText(watch.outcome.message))),
          showDetails,
          copyMessage,
        )
        .then((choice) =>
          choice === showDetails
            ? showDetailsOf(watch)
            : choice === copyMessage
              ? vscode.env.clipboard.writeText(clipboardText(watch.outcome.message))
              : undefined,
        );
    }),
  );
  return store;
}
