import * as assert from 'node:assert/strict';
import {
  ascending,
  cursorQuery,
  descending,
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
} from '../../../src/core/pagination';
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
