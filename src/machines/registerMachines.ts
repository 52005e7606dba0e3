// The Machines view: wires the model, the tree, auto-refresh, the workspace
// scan and the commands of the sidebar. The decisions live in vscode-free
// modules (machinesModel, eventView, eventFilter, autoRefresh, ...); this file
// connects them to VS Code.
import * as vscode from 'vscode';
import { isApiError } from '../core/errors';
import { normalizeSerialNumber } from '../core/serialNumber';
import type { TimestampUnitSetting } from '../core/timestamp';
import type { DetailsApi } from '../workbench/contracts/detailsApi';
import type { EventsService } from '../eventsCache/eventsService';
import type { Log } from '../workbench/log';
import type { ApiSession } from '../workbench/contracts/apiSession';
import { createSerialMatcher, type SerialMatcher } from '../domain/serialNumbers/serialMatcher';
import { AutoRefresh, type PollOutcome } from './autoRefresh';
import { MachineLists, type KeyValueStore } from './machineLists';
import type { MachinesApi, MachinesTreeInspector, RenderedNode } from '../workbench/contracts/machinesApi';
import { MachinesModel, type GroupKind, type ModelSettings } from './machinesModel';
import { MachinesTreeProvider } from './machinesTreeProvider';
import { describeFilter } from './filterDescription';
import { registerMachineCommands } from './machineCommands';
import { SeenTracker } from './seenTracker';
import type { MachinesNode } from './treeNodes';
import { scanWorkspace } from './workspaceScan';

export const VIEW_ID = 'onboardingEvents.machines';

export interface MachinesDeps {
  readonly session: ApiSession;
  readonly events: EventsService;
  readonly details: DetailsApi;
  readonly log: Log;
}

/** Settings read once and re-read on change: the tree asks for them on every render. */
class MachinesSettings implements vscode.Disposable {
  private cached: (ModelSettings & { pinnedScope: 'workspace' | 'global'; include: string; maxFiles: number; autoRefresh: boolean; intervalMs: number }) | undefined;
  private matcherCache: SerialMatcher | undefined;
  private readonly subscription: vscode.Disposable;

  constructor(onChange: (event: vscode.ConfigurationChangeEvent) => void) {
    this.subscription = vscode.Disposable.from(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (!event.affectsConfiguration('onboardingEvents')) return;
        this.cached = undefined;
        if (event.affectsConfiguration('onboardingEvents.serialNumber')) this.matcherCache = undefined;
        onChange(event);
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => (this.cached = undefined)),
    );
  }

  get values(): NonNullable<MachinesSettings['cached']> {
    if (this.cached) return this.cached;
    const c = vscode.workspace.getConfiguration('onboardingEvents');
    this.cached = {
      maxEvents: c.get<number>('tree.maxEvents', 50),
      concurrency: Math.max(1, c.get<number>('maxConcurrentRequests', 8)),
      timestampUnit: c.get<TimestampUnitSetting>('timestampUnit', 'auto'),
      workspaceScanEnabled: c.get<boolean>('workspaceScan.enabled', true),
      hasWorkspace: (vscode.workspace.workspaceFolders?.length ?? 0) > 0,
      pinnedScope: c.get<string>('tree.pinnedScope', 'workspace') === 'global' ? 'global' : 'workspace',
      include: c.get<string>('workspaceScan.include', '**/*.{json,yaml,yml,txt}'),
      maxFiles: c.get<number>('workspaceScan.maxFiles', 2000),
      autoRefresh: c.get<boolean>('autoRefresh.enabled', false),
      // The settings UI enforces at least 30 s; a hand-edited smaller value is raised to it.
      intervalMs: Math.max(30, c.get<number>('autoRefresh.intervalSeconds', 300)) * 1000,
    };
    return this.cached;
  }

  matcher(log: Log): SerialMatcher {
    if (!this.matcherCache) {
      const c = vscode.workspace.getConfiguration('onboardingEvents.serialNumber');
      this.matcherCache = createSerialMatcher({ pattern: c.get<string>('pattern'), minLength: c.get<number>('minLength'), denyList: c.get<string[]>('denyList'), t: vscode.l10n.t });
      if (this.matcherCache.problem !== undefined) log.warn(this.matcherCache.problem);
    }
    return this.matcherCache;
  }

  dispose(): void {
    this.subscription.dispose();
  }
}

export function registerMachines(context: vscode.ExtensionContext, deps: MachinesDeps): MachinesApi {
  const { session, events, log } = deps;
  const subscriptions: { dispose(): unknown }[] = [];
  const signedIn = (): boolean => session.state.kind === 'signed-in';
  const environmentId = (): string | undefined => (session.state.kind === 'signed-in' ? session.state.environment.id : undefined);

  const pinnedStore = (): KeyValueStore => (settings.values.pinnedScope === 'global' ? context.globalState : context.workspaceState);
  let lastPinnedScope: 'workspace' | 'global' | undefined;
  const settings = new MachinesSettings((event) => {
    if (event.affectsConfiguration('onboardingEvents.tree.pinnedScope')) {
      const from = lastPinnedScope === 'global' ? context.globalState : context.workspaceState;
      lastPinnedScope = settings.values.pinnedScope;
      void lists.carryPinsOver(from, pinnedStore());
    }
    if (event.affectsConfiguration('onboardingEvents.workspaceScan') || event.affectsConfiguration('onboardingEvents.serialNumber')) {
      if (model.workspaceScan.kind !== 'not-scanned') void runScan('view');
    }
    if (event.affectsConfiguration('onboardingEvents.autoRefresh')) autoRefresh.reset();
    model.fire(undefined);
  });
  lastPinnedScope = settings.values.pinnedScope;
  subscriptions.push(settings);

  const lists = new MachineLists({ pinnedStore, recentStore: context.globalState });
  const seen = new SeenTracker(context.globalState, environmentId);
  subscriptions.push({ dispose: () => seen.flush() });
  const model = new MachinesModel({
    events,
    lists,
    seen,
    settings: () => settings.values,
    signedIn,
    onCredentialsRejected: () => { session.reportCredentialsRejected(); },
    log: (message) => { log.info(message); },
  });
  subscriptions.push({ dispose: () => { model.dispose(); } }, lists.onDidChange(() => { model.fire(undefined); }));

  // ---- Workspace scan ------------------------------------------------------
  let scanCancellation: vscode.CancellationTokenSource | undefined;
  let scanRun: Promise<void> | undefined;
  const runScan = (where: 'view' | 'notification'): Promise<void> => {
    scanCancellation?.cancel();
    const source = new vscode.CancellationTokenSource();
    scanCancellation = source;
    model.setWorkspaceScan({ kind: 'scanning' });
    const task = async (token: vscode.CancellationToken, report?: (message: string) => void): Promise<void> => {
      const linked = token.onCancellationRequested(() => { source.cancel(); });
      try {
        const { include, maxFiles } = settings.values;
        const result = await scanWorkspace(settings.matcher(log), { include, maxFiles }, source.token, (done, total) =>
          report?.(vscode.l10n.t('{0} of {1} files', done, total)),
        );
        if (scanCancellation === source) model.setWorkspaceScan({ kind: 'scanned', ...result, at: Date.now() });
        log.info(`Workspace scan: ${result.found.length} serial numbers in ${result.filesScanned} files${result.capped ? ' (capped by workspaceScan.maxFiles)' : ''}.`);
      } catch (error) {
        if (scanCancellation !== source) return;
        if (error instanceof vscode.CancellationError || source.token.isCancellationRequested) {
          model.setWorkspaceScan({ kind: 'not-scanned' });
        } else {
          log.error('The workspace scan failed', error);
          model.setWorkspaceScan({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
        }
      } finally {
        linked.dispose();
        source.dispose();
        if (scanCancellation === source) scanCancellation = undefined;
      }
    };
    const run =
      where === 'notification'
        ? vscode.window.withProgress(
            { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Scanning the workspace for serial numbers'), cancellable: true },
            (progress, token) => task(token, (message) => { progress.report({ message }); }),
          )
        : vscode.window.withProgress({ location: { viewId: VIEW_ID } }, () => task(source.token));
    scanRun = Promise.resolve(run);
    return scanRun;
  };
  subscriptions.push({ dispose: () => scanCancellation?.cancel() });

  // ---- Tree ----------------------------------------------------------------
  const provider = new MachinesTreeProvider(model, () => {
    if (model.workspaceScan.kind === 'not-scanned') void runScan('view');
  });
  const treeView = vscode.window.createTreeView<MachinesNode>(VIEW_ID, { treeDataProvider: provider, showCollapseAll: true });
  subscriptions.push(provider, treeView);

  const contextKeys = { hasMachines: undefined as boolean | undefined, filtered: undefined as boolean | undefined };
  const setContext = (key: 'hasMachines' | 'filtered', value: boolean): void => {
    if (contextKeys[key] === value) return;
    contextKeys[key] = value;
    void vscode.commands.executeCommand('setContext', `onboardingEvents.${key}`, value);
  };
  const updateViewChrome = (): void => {
    setContext('hasMachines', model.hasMachines());
    setContext('filtered', model.filtered);
    const description = model.filtered ? describeFilter(model.filter) : '';
    if (treeView.description !== description) treeView.description = description;
    // The description is hidden when the view is the container's only one: say it above the tree as well.
    const message = model.filtered && signedIn() ? description : '';
    if (treeView.message !== message) treeView.message = message;
    const unseen = signedIn() ? model.unseenTotal() : 0;
    const tooltip = vscode.l10n.t('{0} onboarding events you have not seen yet', unseen);
    if (unseen === 0) {
      if (treeView.badge !== undefined) treeView.badge = undefined;
    } else if (treeView.badge?.value !== unseen) {
      treeView.badge = { value: unseen, tooltip };
    }
  };
  provider.onDidFlush = updateViewChrome;
  updateViewChrome();

  const markSeenFrom = (node: MachinesNode | undefined): void => {
    if (!node || node.kind === 'group' || node.kind === 'placeholder') return;
    model.markSeen(node.serialNumber);
  };
  subscriptions.push(
    treeView.onDidExpandElement((event) => { markSeenFrom(event.element); }),
    treeView.onDidChangeSelection((event) => { event.selection.forEach(markSeenFrom); }),
    treeView.onDidCollapseElement((event) => {
      if (event.element.kind === 'group' && event.element.group === 'workspace' && model.workspaceScan.kind === 'scanning') scanCancellation?.cancel();
    }),
  );

  // ---- Refresh -------------------------------------------------------------
  let lifetime = new AbortController();
  const inView = <T>(task: () => Promise<T>): Thenable<T> => vscode.window.withProgress({ location: { viewId: VIEW_ID } }, task);
  const refreshMachines = (serials?: readonly string[]): Thenable<{ done: number; failed: number }> =>
    inView(async () => {
      const result = await model.refreshAll(serials ? [...serials] : undefined, { signal: lifetime.signal });
      const failed = (serials ?? model.allListed()).filter((serial) => model.failureOf(serial) !== undefined).length;
      return { done: result.done, failed };
    });

  // ---- Auto-refresh --------------------------------------------------------
  const poll = async (): Promise<PollOutcome> => {
    if (!signedIn()) return { kind: 'stop' };
    const pinned = lists.pinned();
    if (pinned.length === 0) return { kind: 'ok' };
    const started = Date.now();
    await refreshMachines(pinned);
    if (!signedIn()) return { kind: 'stop' };
    let failed = 0;
    let retryAfterMs: number | undefined;
    for (const serial of pinned) {
      const failure = model.failureOf(serial);
      if (!failure || failure.at < started) continue;
      failed++;
      if (isApiError(failure.error) && failure.error.kind === 'invalid-credentials') return { kind: 'stop' };
      const wait = isApiError(failure.error) ? failure.error.details.retryAfterMs : undefined;
      if (wait !== undefined) retryAfterMs = Math.max(retryAfterMs ?? 0, wait);
    }
    if (failed === 0) return { kind: 'ok' };
    log.warn(`Auto-refresh: ${failed} of ${pinned.length} machines failed; polling backs off${retryAfterMs === undefined ? '' : ` (the API asked to wait ${Math.ceil(retryAfterMs / 1000)} s)`}.`);
    return retryAfterMs === undefined ? { kind: 'failed' } : { kind: 'failed', retryAfterMs };
  };
  const autoRefreshActive = (): boolean => treeView.visible && vscode.window.state.focused && signedIn();
  const autoRefresh = new AutoRefresh({
    enabled: () => settings.values.autoRefresh,
    intervalMs: () => settings.values.intervalMs,
    active: autoRefreshActive,
    poll,
    onStateChange: (state) => { log.info(`Auto-refresh: ${state}.`); },
  });
  autoRefresh.update();
  subscriptions.push(
    autoRefresh,
    treeView.onDidChangeVisibility(() => { autoRefresh.update(); }),
    vscode.window.onDidChangeWindowState(() => { autoRefresh.update(); }),
  );

  // ---- Session -------------------------------------------------------------
  subscriptions.push(
    session.onDidChangeState(() => {
      // Another environment's data must not show, nor its requests land: start over.
      lifetime.abort();
      lifetime = new AbortController();
      model.reset();
      autoRefresh.reset();
    }),
    session.onDidChangeEnvironments(() => void seen.keepOnly(session.environments().map((env) => env.id))),
    { dispose: () => { lifetime.abort(); } },
  );

  // ---- API for hovers, look-up, tests ---------------------------------------
  const groupOf = (serial: string): GroupKind => (lists.isPinned(serial) ? 'pinned' : 'recent');
  const reveal = async (serialInput: string): Promise<void> => {
    const serial = normalizeSerialNumber(serialInput);
    if (!lists.isPinned(serial) && !lists.recent().includes(serial)) await lists.addRecent(serial);
    if (!signedIn()) {
      // The tree is empty while signed out: show the view with its Sign In welcome instead.
      await vscode.commands.executeCommand(`${VIEW_ID}.focus`);
      return;
    }
    provider.flush();
    const node = provider.machineNode(groupOf(serial), serial);
    model.ensureLoaded(serial);
    await treeView.reveal(node, { select: true, focus: true, expand: true });
    model.markSeen(serial);
  };

  const inspector: MachinesTreeInspector = {
    async render(depth = 3) {
      // As a user who expanded everything would see it, except that the workspace group is only opened once scanned (it scans when expanded).
      const open = (node: MachinesNode): boolean => !(node.kind === 'group' && node.group === 'workspace' && model.workspaceScan.kind === 'not-scanned');
      const walk = (nodes: MachinesNode[], level: number): void => {
        if (level >= depth) return;
        for (const node of nodes) if (open(node)) walk(provider.getChildren(node), level + 1);
      };
      walk(provider.getChildren(), 1);
      await inspector.whenIdle();
      const render = (node: MachinesNode, level: number): RenderedNode => {
        const item = provider.getTreeItem(node);
        const children = level < depth && open(node) ? provider.getChildren(node).map((child) => render(child, level + 1)) : undefined;
        return { ...describeItem(node, item), ...(children ? { children } : {}) };
      };
      return provider.getChildren().map((node) => render(node, 1));
    },
    async whenIdle() {
      do {
        await model.whenIdle();
        await scanRun;
      } while (model.workspaceScan.kind === 'scanning');
      await model.whenIdle();
      provider.flush();
    },
    contextKeys: () => ({ hasMachines: model.hasMachines(), filtered: model.filtered }),
    badge: () => (treeView.badge ? { value: treeView.badge.value, tooltip: treeView.badge.tooltip } : undefined),
    viewDescription: () => treeView.description || undefined,
    viewVisible: () => treeView.visible,
    autoRefresh: () => ({ state: autoRefresh.state, nextPollAt: autoRefresh.nextPollAt, consecutiveFailures: autoRefresh.consecutiveFailures, active: autoRefreshActive() }),
    async pollNow() {
      const outcome = await autoRefresh.pollNow();
      await model.whenIdle();
      provider.flush();
      return outcome?.kind;
    },
  };

  const api: MachinesApi = {
    reveal,
    pin: async (serial) => {
      await lists.pin(normalizeSerialNumber(serial));
    },
    addRecent: (serial) => {
      void lists.addRecent(normalizeSerialNumber(serial));
    },
    pinned: () => lists.pinned(),
    recent: () => lists.recent(),
    clearRecent: () => void lists.clearRecent(),
    // Only for the integration tests: other extensions see the tree, not its internals.
    ...(context.extensionMode === vscode.ExtensionMode.Test ? { inspector } : {}),
  };

  subscriptions.push(
    ...registerMachineCommands({
      model,
      lists,
      provider,
      treeView,
      session,
      log,
      api,
      refreshMachines,
      runScan: () => runScan('notification'),
      matcher: () => settings.matcher(log),
    }),
  );
  context.subscriptions.push(...subscriptions);
  return api;
}

function describeItem(node: MachinesNode, item: vscode.TreeItem): RenderedNode {
  const label = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
  // Tooltip text as the hover shows it: without the escapes appendText adds.
  const tooltip =
    item.tooltip === undefined
      ? undefined
      : typeof item.tooltip === 'string'
        ? item.tooltip
        : item.tooltip.value.replace(/&nbsp;/g, ' ').replace(/\\([\\`*_{}[\]()#+\-.!|<>~])/g, '$1');
  const icon = item.iconPath instanceof vscode.ThemeIcon ? item.iconPath : undefined;
  const collapsible =
    item.collapsibleState === vscode.TreeItemCollapsibleState.Expanded ? 'expanded' : item.collapsibleState === vscode.TreeItemCollapsibleState.Collapsed ? 'collapsed' : 'none';
  return {
    node,
    kind: node.kind,
    id: item.id,
    label,
    description: typeof item.description === 'string' ? item.description : undefined,
    tooltip,
    ...(item.tooltip instanceof vscode.MarkdownString
      ? {
          tooltipMarkdown: {
            value: item.tooltip.value,
            isTrusted: item.tooltip.isTrusted ?? false,
            supportHtml: item.tooltip.supportHtml ?? false,
            supportThemeIcons: item.tooltip.supportThemeIcons ?? false,
          },
        }
      : {}),
    contextValue: item.contextValue,
    icon: icon?.id,
    iconColor: icon?.color?.id,
    collapsible,
    command: item.command ? { command: item.command.command, arguments: item.command.arguments ?? [] } : undefined,
  };
}
