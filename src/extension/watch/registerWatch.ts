// Watch Onboarding: what the user has of the watch list (watchList.ts), wired
// to VS Code. It builds the list over global state, the claims and this
// window's focus, keeps it following the session and other windows, and hands
// it to what the user sees: the commands (watchCommands.ts), the status bar
// item and the Machines view's rows and badge (watchDisplay.ts), and the
// notifications (watchNotifications.ts). Returns the WatchesApi the agent
// tools read.
import * as vscode from 'vscode';
import type { Claims } from '../../core/common/claims';
import { definedOnly } from '../../core/common/definedOnly';
import { DisposableStore, toDisposable } from '../../core/common/lifecycle';
import type { OnboardingEvent } from '../../core/client/model';
import { newestOf } from '../../core/domain/events/eventState';
import { DEFAULT_WATCH_TIMING } from '../../core/domain/watch/watchRules';
import type { EventsCache } from '../../core/eventsCache/eventsCache';
import type { CachedLineHistory } from '../../core/eventsCache/cachedLineHistory';
import type { ArgumentTrust } from '../workbench/argumentTrust';
import { registerCommands } from '../workbench/commands';
import type { ApiSession } from '../workbench/contracts/apiSession';
import type { DetailsApi, MachinesApi, WatchesApi, WatchStartAnswer, WatchSummary } from '../workbench/contracts/features';
import type { Log } from '../workbench/log';
import type { SettingsReader } from '../workbench/settings';
import { WATCH_COMMANDS } from './watchCommands';
import { WatchDisplay } from './watchDisplay';
import { WatchList, type Watch } from './watchList';
import { notifyWatchNews } from './watchNotifications';

export interface WatchDeps {
  readonly session: ApiSession;
  readonly events: EventsCache;
  readonly settings: SettingsReader;
  readonly machines: MachinesApi;
  readonly details: DetailsApi;
  /** Who tells an outcome: one window of the profile (extension.ts builds them once; the pinned machines' failures share them). */
  readonly claims: Claims;
  readonly log: Log;
  readonly trust: Pick<ArgumentTrust, 'fromOwnUi' | 'confirm'>;
  /** The line's history: a watched machine's stall is told once. */
  readonly lineHistory: Pick<CachedLineHistory, 'progressFor' | 'progressOf'>;
}

/** The watch feature: its API for the agent tools, and its list (the watches and their events). */
export interface Watches extends WatchesApi {
  readonly list: WatchList;
}

function environmentId(session: ApiSession): string | undefined {
  return session.state.kind === 'signed-in' ? session.state.environment.id : undefined;
}

/** The event a watch ended on, from the cache (the poll that saw it put it there). */
function outcomeEvent(events: EventsCache, watch: Watch): OnboardingEvent | undefined {
  const result = events.peek(watch.serialNumber)?.result;
  if (result === undefined) return undefined;
  return watch.outcome === undefined ? newestOf(result.events) : result.events.find((event) => event.time.epochMs === watch.outcome?.at);
}

export function registerWatch(context: vscode.ExtensionContext, deps: WatchDeps): Watches {
  const { session, events, settings, machines, details, claims, log, trust } = deps;
  const store = new DisposableStore();
  context.subscriptions.push(store);
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
      progress: (result) => deps.lineHistory.progressFor(result),
    }),
  );
  store.add(
    vscode.window.onDidChangeWindowState((state) => {
      if (state.focused === focused) return;
      focused = state.focused;
      list.refocus();
    }),
  );
  // Watches belong to their environment: a sign-in, a sign-out or a switch pauses or resumes them.
  store.add(
    session.onDidChangeState(() => {
      list.resume();
    }),
  );

  const showDetailsOf = async (watch: Watch): Promise<void> => {
    list.lookedAt(watch.serialNumber);
    const event = outcomeEvent(events, watch);
    if (event !== undefined) await details.show(event);
    else await machines.reveal(watch.serialNumber);
  };
  store.add(notifyWatchNews({ list, session, settings, showDetailsOf }));
  const display = store.add(new WatchDisplay(list, session, machines));
  // Every 30 s: follow watches other windows started, stopped or ended (global state has no change
  // event), and let "2 min ago" age in the rows while anything is watched.
  let ticks = 0;
  const ticker = setInterval(() => {
    list.resume();
    if (++ticks % 2 === 0 && list.list().some((watch) => watch.status === 'watching')) display.rowsAged();
  }, 30_000);
  store.add(
    toDisposable(() => {
      clearInterval(ticker);
    }),
  );

  const start = async (serialNumber: string): ReturnType<WatchList['start']> => {
    const result = await list.start(serialNumber);
    if (result.kind === 'started') machines.addRecent(serialNumber);
    return result;
  };
  store.add(
    vscode.Disposable.from(
      ...registerCommands(WATCH_COMMANDS, { list, start, session, machines, trust, showDetailsOf, log, lineHistory: deps.lineHistory }),
    ),
  );
  return {
    list,
    watches: () => summaries(list, session),
    startWatch: async (serialNumber) => answerOf(await start(serialNumber)),
  };
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
      ...definedOnly({ newestEvent: watch.step && { type: watch.step.type, at: watch.step.at } }),
      since: watch.startedAt,
      ...definedOnly({
        outcome: watch.outcome && {
          state: watch.outcome.state,
          at: watch.outcome.at,
          tookMs: watch.outcome.tookMs,
          message: watch.outcome.message,
        },
      }),
    }));
}

function answerOf(result: Awaited<ReturnType<WatchList['start']>>): WatchStartAnswer {
  switch (result.kind) {
    case 'started':
    case 'already-watched':
      return { kind: result.kind };
    case 'already-onboarded':
      return { kind: 'already-onboarded', newestEvent: result.step };
    case 'limit':
      return { kind: 'limit', max: result.max };
    case 'not-signed-in':
      return { kind: 'not-signed-in' };
  }
}
