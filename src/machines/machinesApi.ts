/** What the Machines tree offers the hovers, links and the look-up. */
export interface MachinesApi {
  /** Shows the machine in the sidebar (adding it to "Recent" when it is not listed) and selects it. */
  reveal(serialNumber: string): Promise<void>;
  /** Pins the machine (per the tree.pinnedScope setting). */
  pin(serialNumber: string): Promise<void>;
  /** Records a look-up in the "Recent" group and the look-up history. */
  addRecent(serialNumber: string): void;
  /** Serial numbers the user pinned, and recent look-ups, newest first. */
  pinned(): readonly string[];
  recent(): readonly string[];
  clearRecent(): void;
}
