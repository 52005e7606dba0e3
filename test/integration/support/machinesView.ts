// The Machines view and the machine links, observed from the test side. The
// product and these tests share one `vscode` API object (see user.ts), so
// wrapping `createTreeView`, `registerUriHandler` and `setContext` here keeps
// the view, the link handler and the context keys the product hands VS Code.
// A test reads the tree as prsTree.test.ts of vscode-pull-request-github
// does: getChildren() and getTreeItem() of the real provider.
//
// Installed once per extension host, before the extension activates (each tier's index.ts).
import * as vscode from 'vscode';
import { CONTEXT_KEYS, VIEWS } from '../../../src/extension/workbench/constants';

/** A TreeItem of the Machines view as plain data: what the user sees of it, and what a menu would pass. */
export interface RenderedNode {
  /** The tree element itself: pass it to a command as a menu would. */
  readonly node: unknown;
  readonly kind: string;
  readonly id: string | undefined;
  readonly label: string;
  readonly description: string | undefined;
  /** Tooltip text as the hover shows it (the Markdown source without its escapes). */
  readonly tooltip: string | undefined;
  /** Whether the tooltip came only on hover (resolveTreeItem), not with the row as it is drawn (getTreeItem). */
  readonly tooltipOnHover: boolean;
  /** The Markdown tooltip exactly as handed to VS Code, for checks of its escaping and trust. */
  readonly tooltipMarkdown?: {
    readonly value: string;
    readonly isTrusted: boolean | { readonly enabledCommands: readonly string[] };
    readonly supportHtml: boolean;
    readonly supportThemeIcons: boolean;
  };
  readonly contextValue: string | undefined;
  readonly accessibilityLabel?: string;
  /** ThemeIcon id and colour id, e.g. 'vm-active' and 'testing.iconPassed'. */
  readonly icon: string | undefined;
  readonly iconColor: string | undefined;
  readonly collapsible: 'none' | 'collapsed' | 'expanded';
  readonly command: { readonly command: string; readonly arguments: readonly unknown[] } | undefined;
  readonly children?: readonly RenderedNode[];
}

type Provider = vscode.TreeDataProvider<unknown>;

interface Installed {
  view: { readonly treeView: vscode.TreeView<unknown>; readonly provider: Provider } | undefined;
  uriHandler: vscode.UriHandler | undefined;
  readonly contextKeys: Map<string, unknown>;
}

let installed: Installed | undefined;

/** How long render() waits for the loads and the scan it started; under the suites' 20 s timeout. */
const SETTLE_MS = 15_000;
/** Longer than the provider's batch of changes (25 ms): a render with no change for this long is what the view shows. */
const QUIET_MS = 80;

/** Wraps createTreeView, registerUriHandler and setContext; idempotent. */
export function installMachinesView(): void {
  if (installed) return;
  const state: Installed = { view: undefined, uriHandler: undefined, contextKeys: new Map() };
  installed = state;
  const window = vscode.window as { -readonly [K in keyof typeof vscode.window]: (typeof vscode.window)[K] };
  const createTreeView = window.createTreeView.bind(vscode.window);
  window.createTreeView = <T>(viewId: string, options: vscode.TreeViewOptions<T>): vscode.TreeView<T> => {
    const treeView = createTreeView(viewId, options);
    if (viewId === VIEWS.machines) state.view = { treeView: treeView, provider: options.treeDataProvider };
    return treeView;
  };
  const registerUriHandler = window.registerUriHandler.bind(vscode.window);
  window.registerUriHandler = (handler: vscode.UriHandler): vscode.Disposable => {
    state.uriHandler = handler;
    return registerUriHandler(handler);
  };
  const commands = vscode.commands;
  const executeCommand = commands.executeCommand.bind(vscode.commands);
  commands.executeCommand = <T>(command: string, ...rest: unknown[]): Thenable<T> => {
    if (command === 'setContext' && typeof rest[0] === 'string') state.contextKeys.set(rest[0], rest[1]);
    return executeCommand<T>(command, ...rest);
  };
}

/** Whether the extension's view and link handler were seen created: not when it activated before installMachinesView(). */
export function machinesViewSeen(): boolean {
  return installed?.view !== undefined && installed.uriHandler !== undefined;
}

function ours(): Installed {
  if (!installed) throw new Error('installMachinesView() runs before the extension activates (the tier’s index.ts)');
  return installed;
}

/** Runs the extension's URI handler as VS Code does for a link it routes to us (code-server does not route openExternal). */
export async function openLink(uri: vscode.Uri): Promise<void> {
  const handler = ours().uriHandler;
  if (handler === undefined) throw new Error('the extension registered no URI handler');
  await handler.handleUri(uri);
}

/** The link a web window's callback page (asExternalUri made it one) hands back to VS Code; any other link as it is. */
export function routedLink(copied: string): vscode.Uri {
  const url = new URL(copied);
  if (!url.pathname.endsWith('/callback')) return vscode.Uri.parse(copied);
  const query = url.searchParams;
  return vscode.Uri.from({
    scheme: query.get('vscode-scheme') ?? '',
    authority: query.get('vscode-authority') ?? '',
    path: query.get('vscode-path') ?? '',
    query: query.get('vscode-query') ?? '',
  });
}

/** A link to the machine as "Copy Link to Machine" writes it, with `query` appended. */
export function machineLink(serialNumber: string, query = ''): vscode.Uri {
  return vscode.Uri.parse(
    `${vscode.env.uriScheme}://onboarding-events.onboarding-events/machine?serial=${encodeURIComponent(serialNumber)}${query}`,
  );
}

/** The Machines view as the user sees it. */
export class MachinesViewReader {
  private get view(): NonNullable<Installed['view']> {
    const view = ours().view;
    if (view === undefined) throw new Error('the extension created no Machines view');
    return view;
  }

  /**
   * Renders the tree to `depth` levels (1 = groups, 2 = machines, 3 = their children) as a user who expanded
   * everything would see it once nothing shows a spinner (the workspace group is opened only once scanned).
   */
  async render(depth = 3): Promise<RenderedNode[]> {
    const { provider } = this.view;
    const deadline = Date.now() + SETTLE_MS;
    for (;;) {
      const changed = nextChange(provider);
      const rendered = await renderLevel(provider, undefined, 1, depth);
      const busy = rendered.some(spinning);
      if (Date.now() > deadline) {
        changed.dispose();
        if (busy) throw new Error(`the Machines view still shows a spinner after ${SETTLE_MS} ms`);
        return rendered;
      }
      // Idle and no change within the batch: this is what the view shows, badge and context keys included.
      if (!(await changed.within(busy ? deadline - Date.now() : QUIET_MS)) && !busy) return rendered;
    }
  }

  /** Renders until `holds` says the tree shows what a test waits for (a refresh of a row with data shows no spinner). */
  async renderUntil(holds: (rendered: RenderedNode[]) => boolean, what: string, depth = 3): Promise<RenderedNode[]> {
    const deadline = Date.now() + SETTLE_MS;
    for (;;) {
      const changed = nextChange(this.view.provider);
      const rendered = await this.render(depth);
      if (holds(rendered)) {
        changed.dispose();
        return rendered;
      }
      if (Date.now() > deadline) {
        changed.dispose();
        throw new Error(
          `the Machines view did not show ${what} within ${SETTLE_MS} ms: ${JSON.stringify(rendered.map((node) => node.label))}`,
        );
      }
      await changed.within(deadline - Date.now());
    }
  }

  contextKeys(): { readonly hasMachines: boolean; readonly filtered: boolean } {
    const keys = ours().contextKeys;
    return { hasMachines: keys.get(CONTEXT_KEYS.hasMachines) === true, filtered: keys.get(CONTEXT_KEYS.filtered) === true };
  }

  badge(): { readonly value: number; readonly tooltip: string } | undefined {
    const { badge } = this.view.treeView;
    return badge ? { value: badge.value, tooltip: badge.tooltip } : undefined;
  }

  /** The serial numbers of the selected rows (a reveal selects its machine). */
  selected(): string[] {
    return this.view.treeView.selection.flatMap((node) => {
      const serial = (node as { readonly serialNumber?: unknown }).serialNumber;
      return typeof serial === 'string' ? [serial] : [];
    });
  }

  viewDescription(): string | undefined {
    return this.view.treeView.description || undefined;
  }

  viewVisible(): boolean {
    return this.view.treeView.visible;
  }
}

/** The provider's next change event, awaited for at most a given time. */
function nextChange(provider: Provider): { within(ms: number): Promise<boolean>; dispose(): void } {
  let fired = false;
  let wake: (() => void) | undefined;
  const listener = provider.onDidChangeTreeData?.(() => {
    fired = true;
    wake?.();
  });
  return {
    within: async (ms) => {
      if (!fired)
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, ms);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      listener?.dispose();
      return fired;
    },
    dispose: () => {
      listener?.dispose();
    },
  };
}

function spinning(node: RenderedNode): boolean {
  return node.icon === 'loading~spin' || (node.children ?? []).some(spinning);
}

async function renderLevel(provider: Provider, parent: unknown, level: number, depth: number): Promise<RenderedNode[]> {
  const nodes = (await provider.getChildren(parent)) ?? [];
  return Promise.all(
    nodes.map(async (node) => {
      const rendered = await describeItem(node, await provider.getTreeItem(node), provider);
      // The workspace group scans when expanded: a user expands it on purpose, so it is opened only once scanned.
      const notScanned =
        rendered.contextValue === 'group.workspace' && rendered.tooltip === undefined && rendered.description !== undefined;
      const open = level < depth && !notScanned;
      return open ? { ...rendered, children: await renderLevel(provider, node, level + 1, depth) } : rendered;
    }),
  );
}

/** The row as drawn, then hovered: VS Code asks resolveTreeItem for a tooltip the row was drawn without. */
async function describeItem(node: unknown, drawn: vscode.TreeItem, provider: Provider): Promise<RenderedNode> {
  const tooltipOnHover = drawn.tooltip === undefined && provider.resolveTreeItem !== undefined;
  let item = drawn;
  if (tooltipOnHover) {
    const hover = new vscode.CancellationTokenSource();
    item = (await provider.resolveTreeItem?.(drawn, node, hover.token)) ?? drawn;
    hover.dispose();
  }
  const label = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
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
    kind: (node as { readonly kind?: string }).kind ?? '',
    id: item.id,
    label,
    description: typeof item.description === 'string' ? item.description : undefined,
    ...(item.accessibilityInformation === undefined ? {} : { accessibilityLabel: item.accessibilityInformation.label }),
    tooltip,
    tooltipOnHover: tooltipOnHover && item.tooltip !== undefined,
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
