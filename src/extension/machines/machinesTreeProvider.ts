// The TreeDataProvider of the Machines view. Elements are kept stable per
// (group, serial number) so change events and reveal() find them, and model
// changes are batched: a refresh of 1,000 machines repaints in a few frames,
// not 1,000 times.
import * as vscode from 'vscode';
import { definedOnly } from '../../core/common/definedOnly';
import { Debouncer } from '../../core/common/delays';
import { Emitter } from '../../core/common/emitter';
import { Disposable } from '../../core/common/lifecycle';
import type { MachineChild } from '../../core/domain/events/eventView';
import type { GroupKind, MachinesModel, ModelChange } from './machinesModel';
import { nodeTooltip, renderNode, type RenderContext } from './treeItems';
import type { GroupNode, MachineNode, MachinesNode, PlaceholderNode } from './treeNodes';

const BATCH_MS = 25;

export class MachinesTreeProvider extends Disposable implements vscode.TreeDataProvider<MachinesNode> {
  private readonly emitter = this.register(new Emitter<MachinesNode | MachinesNode[] | undefined>());
  readonly onDidChangeTreeData = this.emitter.event;
  private readonly groupNodes = new Map<GroupKind, GroupNode>();
  private readonly machineNodes = new Map<string, MachineNode>();
  private pending: Set<string> | 'all' | undefined;
  private holds = 0;
  private readonly batch = this.register(
    new Debouncer(
      () => {
        this.flush();
      },
      BATCH_MS,
      'batch',
    ),
  );
  /** Called after each batch is fired: the view updates its badge, description and context keys. */
  onDidFlush: (() => void) | undefined;

  constructor(
    private readonly model: MachinesModel,
    /** Asked to scan when the workspace group is expanded for the first time. */
    private readonly requestScan: () => void,
  ) {
    super();
    this.register(
      model.onDidChange((change) => {
        this.schedule(change);
      }),
    );
  }

  private schedule(change: ModelChange): void {
    if (change === undefined) this.pending = 'all';
    else if (this.pending !== 'all') {
      this.pending ??= new Set();
      for (const serial of change) this.pending.add(serial);
    }
    this.batch.trigger();
  }

  /**
   * Keeps changes back until the returned function is called: VS Code drops the children it cached for a
   * refreshed element, so a refresh that lands while `TreeView.reveal` walks down to a machine makes the reveal
   * fail ("Cannot resolve tree item"). The changes fire, batched, once released.
   */
  hold(): () => void {
    this.holds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.holds === 0 && this.pending !== undefined) this.batch.trigger();
    };
  }

  /** Fires the batched changes now (a reveal may hold them back; the view's chrome is updated either way). */
  flush(): void {
    this.batch.cancel();
    if (this.holds > 0) {
      this.onDidFlush?.();
      return;
    }
    const pending = this.pending;
    this.pending = undefined;
    if (pending === 'all') this.emitter.fire(undefined);
    else if (pending && pending.size > 0) {
      const nodes = [...this.machineNodes.values()].filter((node) => pending.has(node.serialNumber));
      if (nodes.length > 0) this.emitter.fire(nodes);
    }
    this.onDidFlush?.();
  }

  groupNode(group: GroupKind): GroupNode {
    let node = this.groupNodes.get(group);
    if (!node) {
      node = { kind: 'group', id: `group:${group}`, group };
      this.groupNodes.set(group, node);
    }
    return node;
  }

  machineNode(group: GroupKind, serialNumber: string): MachineNode {
    const key = `${group}\u0000${serialNumber}`;
    let node = this.machineNodes.get(key);
    if (!node) {
      node = { kind: 'machine', id: `machine:${group}:${serialNumber}`, group, serialNumber, parent: this.groupNode(group) };
      this.machineNodes.set(key, node);
    }
    return node;
  }

  /** Whether `element` is one of this tree's own machine elements (what a menu passes to a command), not a look-alike object. */
  ownsMachineNode(element: unknown): boolean {
    for (const node of this.machineNodes.values()) if (node === element) return true;
    return false;
  }

  getTreeItem(node: MachinesNode): vscode.TreeItem {
    return renderNode(node, this.renderContext());
  }

  /** VS Code asks on hover: the Markdown tooltips are built here, for the one row a user points at. */
  resolveTreeItem(item: vscode.TreeItem, node: MachinesNode): vscode.TreeItem {
    item.tooltip ??= nodeTooltip(node, this.renderContext());
    return item;
  }

  private renderContext(): RenderContext {
    return { model: this.model, now: Date.now(), locale: vscode.env.language };
  }

  getParent(node: MachinesNode): MachinesNode | undefined {
    return node.kind === 'group' ? undefined : node.parent;
  }

  getChildren(node?: MachinesNode): MachinesNode[] {
    if (node === undefined) return this.model.groups().map((group) => this.groupNode(group));
    if (node.kind === 'group') return this.groupChildren(node);
    if (node.kind === 'machine') return this.machineChildren(node);
    return [];
  }

  private groupChildren(group: GroupNode): MachinesNode[] {
    if (group.group === 'workspace') {
      const scan = this.model.workspaceScan;
      const placeholder = (reason: PlaceholderNode['reason'], detail?: string): PlaceholderNode => ({
        kind: 'placeholder',
        id: `${group.id}/placeholder:${reason}`,
        reason,
        ...definedOnly({ detail }),
        parent: group,
      });
      if (scan.kind === 'not-scanned') {
        this.requestScan();
        return [placeholder('scanning')];
      }
      if (scan.kind === 'scanning') return [placeholder('scanning')];
      if (scan.kind === 'failed') return [placeholder('scan-failed', scan.message)];
      if (scan.found.length === 0) return [placeholder('scan-none')];
    }
    const serials = this.model.machinesIn(group.group);
    this.model.ensureLoadedAll(serials);
    const nodes: MachinesNode[] = serials.map((serial) => this.machineNode(group.group, serial));
    const scan = this.model.workspaceScan;
    if (group.group === 'workspace' && scan.kind === 'scanned' && scan.capped) {
      nodes.push({
        kind: 'placeholder',
        id: `${group.id}/placeholder:scan-capped`,
        reason: 'scan-capped',
        detail: String(scan.filesScanned),
        parent: group,
      });
    }
    if (group.group === 'workspace' && scan.kind === 'scanned' && (scan.tooLarge ?? 0) > 0) {
      nodes.push({
        kind: 'placeholder',
        id: `${group.id}/placeholder:scan-too-large`,
        reason: 'scan-too-large',
        detail: String(scan.tooLarge),
        parent: group,
      });
    }
    if (group.group === 'workspace' && scan.kind === 'scanned' && (scan.filesCut ?? 0) > 0) {
      nodes.push({
        kind: 'placeholder',
        id: `${group.id}/placeholder:scan-cut`,
        reason: 'scan-cut',
        detail: String(scan.filesCut),
        parent: group,
      });
    }
    return nodes;
  }

  private machineChildren(machine: MachineNode): MachinesNode[] {
    this.model.ensureLoaded(machine.serialNumber);
    return this.model
      .children(machine.serialNumber, (message, ...args) => vscode.l10n.t(message, ...args))
      .map((child) => this.childNode(machine, child));
  }

  private childNode(machine: MachineNode, child: MachineChild): MachinesNode {
    const serialNumber = machine.serialNumber;
    switch (child.kind) {
      case 'error':
        return {
          kind: 'error',
          id: `${machine.id}/error`,
          serialNumber,
          message: child.message,
          errorKind: child.errorKind,
          parent: machine,
        };
      case 'event':
        return { kind: 'event', id: `${machine.id}/event:${child.event.key}`, serialNumber, event: child.event, parent: machine };
      case 'load-more':
        return {
          kind: 'load-more',
          id: `${machine.id}/more`,
          serialNumber,
          shown: child.shown,
          remaining: child.remaining,
          parent: machine,
        };
      case 'placeholder':
        return { kind: 'placeholder', id: `${machine.id}/placeholder:${child.reason}`, reason: child.reason, parent: machine };
    }
  }
}
