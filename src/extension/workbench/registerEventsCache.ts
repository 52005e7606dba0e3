// The one events cache every view reads through, with its on-disk copy of the
// last good results (filed per environment, API and user, so data of one never
// shows under another), the rules that keep it honest across sign-ins, and the
// one report of credentials the API refused.
import { clampDelay, DELAY_CEILINGS } from '../../core/common/delays';
import * as vscode from 'vscode';
import { errorMessage } from '../../core/common/errors';
import { CachedLineHistory } from '../../core/eventsCache/cachedLineHistory';
import { EventsCache } from '../../core/eventsCache/eventsCache';
import { FileResultStore } from '../../core/eventsCache/fileResultStore';
import type { ApiSession } from './contracts/apiSession';
import type { Log } from './log';
import { forgetResultsOnSignOut, resultScope } from './resultScope';
import type { SettingsReader } from './settings';

export function registerEventsCache(
  context: vscode.ExtensionContext,
  deps: { session: ApiSession; settings: SettingsReader; log: Log },
): { readonly events: EventsCache; readonly lineHistory: CachedLineHistory } {
  const { session, settings, log } = deps;
  const store = new FileResultStore({
    directory: vscode.Uri.joinPath(context.globalStorageUri, 'results').fsPath,
    scope: () => resultScope(session.state),
    timestampUnit: () => settings.value.timestampUnit,
    onError: (message, error) => {
      log.warn(`${message} (${errorMessage(error)})`);
    },
  });
  const events = new EventsCache({
    source: () => session.client(),
    freshForMs: () => clampDelay(settings.value.cacheSeconds * 1000, DELAY_CEILINGS.cacheMs),
    store,
    onCredentialsRejected: () => {
      session.reportCredentialsRejected();
    },
  });
  // The line's history learns from this cache and the same environment's stored copies.
  const lineHistory = new CachedLineHistory({
    cache: events,
    stored: () => store.copies(),
    rules: () => settings.value.eventStates,
    steps: () => settings.value.steps,
    onFull: (message) => {
      log.warn(message);
    },
  });
  context.subscriptions.push(
    lineHistory,
    forgetResultsOnSignOut(session, store),
    // Another environment's answers must not show, nor land late from requests it started.
    session.onDidChangeState(() => {
      events.clear();
      lineHistory.reset();
    }),
    settings.onDidChange((change) => {
      if (change.affects('eventStates')) lineHistory.rulesChanged();
      if (change.affects('steps')) lineHistory.settingChanged();
    }),
  );
  return { events, lineHistory };
}
