// The test hooks: the one module through which the integration tests observe
// and steer the extension, reached through the exports (api.testHooks) in
// ExtensionMode.Test only, and undefined otherwise. Every hook is derived
// from what the features already are and expose to each other (the session's
// state, the events cache, the board's open, the tree's provider
// and view, the registered tools and URI
// handler); no feature builds a hook of its own. The exports are readable by
// any other extension, so everything here is a closure: walking the object
// graph reaches no session, client or credential store, and nothing returns a
// credential, a token or a client.
import { appendFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import * as vscode from 'vscode';
import { definedOnly } from './core/common/definedOnly';
import type { IDisposable } from './core/common/lifecycle';
import type { EventsResult } from './core/client/model';
import type { SessionState } from './core/domain/session/sessionState';
import type { EventsCache, GetOptions } from './core/eventsCache/eventsCache';
import type { AgentTools } from './extension/agentTools/registerAgentTools';
import type { BoardSet } from './extension/board/protocol';
import type { Board } from './extension/board/registerBoard';
import type { LinkOutcome, MachineLinks } from './extension/links/registerLinks';
import type { Machines } from './extension/machines/registerMachines';
import type { PollingSnapshot } from './extension/machines/pinnedPolling';
import type { MachinesNode } from './extension/machines/treeNodes';
import { secretKey } from './extension/session/credentialStore';
import type { ApiSession } from './extension/workbench/contracts/apiSession';
import type { LanguageModelToolName } from './extension/workbench/constants';
import type { Watches } from './extension/watch/registerWatch';
import type { WatchInfo } from './extension/watch/watchList';

/** A TreeItem of the Machines view as plain data: what the user sees of it, and what a menu would pass. */
export interface RenderedNode {
  /** The tree element itself: pass it to a command as a menu would. */
  readonly node: unknown;
  readonly kind: string;
  readonly id: string | undefined;
  readonly label: string;
  readonly description: string | undefined;
  /** Tooltip text (the Markdown source when it is Markdown). */
  readonly tooltip: string | undefined;
  /** The Markdown tooltip exactly as handed to VS Code, for checks of its escaping and trust. */
  readonly tooltipMarkdown?: {
    readonly value: string;
    readonly isTrusted: boolean | { readonly enabledCommands: readonly string[] };
    readonly supportHtml: boolean;
    readonly supportThemeIcons: boolean;
  };
  readonly contextValue: string | undefined;
  /** What a screen reader says for the row (accessibilityInformation.label), when the item sets one. */
  readonly accessibilityLabel?: string;
  /** ThemeIcon id and colour id, e.g. 'vm-active' and 'testing.iconPassed'. */
  readonly icon: string | undefined;
  readonly iconColor: string | undefined;
  readonly collapsible: 'none' | 'collapsed' | 'expanded';
  readonly command: { readonly command: string; readonly arguments: readonly unknown[] } | undefined;
  readonly children?: readonly RenderedNode[];
}

export type TestHooks = ReturnType<typeof hooksOf>;
export type SessionHooks = TestHooks['session'];
export type MachinesHooks = TestHooks['machines'];

/** What the hooks are derived from: the features as extension.ts wired them. */
export interface TestHookSources {
  readonly context: Pick<
    vscode.ExtensionContext,
    'globalState' | 'workspaceState' | 'secrets' | 'logUri' | 'subscriptions' | 'extensionMode'
  >;
  readonly session: ApiSession;
  readonly events: EventsCache;
  readonly machines: Machines;
  readonly agentTools: AgentTools;
  readonly links: MachineLinks;
  readonly board: Board;
  readonly watch: Watches;
}

/** The hooks, or undefined outside ExtensionMode.Test: the one place that reads the mode (the features never do). */
export function testHooks(sources: TestHookSources): TestHooks | undefined {
  recordWindow(sources);
  return sources.context.extensionMode === vscode.ExtensionMode.Test ? hooksOf(sources) : undefined;
}

/** The folder where each window records itself (set by the local harness, scripts/vscode/code-stand-in.mjs). */
export const WINDOW_RECORDS_ENV = 'OE_TEST_WINDOW_RECORDS';
/** Lines a window records at most: a test reads a few dozen. */
const MAX_WINDOW_RECORD_LINES = 1000;

/** One line of a window's record (window-<pid>.jsonl). */
export type WindowRecord =
  | { readonly kind: 'session'; readonly state: SessionState['kind'] }
  | { readonly kind: 'watching'; readonly serialNumbers: readonly string[] }
  | { readonly kind: 'ended'; readonly serialNumber: string; readonly tellUser: boolean }
  | { readonly kind: 'notified'; readonly notification: ShownNotification };

/** A notification or modal question this window showed, as the user read it. */
export interface ShownNotification {
  /** 'confirm' for a modal question, whose message is followed by its detail on the next line. */
  readonly kind: 'info' | 'warning' | 'error' | 'confirm';
  readonly message: string;
}

/**
 * A second window (its own extension host, in development mode, without the
 * tests) cannot be read through the exports of the window that runs the
 * tests; under the local harness each window appends what it told the user,
 * its sign-in state and its watches to its own file in the folder the harness
 * names, which the test reads. What it told the user is read where the user
 * reads it: VS Code's notification calls, wrapped here (recordShown). Never in
 * production mode, and only when that variable names an absolute folder.
 */
function recordWindow(sources: TestHookSources): void {
  const folder = process.env[WINDOW_RECORDS_ENV];
  if (sources.context.extensionMode === vscode.ExtensionMode.Production || !folder || !isAbsolute(folder)) return;
  const file = join(folder, `window-${process.pid}.jsonl`);
  let lines = 0;
  const append = (record: WindowRecord): void => {
    if (++lines > MAX_WINDOW_RECORD_LINES) return;
    try {
      appendFileSync(file, `${JSON.stringify(record)}\n`);
    } catch {
      // The harness removed its folder: the run is over.
    }
  };
  const { session, watch } = sources;
  const watching = (): void => {
    append({
      kind: 'watching',
      serialNumbers: watch.list
        .list()
        .filter((info) => info.status === 'watching')
        .map((info) => info.serialNumber),
    });
  };
  append({ kind: 'session', state: session.state.kind });
  watching();
  sources.context.subscriptions.push(
    session.onDidChangeState((state) => {
      append({ kind: 'session', state: state.kind });
      watching();
    }),
    watch.list.onDidChange(watching),
    watch.list.onDidEnd((ended) => {
      append({ kind: 'ended', serialNumber: ended.watch.serialNumber, tellUser: ended.tellUser });
    }),
    recordShown((notification) => {
      append({ kind: 'notified', notification });
    }),
  );
}

type ShowMessage = (message: string, ...rest: unknown[]) => Thenable<unknown>;

/**
 * Wraps VS Code's showInformationMessage, showWarningMessage and
 * showErrorMessage of this extension (every file of the extension shares the
 * one API object VS Code gives it) so each one shown is also handed to
 * `record`; the call itself goes on unchanged. Until disposed.
 */
function recordShown(record: (shown: ShownNotification) => void): IDisposable {
  const window = vscode.window as unknown as Record<string, unknown>;
  const wrapped = (['info', 'warning', 'error'] as const).map((kind) => {
    const name = kind === 'info' ? 'showInformationMessage' : kind === 'warning' ? 'showWarningMessage' : 'showErrorMessage';
    const real = window[name] as ShowMessage;
    const wrapper: ShowMessage = (message, ...rest) => {
      // MessageOptions come first when given; a MessageItem has a title.
      const first = rest[0];
      const options = typeof first === 'object' && first !== null && !('title' in first) ? (first as vscode.MessageOptions) : undefined;
      record(
        options?.modal === true
          ? { kind: 'confirm', message: options.detail === undefined ? message : `${message}\n${options.detail}` }
          : { kind, message },
      );
      return real.call(vscode.window, message, ...rest);
    };
    window[name] = wrapper;
    return { name, real, wrapper };
  });
  return {
    dispose: () => {
      // Only our own wrapper is taken away: one installed over it stays.
      for (const { name, real, wrapper } of wrapped) if (window[name] === wrapper) window[name] = real;
    },
  };
}

function hooksOf(sources: TestHookSources) {
  const { session, events, links, agentTools } = sources;
  return {
    session: sessionHooks(sources.context, session),
    machines: machinesHooks(sources.machines),
    /** The board, opened for a set as its command would after the user chose one (the page is read from the test side: test/integration/support/pages.ts). */
    board: { open: (set: BoardSet): Promise<void> => sources.board.open(set) },
    /** The agent tools beyond vscode.lm.invokeTool, whose confirmation is a modal a test cannot answer without a chat. */
    agentTools: {
      /** Runs the tool's prepareInvocation, as VS Code does before invoking it. */
      prepare: async (name: LanguageModelToolName, input: unknown): Promise<vscode.PreparedToolInvocation | null | undefined> => {
        const source = new vscode.CancellationTokenSource();
        try {
          return await agentTools[name].prepareInvocation?.({ input }, source.token);
        } finally {
          source.dispose();
        }
      },
    },
    /** Links from outside: code-server does not route openExternal of a vscode:// link to the handler, so the tests run it here. */
    links: {
      /** Runs the URI handler as VS Code would for `uri`. */
      handle: (uri: vscode.Uri): Promise<LinkOutcome> => links.run(uri),
      /** The link "Copy Link to Machine" would copy, before asExternalUri. */
      linkFor: (serialNumber: string): vscode.Uri => links.linkFor(serialNumber),
    },
    watch: watchHooks(sources.watch),
    /** Authenticated reads through the cache: for our tests only, never for other extensions. */
    getEvents: (serialNumber: string, options?: GetOptions): Promise<EventsResult> => events.get(serialNumber, options),
  };
}

/** Sign-in as the tests see it: names, state kinds and the non-secret state stored (what was shown, the tests' user reads). */
function sessionHooks(context: TestHookSources['context'], session: ApiSession) {
  return {
    state: (): { readonly kind: SessionState['kind']; readonly environment?: string } => {
      const state = session.state;
      return state.kind === 'signed-out' ? { kind: state.kind } : { kind: state.kind, environment: state.environment.name };
    },
    environmentNames: (): string[] => session.environments().map((env) => env.name),
    /** Global and workspace state (keys and values) as JSON: everything the extension stored outside SecretStorage. */
    storedStateJson: (): string =>
      JSON.stringify({
        globalState: Object.fromEntries(context.globalState.keys().map((key) => [key, context.globalState.get<unknown>(key)])),
        workspaceState: Object.fromEntries(context.workspaceState.keys().map((key) => [key, context.workspaceState.get<unknown>(key)])),
      }),
    /** Whether SecretStorage still holds an entry for this environment id (the values stay inside). */
    hasStoredSecret: async (environmentId: string): Promise<boolean> => (await context.secrets.get(secretKey(environmentId))) !== undefined,
    /** The folder of the extension's log files (context.logUri), to search them. */
    logDirectory: context.logUri.fsPath,
  };
}

/** The Machines view as the user sees it, and its auto-refresh. */
function machinesHooks({ model, view, scan, polling }: Machines) {
  const { provider, treeView } = view;
  const whenIdle = async (): Promise<void> => {
    do {
      await model.whenIdle();
      await scan.whenDone();
    } while (model.workspaceScan.kind === 'scanning');
    await model.whenIdle();
    provider.flush();
  };
  return {
    /** Renders the tree to `depth` levels (1 = groups, 2 = machines, 3 = their children) after letting the loads that rendering starts finish. */
    async render(depth = 3): Promise<RenderedNode[]> {
      // As a user who expanded everything would see it, except that the workspace group is only opened once scanned (it scans when expanded).
      const open = (node: MachinesNode): boolean =>
        !(node.kind === 'group' && node.group === 'workspace' && model.workspaceScan.kind === 'not-scanned');
      const walk = (nodes: MachinesNode[], level: number): void => {
        if (level >= depth) return;
        for (const node of nodes) if (open(node)) walk(provider.getChildren(node), level + 1);
      };
      walk(provider.getChildren(), 1);
      await whenIdle();
      const render = (node: MachinesNode, level: number): RenderedNode => {
        const item = provider.getTreeItem(node);
        const children = level < depth && open(node) ? provider.getChildren(node).map((child) => render(child, level + 1)) : undefined;
        return { ...describeItem(node, item), ...definedOnly({ children }) };
      };
      return provider.getChildren().map((node) => render(node, 1));
    },
    /** Resolves when no machine is loading and no scan is running. */
    whenIdle,
    contextKeys: (): { readonly hasMachines: boolean; readonly filtered: boolean } => ({
      hasMachines: model.hasMachines(),
      filtered: model.filtered,
    }),
    badge: (): { readonly value: number; readonly tooltip: string } | undefined =>
      treeView.badge ? { value: treeView.badge.value, tooltip: treeView.badge.tooltip } : undefined,
    viewDescription: (): string | undefined => treeView.description || undefined,
    viewVisible: (): boolean => treeView.visible,
    autoRefresh: (): PollingSnapshot => polling.snapshot(),
    /** Runs one auto-refresh poll as its timer would (it does nothing while paused or disabled). */
    async pollNow(): Promise<string | undefined> {
      const outcome = await polling.pollNow();
      await model.whenIdle();
      provider.flush();
      return outcome?.kind;
    },
  };
}

/** Watch Onboarding as the user sees it: the watches; and a poll now, as the timers would. */
function watchHooks(watch: Watches) {
  return {
    list: (): readonly WatchInfo[] => watch.list.list(),
    /** Polls every running watch now, as their timers would; resolves when all answered. */
    pollNow: (): Promise<void> => watch.list.pollNow(),
  };
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
    item.collapsibleState === vscode.TreeItemCollapsibleState.Expanded
      ? 'expanded'
      : item.collapsibleState === vscode.TreeItemCollapsibleState.Collapsed
        ? 'collapsed'
        : 'none';
  return {
    node,
    kind: node.kind,
    id: item.id,
    label,
    description: typeof item.description === 'string' ? item.description : undefined,
    ...definedOnly({ accessibilityLabel: item.accessibilityInformation?.label }),
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
