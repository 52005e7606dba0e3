// Filtering and ordering of a machine's events. The spec leaves both open
// (§4.1 rules 2 and 3), so each behaviour is a configuration choice.

import type { EventOrder, TimestampFilter } from './types';

function timestampOf(event: unknown): number | undefined {
  if (typeof event === 'object' && event !== null && 'timestamp' in event) {
    const value: unknown = event.timestamp;
    return typeof value === 'number' ? value : undefined;
  }
  return undefined;
}

/** Events without a numeric timestamp always pass, so invalid events still reach the client. */
export function filterByTimestamp(events: readonly unknown[], bound: number | undefined, mode: TimestampFilter): unknown[] {
  if (bound === undefined || mode === 'ignore') {
    return [...events];
  }
  return events.filter((event) => {
    const ts = timestampOf(event);
    if (ts === undefined) {
      return true;
    }
    switch (mode) {
      case 'after-inclusive':
        return ts >= bound;
      case 'after-exclusive':
        return ts > bound;
      case 'before-inclusive':
        return ts <= bound;
    }
  });
}

/** mulberry32: tiny seeded PRNG, so a shuffled order is reproducible within a run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Events without a numeric timestamp keep their relative order at the end. */
export function orderEvents(events: readonly unknown[], order: EventOrder, seed: number): unknown[] {
  const timed = events.filter((e) => timestampOf(e) !== undefined);
  const untimed = events.filter((e) => timestampOf(e) === undefined);
  const asc = [...timed].sort((a, b) => (timestampOf(a) ?? 0) - (timestampOf(b) ?? 0));
  if (order === 'asc') {
    return [...asc, ...untimed];
  }
  if (order === 'desc') {
    return [...asc.reverse(), ...untimed];
  }
  const all = [...asc, ...untimed];
  const random = seededRandom(seed);
  for (let i = all.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const tmp = all[i];
    all[i] = all[j];
    all[j] = tmp;
  }
  // A shuffle may land on the sorted order by chance; a test of "client sorts"
  // would then pass for the wrong reason, so rotate out of it.
  const unshuffled = [...asc, ...untimed];
  if (all.length > 1 && all.every((e, i) => e === unshuffled[i])) {
    all.push(all.shift());
  }
  return all;
}
