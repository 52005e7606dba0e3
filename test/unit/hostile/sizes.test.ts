// Hostile corpus: answers as big or as deep as a server (or a proxy) can make
// them within the 10 MB response cap. None may throw RangeError, overflow the
// stack or hold more than the per-machine budget. Add a row.
import assert from 'node:assert/strict';
import { jsonDepth, MAX_JSON_DEPTH, pruneDeepJson, TOO_DEEP } from '../../../src/core/common/jsonDepth';
import { EventsClient, MAX_BYTES_PER_MACHINE } from '../../../src/core/client/events/eventsClient';
import type { HttpResponse } from '../../../src/core/client/http/httpClient';
import { parseJsonBody } from '../../../src/core/client/jsonBody';
import { validateEvents } from '../../../src/core/client/validateEvents';
import { buildEventView } from '../../../src/extension/details/viewModel';

const SERIAL = 'MX-4711-A0023';
const T = 1_748_856_600_000;

function response(url: string, body: unknown): HttpResponse {
  return { url, status: 200, headers: { 'content-type': 'application/json' }, body: new TextEncoder().encode(JSON.stringify(body)) };
}

function deepJsonText(depth: number): string {
  return `{"type":"T","message":"m","timestamp":${T},"deep":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`;
}

describe('hostile input: big and deep answers', () => {
  it('200k events in one page (about 6 MB) are validated without RangeError', async () => {
    const events = Array.from({ length: 200_000 }, (_, i) => ({ type: 'T', message: `m${i}`, timestamp: T - i }));
    const client = new EventsClient({
      requests: { get: (url) => Promise.resolve(response(url, { events })) },
      apiBaseUrl: 'https://api.example.test',
      timestampUnit: 'milliseconds',
      now: () => T,
    });
    const result = await client.getEvents(SERIAL);
    assert.equal(result.events.length, 200_000);
  });

  for (const depth of [1_000, 200_000]) {
    it(`an event with an unknown field nested ${depth} levels deep is parsed, validated and rendered (pruned below ${MAX_JSON_DEPTH})`, () => {
      const parsed = parseJsonBody(new TextEncoder().encode(deepJsonText(depth)), 'application/json', () => 'test');
      assert.ok(parsed.ok);
      assert.ok(jsonDepth(parsed.value) <= MAX_JSON_DEPTH + 1);
      const { events } = validateEvents([parsed.value], { serialNumber: SERIAL, timestampUnit: 'milliseconds' });
      const event = events[0];
      assert.ok(event);
      assert.doesNotThrow(() => JSON.stringify(event.raw, null, 2));
      const view = buildEventView(event, { title: 'T', locale: 'en', nowMs: T, outOfRange: '?' });
      const deep = view.extra.find((field) => field.name === 'deep');
      assert.ok(deep?.value?.includes(TOO_DEEP), 'the pruned part says so');
    });
  }

  it('validation prunes a deep value that did not come through the parser', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i++) deep = { a: deep };
    const { events } = validateEvents([{ type: 'T', message: 'm', timestamp: T, deep }], {
      serialNumber: SERIAL,
      timestampUnit: 'milliseconds',
    });
    assert.equal(events.length, 1);
    assert.doesNotThrow(() => JSON.stringify(events[0]?.raw));
  });

  it('pruning leaves a shallow value untouched (same object, no copy)', () => {
    const value = { a: [1, { b: 2 }] };
    assert.equal(pruneDeepJson(value), value);
  });

  it(`a page walk holds at most ${MAX_BYTES_PER_MACHINE / 1024 / 1024} MiB of one machine's responses, then says more are available`, async () => {
    const pageBytes = 3 * 1024 * 1024;
    const filler = 'x'.repeat(pageBytes);
    let requests = 0;
    const client = new EventsClient({
      requests: {
        get: (url) => {
          const number = Number(new URL(url).searchParams.get('page') ?? '0');
          requests++;
          return Promise.resolve(
            response(url, { content: [{ type: 'T', message: filler, timestamp: T - number }], number, size: 1, totalPages: 50 }),
          );
        },
      },
      apiBaseUrl: 'https://api.example.test',
      timestampUnit: 'milliseconds',
      now: () => T,
    });
    const result = await client.getEvents(SERIAL);
    assert.equal(result.truncated, true);
    assert.equal(requests, Math.ceil(MAX_BYTES_PER_MACHINE / pageBytes), `${requests} pages fetched`);
  });
});
