// Watch Onboarding: what the user sees of the watch list (watchList.ts). The
// commands (watch a machine, stop, the watches' quick pick), the status bar
// item "Watching 3 · 1 failed", the rows and badge it lends the Machines view
// (through the MachinesApi's decorations, so no feature imports another), the
// notifications of an outcome (in the one window that claimed it, per the
// watch.notifications setting), the warning when watches cannot poll any
// more, and the opt-in notification of new failures among pinned and
// workspace machines. Returns the WatchesApi the agent tools will read.
import { join } from 'node:path';
import * as vscode from 'vscode';
import { errorMessage } from '../common/errors';
import { DisposableStore, toDisposable, type IDisposable } from '../common/lifecycle';
import type { OnboardingEvent } from '../core/model';
import { eventState, machineState, newestOf } from '../domain/events/eventState';
import { checkSerialNumber, serialNumberArgument } from '../domain/serialNumbers/serialNumberInput';
import { DEFAULT_WATCH_TIMING, formatDuration, MAX_OUTCOME_MESSAGE, MAX_WATCHES } from '../domain/watch/watchRules';
import { inertNotificationText } from '../common/notificationText';
import type { EventsCache } from '../eventsCache/eventsCache';
import { plainArgument, type ArgumentTrust } from '../workbench/argumentTrust';
import { registerCommands, type CommandFactory, type CommandTable } from '../workbench/commands';
import { COMMANDS } from '../workbench/constants';
import type { ApiSession } from '../workbench/contracts/apiSession';
import type {
  DetailsApi,
  MachineRowDecoration,
  MachinesApi,
  WatchesApi,
  WatchStartAnswer,
  WatchSummary,
} from '../workbench/contracts/features';
import type { Log } from '../workbench/log';
import type { SettingsReader } from '../workbench/settings';
import { FileClaims, WatchList, type WatchEnded, type WatchInfo } from './watchList';
import { clipboardText, lineText, notificationText } from '../common/serverText';
import { age as watchAge, rowDescription, stepText as watchStepText, watchDescription, type WatchTextContext } from './watchText';

/** How the watch feature tells the user things: the Notifier (session/notify.ts), which the test hooks read. */
export interface WatchNotifier {
  info(message: string, ...actions: string[]): Thenable<string | undefined>;
  warning(message: string, ...actions: string[]): Thenable<string | undefined>;
}

export interface WatchDeps {
  readonly session: ApiSession;
  readonly events: EventsCache;
  readonly settings: SettingsReader;
  readonly machines: MachinesApi;
  readonly details: DetailsApi;
  readonly notifier: WatchNotifier;
  readonly log: Log;
  readonly trust: Pick<ArgumentTrust, 'fromOwnUi' | 'confirm'>;
}

/** The watch feature: its API for the agent tools, and what the test hooks read (the list, the status bar's text). */
export interface Watches extends WatchesApi {
  readonly list: WatchList;
  /** The status bar item's text and tooltip, as shown (undefined while hidden). */
  statusBar(): { readonly text: string; readonly tooltip: string } | undefined;
}

const t = (message: string, ...args: (string | number | boolean)[]): string => vscode.l10n.t(message, ...args);

function environmentId(session: ApiSession): string | undefined {
  return session.state.kind === 'signed-in' ? session.state.environment.id : undefined;
}

/** The words of a watch in this window's language, now. */
function textContext(): WatchTextContext {
  return { t, locale: vscode.env.language, now: Date.now() };
}

function age(at: number): string {
  return watchAge(at, textContext());
}

function stepText(watch: WatchInfo): string {
  return watchStepText(watch, textContext());
}

function rowDecoration(watch: WatchInfo): MachineRowDecoration {
  const icon = watch.status === 'watching' ? 'eye-watch' : watch.status === 'paused' ? 'eye-closed' : undefined;
  const description = rowDescription(watch, textContext());
  return {
    watched: watch.outcome === undefined,
    ...(icon === undefined ? {} : { icon }),
    ...(description === undefined ? {} : { description }),
    tooltip:
      watch.outcome === undefined
        ? t('Watching its onboarding since {0}; newest step: {1}', age(watch.startedAt), stepText(watch))
        : watch.outcome.state === 'onboarded'
          ? t('Watched until it was onboarded ({0})', age(watch.outcome.at))
          : t('Watched until it failed ({0})', age(watch.outcome.at)),
  };
}

/** The event a watch ended on, from the cache (the poll that saw it put it there). */
function outcomeEvent(events: EventsCache, watch: WatchInfo | WatchEnded['watch']): OnboardingEvent | undefined {
  const result = events.peek(watch.serialNumber)?.result;
  if (result === undefined) return undefined;
  return watch.outcome === undefined ? newestOf(result.events) : result.events.find((event) => event.time.epochMs === watch.outcome?.at);
}

export function registerWatch(context: vscode.ExtensionContext, deps: WatchDeps): Watches {
  const { session, events, settings, machines, details, notifier, log, trust } = deps;
  const store = new DisposableStore();
  context.subscriptions.push(store);
  const claims = new FileClaims(join(context.globalStorageUri.fsPath, 'watch-claims'), (message) => {
    log.warn(message);
  });
  void claims.prune();
  let focused = vscode.window.state.focused;
  const list = store.add(
    new WatchList({
      events,
      store: context.globalState,
      claims,
      environment: () => environmentId(session),
      rules: () => settings.value.eventStates,
      timing: () => ({ ...DEFAULT_WATCH_TIMING, firstMs: settings.value['watch.firstIntervalSeconds'] * 1000 }),
      focused: () => focused,
      log: (message) => {
        log.info(message);
      },
    }),
  );
  store.add(
    vscode.window.onDidChangeWindowState((state) => {
      if (state.focused === focused) return;
      focused = state.focused;
      list.refocus();
    }),
  );

  // ---- Session: watches belong to their environment ------------------------
  let refusalSaid = false;
  store.add(
    session.onDidChangeState((state) => {
      list.resume();
      if (state.kind === 'signed-in') refusalSaid = false;
      if (state.kind !== 'credentials-rejected' || refusalSaid) return;
      const paused = list.list().filter((watch) => watch.environmentId === state.environment.id && watch.outcome === undefined).length;
      if (paused === 0) return;
      refusalSaid = true;
      const signInAgain = t('Sign In Again');
      void notifier
        .warning(
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
          signInAgain,
        )
        .then((choice) => (choice === signInAgain ? vscode.commands.executeCommand(COMMANDS.signInAgain) : undefined));
    }),
  );
  store.add(
    list.onDidStall(({ watching }) => {
      const testConnection = t('Test Connection');
      const showLog = t('Show Log');
      void notifier
        .warning(
          t(
            'The Onboarding Events API could not be reached for {0}: {1} watched machines are not being updated. Watching goes on, less often; Test Connection shows what is in the way.',
            formatDuration(DEFAULT_WATCH_TIMING.unreachableAfterMs, t),
            watching,
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

  // ---- Outcomes -------------------------------------------------------------
  const showDetailsOf = async (watch: WatchInfo | WatchEnded['watch']): Promise<void> => {
    list.lookedAt(watch.serialNumber);
    const event = outcomeEvent(events, watch);
    if (event !== undefined) await details.show(event);
    else await machines.reveal(watch.serialNumber);
  };
  store.add(
    list.onDidEnd(({ watch, speak }) => {
      const mode = settings.value['watch.notifications'];
      if (!speak || mode === 'off' || (mode === 'failures' && watch.outcome.state !== 'failed')) return;
      const showDetails = t('Show Details');
      if (watch.outcome.state === 'onboarded') {
        const copyLink = t('Copy Link');
        void notifier
          .info(t('{0} onboarded in {1}', watch.serialNumber, formatDuration(watch.outcome.tookMs, t)), showDetails, copyLink)
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
      void notifier
        .warning(t('{0} failed to onboard: {1}', watch.serialNumber, notificationText(watch.outcome.message)), showDetails, copyMessage)
        .then((choice) =>
          choice === showDetails
            ? showDetailsOf(watch)
            : choice === copyMessage
              ? vscode.env.clipboard.writeText(clipboardText(watch.outcome.message))
              : undefined,
        );
    }),
  );
  store.add(watchPinnedFailures({ ...deps, claims }));

  // ---- The Machines view's rows and badge ------------------------------------
  const changed = store.add(new vscode.EventEmitter<readonly string[] | undefined>());
  store.add(
    list.onDidChange((serials) => {
      changed.fire(serials);
    }),
  );
  if (machines.decorate !== undefined)
    store.add(
      machines.decorate({
        decoration: (serial) => {
          const watch = list.get(serial);
          return watch === undefined ? undefined : rowDecoration(watch);
        },
        unseen: () => list.unseenOutcomes(),
        lookedAt: (serial) => {
          list.lookedAt(serial);
        },
        onDidChange: changed.event,
      }),
    );
  // Every 30 s: follow watches other windows started, stopped or ended (global state has no change
  // event), and let "2 min ago" age in the rows while anything is watched.
  let ticks = 0;
  const ticker = setInterval(() => {
    list.resume();
    if (++ticks % 2 === 0 && list.list().some((watch) => watch.status === 'watching')) changed.fire(undefined);
  }, 30_000);
  store.add(
    toDisposable(() => {
      clearInterval(ticker);
    }),
  );

  // ---- Status bar ------------------------------------------------------------
  const statusBar = store.add(vscode.window.createStatusBarItem('onboardingEvents.watches', vscode.StatusBarAlignment.Left, -101));
  statusBar.name = t('Onboarding Events Watches');
  statusBar.command = COMMANDS.showWatches;
  let shown: { text: string; tooltip: string } | undefined;
  const updateStatusBar = (): void => {
    const active = environmentId(session);
    const mine = list.list().filter((watch) => watch.environmentId === active);
    const watching = mine.filter((watch) => watch.status === 'watching').length;
    const failed = mine.filter((watch) => watch.status === 'failed' && watch.seen !== true).length;
    const onboarded = mine.filter((watch) => watch.status === 'onboarded' && watch.seen !== true).length;
    const paused = list.list().filter((watch) => watch.status === 'paused').length;
    if (watching + failed + onboarded + paused === 0) {
      shown = undefined;
      statusBar.hide();
      return;
    }
    const parts: string[] = [];
    if (active === undefined) parts.push(t('Watching {0} (paused)', paused));
    else if (watching > 0) parts.push(t('Watching {0}', watching));
    if (failed > 0) parts.push(t('{0} failed', failed));
    if (onboarded > 0) parts.push(t('{0} onboarded', onboarded));
    const text = parts.join(' · ');
    statusBar.text = `$(${failed > 0 ? 'error' : 'eye-watch'}) ${text}`;
    statusBar.tooltip = t('Onboarding Events: machines being watched. Click to see them, stop a watch or open an outcome.');
    statusBar.backgroundColor = failed > 0 ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    statusBar.accessibilityInformation = { label: t('Onboarding Events: {0}', text) };
    shown = { text, tooltip: statusBar.tooltip };
    statusBar.show();
  };
  store.add(list.onDidChange(updateStatusBar));
  store.add(session.onDidChangeState(updateStatusBar));
  updateStatusBar();

  // ---- Commands and API ------------------------------------------------------
  const api: Watches = {
    list,
    statusBar: () => shown,
    watches: () => summaries(list, session),
    startWatch: async (serialNumber) => answerOf(await start(serialNumber)),
  };
  const start = async (serialNumber: string): ReturnType<WatchList['start']> => {
    const result = await list.start(serialNumber);
    if (result.kind === 'started') machines.addRecent(serialNumber);
    return result;
  };
  store.add(vscode.Disposable.from(...registerCommands(WATCH_COMMANDS, { list, start, session, machines, trust, showDetailsOf, log })));
  return api;
}

/** For the agent tools: every watch of the signed-in environment, as plain data with the one state word. */
function summaries(list: WatchList, session: ApiSession): readonly WatchSummary[] {
  const active = environmentId(session);
  const name = session.state.kind === 'signed-out' ? undefined : session.state.environment.name;
  return list
    .list()
    .filter((watch) => watch.environmentId === active)
    .map((watch) => ({
      serialNumber: watch.serialNumber,
      environment: name ?? watch.environmentId,
      state: watch.status,
      ...(watch.step === undefined ? {} : { newestStep: { type: watch.step.type, at: watch.step.at } }),
      since: watch.startedAt,
      ...(watch.outcome === undefined
        ? {}
        : { outcome: { state: watch.outcome.state, at: watch.outcome.at, tookMs: watch.outcome.tookMs, message: watch.outcome.message } }),
    }));
}

function answerOf(result: Awaited<ReturnType<WatchList['start']>>): WatchStartAnswer {
  switch (result.kind) {
    case 'started':
    case 'already-watched':
      return { kind: result.kind };
    case 'already-onboarded':
      return { kind: 'already-onboarded', newestStep: result.step };
    case 'limit':
      return { kind: 'limit', max: result.max };
    case 'not-signed-in':
      return { kind: 'not-signed-in' };
  }
}

interface WatchCommandDeps {
  readonly list: WatchList;
  readonly start: (serialNumber: string) => ReturnType<WatchList['start']>;
  readonly session: ApiSession;
  readonly machines: MachinesApi;
  readonly trust: Pick<ArgumentTrust, 'fromOwnUi' | 'confirm'>;
  readonly showDetailsOf: (watch: WatchInfo) => Promise<void>;
  readonly log: Log;
}

/**
 * The machine a watch command is for: our own UI's argument (a tree element,
 * or our mark), else a serial number another extension or a link chose, which
 * the user confirms (workbench/argumentTrust.ts: a watch sends requests in
 * their name for as long as it runs). No argument asks for one.
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
              age(result.step.at),
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
    void vscode.window.showErrorMessage(inertNotificationText(t('Could not watch {0}: {1}', serial, errorMessage(error, t))));
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
  const items = (): WatchPick[] => {
    const watches = list.list();
    const rows: WatchPick[] = watches.map((watch) => ({
      label: `${pickIcon(watch)} ${watch.serialNumber}`,
      description: watchDescription(watch, textContext()),
      ...(watch.status === 'paused' ? { detail: t('Paused: its environment is not the one signed in.') } : {}),
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

const WATCH_COMMANDS: CommandTable<WatchCommandDeps> = {
  [COMMANDS.watchMachine]: watchMachine,
  [COMMANDS.stopWatching]: stopWatching,
  [COMMANDS.showWatches]: showWatches,
};

/**
 * The opt-in (watch.notifyPinnedFailures): a pinned or workspace machine whose
 * newest event turns into a failure while this window has it loaded is told
 * once, across windows (the same claims). A failure older than the window's
 * start, first seen on loading, is no news.
 */
function watchPinnedFailures(deps: WatchDeps & { readonly claims: FileClaims }): IDisposable {
  const { events, settings, session, machines, notifier, claims } = deps;
  const since = Date.now();
  const lastSeen = new Map<string, number>();
  return events.onDidUpdate((serial) => {
    if (!settings.value['watch.notifyPinnedFailures'] || settings.value['watch.notifications'] === 'off') return;
    const environment = environmentId(session);
    const entry = events.peek(serial);
    if (environment === undefined || entry === undefined || entry.stale) return;
    if (!machines.pinned().includes(serial) && !(machines.workspace?.().includes(serial) ?? false)) return;
    const newest = newestOf(entry.result.events);
    const before = lastSeen.get(serial);
    if (newest === undefined) return;
    lastSeen.set(serial, newest.time.epochMs);
    if (lastSeen.size > 10_000) lastSeen.clear();
    if (machineState(entry, settings.value.eventStates) !== 'failed' || eventState(newest, settings.value.eventStates) !== 'failed') return;
    const isNew = before === undefined ? newest.time.epochMs >= since : newest.time.epochMs > before;
    if (!isNew) return;
    void claims.claim(`pinned\u0000${environment}\u0000${serial}\u0000failed\u0000${newest.time.epochMs}`).then((speak) => {
      if (!speak) return;
      const showDetails = t('Show Details');
      return notifier
        .warning(t('{0} failed to onboard: {1}', serial, notificationText(newest.message, MAX_OUTCOME_MESSAGE)), showDetails)
        .then((choice) => (choice === showDetails ? deps.details.show(newest) : undefined));
    });
  });
}
