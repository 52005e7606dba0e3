// Test Connection's last steps: the client's own token and events requests,
// each one attempt within its deadline, over the client's own transport
// (watched, to show each exchange's status). Nothing secret enters the report:
// credentials go only to the client; the token response is read for
// expires_in, scope and token_type only.

import { definedOnly } from '../common/definedOnly';
import type { Localize } from '../common/localize';
import type { CredentialsProvider } from './auth/tokenClient';
import { isApiError } from './errors';
import { redactUrl } from './http/httpClient';
import type { Transport, TransportOptions, TransportRequest, TransportResponse } from './http/transport';
import { literal, verdictOf } from './connectionReport';
import { PROBE_SERIAL_NUMBER, timed, type Check } from './connectionSteps';
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
}

export function tokenTitle(authUrl: string, t: Localize): string {
  return t('Token request POST {0}', redactUrl(`${authUrl.replace(/\/+$/, '')}/token`));
}

export function eventsTitle(apiBaseUrl: string, serialNumber: string | undefined, t: Localize): string {
  return t(
    'Events request GET {0} for serial number {1}',
    redactUrl(`${apiBaseUrl.replace(/\/+$/, '')}/events`),
    literal(serialNumber ?? PROBE_SERIAL_NUMBER),
  );
}

interface Exchange {
  readonly method: string;
  readonly url: string;
  readonly status?: number;
  /** From a token response: what the report may show of it. */
  readonly token?: { readonly expiresIn?: unknown; readonly scope?: unknown; readonly tokenType?: unknown };
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
      request.method === 'POST' && request.url === this.tokenUrl ? { ...exchange, token: tokenFields(response.body) } : exchange,
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
    ...definedOnly({ onToken: input.onToken }),
  });
  try {
    const token = await timed(() => client.verifyCredentials(input.signal));
    const tokenExchange = transport.exchanges.find((exchange) => exchange.token !== undefined);
    if ('error' in token) {
      if (input.signal?.aborted === true) return;
      const message = isApiError(token.error) ? token.error.text(t) : t('The token request failed.');
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
      // A serial number nobody owns may be a 404: the API answered, which is all this step asks.
      if (isApiError(error) && error.kind === 'not-found') {
        check.record({
          title: eventsTitle(input.apiBaseUrl, input.serialNumber, t),
          status: 'ok',
          summary:
            requests > 1
              ? t('HTTP {0}: the API answered (no machine with this serial number) in {1} requests.', status ?? 404, requests)
              : t('HTTP {0}: the API answered (no machine with this serial number).', status ?? 404),
          details: [],
          durationMs: events.ms,
        });
        return;
      }
      const message = isApiError(error) ? error.text(t) : t('The events request failed.');
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
