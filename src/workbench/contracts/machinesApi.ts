/** What the Machines tree offers the hovers, links and the look-up. */
export interface MachinesApi {
  /** Shows the machine in the sidebar (adding it to "Recent" when it is not listed) and selects it. */
  reveal(serialNumber: string): Promise<void>;
  /**
   * For other extensions (the exported API): selects the machine only when it
   * is already listed (pinned, recent or found in the workspace), without
   * loading or expanding it — no request is made on their behalf. False when
   * it is not listed.
   */
  revealListed?(serialNumber: string): Promise<boolean>;
  /** Pins the machine (per the tree.pinnedScope setting). */
  pin(serialNumber: string): Promise<void>;
  /** Records a look-up in the "Recent" group and the look-up history. */
  addRecent(serialNumber: string): void;
  /** Serial numbers the user pinned, and recent look-ups, newest first. */
  pinned(): readonly string[];
  recent(): readonly string[];
  /** Serial numbers the workspace scan found (empty until it ran); optional for stand-ins. */
  workspace?(): readonly string[];
  clearRecent(): void;
  /**
   * Read-only view of what the tree shows, for integration tests (which see
   * the extension's exports, not its internals). The tree always builds it;
   * publicApi.ts exports it only under the extension's tests. Optional so
   * that stand-ins of this interface need not provide it. Holds no credentials.
   */
  readonly inspector?: MachinesTreeInspector;
}

/** A TreeItem as the Machines view shows it. */
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

export interface MachinesTreeInspector {
  /**
   * Renders the tree to `depth` levels (1 = groups, 2 = machines, 3 = their
   * children) after letting the loads that rendering starts finish.
   */
  render(depth?: number): Promise<RenderedNode[]>;
  /** Resolves when no machine is loading and no scan is running. */
  whenIdle(): Promise<void>;
  contextKeys(): { readonly hasMachines: boolean; readonly filtered: boolean };
  badge(): { readonly value: number; readonly tooltip: string } | undefined;
  viewDescription(): string | undefined;
  viewVisible(): boolean;
  autoRefresh(): {
    readonly state: string;
    readonly nextPollAt: number | undefined;
    readonly consecutiveFailures: number;
    readonly active: boolean;
  };
  /** Runs one auto-refresh poll as its timer would (it does nothing while paused or disabled). */
  pollNow(): Promise<string | undefined>;
  /**
   * Makes auto-refresh read the window as focused (true) or not (false)
   * instead of asking the OS, whose focus a headless run does not control;
   * undefined goes back to the real window state.
   */
  setWindowFocused(focused: boolean | undefined): void;
}
