// Remembers, per environment and machine, the newest event the user has seen
// (seen = they expanded or selected the machine), so the view's badge can
// count events that arrived since. Pure TypeScript, unit-tested.
//
// A machine seen for the first time sets its baseline at its newest event:
// the history a user finds when adding a machine is not "new". Baselines are
// set as data arrives in the background (a refresh may touch 1,000 machines),
// so they are kept in memory and written with the next thing the user sees,
// or when the extension shuts down — never one state write per machine.
import type { OnboardingEvent } from '../../core/client/model';
import type { KeyValueStore } from './machineLists';

export const SEEN_KEY = 'onboardingEvents.seenEvents';

type SeenByEnvironment = Record<string, Record<string, number>>;

export class SeenTracker {
  private cache: SeenByEnvironment | undefined;
  /** Baselines not yet written. */
  private dirty = false;

  constructor(
    private readonly store: KeyValueStore,
    /** The environment id now, or undefined while signed out. */
    private readonly scope: () => string | undefined,
  ) {}

  private all(): SeenByEnvironment {
    if (!this.cache) {
      const value = this.store.get<unknown>(SEEN_KEY);
      // A copy: the Memento's own object is not ours to change.
      this.cache = typeof value === 'object' && value !== null ? structuredClone(value as SeenByEnvironment) : {};
    }
    return this.cache;
  }

  /** Writes what is only in memory (call on shutdown). */
  flush(): Thenable<void> | undefined {
    if (!this.dirty) return undefined;
    this.dirty = false;
    return this.store.update(SEEN_KEY, structuredClone(this.all()));
  }

  private record(serialNumber: string, epochMs: number): boolean {
    const scope = this.scope();
    if (scope === undefined) return false;
    const known = this.seenUpTo(serialNumber);
    if (known !== undefined && known >= epochMs) return false;
    (this.all()[scope] ??= {})[serialNumber] = epochMs;
    this.dirty = true;
    return true;
  }

  /** Epoch ms of the newest event seen, or undefined when never seen. */
  seenUpTo(serialNumber: string): number | undefined {
    const scope = this.scope();
    if (scope === undefined) return undefined;
    const value = this.all()[scope]?.[serialNumber];
    return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
  }

  /** Records that the user saw everything up to `newest`, and writes it; returns whether anything changed. */
  markSeen(serialNumber: string, newest: OnboardingEvent | undefined): boolean {
    if (newest === undefined || !this.record(serialNumber, newest.time.epochMs)) return false;
    void this.flush();
    return true;
  }

  /** Sets the baseline (in memory) when the machine was never seen; returns whether it did. */
  baseline(serialNumber: string, newest: OnboardingEvent | undefined): boolean {
    if (newest === undefined || this.seenUpTo(serialNumber) !== undefined) return false;
    return this.record(serialNumber, newest.time.epochMs);
  }

  /**
   * Drops what was kept for environments that are gone (signed out, here or in
   * another window): signing out leaves nothing of an environment behind.
   */
  keepOnly(environmentIds: readonly string[]): Thenable<void> | undefined {
    const all = this.all();
    const kept = Object.entries(all).filter(([id]) => environmentIds.includes(id));
    if (kept.length === Object.keys(all).length) return undefined;
    this.cache = Object.fromEntries(kept);
    this.dirty = true;
    return this.flush();
  }

  /** Events newer than the newest one seen (events are newest first, so this stops early). */
  unseen(serialNumber: string, eventsNewestFirst: readonly OnboardingEvent[]): number {
    const seen = this.seenUpTo(serialNumber);
    if (seen === undefined) return 0;
    let count = 0;
    for (const event of eventsNewestFirst) {
      if (event.time.epochMs <= seen) break;
      count++;
    }
    return count;
  }
}
