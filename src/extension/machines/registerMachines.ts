// The Machines view: only wiring. It builds the parts, connects them to the
// session and the settings, and returns the MachinesApi other features use;
// the decisions live in the parts (machinesModel, pollPolicy, autoRefresh).
import * as vscode from 'vscode';
import { DisposableStore, toDisposable } from '../../core/common/lifecycle';
import { verifiedState } from '../../core/common/verifiedState';
import { normalizeSerialNumber } from '../../core/client/serialNumber';
import type { SerialMatcher } from '../../core/domain/serialNumbers/serialMatcher';
import { SECTION } from '../../core/domain/settings/settingsRules';
import type { EventsCache } from '../../core/eventsCache/eventsCache';
import { registerCommands } from '../workbench/commands';
import type { ApiSession } from '../workbench/contracts/apiSession';
import type { DetailsApi, MachinesApi } from '../workbench/contracts/features';
import { VIEWS } from '../workbench/constants';
import type { Log } from '../workbench/log';
import type { SettingsReader } from '../workbench/settings';
import { MACHINE_COMMANDS, type MachineCommandDeps, type RefreshCount } from './machineCommands';
import { MachineLists, type KeyValueStore } from './machineLists';
import { MachinesModel, type ModelSettings } from './machinesModel';
import { MachinesView } from './machinesView';
import { notifyPinnedFailures } from './pinnedFailures';
import { PinnedPolling } from './pinnedPolling';
import { ScanRunner } from './scanRunner';
import { SeenTracker } from './seenTracker';
import type { ArgumentTrust } from '../workbench/argumentTrust';
import type { Claims } from '../../core/common/claims';
import type { CachedLineHistory } from '../../core/eventsCache/cachedLineHistory';

export interface MachinesDeps {
  readonly session: ApiSession;
  readonly events: EventsCache;
  readonly settings: SettingsReader;
  /** The serial-number matcher the hovers use too (workbench/serialSettings.ts): one pattern, one deny list. */
  readonly matcher: () => SerialMatcher;
  readonly log: Log;
  /** The one rule for another extension's arguments (workbench/argumentTrust.ts): our own tree's and links' pass, anyone else's are asked about. */
  readonly trust: ArgumentTrust;
  readonly details: DetailsApi;
  readonly claims: Claims;
  /** The line's history: in-progress rows say their step, time to go or stall. */
  readonly lineHistory: Pick<CachedLineHistory, 'progressOf' | 'onDidChange'>;
}

export function registerMachines(context: vscode.ExtensionContext, deps: MachinesDeps): MachinesApi {
  const { session, events, settings, matcher, log, trust, details, claims } = deps;
  const store = new DisposableStore();
  context.subscriptions.push(store);
  const signedIn = (): boolean => session.state.kind === 'signed-in';
  const environmentId = (): string | undefined => (session.state.kind === 'signed-in' ? session.state.environment.id : undefined);

  // ---- State ---------------------------------------------------------------
  // Global state can drop a write for an older copy echoed back (common/verifiedState.ts): these writes are read back.
  const globalState = verifiedState(context.globalState, (message) => {
    log.info(message);
  });
  const pinnedStoreOf = (scope: 'workspace' | 'global'): KeyValueStore => (scope === 'global' ? globalState : context.workspaceState);
  const lists = store.add(
    new MachineLists({ pinnedStore: () => pinnedStoreOf(settings.value['tree.pinnedScope']), recentStore: globalState }),
  );
  const seen = new SeenTracker(globalState, environmentId);
  store.add(toDisposable(() => void seen.flush()));
  const modelSettings = (): ModelSettings => {
    const value = settings.value;
    return {
      maxEvents: value['tree.maxEvents'],
      concurrency: value.maxConcurrentRequests,
      timestampUnit: value.timestampUnit,
      workspaceScanEnabled: value['workspaceScan.enabled'],
      hasWorkspace: (vscode.workspace.workspaceFolders?.length ?? 0) > 0,
      eventStates: value.eventStates,
    };
  };
  const model = store.add(
    new MachinesModel({
      events,
      lists,
      seen,
      settings: modelSettings,
      signedIn,
      log: (message) => {
        log.info(message);
      },
      lineHistory: deps.lineHistory,
    }),
  );
  store.add(
    lists.onDidChange(() => {
      model.fire(undefined);
    }),
  );

  // ---- View, scan, refresh, auto-refresh -----------------------------------
  const scan = store.add(
    new ScanRunner({
      model,
      log,
      settings: () => ({ include: settings.value['workspaceScan.include'], maxFiles: settings.value['workspaceScan.maxFiles'] }),
      matcher,
    }),
  );
  const view = store.add(
    new MachinesView({
      model,
      lists,
      signedIn,
      requestScan: () => void scan.run('view'),
      cancelScan: () => {
        scan.cancel();
      },
    }),
  );
  // Refresh of listed machines (default: every one), with progress in the view. Requests belong to the
  // session they were made in: a sign-out or an environment switch aborts those in flight, so another
  // environment's answers never land.
  let refreshLifetime = new AbortController();
  store.add(
    toDisposable(() => {
      refreshLifetime.abort();
    }),
  );
  const refresh = (serials?: readonly string[]): Thenable<RefreshCount> =>
    vscode.window.withProgress({ location: { viewId: VIEWS.machines } }, async () => {
      const result = await model.refreshAll(serials ? [...serials] : undefined, { signal: refreshLifetime.signal });
      const failed = (serials ?? model.allListed()).filter((serial) => model.failureOf(serial) !== undefined).length;
      return { done: result.done, failed };
    });
  const polling = store.add(new PinnedPolling({ settings, lists, model, view: view.treeView, signedIn, refresh, log }));
  store.add(notifyPinnedFailures({ events, settings, session, lists, model, details, claims }));

  // ---- Settings and session ------------------------------------------------
  let pinnedScope = settings.value['tree.pinnedScope'];
  store.add(
    settings.onDidChange((change) => {
      // http.* changes are the client's business, not the tree's.
      if (!change.event.affectsConfiguration(SECTION)) return;
      if (change.affects('tree.pinnedScope')) {
        // Switching the scope never makes the user's pins vanish: they come along.
        const from = pinnedStoreOf(pinnedScope);
        pinnedScope = settings.value['tree.pinnedScope'];
        void lists.carryPinsOver(from, pinnedStoreOf(pinnedScope));
      }
      if ((change.affects('workspaceScan') || change.affects('serialNumber')) && model.workspaceScan.kind !== 'not-scanned')
        void scan.run('view');
      model.fire(undefined);
    }),
  );
  store.add(
    session.onDidChangeState(() => {
      // Another environment's data must not show, nor its requests land: start over.
      refreshLifetime.abort();
      refreshLifetime = new AbortController();
      model.reset();
      polling.reset();
    }),
  );
  store.add(session.onDidChangeEnvironments(() => void seen.keepOnly(session.environments().map((env) => env.id))));

  // ---- Commands and API ----------------------------------------------------
  const commandDeps: MachineCommandDeps = {
    model,
    lists,
    view,
    session,
    log,
    refresh,
    scanWorkspace: () => scan.run('notification'),
    matcher,
    trust,
  };
  store.add(vscode.Disposable.from(...registerCommands(MACHINE_COMMANDS, commandDeps)));

  return {
    reveal: (serial) => view.reveal(serial),
    revealListed: (serial) => view.revealListed(serial),
    pin: async (serial) => {
      await lists.pin(normalizeSerialNumber(serial));
    },
    addRecent: (serial) => {
      void lists.addRecent(normalizeSerialNumber(serial));
    },
    pinned: () => lists.pinned(),
    recent: () => lists.recent(),
    workspace: () => model.machinesIn('workspace'),
    clearRecent: () => void lists.clearRecent(),
    selected: () => view.selectedSerials(),
    onDidChange: model.onDidChange,
    ownsElement: (argument) => view.provider.ownsMachineNode(argument),
    decorate: (decorations) => model.decorate(decorations),
  };
}
