import * as assert from 'node:assert/strict';
import { isApiError, type ApiError, type ApiErrorKind } from '../../../src/core/client/errors';
import { eventsUrl } from '../../../src/core/client/events/eventsClient';
import type { EventsResult } from '../../../src/core/client/model';
import { makeEvent, TEST_ASSET_ID, TEST_SERIALS } from '../../support/fakeApi';
import { makeClient, rejectionOf, useFakeApi } from './testClient';
import { serverTextData } from '../../../src/core/common/serverText';
import { extensionErrorText } from '../../../src/extension/workbench/remedies';
import { plainLocalize } from '../../../src/core/common/localize';

const EVENTS_PATH = '/public/api/onboarding-events/events';

function assertApiError(error: unknown, kind: ApiErrorKind, message?: RegExp): void {
  assert.ok(isApiError(error), `expected an ApiError, got ${String(error)}`);
  assert.equal(error.kind, kind, extensionErrorText(error, plainLocalize));
  if (message !== undefined) assert.match(extensionErrorText(error, plainLocalize), message);
}

function manyEvents(count: number): unknown[] {
  return Array.from({ length: count }, (_, index) =>
    makeEvent({ type: 'STEP', message: `step ${index}`, timestamp: 1_736_928_000 + index }),
  );
}

describe('events client (spec §4.1 GET /events)', () => {
  const context = useFakeApi();

  it('§4.1 GETs {base_url}/public/api/onboarding-events/events?serialNumber=… and returns typed events', async () => {
    const { api, client } = context();
    const result = await client.getEvents(TEST_SERIALS.onboarded);
    const request = api.eventRequests()[0];
    assert.ok(request);
    assert.equal(request.method, 'GET');
    assert.equal(request.path, EVENTS_PATH);
    assert.deepEqual(request.query, { serialNumber: TEST_SERIALS.onboarded });
    assert.equal(result.serialNumber, TEST_SERIALS.onboarded);
    assert.deepEqual(result.invalid, []);
    assert.equal(result.truncated, false);
    const created = result.events.find((event) => serverTextData(event.type) === 'MACHINE_CREATED');
    assert.ok(created);
    assert.equal(created.assetId, TEST_ASSET_ID);
    assert.equal(created.links['machine']?.[0]?.href, `${api.baseUrl}/public/api/machines/${TEST_ASSET_ID}`);
  });

  it('§4.1 rule 1 trims the serial number and URL-encodes it', async () => {
    const { api, client } = context();
    const serial = 'A&B=C/D ü#1';
    api.setMachineEvents(serial, manyEvents(1));
    const result = await client.getEvents(`  ${serial}\n`);
    assert.equal(result.events.length, 1);
    assert.equal(api.eventRequests()[0]?.query['serialNumber'], serial);
  });

  it('§4.1 rule 1 refuses an empty serial number without any request', async () => {
    const { api, client } = context();
    assertApiError(await rejectionOf(client.getEvents('   ')), 'invalid-input', /empty/);
    assert.equal(api.requests.length, 0);
  });

  it('§4.1 sends the timestamp filter as given', async () => {
    const { api, client } = context();
    await client.getEvents(TEST_SERIALS.onboarded, { timestamp: 1_736_928_060_000 });
    assert.equal(api.eventRequests()[0]?.query['timestamp'], '1736928060000');
    assertApiError(await rejectionOf(client.getEvents(TEST_SERIALS.onboarded, { timestamp: 1.5 })), 'invalid-input');
  });

  for (const order of ['asc', 'desc', 'shuffled'] as const) {
    it(`§4.1 rule 3 (ordering not shown): events arrive ${order} and come back newest first`, async () => {
      const { api, client } = context();
      api.configure({ order });
      api.setMachineEvents('ORDER-1', manyEvents(12));
      const { events } = await client.getEvents('ORDER-1');
      const times = events.map((event) => event.time.epochMs);
      assert.deepEqual(
        times,
        [...times].sort((a, b) => b - a),
      );
    });
  }

  it('§2.2 detects seconds vs milliseconds and honours an override', async () => {
    const { api } = context();
    api.setMachineEvents('UNIT-1', [
      makeEvent({ type: 'A', message: 's', timestamp: 1_736_928_000 }),
      makeEvent({ type: 'B', message: 'ms', timestamp: 1_736_928_000_000 }),
    ]);
    const detecting = makeClient(api);
    const forced = makeClient(api, { timestampUnit: 'milliseconds' });
    try {
      const detected = await detecting.getEvents('UNIT-1');
      assert.deepEqual(
        detected.events.map((event) => [event.time.unit, event.time.epochMs]),
        [
          ['seconds', 1_736_928_000_000],
          ['milliseconds', 1_736_928_000_000],
        ],
      );
      const overridden = await forced.getEvents('UNIT-1');
      assert.deepEqual(
        overridden.events.map((event) => [event.time.unit, event.time.raw, event.time.detected]),
        [
          ['milliseconds', 1_736_928_000_000, false],
          ['milliseconds', 1_736_928_000, false],
        ],
      );
    } finally {
      detecting.dispose();
      forced.dispose();
    }
  });

  it('§2.2 reports invalid events and keeps the valid ones', async () => {
    const { api, client } = context();
    api.setMachineEvents('MIXED-1', [
      makeEvent({ type: 'A', message: 'good', timestamp: 2 }),
      { type: 'B', timestamp: 3 },
      makeEvent({ type: 'C', message: 'bad uuid', timestamp: 4, assetId: 'not-a-uuid' }),
      makeEvent({ type: 'D', message: 'also good', timestamp: 5, extra: { region: 'eu' } }),
    ]);
    const result = await client.getEvents('MIXED-1');
    assert.deepEqual(
      result.events.map((event) => event.message),
      ['also good', 'good'],
    );
    assert.deepEqual(result.events[0]?.extra, { region: 'eu' });
    assert.deepEqual(
      result.invalid.map(({ index, reason }) => [index, reason]),
      [
        [1, 'message is missing'],
        [2, 'assetId must be a UUID'],
      ],
    );
  });

  it('§2.1 events is optional: a known serial without events is an empty list', async () => {
    const { client } = context();
    const result = await client.getEvents(TEST_SERIALS.empty);
    assert.deepEqual(result.events, []);
  });

  for (const contentType of ['*/*', 'text/plain', null]) {
    it(`§4.1 content type */*: parses JSON by content (Content-Type ${String(contentType)})`, async () => {
      const { api, client } = context();
      api.configure({ contentType });
      assert.equal((await client.getEvents(TEST_SERIALS.onboarded)).events.length, 3);
    });
  }

  it('an HTML login page is a protocol error that says what it looks like', async () => {
    const { api, client } = context();
    api.addFault({ endpoint: 'events', kind: 'html' });
    assertApiError(await rejectionOf(client.getEvents(TEST_SERIALS.onboarded)), 'protocol', /HTML page instead of JSON/);
  });

  it('malformed JSON is a protocol error', async () => {
    const { api, client } = context();
    api.addFault({ endpoint: 'events', kind: 'malformedJson' });
    assertApiError(await rejectionOf(client.getEvents(TEST_SERIALS.onboarded)), 'protocol', /not valid JSON/);
  });

  it('a body that is JSON but not an object is a protocol error', async () => {
    const { api, client } = context();
    api.addFault({ endpoint: 'events', kind: 'status', status: 200, body: [1, 2] });
    assertApiError(await rejectionOf(client.getEvents(TEST_SERIALS.onboarded)), 'protocol', /not a JSON object/);
  });

  it('§2.5 follows a page-based envelope to the end', async () => {
    const { api, client } = context();
    api.configure({ envelope: 'page' });
    api.setMachineEvents('PAGED-1', manyEvents(45));
    const result = await client.getEvents('PAGED-1');
    assert.equal(result.events.length, 45);
    assert.equal(result.truncated, false);
    assert.deepEqual(
      api.eventRequests('PAGED-1').map((request) => request.query['page']),
      [undefined, '1', '2'],
    );
  });

  it('§2.5 follows a cursor-based envelope to the end', async () => {
    const { api, client } = context();
    api.configure({ envelope: 'cursor', cursorDefaultLimit: 10 });
    api.setMachineEvents('CURSOR-1', manyEvents(25));
    const result = await client.getEvents('CURSOR-1');
    assert.equal(result.events.length, 25);
    assert.equal(result.truncated, false);
    assert.equal(api.eventRequests('CURSOR-1').length, 3);
  });

  it('stops following pages at the cap and marks the result truncated', async () => {
    const { api, client } = context();
    api.configure({ envelope: 'page' });
    api.setMachineEvents('PAGED-2', manyEvents(100));
    const result = await client.getEvents('PAGED-2', { maxPages: 3 });
    assert.equal(result.events.length, 60);
    assert.equal(result.truncated, true);
    assert.equal(api.eventRequests('PAGED-2').length, 3);
  });

  it('numbers invalid events across pages continuously', async () => {
    const { api, client } = context();
    api.configure({ envelope: 'page' });
    api.setMachineEvents('PAGED-3', [...manyEvents(21), { bad: true }]);
    const result = await client.getEvents('PAGED-3');
    assert.deepEqual(
      result.invalid.map((invalid) => invalid.index),
      [21],
    );
  });

  it('an unknown serial that answers 404 is not-found, naming the serial', async () => {
    const { api, client } = context();
    api.configure({ unknownSerial: '404' });
    assertApiError(await rejectionOf(client.getEvents('NOPE-1')), 'not-found', /NOPE-1/);
  });

  it('an unknown serial that answers an empty list is an empty result', async () => {
    const { client } = context();
    assert.deepEqual((await client.getEvents('NOPE-2')).events, []);
  });

  it('403 from the events operation is permission denied', async () => {
    const { api, client } = context();
    api.addFault({ endpoint: 'events', kind: 'status', status: 403 });
    assertApiError(await rejectionOf(client.getEvents(TEST_SERIALS.onboarded)), 'permission-denied');
  });
});

describe('events URL (spec §4.1)', () => {
  const table: readonly (readonly [string, number | undefined, string])[] = [
    ['https://api.example.test', undefined, 'https://api.example.test/public/api/onboarding-events/events?serialNumber=S-1'],
    ['https://api.example.test/', undefined, 'https://api.example.test/public/api/onboarding-events/events?serialNumber=S-1'],
    [
      'https://api.example.test/base//',
      0,
      'https://api.example.test/base/public/api/onboarding-events/events?serialNumber=S-1&timestamp=0',
    ],
  ];
  for (const [base, timestamp, expected] of table) {
    it(`${base} with timestamp ${String(timestamp)} gives ${expected}`, () => {
      assert.equal(eventsUrl(base, 'S-1', timestamp), expected);
    });
  }
});

describe('events client: answers that are not the documented shape', () => {
  const context = useFakeApi();
  const REQUEST = `GET ${EVENTS_PATH}`;

  async function answeredWith(body: unknown, headers?: Record<string, string>): Promise<EventsResult> {
    const { api, client } = context();
    api.addFault({ endpoint: 'events', kind: 'status', status: 200, body, ...(headers !== undefined ? { headers } : {}) });
    return client.getEvents(TEST_SERIALS.onboarded);
  }

  it('refuses a fractional or unsafe timestamp filter with the reason, without any request', async () => {
    const { api, client } = context();
    for (const timestamp of [1.5, 2 ** 53, Number.NaN]) {
      const error = await rejectionOf(client.getEvents(TEST_SERIALS.onboarded, { timestamp }));
      assertApiError(error, 'invalid-input');
      assert.equal((error as Error).message, 'The timestamp filter must be a whole number (spec §4.1: int64).');
    }
    assert.equal(api.requests.length, 0);
  });

  for (const [what, body] of [
    ['a number', 5],
    ['null', null],
    ['a string', '"events"'],
    ['a list', [1, 2]],
  ] as const) {
    it(`an answer that is ${what} is a protocol error naming the request`, async () => {
      const error = await rejectionOf(answeredWith(body));
      assertApiError(error, 'protocol');
      assert.ok(
        (error as ApiError).message.startsWith(
          'The events answer is not a JSON object (spec §2.1 expects an object with an "events" list).',
        ),
        (error as ApiError).message,
      );
      assert.equal((error as ApiError).details.request, REQUEST);
    });
  }

  for (const events of [{}, 'e', 0]) {
    it(`an "events" field that is ${JSON.stringify(events)} rather than a list is a protocol error`, async () => {
      const error = await rejectionOf(answeredWith({ events }));
      assertApiError(error, 'protocol', /^The events answer has an "events" field that is not a list\./);
      assert.equal((error as ApiError).details.request, REQUEST);
    });
  }

  it('an "events" field that is null counts as absent: an empty list', async () => {
    const result = await answeredWith({ events: null });
    assert.deepEqual([result.events, result.invalid], [[], []]);
  });

  it('an object without "events" is an empty list, with nothing invalid', async () => {
    const result = await answeredWith({ note: 'nothing here' });
    assert.deepEqual([result.events, result.invalid, result.truncated], [[], [], false]);
  });

  it('a bare {content: [...]} without page or cursor attributes is read as the list of events', async () => {
    const result = await answeredWith({ content: manyEvents(2) });
    assert.deepEqual(
      result.events.map((event) => event.message),
      ['step 1', 'step 0'],
    );
  });

  it('a single answer is kept as sent, repeats included (only overlapping pages are deduplicated)', async () => {
    const twice = makeEvent({ type: 'STEP', message: 'same', timestamp: 1_736_928_000 });
    const result = await answeredWith({ events: [twice, twice] });
    assert.equal(result.events.length, 2);
  });

  it('fetchedAt is the injected clock when the answer arrived', async () => {
    const { api } = context();
    const client = makeClient(api, { now: () => 1_234_567 });
    try {
      assert.equal((await client.getEvents(TEST_SERIALS.onboarded)).fetchedAt, 1_234_567);
    } finally {
      client.dispose();
    }
  });

  it('a page that says text/html is called an HTML page even when it does not start with "<"', async () => {
    const error = await rejectionOf(answeredWith('Please sign in', { 'content-type': 'text/html' }));
    assertApiError(error, 'protocol');
    assert.ok(
      (error as ApiError).message.startsWith('The events API answered with an HTML page instead of JSON;'),
      (error as ApiError).message,
    );
    assert.deepEqual((error as ApiError).details, { request: REQUEST, status: 200 });
  });

  it('an empty 2xx body is a protocol error that says the body was empty', async () => {
    const error = await rejectionOf(answeredWith(''));
    assertApiError(error, 'protocol', /^The events API answered with an empty body where JSON was expected\./);
  });

  it('any 2xx status is an answer', async () => {
    const { api, client } = context();
    api.addFault({ endpoint: 'events', kind: 'status', status: 299, body: { events: manyEvents(1) } });
    assert.equal((await client.getEvents(TEST_SERIALS.onboarded)).events.length, 1);
  });

  it('HTTP 300 is an unexpected status, not an answer', async () => {
    const { api, client } = context();
    api.addFault({ endpoint: 'events', kind: 'status', status: 300, body: { events: manyEvents(1) } });
    const error = await rejectionOf(client.getEvents(TEST_SERIALS.onboarded));
    assertApiError(error, 'protocol', /unexpected HTTP 300/);
    assert.deepEqual((error as ApiError).details, { status: 300, request: REQUEST });
  });

  it('a 404 says which serial number was not found, and names the request', async () => {
    const { api, client } = context();
    api.configure({ unknownSerial: '404' });
    const error = await rejectionOf(client.getEvents('NOPE-1'));
    assertApiError(error, 'not-found');
    assert.ok((error as ApiError).message.startsWith("Serial number 'NOPE-1' was not found (HTTP 404)."), (error as ApiError).message);
    assert.equal((error as ApiError).details.request, REQUEST);
  });

  it('a 429 whose Retry-After is too long to wait out is rate-limited, with the wait the server asked for', async () => {
    const { api, client } = context();
    api.addFault({ endpoint: 'events', kind: 'rateLimit', retryAfter: 3600 });
    const error = await rejectionOf(client.getEvents(TEST_SERIALS.onboarded));
    assertApiError(error, 'rate-limited', /Wait 3600 s/);
    assert.equal((error as ApiError).details.retryAfterMs, 3_600_000);
  });
});

describe('events client: following list envelopes', () => {
  const context = useFakeApi();

  it('a page-based answer that is the only page makes one request and is complete', async () => {
    const { api, client } = context();
    api.configure({ envelope: 'page' });
    api.setMachineEvents('PAGED-ONE', manyEvents(5));
    const result = await client.getEvents('PAGED-ONE');
    assert.deepEqual([result.events.length, result.truncated, api.eventRequests('PAGED-ONE').length], [5, false, 1]);
  });

  it('maxPages 1 reads only the first page and says more are available', async () => {
    const { api, client } = context();
    api.configure({ envelope: 'page' });
    api.setMachineEvents('PAGED-CAP', manyEvents(45));
    const result = await client.getEvents('PAGED-CAP', { maxPages: 1 });
    assert.deepEqual([result.events.length, result.truncated, api.eventRequests('PAGED-CAP').length], [20, true, 1]);
  });

  it('a cursor walk asks for the next page after the cursor with the limit of the first answer, up to the cap', async () => {
    const { api, client } = context();
    api.configure({ envelope: 'cursor', cursorDefaultLimit: 10 });
    api.setMachineEvents('CURSOR-CAP', manyEvents(35));
    const result = await client.getEvents('CURSOR-CAP', { maxPages: 2 });
    assert.deepEqual([result.events.length, result.truncated], [20, true]);
    const requests = api.eventRequests('CURSOR-CAP');
    assert.equal(requests.length, 2);
    const second = requests[1];
    assert.ok(second);
    assert.equal(second.query['limit'], '10');
    assert.ok(Object.hasOwn(second.query, 'after'), 'the second request continues after the first page');
  });

  it('a cursor answer that is the only page makes one request', async () => {
    const { api, client } = context();
    api.configure({ envelope: 'cursor', cursorDefaultLimit: 10 });
    api.setMachineEvents('CURSOR-ONE', manyEvents(4));
    const result = await client.getEvents('CURSOR-ONE');
    assert.deepEqual([result.events.length, result.truncated, api.eventRequests('CURSOR-ONE').length], [4, false, 1]);
  });
});
