// Page walks over answers the fake service does not send by itself: a first
// page without `number` or `size`, a cursor answer without `limit`, a later
// page in another shape, overlapping pages, and the per-machine byte budget.
// A scripted stand-in for the authorized GET (the seam EventsClient offers)
// answers each URL; the HTTP side of the walks is tested over real HTTP in
// eventsClient.test.ts.
import * as assert from 'node:assert/strict';
import { isApiError } from '../../../src/core/client/errors';
import { EventsClient, EVENTS_PATH } from '../../../src/core/client/events/eventsClient';
import type { HttpResponse } from '../../../src/core/client/http/httpClient';
import { rejectionOf } from './testClient';

const BASE = 'https://api.example.test';
const SERIAL = 'WALK-1';
const T = 1_748_856_600_000;

function event(index: number): Record<string, unknown> {
  return { type: 'STEP', message: `step ${index}`, timestamp: T + index };
}

function bytesOf(body: unknown): number {
  return new TextEncoder().encode(JSON.stringify(body)).byteLength;
}

interface Scripted {
  readonly client: EventsClient;
  /** Query parameters of each request, in order. */
  readonly queries: Record<string, string>[];
}

/** `answer` gets the query of each request and returns the JSON body of a 200. */
function scripted(answer: (query: URLSearchParams, call: number) => unknown, maxBytesPerMachine?: number): Scripted {
  const queries: Record<string, string>[] = [];
  const client = new EventsClient({
    requests: {
      get: (url): Promise<HttpResponse> => {
        const parsed = new URL(url);
        queries.push(Object.fromEntries(parsed.searchParams));
        const body = new TextEncoder().encode(JSON.stringify(answer(parsed.searchParams, queries.length - 1)));
        return Promise.resolve({ url, status: 200, headers: { 'content-type': 'application/json' }, body });
      },
    },
    apiBaseUrl: BASE,
    timestampUnit: 'milliseconds',
    now: () => T,
    ...(maxBytesPerMachine !== undefined ? { maxBytesPerMachine } : {}),
  });
  return { client, queries };
}

/** Three pages of two events each, numbered 0…2. */
function pageAnswer(query: URLSearchParams): unknown {
  const page = Number(query.get('page') ?? '0');
  return { content: [event(page * 2), event(page * 2 + 1)], number: page, size: 2, totalPages: 3 };
}

describe('events client: page walks over unusual answers', () => {
  it('a first page without number or size continues with page 1 at the default size of 20', async () => {
    const { client, queries } = scripted((query) =>
      query.get('page') === null ? { content: [event(0)], totalPages: 2 } : { content: [event(1)], number: 1, totalPages: 2 },
    );
    const result = await client.getEvents(SERIAL);
    assert.deepEqual(queries, [{ serialNumber: SERIAL }, { serialNumber: SERIAL, size: '20', page: '1' }]);
    assert.deepEqual([result.events.length, result.truncated], [2, false]);
  });

  it('a cursor answer without limit continues after its cursor and sends no limit; a last page of only content ends the walk', async () => {
    const { client, queries } = scripted((query) =>
      query.get('after') === null ? { content: [event(0)], after: 'c-0' } : { content: [event(1)] },
    );
    const result = await client.getEvents(SERIAL);
    assert.deepEqual(queries, [{ serialNumber: SERIAL }, { serialNumber: SERIAL, after: 'c-0' }]);
    assert.deepEqual([result.events.length, result.truncated], [2, false]);
  });

  for (const [style, first, message] of [
    ['page', { content: [event(0)], number: 0, size: 1, totalPages: 2 }, 'page-based'],
    ['cursor', { content: [event(0)], after: 'c-0', limit: 1 }, 'cursor-based'],
  ] as const) {
    it(`a later page that drops the ${style} envelope is a protocol error naming the request`, async () => {
      const { client } = scripted((_query, call) => (call === 0 ? first : { events: [event(1)] }));
      const error = await rejectionOf(client.getEvents(SERIAL));
      assert.ok(isApiError(error) && error.kind === 'protocol', String(error));
      assert.ok(
        error.message.startsWith(`A later page of events did not come in the ${message} envelope the first page used.`),
        error.message,
      );
      assert.equal(error.details.request, `GET ${EVENTS_PATH}`);
    });
  }

  it('a cursor walk stops at maxPages and says more are available', async () => {
    const { client, queries } = scripted((_query, call) => ({ content: [event(call)], after: `c-${call}`, limit: 1 }));
    const result = await client.getEvents(SERIAL, { maxPages: 3 });
    assert.equal(queries.length, 3);
    assert.deepEqual([result.events.length, result.truncated], [3, true]);
  });

  it('events repeated across overlapping pages are kept once', async () => {
    const { client } = scripted((query) => {
      const page = Number(query.get('page') ?? '0');
      return { content: [event(page), event(page + 1)], number: page, size: 2, totalPages: 2 };
    });
    const result = await client.getEvents(SERIAL);
    assert.deepEqual(
      result.events.map((e) => e.message),
      ['step 2', 'step 1', 'step 0'],
    );
  });
});

describe('events client: the per-machine byte budget', () => {
  const firstPageBytes = bytesOf(pageAnswer(new URLSearchParams()));

  it('a first page that uses up the budget exactly is the last one read, and the result says more are available', async () => {
    const { client, queries } = scripted(pageAnswer, firstPageBytes);
    const result = await client.getEvents(SERIAL);
    assert.deepEqual([queries.length, result.events.length, result.truncated], [1, 2, true]);
  });

  it('the walk stops after the page that crosses the budget and keeps the newest events the budget holds, counting the rest', async () => {
    const { client, queries } = scripted(pageAnswer, firstPageBytes + 1);
    const result = await client.getEvents(SERIAL);
    assert.deepEqual([queries.length, result.events.length, result.truncated, result.notShown], [2, 2, true, 2]);
    assert.deepEqual(
      result.events.map((kept) => kept.time.raw),
      [T + 3, T + 2],
    );
  });

  it('within the budget every page is read', async () => {
    const { client, queries } = scripted(pageAnswer, 10 * firstPageBytes);
    const result = await client.getEvents(SERIAL);
    assert.deepEqual([queries.length, result.events.length, result.truncated], [3, 6, false]);
  });

  const cursorAnswer = (_query: URLSearchParams, call: number): unknown => ({ content: [event(call)], after: `c-${call}`, limit: 1 });
  const cursorBytes = bytesOf(cursorAnswer(new URLSearchParams(), 0));

  it('a cursor walk whose first answer uses up the budget reads nothing more', async () => {
    const { client, queries } = scripted(cursorAnswer, cursorBytes);
    const result = await client.getEvents(SERIAL);
    assert.deepEqual([queries.length, result.truncated], [1, true]);
  });

  it('a cursor walk stops after the answer that crosses the budget', async () => {
    const { client, queries } = scripted(cursorAnswer, cursorBytes + 1);
    const result = await client.getEvents(SERIAL);
    assert.deepEqual([queries.length, result.truncated], [2, true]);
  });

  it("a server's size or limit of 0 or less is no hint: the walk goes on without it instead of failing the machine", async () => {
    const paged = scripted((query) =>
      query.get('page') === null
        ? { content: [event(0)], number: 0, size: 0, totalPages: 2 }
        : { content: [event(1)], number: 1, size: -3 },
    );
    const pages = await paged.client.getEvents(SERIAL);
    assert.equal(pages.events.length, 2);
    assert.deepEqual(
      paged.queries,
      [{ serialNumber: SERIAL }, { serialNumber: SERIAL, page: '1', size: '20' }],
      'the next page at the default size',
    );
    const cursor = scripted((query) =>
      query.get('after') === null ? { content: [event(0)], after: 'c1', limit: 0 } : { content: [event(1)] },
    );
    const walked = await cursor.client.getEvents(SERIAL);
    assert.equal(walked.events.length, 2);
    assert.deepEqual(cursor.queries, [{ serialNumber: SERIAL }, { serialNumber: SERIAL, after: 'c1' }], 'no limit is sent on');
  });
});

describe('events client: statuses no HTTP server sends over the wire', () => {
  it('a status below 200 from the transport is an unexpected status, not an answer', async () => {
    const client = new EventsClient({
      requests: {
        get: (url): Promise<HttpResponse> =>
          Promise.resolve({ url, status: 199, headers: {}, body: new TextEncoder().encode(JSON.stringify({ events: [event(0)] })) }),
      },
      apiBaseUrl: BASE,
      timestampUnit: 'milliseconds',
      now: () => T,
    });
    const error = await rejectionOf(client.getEvents(SERIAL));
    assert.ok(isApiError(error) && error.kind === 'protocol', String(error));
    assert.equal(error.details.status, 199);
  });
});
