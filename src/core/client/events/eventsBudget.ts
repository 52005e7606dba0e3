// The memory one client's events may hold, shared by every machine it reads: a machine alone may hold
// up to the per-machine cap, many share the total (a fair share each), so a plant of machines costs the
// total and not the cap times their number. A machine over its share keeps its newest events and says
// how many more it was sent.

/** One machine's most, as before there was a shared total: one response is capped at 10 MB, 50 pages could hold 500 MB. */
export const MAX_BYTES_PER_MACHINE = 32 * 1024 * 1024;

/** Every machine of one client (one `oe` run, one sign-in of the extension) together: twice one machine's most. */
export const EVENTS_BUDGET_BYTES = 2 * MAX_BYTES_PER_MACHINE;

/** Machines remembered past this many are forgotten oldest first (a watch of 10,000 machines stays far below). */
const MAX_MACHINES = 100_000;

export interface EventsBudgetOptions {
  readonly totalBytes: number;
  readonly perMachineBytes: number;
}

/**
 * Bytes are the responses' (what a walk of pages reads), so the figure is known before anything is kept. A
 * machine holds what its last answer kept, replaced by its next: the views keep one answer per machine.
 */
export class EventsBudget {
  readonly totalBytes: number;
  readonly perMachineBytes: number;
  readonly #held = new Map<string, number>();
  #heldTotal = 0;

  constructor(options: EventsBudgetOptions) {
    this.totalBytes = options.totalBytes;
    this.perMachineBytes = options.perMachineBytes;
  }

  /** A machine about to be read counts in every share from now on, before its answer holds anything. */
  enter(key: string): void {
    if (this.#held.has(key)) return;
    if (this.#held.size >= MAX_MACHINES) {
      const oldest = this.#held.keys().next();
      if (oldest.done !== true) this.#release(oldest.value);
    }
    this.#held.set(key, 0);
  }

  /** What `key` may hold now: its fair share of the total, no more than the others left, no more than one machine's most. */
  allowance(key: string): number {
    const own = this.#held.get(key) ?? 0;
    const fair = Math.floor(this.totalBytes / Math.max(1, this.#held.size));
    const left = this.totalBytes - (this.#heldTotal - own);
    return Math.max(0, Math.min(this.perMachineBytes, fair, left));
  }

  /** `key`'s new answer holds `bytes`, in place of its last. */
  hold(key: string, bytes: number): void {
    this.#heldTotal += bytes - (this.#held.get(key) ?? 0);
    this.#held.delete(key);
    this.#held.set(key, bytes);
  }

  #release(key: string): void {
    this.#heldTotal -= this.#held.get(key) ?? 0;
    this.#held.delete(key);
  }
}
