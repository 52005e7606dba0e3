import * as assert from 'node:assert/strict';
import type { OnboardingEvent } from '../../../src/core/client/model';
import { dedupeEvents, eventKey, sortNewestFirst, validateEvent, validateEvents } from '../../../src/core/client/validateEvents';

const UUID = '3f2b8c1e-7a4d-4e4b-9a6f-1c2d3e4f5a6b';
const valid = {
  type: 'MACHINE_CREATED',
  message: 'Machine asset created',
  timestamp: 1_736_928_060_000,
  assetId: UUID,
  _links: { machine: { href: '/m/1' } },
};

function reasonFor(raw: unknown): string {
  const result = validateEvent(raw, 'SN');
  assert.equal(typeof result, 'string', 'expected the event to be invalid');
  return result as string;
}

describe('event validation (spec §2.2)', () => {
  it('turns a valid event into the typed model, keeping raw, links and extra fields', () => {
    const raw = { ...valid, severity: 'info' };
    const event = validateEvent(raw, 'SN');
    assert.ok(typeof event !== 'string');
    assert.equal(event.serialNumber, 'SN');
    assert.equal(event.assetId, UUID);
    assert.deepEqual(event.links, { machine: [{ href: '/m/1' }] });
    assert.deepEqual(event.extra, { severity: 'info' });
    assert.equal(event.raw, raw);
    assert.equal(event.time.unit, 'milliseconds');
    assert.equal(event.key, eventKey('MACHINE_CREATED', 1_736_928_060_000, 'Machine asset created', UUID));
  });

  const cases: readonly [string, unknown, RegExp][] = [
    ['not an object', 'event', /not a JSON object/],
    ['missing message', { type: 'A', timestamp: 1 }, /message is missing/],
    ['message of the wrong type', { type: 'A', message: 3, timestamp: 1 }, /message must be a string/],
    ['missing type', { message: 'm', timestamp: 1 }, /type is missing/],
    ['missing timestamp', { type: 'A', message: 'm' }, /timestamp is missing/],
    ['timestamp as a string', { type: 'A', message: 'm', timestamp: '1' }, /timestamp must be an integer/],
    ['fractional timestamp', { type: 'A', message: 'm', timestamp: 1.5 }, /timestamp must be an integer/],
    ['timestamp beyond 2^53', { type: 'A', message: 'm', timestamp: 2 ** 60 }, /too large/],
    ['assetId not a UUID', { type: 'A', message: 'm', timestamp: 1, assetId: 'machine-1' }, /assetId must be a UUID/],
    ['assetId not a string', { type: 'A', message: 'm', timestamp: 1, assetId: 7 }, /assetId must be a string/],
    [
      'a machine link field of the wrong type',
      { type: 'A', message: 'm', timestamp: 1, _links: { machine: { templated: 'no' } } },
      /_links\.machine\.templated must be a boolean/,
    ],
  ];
  for (const [name, raw, reason] of cases) {
    it(`reports ${name}`, () => {
      assert.match(reasonFor(raw), reason);
    });
  }

  const exactReasons: readonly [string, unknown, string][] = [
    ['a null message', { type: 'A', message: null, timestamp: 1 }, 'message is missing'],
    ['a null type', { type: null, message: 'm', timestamp: 1 }, 'type is missing'],
    ['a type of the wrong type', { type: 3, message: 'm', timestamp: 1 }, 'type must be a string'],
    ['a null timestamp', { type: 'A', message: 'm', timestamp: null }, 'timestamp is missing'],
    ['text before a UUID assetId', { type: 'A', message: 'm', timestamp: 1, assetId: `x${UUID}` }, 'assetId must be a UUID'],
    ['text after a UUID assetId', { type: 'A', message: 'm', timestamp: 1, assetId: `${UUID}x` }, 'assetId must be a UUID'],
  ];
  for (const [name, raw, reason] of exactReasons) {
    it(`reports ${name} as "${reason}"`, () => {
      assert.equal(reasonFor(raw), reason);
    });
  }

  it('an upper-case UUID is a valid assetId', () => {
    const event = validateEvent({ type: 'A', message: 'm', timestamp: 1, assetId: UUID.toUpperCase() }, 'SN');
    assert.ok(typeof event !== 'string');
    assert.equal(event.assetId, UUID.toUpperCase());
  });

  it('the key is a hash of type, raw timestamp, message and assetId (null when absent): each field changes it', () => {
    const key = eventKey('A', 1, 'm');
    assert.match(key, /^[0-9a-f]{64}$/);
    assert.equal(eventKey('A', 1, 'm'), key, 'stable');
    const others = [eventKey('B', 1, 'm'), eventKey('A', 2, 'm'), eventKey('A', 1, 'n'), eventKey('A', 1, 'm', UUID)];
    assert.equal(new Set([key, ...others]).size, 5);
    // The fields are hashed as one JSON array, so moving text between them makes another key.
    assert.notEqual(eventKey('A,1', 1, 'm'), eventKey('A', 1, '1,m'));
  });

  it('reads null optional fields as absent', () => {
    const event = validateEvent({ type: 'A', message: 'm', timestamp: 1, assetId: null, _links: null }, 'SN');
    assert.ok(typeof event !== 'string');
    assert.equal(event.assetId, undefined);
  });

  it('reports each invalid element with its index and never drops the valid ones', () => {
    const result = validateEvents([valid, { type: 'A' }, 42, { ...valid, timestamp: 1 }], { serialNumber: 'SN', indexOffset: 10 });
    assert.equal(result.events.length, 2);
    assert.deepEqual(
      result.invalid.map(({ index, reason }) => ({ index, reason })),
      [
        { index: 11, reason: 'message is missing' },
        { index: 12, reason: 'the event is not a JSON object' },
      ],
    );
  });

  it('§4.1 rule 3 (ordering not shown): sorts newest first, keeping server order for equal times', () => {
    const { events } = validateEvents(
      [
        { type: 'A', message: 'old', timestamp: 1_000 },
        { type: 'B', message: 'new', timestamp: 3_000 },
        { type: 'C', message: 'tie-1', timestamp: 2_000 },
        { type: 'D', message: 'tie-2', timestamp: 2_000 },
      ],
      { serialNumber: 'SN', timestampUnit: 'seconds' },
    );
    assert.deepEqual(
      sortNewestFirst(events).map((event) => event.message),
      ['new', 'tie-1', 'tie-2', 'old'],
    );
  });

  it('de-duplicates by key', () => {
    const { events } = validateEvents([valid, { ...valid }, { ...valid, message: 'other' }], { serialNumber: 'SN' });
    assert.equal(dedupeEvents(events).length, 2);
    const keys = new Set(events.map((event: OnboardingEvent) => event.key));
    assert.equal(keys.size, 2);
  });
});
