// The opt-in (watch.notifyPinnedFailures): a pinned or workspace machine whose
// newest event turns into a failure while this window has it loaded (an
// auto-refresh or a refresh) is told once, across windows (the claims the
// watches' outcomes use too), without a watch. A failure older than the
// window's start, first seen on loading, is no news. It is the Machines view's
// own news: these are its lists, and the watches do not know about them.
import * as vscode from 'vscode';
import type { Claims } from '../../core/common/claims';
import type { IDisposable } from '../../core/common/lifecycle';
import { inertNotificationText } from '../../core/common/notificationText';
import { notificationText } from '../../core/common/serverText';
import { eventState, machineState, newestOf } from '../../core/domain/events/eventState';
import { MAX_OUTCOME_MESSAGE } from '../../core/domain/watch/watchRules';
import type { EventsCache } from '../../core/eventsCache/eventsCache';
import type { ApiSession } from '../workbench/contracts/apiSession';
import type { DetailsApi } from '../workbench/contracts/features';
import type { SettingsReader } from '../workbench/settings';
import type { MachineLists } from './machineLists';
import type { MachinesModel } from './machinesModel';

export interface PinnedFailuresDeps {
  readonly events: EventsCache;
  readonly settings: SettingsReader;
  readonly session: ApiSession;
  readonly lists: MachineLists;
  readonly model: MachinesModel;
  readonly details: DetailsApi;
  readonly claims: Claims;
}

export function notifyPinnedFailures(deps: PinnedFailuresDeps): IDisposable {
  const { events, settings, session, lists, model, details, claims } = deps;
  const since = Date.now();
  const lastSeen = new Map<string, number>();
  return events.onDidUpdate((serial) => {
    if (!settings.value['watch.notifyPinnedFailures'] || settings.value['watch.notifications'] === 'off') return;
    const environment = session.state.kind === 'signed-in' ? session.state.environment.id : undefined;
    const entry = events.peek(serial);
    if (environment === undefined || entry === undefined || entry.stale) return;
    if (!lists.pinned().includes(serial) && !model.machinesIn('workspace').includes(serial)) return;
    const newest = newestOf(entry.result.events);
    const before = lastSeen.get(serial);
    if (newest === undefined) return;
    lastSeen.set(serial, newest.time.epochMs);
    if (lastSeen.size > 10_000) lastSeen.clear();
    if (machineState(entry, settings.value.eventStates) !== 'failed' || eventState(newest, settings.value.eventStates) !== 'failed') return;
    const isNew = before === undefined ? newest.time.epochMs >= since : newest.time.epochMs > before;
    if (!isNew) return;
    void claims.claim(`pinned\u0000${environment}\u0000${serial}\u0000failed\u0000${newest.time.epochMs}`).then((tellUser) => {
      if (!tellUser) return;
      const showDetails = vscode.l10n.t('Show Details');
      return vscode.window
        .showWarningMessage(
          inertNotificationText(vscode.l10n.t('{0} failed to onboard: {1}', serial, notificationText(newest.message, MAX_OUTCOME_MESSAGE))),
          showDetails,
        )
        .then((choice) => (choice === showDetails ? details.show(newest) : undefined));
    });
  });
}
