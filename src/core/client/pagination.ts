// Spec §4.2 pagination conventions as reusable code: request builders for the
// page-based and cursor-based styles, the sort syntax, the §2.5 envelopes, and
// async iterators that walk every page up to a cap.
import { definedOnly } from '../common/definedOnly';
import { isRecord } from '../common/guards';

export const DEFAULT_PAGE_SIZE = 20;
export const DEFAULT_PAGE = 0;
/** Walks stop here unless told otherwise, so a server that never says "last page" cannot loop us forever. */
export const DEFAULT_MAX_PAGES = 50;

export interface SortKey {
  readonly attribute: string;
  readonly direction: 'asc' | 'desc';
}

export type Sort = readonly SortKey[];

export function ascending(attribute: string): SortKey {
  return { attribute, direction: 'asc' };
}

export function descending(attribute: string): SortKey {
  return { attribute, direction: 'desc' };
}

/**
 * Ascending keys get no prefix: "+" means a space in a form-encoded query, so
 * `sort=+name` would reach many servers as " name".
 */
export function renderSort(sort: Sort): string {
  return sort.map((key) => (key.direction === 'desc' ? `-${key.attribute}` : key.attribute)).join(',');
}

export function parseSort(text: string): Sort {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '' && part !== '-' && part !== '+')
    .map((part) => (part.startsWith('-') ? descending(part.slice(1)) : ascending(part.startsWith('+') ? part.slice(1) : part)));
}

export interface PageRequest {
  readonly size?: number;
  readonly page?: number;
  readonly sort?: Sort;
}

export interface CursorRequest {
  readonly before?: string;
  readonly after?: string;
  readonly limit?: number;
  readonly sort?: Sort;
}

export type QueryParameters = ReadonlyArray<readonly [string, string]>;

export function pageQuery(request: PageRequest = {}): QueryParameters {
  const size = request.size ?? DEFAULT_PAGE_SIZE;
  const page = request.page ?? DEFAULT_PAGE;
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`Page size must be a positive integer, not ${size}.`);
  if (!Number.isInteger(page) || page < 0) throw new RangeError(`Page number is 0-based and must be a non-negative integer, not ${page}.`);
  const query: [string, string][] = [
    ['size', String(size)],
    ['page', String(page)],
  ];
  if (request.sort !== undefined && request.sort.length > 0) query.push(['sort', renderSort(request.sort)]);
  return query;
}

/** Query parameters for a cursor-based request; the spec gives no defaults, so absent means unsent. */
export function cursorQuery(request: CursorRequest = {}): QueryParameters {
  if (request.limit !== undefined && (!Number.isInteger(request.limit) || request.limit < 1)) {
    throw new RangeError(`Limit must be a positive integer, not ${request.limit}.`);
  }
  const query: [string, string][] = [];
  if (request.limit !== undefined) query.push(['limit', String(request.limit)]);
  if (request.sort !== undefined && request.sort.length > 0) query.push(['sort', renderSort(request.sort)]);
  if (request.before !== undefined) query.push(['before', request.before]);
  if (request.after !== undefined) query.push(['after', request.after]);
  return query;
}

export function withQuery(url: string, query: QueryParameters): string {
  const parsed = new URL(url);
  for (const [name, value] of query) parsed.searchParams.set(name, value);
  return parsed.toString();
}

export interface PageEnvelope {
  readonly content: readonly unknown[];
  readonly totalPages?: number;
  readonly totalElements?: number;
  readonly number?: number;
  readonly size?: number;
  readonly numberOfElements?: number;
}

export interface CursorEnvelope {
  readonly content: readonly unknown[];
  readonly before?: string;
  readonly after?: string;
  readonly limit?: number;
}

function integerField(body: Record<string, unknown>, name: string): number | undefined {
  const value = body[name];
  return typeof value === 'number' && Number.isInteger(value) ? value : undefined;
}

/**
 * A positive integer, or no hint: a server's `size: 0` must not end the walk in the caller-mistake
 * error of the next request, losing the page already read.
 */
function countField(body: Record<string, unknown>, name: string): number | undefined {
  const value = integerField(body, name);
  return value !== undefined && value > 0 ? value : undefined;
}

function stringField(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

type WithoutUndefined<T> = { [K in keyof T as undefined extends T[K] ? never : K]: T[K] } & {
  [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined>;
};

function withDefined<T extends object>(value: T): WithoutUndefined<T> {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as WithoutUndefined<T>;
}

export function parsePageEnvelope(body: unknown): PageEnvelope | undefined {
  if (!isRecord(body) || !Array.isArray(body['content'])) return undefined;
  const envelope = withDefined({
    content: body['content'] as unknown[],
    totalPages: integerField(body, 'totalPages'),
    totalElements: integerField(body, 'totalElements'),
    number: integerField(body, 'number'),
    size: countField(body, 'size'),
    numberOfElements: integerField(body, 'numberOfElements'),
  });
  return envelope.totalPages !== undefined || envelope.number !== undefined ? envelope : undefined;
}

export function parseCursorEnvelope(body: unknown): CursorEnvelope | undefined {
  if (!isRecord(body) || !Array.isArray(body['content'])) return undefined;
  const envelope = withDefined({
    content: body['content'] as unknown[],
    before: stringField(body, 'before'),
    after: stringField(body, 'after'),
    limit: countField(body, 'limit'),
  });
  // Any integer limit still marks the cursor shape, even one that is no usable hint.
  const saysLimit = integerField(body, 'limit') !== undefined;
  return envelope.before !== undefined || envelope.after !== undefined || saysLimit ? envelope : undefined;
}

export interface WalkedPage {
  readonly items: readonly unknown[];
  readonly index: number;
  /** True when the server indicated more pages after this one. On the last yielded page it means the cap cut the walk short. */
  readonly hasMore: boolean;
}

export interface WalkOptions {
  readonly maxPages?: number;
}

export function pageHasMore(envelope: PageEnvelope, requestedSize?: number): boolean {
  if (envelope.content.length === 0) return false;
  const current = envelope.number ?? 0;
  if (envelope.totalPages !== undefined) return current + 1 < envelope.totalPages;
  // Without totalPages, a full page is the only hint that another may follow.
  const size = envelope.size ?? requestedSize;
  return size !== undefined && envelope.content.length >= size;
}

/** Stops at the last page, an empty page, or after `maxPages`. */
export async function* walkPages(
  fetchPage: (request: PageRequest) => Promise<PageEnvelope>,
  request: PageRequest = {},
  options: WalkOptions = {},
): AsyncGenerator<WalkedPage> {
  const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
  let page = request.page ?? DEFAULT_PAGE;
  for (let index = 0; index < maxPages; index++) {
    const envelope = await fetchPage({ ...request, page });
    const hasMore = pageHasMore(envelope, request.size ?? DEFAULT_PAGE_SIZE);
    yield { items: envelope.content, index, hasMore };
    if (!hasMore) return;
    page = (envelope.number ?? page) + 1;
  }
}

export function cursorHasMore(envelope: CursorEnvelope, requestedLimit?: number, previousAfter?: string): boolean {
  if (envelope.content.length === 0 || envelope.after === undefined) return false;
  // A cursor that does not move would return the same page forever.
  if (envelope.after === previousAfter) return false;
  const limit = envelope.limit ?? requestedLimit;
  return limit === undefined || envelope.content.length >= limit;
}

/** Stops at a short or empty page, a cursor that stops moving, or after `maxPages`. */
export async function* walkCursor(
  fetchPage: (request: CursorRequest) => Promise<CursorEnvelope>,
  request: CursorRequest = {},
  options: WalkOptions = {},
): AsyncGenerator<WalkedPage> {
  const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
  let current = request;
  for (let index = 0; index < maxPages; index++) {
    const envelope = await fetchPage(current);
    const hasMore = cursorHasMore(envelope, current.limit, current.after);
    yield { items: envelope.content, index, hasMore };
    if (!hasMore || envelope.after === undefined) return;
    current = { ...current, after: envelope.after, ...definedOnly({ limit: envelope.limit }) };
  }
}
