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
}
