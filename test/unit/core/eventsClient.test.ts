import * as assert from 'node:assert/strict';
import { isApiError, type ApiErrorKind } from '../../../src/core/errors';
import { makeEvent, TEST_ASSET_ID, TEST_SERIALS } from '../../support/fakeApi';
import { makeClient, rejectionOf, useFakeApi } from './testClient';

const EVENTS_PATH = '/public/api/onboarding-events/events';

function assertApiError(error: unknown, kind: ApiErrorKind, message?: RegExp): void {
  assert.ok(isApiError(error), `expected an ApiError, got ${String(error)}`);
  assert.equal(error.kind, kind, error.message);
  if (message !== undefined) assert.match(error.message, message);
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
    const created = result.events.find((event) => event.type === 'MACHINE_CREATED');
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
