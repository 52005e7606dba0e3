// The Machines view itself: the tree view over the provider, what looking at
// a machine means (expanding or selecting it marks its events seen), the
// chrome around the tree, and revealing a machine for the hovers, links and
// look-up.
import * as vscode from 'vscode';
import { Disposable } from '../../core/common/lifecycle';
import { formatShort } from '../../core/common/time';
import { normalizeSerialNumber } from '../../core/client/serialNumber';
import type { EventFilter } from '../../core/domain/events/eventFilter';
import { CONTEXT_KEYS, VIEWS } from '../workbench/constants';
import { setContext } from '../workbench/commands';
import type { MachineLists } from './machineLists';
import type { MachinesModel } from './machinesModel';
import { MachinesTreeProvider } from './machinesTreeProvider';
import type { MachinesNode } from './treeNodes';

/** The longest a reveal holds the tree's changes and the reveals after it. */
const REVEAL_HOLD_MS = 5_000;

/** The filter as the view's description and the log show it. */
export function describeFilter(filter: EventFilter): string {
  const parts: string[] = [];
  if (filter.types && filter.types.length > 0) parts.push(vscode.l10n.t('type: {0}', filter.types.join(', ')));
  if (filter.text !== undefined) parts.push(vscode.l10n.t('text: “{0}”', filter.text));
  if (filter.sinceMs !== undefined)
    parts.push(vscode.l10n.t('since {0}', formatShort(filter.sinceMs, Date.now(), vscode.env.language) ?? String(filter.sinceMs)));
  return vscode.l10n.t('Filtered: {0}', parts.join(' · '));
}

export interface MachinesViewDeps {
  readonly model: MachinesModel;
  readonly lists: MachineLists;
  readonly signedIn: () => boolean;
  /** The workspace group was expanded and nothing was scanned yet. */
  readonly requestScan: () => void;
  /** The workspace group was collapsed while its scan runs. */
  readonly cancelScan: () => void;
}

export class MachinesView extends Disposable {
  readonly provider: MachinesTreeProvider;
  readonly treeView: vscode.TreeView<MachinesNode>;
  /** The rows selected at the last selection event, by id. */
  private selectedIds: ReadonlySet<string> = new Set();

  constructor(private readonly deps: MachinesViewDeps) {
    super();
    const { model } = deps;
    this.provider = this.register(
      new MachinesTreeProvider(model, () => {
        if (model.workspaceScan.kind === 'not-scanned') deps.requestScan();
      }),
    );
    this.treeView = this.register(
      vscode.window.createTreeView<MachinesNode>(VIEWS.machines, { treeDataProvider: this.provider, showCollapseAll: true }),
    );
    this.provider.onDidFlush = () => {
      this.updateChrome();
    };
    this.updateChrome();
    // Not a batch later: the badge counts a watch's outcome in the same turn as its status bar and notification.
    this.register(
      model.onDidChangeDecorations(() => {
        this.updateChrome();
      }),
    );
    this.register(
      this.treeView.onDidExpandElement((event) => {
        this.markSeen(event.element);
      }),
    );
    this.register(
      this.treeView.onDidChangeSelection((event) => {
        // Only rows newly selected: a refresh re-announces the same selection, and a row that stayed
        // selected while its watch ended has not been looked at since.
        const before = this.selectedIds;
        this.selectedIds = new Set(event.selection.map((node) => node.id));
        event.selection.forEach((node) => {
          if (!before.has(node.id)) this.markSeen(node);
        });
      }),
    );
    this.register(
      this.treeView.onDidCollapseElement((event) => {
        if (event.element.kind === 'group' && event.element.group === 'workspace' && model.workspaceScan.kind === 'scanning')
          deps.cancelScan();
      }),
    );
  }

  /** The serial numbers of the selected rows, without repeats: a group stands for its machines, an event for its machine. */
  selectedSerials(): string[] {
    const serials = this.treeView.selection.flatMap((node) =>
      node.kind === 'group' ? this.deps.model.machinesIn(node.group) : 'serialNumber' in node ? [node.serialNumber] : [],
    );
    return [...new Set(serials)];
  }

  /**
   * One reveal at a time, each with the tree as it will stay while VS Code walks to the machine: the pending
   * changes are fired first, and later ones are held until the reveal is done (see MachinesTreeProvider.hold).
   */
  private revealing: Promise<unknown> = Promise.resolve();

  private async oneAtATime<T>(reveal: () => Thenable<T>): Promise<T> {
    const run = this.revealing.then(async () => {
      this.provider.flush();
      const release = this.provider.hold();
      // A reveal that never settles (a view VS Code cannot show) must not hold the tree or the next reveal for ever.
      const bound = setTimeout(release, REVEAL_HOLD_MS);
      try {
        return await reveal();
      } finally {
        clearTimeout(bound);
        release();
      }
    });
    this.revealing = Promise.race([run, new Promise((resolve) => setTimeout(resolve, REVEAL_HOLD_MS))]).catch(() => undefined);
    return run;
  }

  /** Shows the machine (adding it to Recent when it is not listed), selected and expanded. */
  async reveal(serialInput: string): Promise<void> {
    const { model, lists } = this.deps;
    const serial = normalizeSerialNumber(serialInput);
    if (!lists.isPinned(serial) && !lists.recent().includes(serial)) await lists.addRecent(serial);
    if (!this.deps.signedIn()) {
      // The tree is empty while signed out: show the view with its Sign In welcome instead.
      await vscode.commands.executeCommand(`${VIEWS.machines}.focus`);
      return;
    }
    model.ensureLoaded(serial);
    await this.oneAtATime(() =>
      this.treeView.reveal(this.provider.machineNode(lists.isPinned(serial) ? 'pinned' : 'recent', serial), {
        select: true,
        focus: true,
        expand: true,
      }),
    );
    model.markSeen(serial);
  }

  /** Selects a listed machine without loading or expanding it; false when it is not listed or signed out. */
  async revealListed(serialInput: string): Promise<boolean> {
    const { model, lists } = this.deps;
    const serial = normalizeSerialNumber(serialInput);
    const group = lists.isPinned(serial)
      ? 'pinned'
      : lists.recent().includes(serial)
        ? 'recent'
        : model.machinesIn('workspace').includes(serial)
          ? 'workspace'
          : undefined;
    if (group === undefined || !this.deps.signedIn()) return false;
    await this.oneAtATime(() =>
      this.treeView.reveal(this.provider.machineNode(group, serial), { select: true, focus: false, expand: false }),
    );
    model.markSeen(serial);
    return true;
  }

  /**
   * What the view shows around its tree: the context keys its menus and
   * welcome views read, the filter as description and message, and the badge
   * counting events the user has not seen. Called after each batch of tree
   * changes; a value that did not change is not sent again.
   */
  private updateChrome(): void {
    const { treeView: view } = this;
    const { model } = this.deps;
    const signedIn = this.deps.signedIn();
    setContext(CONTEXT_KEYS.hasMachines, model.hasMachines());
    setContext(CONTEXT_KEYS.filtered, model.filtered);
    const description = model.filtered ? describeFilter(model.filter) : '';
    if (view.description !== description) view.description = description;
    // The description is hidden when the view is the container's only one: say it above the tree as well.
    const message = model.filtered && signedIn ? description : '';
    if (view.message !== message) view.message = message;
    const unseen = signedIn ? model.unseenTotal() : 0;
    const outcomes = signedIn ? model.unseenOutcomes() : 0;
    const total = unseen + outcomes;
    if (total === 0) {
      if (view.badge !== undefined) view.badge = undefined;
      return;
    }
    const tooltip =
      outcomes === 0
        ? vscode.l10n.t('{0} onboarding events you have not seen yet', unseen)
        : unseen === 0
          ? vscode.l10n.t('{0} watched machines finished onboarding; you have not looked at them yet', outcomes)
          : vscode.l10n.t('{0} watched machines finished onboarding and {1} onboarding events you have not seen yet', outcomes, unseen);
    // The tooltip too: the same total can change its parts (new events looked at while outcomes arrive).
    if (view.badge?.value !== total || view.badge.tooltip !== tooltip) view.badge = { value: total, tooltip };
  }

  private markSeen(node: MachinesNode | undefined): void {
    if (!node || node.kind === 'group' || node.kind === 'placeholder') return;
    this.deps.model.markSeen(node.serialNumber);
  }
}
