// Test Connection's last stages: the client's own token and events requests,
// each one attempt within its deadline, over the client's own transport
// (watched, to show each exchange's status). Nothing secret enters the report:
// credentials go only to the client; the token response is read for
// expires_in, scope and token_type only.
//
// A 404 to the events request is the API's "no such machine" only when it can
// be told from a wrong base URL (the spec shows neither answer): see judgeNotFound.

import { randomBytes } from 'node:crypto';
import { definedOnly } from '../common/definedOnly';
import type { Localize } from '../common/localize';
import type { CredentialsProvider } from './auth/tokenClient';
import { isApiError } from './errors';
import { eventsUrl } from './events/eventsClient';
import { redactUrl, type RequestLogger } from './http/httpClient';
import type { Transport, TransportOptions, TransportRequest, TransportResponse } from './http/transport';
import { literal, verdictOf, type CheckStage, type Verdict } from './connectionReport';
import { PROBE_SERIAL_NUMBER, timed, type Check } from './connectionStages';
import { DEFAULT_HTTP_SETTINGS, OnboardingClient, type HttpSettings } from './onboardingClient';

/** What the token and events requests need of the check's input (ConnectionCheckInput). */
export interface RequestsInput {
  readonly apiBaseUrl: string;
  readonly authUrl: string;
  readonly serialNumber?: string;
  readonly signal?: AbortSignal;
  /** The transport of the token and events requests; the client's own (createTransport, by `http.engine`) unless a test passes one. */
  readonly createTransport?: (options: TransportOptions) => Transport;
  /** Each access token as it arrives (the log's redactor learns it); never kept here. */
  readonly onToken?: (value: string) => void;
  /** Each request of the client, for a log (oe --debug). */
  readonly onRequest?: RequestLogger;
}

export function tokenTitle(authUrl: string, t: Localize): string {
  return t('Token request POST {0}', redactUrl(`${authUrl.replace(/\/+$/, '')}/token`));
}

/** A URL as the report shows a request's: its query left out (the serial number is named beside it), no credentials. */
function requestedUrl(url: string): string {
  const parsed = new URL(url);
  parsed.search = '';
  return redactUrl(parsed.toString());
}

export function eventsTitle(apiBaseUrl: string, serialNumber: string | undefined, t: Localize): string {
  const serial = serialNumber ?? PROBE_SERIAL_NUMBER;
  // The URL the client requests (eventsUrl builds it), never one it does not.
  let url: string;
  try {
    url = requestedUrl(eventsUrl(apiBaseUrl, serial));
  } catch {
    url = t('(not a valid URL)');
  }
  return t('Events request GET {0} for serial number {1}', url, literal(serial));
}

/** What a GET's answer looks like, to tell one server's handler from another's: never shown, never kept past the check. */
interface Answer {
  readonly status: number;
  /** The media type of Content-Type, lower case; '' when absent. */
  readonly media: string;
  readonly kind: 'html' | 'json' | 'text' | 'empty';
  /** A JSON object's top-level names, sorted and joined; '' for anything else. */
  readonly keys: string;
  /** The body as text, at most MAX_ANSWER_TEXT characters. */
  readonly text: string;
}

const MAX_ANSWER_TEXT = 64 * 1024;

function answerOf(response: TransportResponse): Answer {
  const media = (response.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const text = new TextDecoder('utf-8').decode(response.body.subarray(0, MAX_ANSWER_TEXT * 4)).slice(0, MAX_ANSWER_TEXT);
  const start = text.trimStart().slice(0, 64).toLowerCase();
  const base = { status: response.status, media, text };
  if (media.includes('html') || start.startsWith('<!doctype') || start.startsWith('<html')) return { ...base, kind: 'html', keys: '' };
  if (text.trim() === '') return { ...base, kind: 'empty', keys: '' };
  try {
    const parsed: unknown = JSON.parse(text);
    const keys = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? Object.keys(parsed).sort().join(',') : '';
    return { ...base, kind: 'json', keys };
  } catch {
    return { ...base, kind: 'text', keys: '' };
  }
}

interface Exchange {
  readonly method: string;
  readonly url: string;
  readonly status?: number;
  /** From a token response: what the report may show of it. */
  readonly token?: { readonly expiresIn?: unknown; readonly scope?: unknown; readonly tokenType?: unknown };
  /** A GET's request and answer, kept for the comparison requests (see judgeNotFound). */
  readonly get?: { readonly request: TransportRequest; readonly answer: Answer };
}

/** The client's transport, recording every exchange's status, and of the token response only its harmless fields. */
class RecordingTransport implements Transport {
  readonly exchanges: Exchange[] = [];

  constructor(
    private readonly inner: Transport,
    private readonly tokenUrl: string,
  ) {}

  async request(request: TransportRequest): Promise<TransportResponse> {
    const response = await this.inner.request(request);
    const exchange: Exchange = { method: request.method, url: request.url, status: response.status };
    this.exchanges.push(
      request.method === 'POST' && request.url === this.tokenUrl
        ? { ...exchange, token: tokenFields(response.body) }
        : request.method === 'GET'
          ? { ...exchange, get: { request, answer: answerOf(response) } }
          : exchange,
    );
    return response;
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

function tokenFields(body: Uint8Array): NonNullable<Exchange['token']> {
  try {
    const parsed: unknown = JSON.parse(new TextDecoder('utf-8').decode(body));
    if (typeof parsed !== 'object' || parsed === null) return {};
    const { expires_in: expiresIn, scope, token_type: tokenType } = parsed as Record<string, unknown>;
    return { expiresIn, scope, tokenType };
  } catch {
    return {};
  }
}

function clientTransport(options: TransportOptions): Transport {
  // The client's own transport for `engine`, loaded lazily like the client's (esbuild keeps it a separate bundle).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('./http/undiciTransport') as typeof import('./http/undiciTransport')).createTransport(options);
}

export async function checkRequests(
  check: Check,
  input: RequestsInput,
  credentials: CredentialsProvider,
  http: HttpSettings,
  env: Readonly<NodeJS.ProcessEnv>,
): Promise<void> {
  const { t } = check;
  const tokenUrl = `${input.authUrl.replace(/\/+$/, '')}/token`;
  const transportOptions: TransportOptions = {
    ...definedOnly({
      proxy: http.proxy,
      proxyStrictSSL: http.proxyStrictSSL,
      noProxy: http.noProxy,
      proxyAuthorization: http.proxyAuthorization,
      systemCertificates: http.systemCertificates,
      caCertificatesFile: http.caCertificatesFile,
      lookup: http.lookup,
      engine: http.engine,
    }),
    connectTimeoutMs: Math.min(http.connectTimeoutMs ?? DEFAULT_HTTP_SETTINGS.connectTimeoutMs, check.limits.connectMs),
    connectionsPerOrigin: 2,
    env,
  };
  const transport = new RecordingTransport((input.createTransport ?? clientTransport)(transportOptions), tokenUrl);
  const client = new OnboardingClient({
    apiBaseUrl: input.apiBaseUrl,
    authUrl: input.authUrl,
    credentials,
    http: {
      ...http,
      maxRetries: 0,
      requestTimeoutMs: Math.min(http.requestTimeoutMs ?? DEFAULT_HTTP_SETTINGS.requestTimeoutMs, check.limits.requestMs),
    },
    transport,
    ...definedOnly({ onToken: input.onToken, onRequest: input.onRequest }),
  });
  try {
    const token = await timed(() => client.verifyCredentials(input.signal));
    const tokenExchange = transport.exchanges.find((exchange) => exchange.token !== undefined);
    if ('error' in token) {
      if (input.signal?.aborted === true) return;
      const message = isApiError(token.error) ? check.wording.error(token.error, t) : t('The token request failed.');
      const status = tokenExchange?.status;
      check.record(
        {
          title: tokenTitle(input.authUrl, t),
          status: 'failed',
          summary: status === undefined ? t('no answer.') : `HTTP ${status}.`,
          details: [message],
          durationMs: token.ms,
        },
        verdictOf(message),
      );
      check.skip(eventsTitle(input.apiBaseUrl, input.serialNumber, t), t('needs a token'));
      return;
    }
    const fields = tokenExchange?.token ?? {};
    // The token's facts as items of a list, each its own message.
    const expires = typeof fields.expiresIn === 'number' ? t('expires_in {0} s', fields.expiresIn) : t('no expires_in (1 hour assumed)');
    const scope = typeof fields.scope === 'string' ? t('scope {0}', literal(fields.scope)) : t('no scope named');
    const tokenStatus = tokenExchange?.status ?? 200;
    check.record({
      title: tokenTitle(input.authUrl, t),
      status: 'ok',
      summary:
        typeof fields.tokenType === 'string'
          ? t('HTTP {0}: {1} token, {2}, {3}. The token itself is not shown.', tokenStatus, literal(fields.tokenType), expires, scope)
          : t('HTTP {0}: a token, {1}, {2}. The token itself is not shown.', tokenStatus, expires, scope),
      details: [],
      durationMs: token.ms,
    });

    const before = transport.exchanges.length;
    const serial = input.serialNumber ?? PROBE_SERIAL_NUMBER;
    const events = await timed(() => client.getEvents(serial, { ...definedOnly({ signal: input.signal }), maxPages: 1 }));
    const made = transport.exchanges.slice(before);
    const status = made.at(-1)?.status;
    const requests = made.length;
    if ('error' in events) {
      if (input.signal?.aborted === true) return;
      const error = events.error;
      const notFound = made.at(-1)?.get;
      if (isApiError(error) && error.kind === 'not-found' && notFound !== undefined) {
        await judgeNotFound(
          check,
          transport,
          notFound,
          { title: eventsTitle(input.apiBaseUrl, input.serialNumber, t), serial, requests, ms: events.ms },
          input.signal,
        );
        return;
      }
      const message = isApiError(error) ? check.wording.error(error, t) : t('The events request failed.');
      check.record(
        {
          title: eventsTitle(input.apiBaseUrl, input.serialNumber, t),
          status: 'failed',
          summary: status === undefined ? t('no answer.') : `HTTP ${status}.`,
          details: [message],
          durationMs: events.ms,
        },
        verdictOf(message),
      );
      return;
    }
    check.record({
      title: eventsTitle(input.apiBaseUrl, input.serialNumber, t),
      status: 'ok',
      summary: eventsSummary(status ?? 200, events.value.events.length, requests, t),
      details: [],
      durationMs: events.ms,
    });
  } finally {
    client.dispose();
  }
}

/** "HTTP 200: 3 events.": one whole message for one event and for many, with and without the count of requests. */
function eventsSummary(status: number, count: number, requests: number, t: Localize): string {
  if (requests > 1) {
    return count === 1
      ? t('HTTP {0}: 1 event in {1} requests.', status, requests)
      : t('HTTP {0}: {1} events in {2} requests.', status, count, requests);
  }
  return count === 1 ? t('HTTP {0}: 1 event.', status) : t('HTTP {0}: {1} events.', status, count);
}

/** A path no API has, under the same base as the events path, so a server's answer for unknown paths can be seen. */
function elsewhereUrl(eventsRequestUrl: string): string {
  const url = new URL(eventsRequestUrl);
  url.pathname = url.pathname.replace(/[^/]*$/, `connection-test-${randomBytes(6).toString('hex')}`);
  return url.toString();
}

function mentions(answer: Answer, serial: string): boolean {
  return answer.text.includes(serial) || answer.text.includes(encodeURIComponent(serial));
}

/**
 * The events request was answered 404. The spec shows neither what the API answers for a serial
 * number it does not know nor its error bodies, and a wrong base URL gets a 404 too, so the answer
 * is compared with two more (each its own stage): the same request without the token (the API
 * requires one, so it cannot answer "no such machine" without it) and the same request on a path
 * the API does not have. The API is confirmed only by an answer a wrong address cannot give; it
 * is refused on an HTML page or when every path answers alike with or without the token; anything
 * else is said to be undecided.
 */
async function judgeNotFound(
  check: Check,
  transport: RecordingTransport,
  events: { readonly request: TransportRequest; readonly answer: Answer },
  stage: { readonly title: string; readonly serial: string; readonly requests: number; readonly ms: number },
  signal: AbortSignal | undefined,
): Promise<void> {
  const { t } = check;
  const { answer } = events;
  const shownSerial = literal(stage.serial);
  const record = (status: CheckStage['status'], summary: string, verdict?: Verdict): void => {
    check.record({ title: stage.title, status, summary, details: [], durationMs: stage.ms }, verdict);
  };
  const notTheApi = (why: string): Verdict => ({
    ok: false,
    headline: t('The API was not found at this address.'),
    advice: t(
      '{0} Check the API base URL: it is the address the path /public/api/onboarding-events/events is added to, as your administrator gave it.',
      why,
    ),
  });
  if (answer.kind === 'html') {
    record(
      'failed',
      t('HTTP {0} with a web page: not the API.', answer.status),
      notTheApi(t('The events request was answered with a web page, which the API does not send.')),
    );
    return;
  }
  // The events answer is first; the comparisons follow it in the report, in the order they were made.
  const first = check.stages.length;
  const compare = async (title: string, url: string, headers: Readonly<Record<string, string>>): Promise<Answer | undefined> => {
    // The events request's deadlines and size cap, never its signal: that one was the client's, for that request.
    const { method, timeouts, maxBytes } = events.request;
    const request: TransportRequest = { method, url, headers, timeouts, maxBytes, ...definedOnly({ signal }) };
    const made = await timed(() => transport.request(request));
    const got = 'value' in made ? answerOf(made.value) : undefined;
    check.record({
      title,
      status: got === undefined ? 'failed' : 'ok',
      summary: got === undefined ? t('no answer.') : `HTTP ${got.status}.`,
      details: [],
      durationMs: made.ms,
    });
    return got;
  };
  const withoutToken = Object.fromEntries(
    Object.entries(events.request.headers).filter(([name]) => name.toLowerCase() !== 'authorization'),
  );
  const unguarded = await compare(
    t('Comparison request GET {0} for serial number {1} without the token', requestedUrl(events.request.url), shownSerial),
    events.request.url,
    withoutToken,
  );
  const otherUrl = elsewhereUrl(events.request.url);
  const elsewhere = await compare(
    t('Comparison request GET {0} for serial number {1}, a path the API does not have', requestedUrl(otherUrl), shownSerial),
    otherUrl,
    events.request.headers,
  );
  if (signal?.aborted === true) return;
  const comparisons = check.stages.splice(first);

  const guarded = unguarded !== undefined && (unguarded.status === 401 || unguarded.status === 403);
  const alike =
    elsewhere !== undefined && elsewhere.status === answer.status && elsewhere.media === answer.media && elsewhere.keys === answer.keys;
  const namesSerial = mentions(answer, stage.serial) && elsewhere !== undefined && !mentions(elsewhere, stage.serial);
  if (guarded && (namesSerial || !alike)) {
    record(
      'ok',
      stage.requests > 1
        ? t('HTTP {0}: the API answered (no machine with this serial number) in {1} requests.', answer.status, stage.requests)
        : t('HTTP {0}: the API answered (no machine with this serial number).', answer.status),
    );
  } else if (alike && unguarded?.status === answer.status) {
    record(
      'failed',
      t('HTTP {0}: not the API.', answer.status),
      notTheApi(t('Every path tried answers HTTP {0} alike, with the token and without it; the API requires a token.', answer.status)),
    );
  } else {
    record('unclear', t('HTTP {0}: cannot tell whether the API answered.', answer.status), {
      ok: false,
      unclear: true,
      headline: t('Cannot tell whether the API is at this address.'),
      advice: t(
        'The events request was answered HTTP {0}, which the API may send for a serial number it does not know, but so may a server at a wrong address. Look up a machine you know is onboarded: if its events show, the address is right; if not, check the API base URL.',
        answer.status,
      ),
    });
  }
  check.stages.push(...comparisons);
}
