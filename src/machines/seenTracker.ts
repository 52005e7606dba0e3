// Remembers, per environment and machine, the newest event the user has seen
// (seen = they expanded or selected the machine), so the view's badge can
// count events that arrived since. Pure TypeScript, unit-tested.
//
// A machine seen for the first time sets its baseline at its newest event:
// the history a user finds when adding a machine is not "new".
import type { OnboardingEvent } from '../core/model';
import type { KeyValueStore } from './machineLists';

export const SEEN_KEY = 'onboardingEvents.seenEvents';

type SeenByEnvironment = Record<string, Record<string, number>>;

export class SeenTracker {
  /** Read once, written back in one update per burst: a refresh of 1,000 machines must not write state 1,000 times. */
  private cache: SeenByEnvironment | undefined;
  private writeScheduled = false;

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

  private persist(): void {
    if (this.writeScheduled) return;
    this.writeScheduled = true;
    setTimeout(() => {
      this.writeScheduled = false;
      void this.store.update(SEEN_KEY, this.all());
    }, 0);
  }

  /** Epoch ms of the newest event seen, or undefined when never seen. */
  seenUpTo(serialNumber: string): number | undefined {
    const scope = this.scope();
    if (scope === undefined) return undefined;
    const value = this.all()[scope]?.[serialNumber];
    return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
  }

  /** Records that the user saw everything up to `newest`; returns whether anything changed. */
  markSeen(serialNumber: string, newest: OnboardingEvent | undefined): boolean {
    const scope = this.scope();
    if (scope === undefined || newest === undefined) return false;
    const known = this.seenUpTo(serialNumber);
    if (known !== undefined && known >= newest.time.epochMs) return false;
    const all = this.all();
    (all[scope] ??= {})[serialNumber] = newest.time.epochMs;
    this.persist();
    return true;
  }

  /** Sets the baseline when the machine was never seen; returns whether it did. */
  baseline(serialNumber: string, newest: OnboardingEvent | undefined): boolean {
    if (newest === undefined || this.seenUpTo(serialNumber) !== undefined) return false;
    return this.markSeen(serialNumber, newest);
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
