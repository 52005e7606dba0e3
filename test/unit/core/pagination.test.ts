import * as assert from 'node:assert/strict';
import {
  ascending,
  cursorHasMore,
  cursorQuery,
  descending,
  pageHasMore,
  pageQuery,
  parseCursorEnvelope,
  parsePageEnvelope,
  parseSort,
  renderSort,
  walkCursor,
  walkPages,
  withQuery,
  type CursorEnvelope,
  type CursorRequest,
  type PageEnvelope,
  type PageRequest,
} from '../../../src/core/client/pagination';
import { makeEvent, startFakeApi, type FakeApi } from '../../support/fakeApi';
import { CREDENTIALS } from './testClient';

const SERIAL = 'PAGED-0001';

/** Sixty events whose message is their position, so a page's content says which elements it holds. */
function sixtyEvents(): unknown[] {
  return Array.from({ length: 60 }, (_, index) => makeEvent({ type: 'STEP', message: String(index), timestamp: 1_736_928_000 + index }));
}

/** A bare fetch against the fake, so these tests exercise the pagination module alone. */
async function getJson(api: FakeApi, query: readonly (readonly [string, string])[]): Promise<unknown> {
  const tokenResponse = await fetch(`${api.authUrl}/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${encodeURIComponent(CREDENTIALS.clientId)}:${encodeURIComponent(CREDENTIALS.clientSecret)}`).toString('base64')}`,
    },
    body: new URLSearchParams({ grant_type: 'password', username: CREDENTIALS.username, password: CREDENTIALS.password, scope: 'api' }),
  });
  const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
  const url = withQuery(`${api.baseUrl}/public/api/onboarding-events/events?serialNumber=${SERIAL}`, query);
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  return response.json();
}

function messages(items: readonly unknown[]): string[] {
  return items.map((item) => (item as { message: string }).message);
}

describe('pagination (spec §4.2)', () => {
  describe('request builders', () => {
    it('page-based defaults are size 20 and page 0', () => {
      assert.deepEqual(pageQuery(), [
        ['size', '20'],
        ['page', '0'],
      ]);
    });

    it('§4.2 worked example: size=25, page=1, sort=name,-description', () => {
      const query = pageQuery({ size: 25, page: 1, sort: [ascending('name'), descending('description')] });
      assert.deepEqual(query, [
        ['size', '25'],
        ['page', '1'],
        ['sort', 'name,-description'],
      ]);
      const url = new URL(withQuery('https://api.example/list', query));
      assert.equal(url.searchParams.get('sort'), 'name,-description');
    });

    it('§4.2 worked example: limit=20, sort=-displayName, after=<cursor>', () => {
      assert.deepEqual(cursorQuery({ limit: 20, sort: [descending('displayName')], after: 'abc' }), [
        ['limit', '20'],
        ['sort', '-displayName'],
        ['after', 'abc'],
      ]);
    });

    it('cursor-based parameters are all optional and unsent by default', () => {
      assert.deepEqual(cursorQuery(), []);
      assert.deepEqual(cursorQuery({ before: 'b1' }), [['before', 'b1']]);
    });

    it('refuses sizes, pages and limits the spec cannot mean', () => {
      assert.throws(() => pageQuery({ size: 0 }), RangeError);
      assert.throws(() => pageQuery({ page: -1 }), RangeError);
      assert.throws(() => cursorQuery({ limit: 2.5 }), RangeError);
    });

    it('renders ascending keys without "+" (a space in a form-encoded query) and parses "+" back', () => {
      assert.equal(renderSort([ascending('a'), descending('b'), ascending('c')]), 'a,-b,c');
      assert.deepEqual(parseSort('+name, -description,,'), [ascending('name'), descending('description')]);
    });
    it('says which size, page or limit it refuses, and why', () => {
      assert.throws(() => pageQuery({ size: 0 }), { name: 'RangeError', message: 'Page size must be a positive integer, not 0.' });
      assert.throws(() => pageQuery({ page: -1 }), {
        name: 'RangeError',
        message: 'Page number is 0-based and must be a non-negative integer, not -1.',
      });
      assert.throws(() => cursorQuery({ limit: 0 }), { name: 'RangeError', message: 'Limit must be a positive integer, not 0.' });
    });

    it('a size or limit of 1 is the smallest allowed', () => {
      assert.deepEqual(pageQuery({ size: 1 }), [
        ['size', '1'],
        ['page', '0'],
      ]);
      assert.deepEqual(cursorQuery({ limit: 1 }), [['limit', '1']]);
    });

    it('an empty sort sends no sort parameter', () => {
      assert.deepEqual(pageQuery({ sort: [] }), [
        ['size', '20'],
        ['page', '0'],
      ]);
      assert.deepEqual(cursorQuery({ sort: [] }), []);
    });

    const sorts: readonly [string, ReturnType<typeof parseSort>][] = [
      ['name', [ascending('name')]],
      ['-', []],
      ['+', []],
      ['', []],
      [' - , + ,,name', [ascending('name')]],
      ['-a,+b,c', [descending('a'), ascending('b'), ascending('c')]],
    ];
    for (const [text, expected] of sorts) {
      it(`parseSort(${JSON.stringify(text)}) reads ${JSON.stringify(renderSort(expected))}, dropping empty and sign-only keys`, () => {
        assert.deepEqual(parseSort(text), expected);
      });
    }
  });

  describe('envelopes (spec §2.5)', () => {
    it('recognises a page-based envelope and ignores fields of the wrong type', () => {
      assert.deepEqual(parsePageEnvelope({ content: [1], totalPages: 3, number: 0, size: 'x' }), {
        content: [1],
        totalPages: 3,
        number: 0,
      });
      assert.equal(parsePageEnvelope({ content: [1] }), undefined);
      assert.equal(parsePageEnvelope({ events: [] }), undefined);
    });

    it('keeps every page attribute of the right type', () => {
      assert.deepEqual(
        parsePageEnvelope({ content: [1], totalPages: 3, totalElements: 41, number: 2, size: 20, numberOfElements: 1, extra: 'x' }),
        { content: [1], totalPages: 3, totalElements: 41, number: 2, size: 20, numberOfElements: 1 },
      );
      assert.deepEqual(parseCursorEnvelope({ content: [1], before: 'b', after: 'a', limit: 5, extra: 'x' }), {
        content: [1],
        before: 'b',
        after: 'a',
        limit: 5,
      });
    });

    it('totalPages alone or number alone makes a page-based envelope', () => {
      assert.deepEqual(parsePageEnvelope({ content: [], totalPages: 0 }), { content: [], totalPages: 0 });
      assert.deepEqual(parsePageEnvelope({ content: [], number: 0 }), { content: [], number: 0 });
      assert.equal(parsePageEnvelope({ content: [], size: 20, totalElements: 0, numberOfElements: 0 }), undefined);
    });

    it('any one of before, after and limit makes a cursor-based envelope; an empty cursor counts as none', () => {
      assert.deepEqual(parseCursorEnvelope({ content: [], before: 'b' }), { content: [], before: 'b' });
      assert.deepEqual(parseCursorEnvelope({ content: [], limit: 5 }), { content: [], limit: 5 });
      assert.equal(parseCursorEnvelope({ content: [], after: '', before: '' }), undefined);
      assert.deepEqual(parseCursorEnvelope({ content: [], after: '', limit: 5 }), { content: [], limit: 5 });
    });

    it('recognises a cursor-based envelope from some of its attributes', () => {
      assert.deepEqual(parseCursorEnvelope({ content: [], after: 'a' }), { content: [], after: 'a' });
      assert.equal(parseCursorEnvelope({ content: [] }), undefined);
    });
  });

  describe('over HTTP against the fake service', () => {
    let api: FakeApi;
    beforeEach(async () => {
      api = await startFakeApi();
      api.setMachineEvents(SERIAL, sixtyEvents());
    });
    afterEach(() => api.close());

    it('§4.2 worked example: size=25, page=1 returns the second page of at most 25 elements', async () => {
      api.configure({ envelope: 'page' });
      const envelope = parsePageEnvelope(
        await getJson(api, pageQuery({ size: 25, page: 1, sort: [ascending('name'), descending('description')] })),
      );
      assert.ok(envelope);
      assert.equal(envelope.number, 1);
      assert.deepEqual(
        messages(envelope.content),
        Array.from({ length: 25 }, (_, index) => String(25 + index)),
      );
      assert.equal(api.eventRequests(SERIAL)[0]?.query['sort'], 'name,-description');
    });

    it('§4.2 worked example: limit=20, after=<cursor> returns the next 20 elements after the previous result', async () => {
      api.configure({ envelope: 'cursor' });
      const first = parseCursorEnvelope(await getJson(api, cursorQuery({ limit: 20, sort: [descending('displayName')] })));
      assert.ok(first?.after !== undefined);
      const next = parseCursorEnvelope(
        await getJson(api, cursorQuery({ limit: 20, sort: [descending('displayName')], after: first.after })),
      );
      assert.ok(next);
      assert.deepEqual(
        messages(next.content),
        Array.from({ length: 20 }, (_, index) => String(20 + index)),
      );
      assert.equal(api.eventRequests(SERIAL)[1]?.query['sort'], '-displayName');
    });

    it('walkPages visits every page once and stops at the last', async () => {
      api.configure({ envelope: 'page' });
      const fetchPage = async (request: PageRequest): Promise<PageEnvelope> =>
        parsePageEnvelope(await getJson(api, pageQuery(request))) ?? assert.fail('not a page envelope');
      const seen: string[] = [];
      let pages = 0;
      for await (const page of walkPages(fetchPage, { size: 25 })) {
        seen.push(...messages(page.items));
        pages++;
      }
      assert.equal(pages, 3);
      assert.deepEqual(
        seen,
        Array.from({ length: 60 }, (_, index) => String(index)),
      );
    });

    it('walkCursor follows `after` until the server stops giving one', async () => {
      api.configure({ envelope: 'cursor' });
      const fetchPage = async (request: CursorRequest): Promise<CursorEnvelope> =>
        parseCursorEnvelope(await getJson(api, cursorQuery(request))) ?? assert.fail('not a cursor envelope');
      const seen: string[] = [];
      for await (const page of walkCursor(fetchPage, { limit: 25 })) seen.push(...messages(page.items));
      assert.deepEqual(
        seen,
        Array.from({ length: 60 }, (_, index) => String(index)),
      );
    });

    it('a walk stops at the page cap and its last page says more were left', async () => {
      api.configure({ envelope: 'page' });
      const fetchPage = async (request: PageRequest): Promise<PageEnvelope> =>
        parsePageEnvelope(await getJson(api, pageQuery(request))) ?? assert.fail('not a page envelope');
      const pages = [];
      for await (const page of walkPages(fetchPage, { size: 10 }, { maxPages: 2 })) pages.push(page);
      assert.equal(pages.length, 2);
      assert.equal(pages.at(-1)?.hasMore, true);
      assert.equal(api.eventRequests(SERIAL).length, 2);
    });
  });

  describe('without a server', () => {
    const pageCases: readonly [string, PageEnvelope, number | undefined, boolean][] = [
      ['an empty page, even when totalPages says more', { content: [], number: 0, totalPages: 5 }, 20, false],
      ['a page before the last by totalPages', { content: [1], number: 3, totalPages: 5 }, 20, true],
      ['the last page by totalPages', { content: [1], number: 4, totalPages: 5 }, 20, false],
      ['a full page without totalPages', { content: [1, 2], number: 0 }, 2, true],
      ['a short page without totalPages', { content: [1], number: 0 }, 2, false],
      ['a page without totalPages or any size', { content: [1], number: 0 }, undefined, false],
      ["the server's size over the requested one", { content: [1, 2], number: 0, size: 3 }, 2, false],
    ];
    for (const [name, envelope, requested, expected] of pageCases) {
      it(`pageHasMore: ${name} -> ${expected}`, () => {
        assert.equal(pageHasMore(envelope, requested), expected);
      });
    }

    const cursorCases: readonly [string, CursorEnvelope, number | undefined, string | undefined, boolean][] = [
      ['an empty page with a cursor', { content: [], after: 'x' }, undefined, undefined, false],
      ['a page without a cursor', { content: [1] }, undefined, undefined, false],
      ['a page whose cursor did not move', { content: [1], after: 'x' }, undefined, 'x', false],
      ['a page with a new cursor and no limit anywhere', { content: [1], after: 'y' }, undefined, 'x', true],
      ['a page shorter than the requested limit', { content: [1, 2], after: 'y' }, 5, undefined, false],
      ['a page as long as the requested limit', { content: [1, 2], after: 'y' }, 2, undefined, true],
      ["a page shorter than the server's limit", { content: [1], after: 'y', limit: 2 }, 1, undefined, false],
    ];
    for (const [name, envelope, limit, previous, expected] of cursorCases) {
      it(`cursorHasMore: ${name} -> ${expected}`, () => {
        assert.equal(cursorHasMore(envelope, limit, previous), expected);
      });
    }

    it("walkCursor asks for the next page with the server's limit, or keeps its own when the server names none", async () => {
      const replies: CursorEnvelope[] = [
        { content: [1, 2], after: 'a' },
        { content: [3, 4, 5], after: 'b', limit: 3 },
        { content: [6], after: 'c' },
      ];
      const asked: CursorRequest[] = [];
      const fetchPage = (request: CursorRequest): Promise<CursorEnvelope> => {
        asked.push(request);
        return Promise.resolve(replies[asked.length - 1] ?? { content: [] });
      };
      const pages = [];
      for await (const page of walkCursor(fetchPage, { limit: 2 })) pages.push(page);
      assert.deepEqual(asked, [{ limit: 2 }, { limit: 2, after: 'a' }, { limit: 3, after: 'b' }]);
      assert.deepEqual(
        pages.map((page) => page.hasMore),
        [true, true, false],
      );
    });

    it('walkCursor stops when the cursor does not move', async () => {
      let calls = 0;
      const stuck = (): Promise<CursorEnvelope> => {
        calls++;
        return Promise.resolve({ content: [1, 2], after: 'same', limit: 2 });
      };
      const pages = [];
      for await (const page of walkCursor(stuck, { after: 'same' })) pages.push(page);
      assert.equal(calls, 1);
      assert.equal(pages[0]?.hasMore, false);
    });

    it('walkPages without totalPages stops at the first short page', async () => {
      const sizes = [20, 20, 7];
      const fetchPage = (request: PageRequest): Promise<PageEnvelope> =>
        Promise.resolve({ content: new Array<number>(sizes[request.page ?? 0] ?? 0).fill(0), number: request.page ?? 0 });
      let pages = 0;
      for await (const page of walkPages(fetchPage)) pages += page.items.length > 0 ? 1 : 0;
      assert.equal(pages, 3);
    });
  });
});
