// Properties of event validation (spec §2.2) over open-ended input: whatever
// JSON the server sends, validation never throws, judges each element alone,
// and keeps what it does not know.
import * as assert from 'node:assert/strict';
import { parseLinks } from '../../../src/core/client/hal';
import { validateEvent, validateEvents } from '../../../src/core/client/validateEvents';
import { fc, holds } from '../../support/properties';

const SERIAL = 'MX-4711-A0023';
const KNOWN = new Set(['message', 'timestamp', 'type', 'assetId', '_links']);
const LINK_FIELDS = new Set(['href', 'templated', 'type', 'deprecation', 'name', 'profile', 'title', 'hreflang', 'seen']);

/** A link object as spec §2.4 allows: every field optional, null meaning absent. */
const link = fc.record(
  { href: fc.webUrl(), templated: fc.boolean(), title: fc.string(), name: fc.constantFrom(null, 'n') },
  { requiredKeys: [] },
);

/** An element spec §2.2 accepts. */
const validEvent = fc.record(
  {
    message: fc.string(),
    type: fc.string(),
    timestamp: fc.maxSafeInteger(),
    assetId: fc.oneof(fc.uuid(), fc.constant(null)),
    _links: fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.oneof(link, fc.array(link, { maxLength: 3 })), { maxKeys: 3 }),
  },
  { requiredKeys: ['message', 'type', 'timestamp'] },
);

/** Fields the spec does not name, keys as JSON.parse would make them (own properties, "__proto__" included). */
const unknownFields = fc
  .array(fc.tuple(fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', 'toString', 'extra', 'raw')), fc.jsonValue()), {
    maxLength: 5,
  })
  .map((entries) => entries.filter(([name]) => !KNOWN.has(name)));

/** The event as the wire would carry it: built as JSON text and parsed, so nothing is shared with the generator. */
function onTheWire(fields: Record<string, unknown>, extra: readonly (readonly [string, unknown])[]): Record<string, unknown> {
  const known = Object.entries(fields).map(([name, value]) => `${JSON.stringify(name)}:${JSON.stringify(value)}`);
  const unknown = extra.map(([name, value]) => `${JSON.stringify(name)}:${JSON.stringify(value)}`);
  return JSON.parse(`{${[...known, ...unknown].join(',')}}`) as Record<string, unknown>;
}

describe('event validation: properties', () => {
  it('never throws, whatever JSON value an element is', () =>
    holds(
      fc.property(fc.jsonValue(), (value) => {
        const result = validateEvent(value, SERIAL);
        assert.ok(typeof result === 'string' || typeof result === 'object');
      }),
    ));

  it('judges every element exactly once: valid plus invalid is the whole list, indexes in order and offset', () =>
    holds(
      fc.property(fc.array(fc.oneof(validEvent, fc.jsonValue())), fc.nat(1000), (elements, offset) => {
        const { events, invalid } = validateEvents(elements, { serialNumber: SERIAL, indexOffset: offset });
        assert.equal(events.length + invalid.length, elements.length);
        for (const entry of invalid) {
          assert.equal(entry.raw, elements[entry.index - offset], 'the invalid entry points at its element');
          assert.ok(entry.reason.length > 0);
        }
        const indexes = invalid.map((entry) => entry.index);
        assert.deepEqual(
          indexes,
          [...indexes].sort((a, b) => a - b),
        );
      }),
    ));

  it('keeps every valid event, in order, beside any invalid ones', () =>
    holds(
      fc.property(fc.array(fc.tuple(fc.boolean(), validEvent, fc.jsonValue())), (rows) => {
        const elements = rows.map(([valid, event, junk]) => (valid ? event : { junk }));
        const expected = rows.filter(([valid]) => valid).map(([, event]) => event);
        const { events, invalid } = validateEvents(elements, { serialNumber: SERIAL });
        assert.deepEqual(
          events.map((event) => [event.message, event.type, event.time.raw]),
          expected.map((event) => [event.message, event.type, event.timestamp]),
        );
        assert.equal(invalid.length, rows.length - expected.length);
        for (const event of events) assert.equal(event.serialNumber, SERIAL);
      }),
    ));

  it('keeps unknown fields as sent, own properties even when named like prototype members', () =>
    holds(
      fc.property(validEvent, unknownFields, (fields, extra) => {
        const raw = onTheWire(fields, extra);
        const result = validateEvent(raw, SERIAL);
        assert.ok(typeof result === 'object', `valid event refused: ${typeof result === 'string' ? result : ''}`);
        const expected = Object.fromEntries(Object.entries(raw).filter(([name]) => !KNOWN.has(name)));
        assert.deepEqual(Object.entries(result.extra), Object.entries(expected));
        assert.equal(result.raw, raw, 'the raw element is kept for show-raw-JSON and export');
      }),
    ));

  it('keeps every link relation and unknown link field as sent, own properties even when named "__proto__"', () =>
    holds(
      fc.property(
        fc.array(fc.tuple(fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor')), fc.webUrl(), unknownFields), {
          maxLength: 4,
        }),
        (relations) => {
          const text = `{${relations
            .map(
              ([relation, href, extra]) =>
                `${JSON.stringify(relation)}:${JSON.stringify(
                  onTheWire(
                    { href },
                    extra.filter(([name]) => !LINK_FIELDS.has(name)),
                  ),
                )}`,
            )
            .join(',')}}`;
          const wire = JSON.parse(text) as Record<string, Record<string, unknown>>;
          const parsed = parseLinks(wire);
          assert.ok(parsed.ok);
          assert.deepEqual(Object.keys(parsed.links), Object.keys(wire));
          for (const [relation, links] of Object.entries(parsed.links)) {
            const sent = wire[relation] ?? {};
            assert.equal(links[0]?.href, sent['href']);
            assert.deepEqual(
              Object.entries(links[0]?.extra ?? {}),
              Object.entries(sent).filter(([name]) => !LINK_FIELDS.has(name)),
            );
          }
        },
      ),
    ));

  it('refuses a timestamp that is not a safe integer, and anything but a UUID as assetId', () =>
    holds(
      fc.property(
        validEvent,
        fc.oneof(
          fc.double().filter((n) => !Number.isSafeInteger(n)),
          fc.string(),
          fc.boolean(),
        ),
        fc.string().filter((s) => !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s)),
        (fields, badTime, badAsset) => {
          assert.equal(typeof validateEvent({ ...fields, timestamp: badTime }, SERIAL), 'string');
          assert.equal(typeof validateEvent({ ...fields, assetId: badAsset }, SERIAL), 'string');
        },
      ),
    ));
});
