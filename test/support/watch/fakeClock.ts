// A clock for the watch list's schedule: time moves only when a test (or the
// bench) says so, and each due timer's work (an awaited poll, a store write,
// a claim on disk) is let finish before the next one fires.
import type { WatchClock } from '../../../src/extension/watch/watchList';

interface Timer {
  readonly id: number;
  readonly at: number;
  readonly run: () => void;
}

/** Lets pending promise chains (and the file system calls of a claim, which run on libuv's pool) finish. */
export async function drain(): Promise<void> {
  for (let i = 0; i < 6; i++) {
    await new Promise((resolve) => setTimeout(resolve, 1));
    for (let j = 0; j < 5; j++) await new Promise((resolve) => setImmediate(resolve));
  }
}

export class FakeClock implements WatchClock {
  private timers: Timer[] = [];
  private nextId = 1;

  constructor(private current: number) {}

  now(): number {
    return this.current;
  }

  setTimeout(run: () => void, ms: number): unknown {
    const timer = { id: this.nextId++, at: this.current + Math.max(0, ms), run };
    this.timers.push(timer);
    return timer.id;
  }

  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((timer) => timer.id !== handle);
  }

  /** Timers still waiting, soonest first (their due time minus now). */
  pending(): number[] {
    return this.timers.map((timer) => timer.at - this.current).sort((a, b) => a - b);
  }

  /** Moves time forward by `ms`, firing each timer due on the way at its own time, in order. */
  async advance(ms: number, settle: () => Promise<void> = drain): Promise<void> {
    const end = this.current + ms;
    for (;;) {
      const due = this.timers.filter((timer) => timer.at <= end).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (due === undefined) break;
      this.timers = this.timers.filter((timer) => timer !== due);
      this.current = Math.max(this.current, due.at);
      due.run();
      await settle();
    }
    this.current = end;
  }
}
