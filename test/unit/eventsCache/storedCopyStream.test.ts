// A stored copy read in a stream, cut into chunks anywhere: the same fields and events as JSON.parse
// of the whole, or no copy at all.
import assert from 'node:assert/strict';
import { MAX_STORED_EVENT_BYTES, StoredCopyStream } from '../../../src/core/eventsCache/storedCopyStream';

function streamed(text: string, chunk: number): { fields: Record<string, unknown>; events: unknown[]; problem: string | undefined } {
  const events: unknown[] = [];
  const stream = new StoredCopyStream((raw) => events.push(raw));
  const bytes = Buffer.from(text, 'utf8');
  for (let at = 0; at < bytes.length; at += chunk) stream.write(bytes.subarray(at, at + chunk));
  stream.end();
  return { fields: Object.fromEntries(stream.fields), events, problem: stream.complete ? undefined : stream.problem };
}

const COPY = {
  version: 1,
  serialNumber: 'LSR-7000-0101 "quoted" \\ back',
  fetchedAt: 1736928000000,
  truncated: false,
  events: [
    { type: 'ONBOARDING_STARTED', message: 'brace } bracket ] quote " comma , ü 漢 😀', timestamp: 1736928000000 },
    { type: 'X', message: '', timestamp: -1.5e3, _links: { self: [{ href: 'https://a/b' }] }, nested: [[[{}]], []] },
    'a string where an event belongs',
    42,
    null,
    true,
  ],
};

describe('StoredCopyStream: a stored copy read in chunks', () => {
  for (const spacing of [undefined, 2])
    it(`reads what JSON.parse reads, cut into chunks of any size${spacing === undefined ? '' : ', with white space'}`, () => {
      const text = JSON.stringify(COPY, undefined, spacing);
      for (const chunk of [1, 2, 3, 7, 64, text.length]) {
        const { fields, events, problem } = streamed(text, chunk);
        assert.equal(problem, undefined, `chunks of ${chunk}`);
        assert.deepEqual(events, COPY.events, `chunks of ${chunk}`);
        assert.deepEqual(fields, { ...COPY, events: true }, `chunks of ${chunk}`);
      }
    });

  it('reads a copy with no events', () => {
    assert.deepEqual(streamed('{"version":1,"events":[]}', 3), { fields: { version: 1, events: true }, events: [], problem: undefined });
  });

  for (const [what, text] of [
    ['it is cut short', JSON.stringify(COPY).slice(0, -3)],
    ['more follows it', `${JSON.stringify(COPY)}{}`],
    ['a field comes twice', '{"version":1,"version":2,"events":[]}'],
    ['two events have no comma between them', '{"events":[{} {}]}'],
    ['a comma follows the last event', '{"events":[{},]}'],
    ['its events are no array', '{"events":{"a":1}}'],
    ['it is no object', '[1,2]'],
    ['a value is no JSON', '{"version":1x,"events":[]}'],
  ] as const)
    it(`is no copy when ${what}`, () => {
      assert.equal(streamed(text, 5).problem, 'malformed');
    });

  it(`stops at an event over ${MAX_STORED_EVENT_BYTES} bytes, holding no more of it`, () => {
    const text = JSON.stringify({ version: 1, events: [{ message: 'x'.repeat(MAX_STORED_EVENT_BYTES) }, { type: 'after' }] });
    const { events, problem } = streamed(text, 64 * 1024);
    assert.equal(problem, 'event-too-large');
    assert.deepEqual(events, []);
    const fits = JSON.stringify({ version: 1, events: [{ message: 'x'.repeat(MAX_STORED_EVENT_BYTES - 20) }] });
    assert.equal(streamed(fits, 64 * 1024).problem, undefined, 'an event just under the bound is read');
  });
});
