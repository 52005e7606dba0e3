// What one machine shows: the full and `timestamp`-filtered answers merged, de-duplicated and
// filtered. VS Code asks for children on every expand, change and reveal, so the list is computed
// once per (result, filtered answer, filter) and then only sliced.
import type { EventsResult, OnboardingEvent } from '../../client/model';
import { compileFilter, type EventFilter } from './eventFilter';
import { serverTextData } from '../../common/serverText';

export interface MachineView {
  readonly events: readonly OnboardingEvent[];
  readonly all: readonly OnboardingEvent[];
  readonly total: number;
  readonly latest: OnboardingEvent | undefined;
  /** Newest event of all, for "latest" when nothing passes the filter. */
  readonly newest: OnboardingEvent | undefined;
  /** A machine-created event (spec §2.2: it carries assetId) is among all events. */
  readonly created: OnboardingEvent | undefined;
}

function isNewestFirst(events: readonly OnboardingEvent[]): boolean {
  let previous = Number.POSITIVE_INFINITY;
  for (const event of events) {
    if (event.time.epochMs > previous) return false;
    previous = event.time.epochMs;
  }
  return true;
}

/** Union of the lists by event key (first occurrence wins), newest first; server order kept among equal times. */
export function mergeEvents(lists: readonly (readonly OnboardingEvent[])[]): readonly OnboardingEvent[] {
  const nonEmpty = lists.filter((list) => list.length > 0);
  const [only, ...others] = nonEmpty;
  // The client already de-duplicates and sorts one answer; re-check in O(n) and return it as it is.
  if (only !== undefined && others.length === 0 && isNewestFirst(only)) return only;
  const seen = new Set<string>();
  const merged: OnboardingEvent[] = [];
  for (const list of nonEmpty) {
    for (const event of list) {
      if (seen.has(event.key)) continue;
      seen.add(event.key);
      merged.push(event);
    }
  }
  // Array.prototype.sort is stable, so equal times keep server order (and V8's TimSort takes O(n) on sorted runs).
  return merged.sort((a, b) => b.time.epochMs - a.time.epochMs);
}

export function buildView(full: EventsResult | undefined, window: EventsResult | undefined, filter: EventFilter): MachineView {
  const all = mergeEvents([full?.events ?? [], window?.events ?? []]);
  const matches = compileFilter(filter);
  const events = all.filter(matches);
  return {
    events,
    all,
    total: all.length,
    latest: events[0],
    newest: all[0],
    created: all.find((event) => event.assetId !== undefined),
  };
}

interface Memo {
  readonly full: EventsResult | undefined;
  readonly window: EventsResult | undefined;
  readonly filter: EventFilter;
  readonly view: MachineView;
}

/** Memoises buildView per serial number on the identity of its inputs (results are immutable). */
export class EventViewCache {
  private readonly memos = new Map<string, Memo>();

  view(serialNumber: string, full: EventsResult | undefined, window: EventsResult | undefined, filter: EventFilter): MachineView {
    const memo = this.memos.get(serialNumber);
    if (memo && memo.full === full && memo.window === window && memo.filter === filter) return memo.view;
    const view = buildView(full, window, filter);
    this.memos.set(serialNumber, { full, window, filter, view });
    return view;
  }

  forget(serialNumber?: string): void {
    if (serialNumber === undefined) this.memos.clear();
    else this.memos.delete(serialNumber);
  }
}

/** One child of a machine node, before it becomes a TreeItem. */
export type MachineChild =
  | { readonly kind: 'error'; readonly message: string; readonly errorKind: string | undefined }
  | { readonly kind: 'event'; readonly event: OnboardingEvent }
  | { readonly kind: 'load-more'; readonly shown: number; readonly remaining: number }
  | { readonly kind: 'placeholder'; readonly reason: 'loading' | 'no-events' | 'none-match' | 'not-loaded' };

export interface ChildrenInput {
  readonly view: MachineView;
  readonly limit: number;
  readonly loaded: boolean;
  readonly loading: boolean;
  readonly error?: { readonly message: string; readonly kind?: string | undefined } | undefined;
}

/** The error first, so it is seen above the last good events. */
export function machineChildren(input: ChildrenInput): MachineChild[] {
  const children: MachineChild[] = [];
  if (input.error) children.push({ kind: 'error', message: input.error.message, errorKind: input.error.kind });
  const { events } = input.view;
  if (events.length === 0) {
    if (!input.loaded) {
      if (!input.error) children.push({ kind: 'placeholder', reason: input.loading ? 'loading' : 'not-loaded' });
    } else {
      children.push({ kind: 'placeholder', reason: input.view.total === 0 ? 'no-events' : 'none-match' });
    }
    return children;
  }
  const limit = Math.max(1, Math.floor(input.limit));
  const shown = Math.min(limit, events.length);
  for (let i = 0; i < shown; i++) {
    const event = events[i];
    if (event) children.push({ kind: 'event', event });
  }
  if (events.length > shown) children.push({ kind: 'load-more', shown, remaining: events.length - shown });
  return children;
}

/** The event types known across machines, as data (the filter compares the characters sent); sorted. */
export function knownTypes(results: Iterable<EventsResult>): string[] {
  const types = new Set<string>();
  for (const result of results) for (const event of result.events) types.add(serverTextData(event.type));
  return [...types].sort();
}
