// Spec §4.1 GET /events. §4.2 says list endpoints paginate without saying whether /events does, so an
// envelope is followed too, up to a cap, and the result says when the cap cut it.

import { isRecord } from '../../common/guards';
import { describeRequest, errorForApiStatus, invalidInputError, protocolError } from '../errors';
import type { AuthorizedRequests } from '../auth/authorizedRequests';
import type { HttpResponse } from '../http/httpClient';
import { parseRetryAfter } from '../http/retryPolicy';
import { parseJsonBody } from '../jsonBody';
import type { EventsResult, GetEventsOptions, InvalidEvent, OnboardingEvent } from '../model';
import {
  DEFAULT_MAX_PAGES,
  DEFAULT_PAGE_SIZE,
  cursorHasMore,
  cursorQuery,
  pageHasMore,
  pageQuery,
  parseCursorEnvelope,
  parsePageEnvelope,
  walkCursor,
  walkPages,
  withQuery,
  type CursorEnvelope,
  type PageEnvelope,
  type WalkedPage,
} from '../pagination';
import { normalizeSerialNumber } from '../serialNumber';
import type { TimestampUnitSetting } from '../timestamp';
import { dedupeEvents, sortNewestFirst, validateEvents } from '../validateEvents';
import { MAX_BYTES_PER_MACHINE, type EventsBudget } from './eventsBudget';

export const EVENTS_PATH = '/public/api/onboarding-events/events';

export { MAX_BYTES_PER_MACHINE } from './eventsBudget';

/** Spec §4.1: `{base_url}/public/api/onboarding-events/events?serialNumber=…[&timestamp=…]`. */
export function eventsUrl(apiBaseUrl: string, serialNumber: string, timestamp?: number): string {
  const url = new URL(`${apiBaseUrl.replace(/\/+$/, '')}${EVENTS_PATH}`);
  url.searchParams.set('serialNumber', serialNumber);
  if (timestamp !== undefined) url.searchParams.set('timestamp', String(timestamp));
  return url.toString();
}

export interface EventsClientOptions {
  readonly requests: Pick<AuthorizedRequests, 'get'>;
  readonly apiBaseUrl: string;
  readonly timestampUnit: TimestampUnitSetting;
  readonly now: () => number;
  readonly maxBytesPerMachine?: number;
  /** Shared by every machine this client reads: each walk stops at its share and keeps its newest events within it. */
  readonly budget?: EventsBudget;
}

type FirstAnswer =
  | { readonly kind: 'events'; readonly events: readonly unknown[] }
  | { readonly kind: 'page'; readonly envelope: PageEnvelope }
  | { readonly kind: 'cursor'; readonly envelope: CursorEnvelope };

export class EventsClient {
  constructor(private readonly options: EventsClientOptions) {}

  async getEvents(serialInput: string, options: GetEventsOptions = {}): Promise<EventsResult> {
    const serialNumber = normalizeSerialNumber(serialInput);
    if (options.timestamp !== undefined && !Number.isSafeInteger(options.timestamp)) {
      throw invalidInputError((t) => t('The timestamp filter must be a whole number (spec §4.1: int64).'));
    }
    const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
    const baseUrl = eventsUrl(this.options.apiBaseUrl, serialNumber, options.timestamp);
    // A filtered answer is kept apart from the full one (eventsCache.ts), so it holds memory of its own.
    const key = options.timestamp === undefined ? serialNumber : `${serialNumber}\u0000${options.timestamp}`;
    this.options.budget?.enter(key);
    const allowance = (): number =>
      Math.min(this.options.maxBytesPerMachine ?? MAX_BYTES_PER_MACHINE, this.options.budget?.allowance(key) ?? Number.POSITIVE_INFINITY);
    const budget = { bytes: 0, items: 0 };
    const first = this.#classify(await this.#fetchJson(baseUrl, serialNumber, options, budget), baseUrl);
    const withinBudget = (): boolean => budget.bytes < allowance();

    const pages: WalkedPage[] = [];
    if (first.kind === 'events') {
      pages.push({ items: first.events, index: 0, hasMore: false });
    } else if (first.kind === 'page') {
      const { envelope } = first;
      const size = envelope.size ?? DEFAULT_PAGE_SIZE;
      const hasMore = pageHasMore(envelope, size);
      pages.push({ items: envelope.content, index: 0, hasMore });
      // A walk of maxPages - 1 further pages: none when the cap is 1.
      if (hasMore && withinBudget()) {
        const fetchPage = async (request: Parameters<typeof pageQuery>[0]): Promise<PageEnvelope> => {
          const url = withQuery(baseUrl, pageQuery(request));
          const next = parsePageEnvelope(await this.#fetchJson(url, serialNumber, options, budget));
          if (next === undefined)
            throw protocolError(describeRequest('GET', url), (t) =>
              t('A later page of events did not come in the page-based envelope the first page used.'),
            );
          return next;
        };
        for await (const page of walkPages(fetchPage, { page: (envelope.number ?? 0) + 1, size }, { maxPages: maxPages - 1 })) {
          pages.push(page);
          if (!withinBudget()) break;
        }
      }
    } else {
      const { envelope } = first;
      const hasMore = cursorHasMore(envelope);
      pages.push({ items: envelope.content, index: 0, hasMore });
      if (hasMore && envelope.after !== undefined && withinBudget()) {
        const fetchPage = async (request: Parameters<typeof cursorQuery>[0]): Promise<CursorEnvelope> => {
          const url = withQuery(baseUrl, cursorQuery(request));
          const body = await this.#fetchJson(url, serialNumber, options, budget);
          // The last page of a cursor walk may carry no cursor attribute at all, only content.
          const next = parseCursorEnvelope(body) ?? contentOnly(body);
          if (next === undefined)
            throw protocolError(describeRequest('GET', url), (t) =>
              t('A later page of events did not come in the cursor-based envelope the first page used.'),
            );
          return next;
        };
        const start = envelope.limit !== undefined ? { after: envelope.after, limit: envelope.limit } : { after: envelope.after };
        for await (const page of walkCursor(fetchPage, start, { maxPages: maxPages - 1 })) {
          pages.push(page);
          if (!withinBudget()) break;
        }
      }
    }
    for (const page of pages) budget.items += page.items.length;
    return this.#kept(key, this.#result(serialNumber, pages), budget, allowance());
  }

  /**
   * Within the machine's share: the newest events the share holds (at least the newest one), at the answer's
   * mean bytes per event; the rest are counted as not shown. What is kept is what the machine holds.
   */
  #kept(key: string, result: EventsResult, read: { readonly bytes: number; readonly items: number }, allowance: number): EventsResult {
    const perEvent = read.items === 0 ? 0 : read.bytes / read.items;
    const fits =
      read.bytes <= allowance || perEvent === 0
        ? Number.POSITIVE_INFINITY
        : Math.max(1, Math.floor(allowance / perEvent) - result.invalid.length);
    const kept =
      fits >= result.events.length
        ? result
        : { ...result, events: result.events.slice(0, fits), truncated: true, notShown: result.events.length - fits };
    this.options.budget?.hold(key, Math.round(perEvent * (kept.events.length + kept.invalid.length)));
    return kept;
  }

  #result(serialNumber: string, pages: readonly WalkedPage[]): EventsResult {
    let valid: OnboardingEvent[] = [];
    const invalid: InvalidEvent[] = [];
    let offset = 0;
    for (const page of pages) {
      const checked = validateEvents(page.items, { serialNumber, timestampUnit: this.options.timestampUnit, indexOffset: offset });
      // One by one: push(...spread) passes every element as an argument and throws RangeError at ~150k.
      for (const event of checked.events) valid.push(event);
      for (const bad of checked.invalid) invalid.push(bad);
      offset += page.items.length;
    }
    // Pages of a list that changes while we walk it can overlap; a single answer is kept as sent.
    if (pages.length > 1) valid = dedupeEvents(valid);
    return {
      serialNumber,
      events: sortNewestFirst(valid),
      invalid,
      fetchedAt: this.options.now(),
      truncated: pages.at(-1)?.hasMore ?? false,
    };
  }

  #classify(body: unknown, url: string): FirstAnswer {
    const request = describeRequest('GET', url);
    if (!isRecord(body)) {
      throw protocolError(request, (t) => t('The events answer is not a JSON object (spec §2.1 expects an object with an "events" list).'));
    }
    const events = body['events'];
    if (Array.isArray(events)) return { kind: 'events', events };
    if (events !== undefined && events !== null)
      throw protocolError(request, (t) => t('The events answer has an "events" field that is not a list.'));
    const page = parsePageEnvelope(body);
    if (page !== undefined) return { kind: 'page', envelope: page };
    const cursor = parseCursorEnvelope(body);
    if (cursor !== undefined) return { kind: 'cursor', envelope: cursor };
    const content = body['content'];
    if (Array.isArray(content)) return { kind: 'events', events: content };
    // Spec §2.1: `events` is optional, so an object without it is an empty list.
    return { kind: 'events', events: [] };
  }

  async #fetchJson(url: string, serialNumber: string, options: GetEventsOptions, budget: { bytes: number }): Promise<unknown> {
    const response = await this.options.requests.get(url, options.signal, undefined, options.priority);
    this.#throwUnlessOk(response, serialNumber);
    budget.bytes += response.body.byteLength;
    const json = parseJsonBody(response.body, response.headers['content-type'], (t) => t('The events API'));
    if (!json.ok) throw protocolError(describeRequest('GET', url), json.problem, response.status);
    return json.value;
  }

  #throwUnlessOk(response: HttpResponse, serialNumber: string): void {
    if (response.status >= 200 && response.status < 300) return;
    const retryAfterMs = parseRetryAfter(response.headers['retry-after'], this.options.now());
    throw errorForApiStatus(describeRequest('GET', response.url), response.status, retryAfterMs, (t) =>
      t("Serial number '{0}'", serialNumber),
    );
  }
}

function contentOnly(body: unknown): CursorEnvelope | undefined {
  return isRecord(body) && Array.isArray(body['content']) ? { content: body['content'] as unknown[] } : undefined;
}
