// The few events of a machine a lesson is made of (lineHistory.ts: its outcome, the events before it
// and its first event; or, in progress, its newest), picked from its events read one at a time, so a
// stored copy of any length is learned from in a fixed memory. Learning from the picked events
// teaches exactly what learning from all of them does.
import type { OnboardingEvent } from '../../client/model';
import { eventState, type EventStateRules } from '../events/eventState';
import { MAX_EVENTS_PER_MACHINE } from './lineHistory';

/** An event with its place in the copy: among equal times, the one later in the copy happened first (lineHistory's oldestFirst). */
interface Placed {
  readonly event: OnboardingEvent;
  readonly index: number;
}

/** Whether `a` happened before `b`. */
function earlier(a: Placed, b: Placed): boolean {
  return a.event.time.epochMs < b.event.time.epochMs || (a.event.time.epochMs === b.event.time.epochMs && a.index > b.index);
}

/** The MAX_EVENTS_PER_MACHINE latest events offered, newest first. */
class Latest {
  readonly kept: Placed[] = [];

  offer(placed: Placed): void {
    const { kept } = this;
    const last = kept[kept.length - 1];
    if (kept.length >= MAX_EVENTS_PER_MACHINE && last !== undefined && !earlier(last, placed)) return;
    let at = kept.length;
    while (at > 0 && earlier(kept[at - 1] as Placed, placed)) at--;
    kept.splice(at, 0, placed);
    if (kept.length > MAX_EVENTS_PER_MACHINE) kept.pop();
  }
}

/**
 * Fed a machine's events in the order of its copy (`add`); `again` says whether the copy must be
 * read once more (its events were not newest first) and is then fed the same events with `addAgain`.
 */
export class LessonEvents {
  private count = 0;
  private newestFirst = true;
  private previous: Placed | undefined;
  private first: Placed | undefined;
  private outcome: Placed | undefined;
  /** In progress: its newest events. */
  private readonly newest = new Latest();
  /** While the copy is newest first, the events after the oldest outcome so far are the ones before it in time. */
  private afterOutcome: Placed[] = [];
  private secondCount = 0;
  private second: Latest | undefined;

  constructor(private readonly rules: EventStateRules) {}

  add(event: OnboardingEvent): void {
    const placed = { event, index: this.count++ };
    if (this.previous !== undefined && event.time.epochMs > this.previous.event.time.epochMs) this.newestFirst = false;
    this.previous = placed;
    if (this.first === undefined || earlier(placed, this.first)) this.first = placed;
    this.newest.offer(placed);
    if (eventState(event, this.rules) === 'onboarded' && (this.outcome === undefined || earlier(placed, this.outcome))) {
      this.outcome = placed;
      this.afterOutcome = [];
    } else if (this.outcome !== undefined && this.afterOutcome.length < MAX_EVENTS_PER_MACHINE) {
      this.afterOutcome.push(placed);
    }
  }

  /** After the first reading: whether the events before the outcome need a second one. */
  get again(): boolean {
    return this.outcome !== undefined && !this.newestFirst;
  }

  addAgain(event: OnboardingEvent): void {
    const placed = { event, index: this.secondCount++ };
    const outcome = this.outcome;
    if (outcome !== undefined && earlier(placed, outcome)) (this.second ??= new Latest()).offer(placed);
  }

  /** The events a lesson is made of, newest first (as the client sorts them). */
  events(): OnboardingEvent[] {
    const { outcome, first } = this;
    if (outcome === undefined || first === undefined) return this.newest.kept.map(({ event }) => event);
    const before = this.again ? (this.second?.kept ?? []) : this.afterOutcome;
    const picked = [outcome, ...before];
    if (!picked.includes(first) && !before.some((placed) => placed.index === first.index)) picked.push(first);
    return picked.map(({ event }) => event);
  }
}
