// Properties of the §4.2 page walkers for any sequence of pages a server may
// send: an honest server's list comes back whole, once, in order, up to the
// cap; a confused or hostile one still cannot make a walk run past the cap.
import * as assert from 'node:assert/strict';
import {
  walkCursor,
  walkPages,
  type CursorEnvelope,
  type CursorRequest,
  type PageEnvelope,
  type PageRequest,
  type WalkedPage,
} from '../../../src/core/client/pagination';
import { fc, holds } from '../../support/properties';

async function collect(walk: AsyncGenerator<WalkedPage>): Promise<WalkedPage[]> {
  const pages: WalkedPage[] = [];
  for await (const page of walk) pages.push(page);
  return pages;
}

const items = (count: number): string[] => Array.from({ length: count }, (_, index) => `item-${index}`);

/** Any envelope at all: lengths, numbers and cursors that need not agree with anything. */
const anyPageEnvelope = fc.record(
  {
    content: fc.array(fc.nat(), { maxLength: 5 }),
    totalPages: fc.integer({ min: -2, max: 1000 }),
    number: fc.integer({ min: -2, max: 1000 }),
    size: fc.integer({ min: -1, max: 10 }),
  },
  { requiredKeys: ['content'] },
);
const anyCursorEnvelope = fc.record(
  { content: fc.array(fc.nat(), { maxLength: 5 }), after: fc.constantFrom('a', 'b', 'c', 'd'), limit: fc.integer({ min: -1, max: 6 }) },
  { requiredKeys: ['content'] },
);

describe('pagination walkers: properties', () => {
  it("page-based: an honest server's list comes back whole, in order, without duplicates or gaps, up to the cap", () =>
    holds(
      fc.asyncProperty(
        fc.nat(60),
        fc.integer({ min: 1, max: 10 }),
        fc.integer({ min: 1, max: 12 }),
        fc.boolean(),
        async (total, size, maxPages, sendsTotalPages) => {
          const list = items(total);
          let fetches = 0;
          const fetchPage = (request: PageRequest): Promise<PageEnvelope> => {
            fetches++;
            const page = request.page ?? 0;
            const content = list.slice(page * size, (page + 1) * size);
            return Promise.resolve({ content, number: page, size, ...(sendsTotalPages ? { totalPages: Math.ceil(total / size) } : {}) });
          };
          const pages = await collect(walkPages(fetchPage, { size }, { maxPages }));
          const expected = list.slice(0, Math.min(total, maxPages * size));
          assert.deepEqual(
            pages.flatMap((page) => page.items),
            expected,
          );
          assert.ok(fetches <= maxPages);
          assert.deepEqual(
            pages.map((page) => page.index),
            pages.map((_, index) => index),
          );
          const last = pages.at(-1);
          // With totalPages the walker knows; without, a full last page at the cap may or may not have a successor.
          const mayFollow = expected.length < total || (!sendsTotalPages && pages.length === maxPages && last?.items.length === size);
          assert.equal(last?.hasMore ?? false, mayFollow, 'the last page says whether the cap cut the walk short');
        },
      ),
    ));

  it('page-based: any sequence of envelopes ends within the cap', () =>
    holds(
      fc.asyncProperty(
        fc.array(anyPageEnvelope, { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 1, max: 30 }),
        async (envelopes, maxPages) => {
          let fetches = 0;
          const fetchPage = (): Promise<PageEnvelope> => Promise.resolve(envelopes[fetches++ % envelopes.length] as PageEnvelope);
          const pages = await collect(walkPages(fetchPage, {}, { maxPages }));
          assert.ok(pages.length >= 1 && pages.length <= maxPages && fetches === pages.length);
          for (const page of pages.slice(0, -1)) assert.equal(page.hasMore, true, 'only the last page may end the walk');
        },
      ),
    ));

  it("cursor-based: an honest server's list comes back whole, in order, without duplicates or gaps, up to the cap", () =>
    holds(
      fc.asyncProperty(fc.nat(60), fc.integer({ min: 1, max: 10 }), fc.integer({ min: 1, max: 12 }), async (total, limit, maxPages) => {
        const list = items(total);
        let fetches = 0;
        const fetchPage = (request: CursorRequest): Promise<CursorEnvelope> => {
          fetches++;
          const from = request.after === undefined ? 0 : Number(request.after);
          const content = list.slice(from, from + limit);
          const next = from + content.length;
          return Promise.resolve({ content, limit, ...(next < total ? { after: String(next) } : {}) });
        };
        const pages = await collect(walkCursor(fetchPage, { limit }, { maxPages }));
        const expected = list.slice(0, Math.min(total, maxPages * limit));
        assert.deepEqual(
          pages.flatMap((page) => page.items),
          expected,
        );
        assert.ok(fetches <= maxPages);
        assert.equal(pages.at(-1)?.hasMore ?? false, expected.length < total);
      }),
    ));

  it('cursor-based: any sequence of envelopes ends within the cap, and a cursor that stops moving ends it', () =>
    holds(
      fc.asyncProperty(
        fc.array(anyCursorEnvelope, { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 1, max: 30 }),
        async (envelopes, maxPages) => {
          const asked: (string | undefined)[] = [];
          const fetchPage = (request: CursorRequest): Promise<CursorEnvelope> => {
            asked.push(request.after);
            return Promise.resolve(envelopes[(asked.length - 1) % envelopes.length] as CursorEnvelope);
          };
          const pages = await collect(walkCursor(fetchPage, {}, { maxPages }));
          assert.ok(pages.length >= 1 && pages.length <= maxPages && asked.length === pages.length);
          for (let i = 1; i < asked.length; i++) assert.notEqual(asked[i], asked[i - 1], 'the same page is never asked for twice in a row');
        },
      ),
    ));
});
