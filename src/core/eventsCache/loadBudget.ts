// The window's one budget of loads nobody asked for: what the inline status,
// the Problems panel and every board panel load because a serial number came
// into view, not because the user hovered, looked it up or pressed "Load".
// One per window, owned by the events cache every view reads through (so a
// view gets it with the cache and cannot start a fresh one): closing a board
// and opening another, or a second view of the same serial numbers, spends
// from the same budget instead of starting its own.

/** Requests sent without asking per budget period: four screens of a list, then the user decides. */
export const AUTOMATIC_BUDGET = 200;
export const AUTOMATIC_BUDGET_PERIOD_MS = 10 * 60_000;

export interface LoadBudgetOptions {
  readonly now?: () => number;
  /** Requests per period (AUTOMATIC_BUDGET unless a test sets a smaller one). */
  readonly budget?: number;
  readonly periodMs?: number;
}

export class LoadBudget {
  private readonly now: () => number;
  private readonly budget: number;
  private readonly periodMs: number;
  private start = Number.NEGATIVE_INFINITY;
  private spent = 0;

  constructor(options: LoadBudgetOptions = {}) {
    this.now = options.now ?? Date.now;
    this.budget = Math.max(0, options.budget ?? AUTOMATIC_BUDGET);
    this.periodMs = Math.max(1, options.periodMs ?? AUTOMATIC_BUDGET_PERIOD_MS);
  }

  /** One request, when some is left in this period. */
  spend(): boolean {
    if (this.now() - this.start >= this.periodMs) this.restart();
    if (this.spent >= this.budget) return false;
    this.spent++;
    return true;
  }

  /** The user said to load what a view holds: the period starts again, for every view. */
  restart(): void {
    this.start = this.now();
    this.spent = 0;
  }
}
