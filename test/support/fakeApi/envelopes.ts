// Wraps a list of events in the answer's envelope: the documented
// `{events}` (spec §2.1) or one of the list envelopes of §2.5 / §4.2, which the
// spec says list endpoints use but does not say whether /events does.

import type { Envelope } from './types';

export type EnvelopeResult = { ok: true; body: unknown } | { ok: false; message: string };

/** Defaults of spec §4.2 (page-based). */
const DEFAULT_PAGE_SIZE = 20;

function nonNegativeInt(raw: string | undefined, fallback: number): number | undefined {
  if (raw === undefined) {
    return fallback;
  }
  return /^\d+$/.test(raw) ? Number(raw) : undefined;
}

/** Opaque to clients; the fake encodes the element's position. */
export function cursorFor(index: number): string {
  return Buffer.from(`evt:${index}`).toString('base64url');
}

function indexOfCursor(cursor: string, length: number): number | undefined {
  const match = /^evt:(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (match === null || match[1] === undefined) {
    return undefined;
  }
  const index = Number(match[1]);
  return index < length ? index : undefined;
}

function pageEnvelope(events: readonly unknown[], query: Record<string, string>): EnvelopeResult {
  const size = nonNegativeInt(query['size'], DEFAULT_PAGE_SIZE);
  const page = nonNegativeInt(query['page'], 0);
  if (size === undefined || size === 0 || page === undefined) {
    return { ok: false, message: 'size must be a positive integer and page a non-negative integer.' };
  }
  const content = events.slice(page * size, page * size + size);
  return {
    ok: true,
    body: {
      content,
      totalPages: Math.ceil(events.length / size),
      totalElements: events.length,
      number: page,
      size,
      numberOfElements: content.length,
    },
  };
}

function cursorEnvelope(events: readonly unknown[], query: Record<string, string>, defaultLimit: number): EnvelopeResult {
  const limit = nonNegativeInt(query['limit'], defaultLimit);
  if (limit === undefined || limit === 0) {
    return { ok: false, message: 'limit must be a positive integer.' };
  }
  const after = query['after'];
  const before = query['before'];
  let start = 0;
  let end = Math.min(limit, events.length);
  if (after !== undefined) {
    const index = indexOfCursor(after, events.length);
    if (index === undefined) {
      return { ok: false, message: 'Unknown cursor in after.' };
    }
    start = index + 1;
    end = Math.min(start + limit, events.length);
  } else if (before !== undefined) {
    const index = indexOfCursor(before, events.length);
    if (index === undefined) {
      return { ok: false, message: 'Unknown cursor in before.' };
    }
    end = index;
    start = Math.max(0, end - limit);
  }
  const content = events.slice(start, end);
  const body: Record<string, unknown> = { content, limit };
  // `before` only when there is something before, `after` only when there is
  // more: the client must stop when `after` is absent.
  if (content.length > 0 && start > 0) {
    body['before'] = cursorFor(start);
  }
  if (content.length > 0 && end < events.length) {
    body['after'] = cursorFor(end - 1);
  }
  return { ok: true, body };
}

export function wrapEvents(
  envelope: Envelope,
  events: readonly unknown[],
  query: Record<string, string>,
  cursorDefaultLimit: number,
): EnvelopeResult {
  switch (envelope) {
    case 'plain':
      return { ok: true, body: { events } };
    case 'page':
      return pageEnvelope(events, query);
    case 'cursor':
      return cursorEnvelope(events, query, cursorDefaultLimit);
  }
}
