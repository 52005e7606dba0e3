// The machines the tree lists, since the API has no "list machines"
// operation: the ones the user pinned and the ones recently looked up. Pure
// TypeScript over a Memento-shaped store, so it is unit-tested under mocha.
import { Emitter, type Event } from '../../core/common/emitter';
import { Disposable } from '../../core/common/lifecycle';

/** The slice of vscode.Memento used here. */
export interface KeyValueStore {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the shape of vscode.Memento.get
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

export const PINNED_KEY = 'onboardingEvents.pinnedMachines';
export const RECENT_KEY = 'onboardingEvents.recentMachines';
export const DEFAULT_MAX_RECENT = 20;

export interface MachineListsOptions {
  /** Where pins live now: workspace or global state, per the tree.pinnedScope setting (read on each call). */
  readonly pinnedStore: () => KeyValueStore;
  readonly recentStore: KeyValueStore;
  readonly maxRecent?: number;
}

function readList(store: KeyValueStore, key: string): string[] {
  const value = store.get<unknown>(key);
  // Stored state may come from another version: keep only strings, once each.
  if (!Array.isArray(value)) return [];
  return [...new Set(value.filter((item): item is string => typeof item === 'string' && item !== ''))];
}

export class MachineLists extends Disposable {
  private readonly changed = this.register(new Emitter<void>());
  readonly onDidChange: Event<void> = this.changed.event;

  constructor(private readonly options: MachineListsOptions) {
    super();
  }

  /** Pinned serial numbers, newest pin first. */
  pinned(): string[] {
    return readList(this.options.pinnedStore(), PINNED_KEY);
  }

  isPinned(serialNumber: string): boolean {
    return this.pinned().includes(serialNumber);
  }

  /** Recent look-ups, newest first. */
  recent(): string[] {
    return readList(this.options.recentStore, RECENT_KEY);
  }

  /** Returns false when it was already pinned. */
  async pin(serialNumber: string): Promise<boolean> {
    const pinned = this.pinned();
    if (pinned.includes(serialNumber)) return false;
    await this.write(this.options.pinnedStore(), PINNED_KEY, [serialNumber, ...pinned]);
    return true;
  }

  /** Returns false when it was not pinned. */
  async unpin(serialNumber: string): Promise<boolean> {
    const pinned = this.pinned();
    if (!pinned.includes(serialNumber)) return false;
    await this.write(
      this.options.pinnedStore(),
      PINNED_KEY,
      pinned.filter((serial) => serial !== serialNumber),
    );
    return true;
  }

  /** Moves the serial number to the front of the recent list, dropping the oldest beyond the cap. */
  async addRecent(serialNumber: string): Promise<void> {
    const recent = this.recent();
    if (recent[0] === serialNumber) return;
    const max = this.options.maxRecent ?? DEFAULT_MAX_RECENT;
    await this.write(
      this.options.recentStore,
      RECENT_KEY,
      [serialNumber, ...recent.filter((serial) => serial !== serialNumber)].slice(0, max),
    );
  }

  async removeRecent(serialNumber: string): Promise<boolean> {
    const recent = this.recent();
    if (!recent.includes(serialNumber)) return false;
    await this.write(
      this.options.recentStore,
      RECENT_KEY,
      recent.filter((serial) => serial !== serialNumber),
    );
    return true;
  }

  async clearRecent(): Promise<void> {
    await this.write(this.options.recentStore, RECENT_KEY, []);
  }

  /**
   * When the pinned scope changes, the pins of the old scope are copied into
   * the new one (in front of what it already had), so switching the setting
   * never makes the user's machines vanish from the tree.
   */
  async carryPinsOver(from: KeyValueStore, to: KeyValueStore): Promise<void> {
    const carried = readList(from, PINNED_KEY);
    const existing = readList(to, PINNED_KEY);
    const merged = [...new Set([...carried, ...existing])];
    if (merged.length !== existing.length) await this.write(to, PINNED_KEY, merged);
    else this.fire();
  }

  /**
   * Stores a list and says so at once: a Memento answers reads with the new value from the call on, and a
   * listener told only when the write has landed (much later under load) shows a list older than the one read.
   */
  private async write(store: KeyValueStore, key: string, value: string[]): Promise<void> {
    const written = store.update(key, value);
    this.fire();
    await written;
  }

  private fire(): void {
    this.changed.fire();
  }
}
