// A read-only view of what the Machines view shows, for the integration
// tests (which see the extension's exports, not its internals). It is built
// always, from closures over the view's parts; publicApi.ts exports it only
// when the extension runs under its tests. It holds no credentials.
import * as vscode from 'vscode';
import type { MachinesTreeInspector, RenderedNode } from '../workbench/contracts/machinesApi';
import type { MachinesModel } from './machinesModel';
import type { MachinesView } from './machinesView';
import type { PinnedPolling } from './pinnedPolling';
import type { ScanRunner } from './scanRunner';
import type { MachinesNode } from './treeNodes';

export interface InspectedParts {
  readonly model: MachinesModel;
  readonly view: MachinesView;
  readonly scan: ScanRunner;
  readonly polling: PinnedPolling;
}

export function createTreeInspector({ model, view, scan, polling }: InspectedParts): MachinesTreeInspector {
  const { provider, treeView } = view;
  const inspector: MachinesTreeInspector = {
    async render(depth = 3) {
      // As a user who expanded everything would see it, except that the workspace group is only opened once scanned (it scans when expanded).
      const open = (node: MachinesNode): boolean =>
        !(node.kind === 'group' && node.group === 'workspace' && model.workspaceScan.kind === 'not-scanned');
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
        await scan.whenDone();
      } while (model.workspaceScan.kind === 'scanning');
      await model.whenIdle();
      provider.flush();
    },
    contextKeys: () => ({ hasMachines: model.hasMachines(), filtered: model.filtered }),
    badge: () => (treeView.badge ? { value: treeView.badge.value, tooltip: treeView.badge.tooltip } : undefined),
    viewDescription: () => treeView.description || undefined,
    viewVisible: () => treeView.visible,
    autoRefresh: () => polling.snapshot(),
    async pollNow() {
      const outcome = await polling.pollNow();
      await model.whenIdle();
      provider.flush();
      return outcome?.kind;
    },
    setWindowFocused: (focused) => {
      polling.overrideWindowFocus(focused);
    },
  };
  return inspector;
}

/** A TreeItem as plain data: what the user sees of it, and what a menu would pass. */
export function describeItem(node: MachinesNode, item: vscode.TreeItem): RenderedNode {
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
    ...(item.accessibilityInformation ? { accessibilityLabel: item.accessibilityInformation.label } : {}),
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
