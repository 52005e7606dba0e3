// The one object every view reads through. It wires the HTTP client, token
// client and events client together with the user's settings, and is the
// only place that holds the access token (in private fields, so it shows up in
// neither toString nor util.inspect).

import { definedOnly } from '../common/definedOnly';
import { cancelledError, describeRequest, disposedError, errorForApiStatus, invalidInputError } from './errors';
import { AuthorizedRequests } from './auth/authorizedRequests';
import { TokenClient, type CredentialsProvider, type VerifiedGrant } from './auth/tokenClient';
import { EventsClient } from './events/eventsClient';
import { isOpenable, resolveHref } from './hal';
import { HttpClient, redactUrl, type HttpResponse, type RequestLogEntry, type RequestLogger } from './http/httpClient';
import { DEFAULT_RETRY_POLICY, parseRetryAfter } from './http/retryPolicy';
import type { LookupFunction } from 'node:net';
import type { NetworkEngine, ProxySettings, Transport, TransportOptions, TrustSettings } from './http/transport';
import type { LimitSnapshot } from './http/adaptiveLimit';
import { parseJsonBody } from './jsonBody';
import type { EventsResult, GetEventsOptions } from './model';
import type { TimestampUnitSetting } from './timestamp';

/** The network settings of one client: VS Code's proxy and trust settings, and the bounds of every request. */
export interface HttpSettings extends ProxySettings, TrustSettings {
  /** Host-name resolution; dns.lookup unless a test injects one (so no DNS query leaves the machine). */
  readonly lookup?: LookupFunction;
  /** The ceiling of requests in flight at once, across all views; below it the limit adapts to the server. */
  readonly maxConcurrency?: number;
  readonly connectTimeoutMs?: number;
  /** Budget for one attempt: until headers, between body chunks, and overall. */
  readonly requestTimeoutMs?: number;
  readonly maxResponseBytes?: number;
  /** Retries after the first attempt, for network errors, 429, 502, 503, 504. */
  readonly maxRetries?: number;
  /** First backoff step; tests shorten it. */
  readonly retryBaseDelayMs?: number;
  /** Longest Retry-After waited out before reporting 'rate-limited' instead. */
  readonly maxRetryAfterMs?: number;
  /** Where HTTPS_PROXY, HTTP_PROXY and NO_PROXY are read; process.env by default. */
  readonly env?: Readonly<NodeJS.ProcessEnv>;
  /**
   * 'vscode' in an extension host: requests take VS Code's network stack (its patched global
   * fetch), see core/http/networkPath.ts. 'undici' (the default) everywhere else.
   */
  readonly engine?: NetworkEngine;
}

export const DEFAULT_HTTP_SETTINGS = {
  maxConcurrency: 64,
  connectTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  maxResponseBytes: 10 * 1024 * 1024,
  maxRetries: DEFAULT_RETRY_POLICY.maxRetries,
  retryBaseDelayMs: DEFAULT_RETRY_POLICY.baseDelayMs,
  maxRetryAfterMs: DEFAULT_RETRY_POLICY.maxRetryAfterMs,
} as const;

export interface ClientOptions {
  apiBaseUrl: string;
  authUrl: string;
  /** Read from SecretStorage by the glue, on demand; never stored by the client. */
  credentials: CredentialsProvider;
  timestampUnit?: TimestampUnitSetting;
  http?: HttpSettings;
  /** Called once per HTTP attempt; the glue logs these. */
  onRequest?: RequestLogger;
  /** Called with each access token as it arrives; the glue registers it with the log redactor. */
  onToken?: (value: string) => void;
  /** The token of the verification that preceded this client (sign-in): its first request needs no grant of its own. */
  verifiedGrant?: VerifiedGrant;
  /** Tests and the benchmark may inject one; the default loads undici lazily. */
  transport?: Transport;
  now?: () => number;
}

/** A resource reached through a HAL link. */
export interface LinkedResource {
  readonly url: string;
  readonly status: number;
  readonly contentType?: string;
  /** Present when the body parsed as JSON. */
  readonly json?: unknown;
  /** Present when the body was not JSON. */
  readonly text?: string;
}

const LINK_ACCEPT = 'application/hal+json, application/json;q=0.9, */*;q=0.5';

export class OnboardingClient {
  readonly #apiBaseUrl: string;
  readonly #authUrl: string;
  readonly #http: HttpClient;
  readonly #tokens: TokenClient;
  readonly #requests: AuthorizedRequests;
  readonly #events: EventsClient;
  /** Aborted by dispose(), so nothing outlives the client. */
  readonly #lifetime = new AbortController();

  constructor(options: ClientOptions) {
    const settings = { ...DEFAULT_HTTP_SETTINGS, ...definedOnly(options.http ?? {}) };
    const now = options.now ?? Date.now;
    this.#apiBaseUrl = options.apiBaseUrl;
    this.#authUrl = options.authUrl;
    const transport =
      options.transport ??
      lazyTransport({
        // Only the settings given: absent ones take the transport's defaults.
        ...definedOnly({
          proxy: settings.proxy,
          proxyStrictSSL: settings.proxyStrictSSL,
          noProxy: settings.noProxy,
          proxyAuthorization: settings.proxyAuthorization,
          systemCertificates: settings.systemCertificates,
          caCertificatesFile: settings.caCertificatesFile,
          lookup: settings.lookup,
          engine: settings.engine,
        }),
        connectTimeoutMs: settings.connectTimeoutMs,
        connectionsPerOrigin: settings.maxConcurrency,
        env: settings.env ?? process.env,
      });
    this.#http = new HttpClient({
      transport,
      maxConcurrency: settings.maxConcurrency,
      requestTimeoutMs: settings.requestTimeoutMs,
      maxResponseBytes: settings.maxResponseBytes,
      retry: {
        ...DEFAULT_RETRY_POLICY,
        maxRetries: settings.maxRetries,
        baseDelayMs: settings.retryBaseDelayMs,
        maxRetryAfterMs: settings.maxRetryAfterMs,
      },
      ...definedOnly({ onRequest: options.onRequest && withCertificateChecks(options.onRequest, settings.proxyStrictSSL !== false) }),
      now,
    });
    this.#tokens = new TokenClient({
      http: this.#http,
      authUrl: options.authUrl,
      credentials: options.credentials,
      now,
      ...definedOnly({ onToken: options.onToken }),
    });
    if (options.verifiedGrant !== undefined) this.#tokens.adopt(options.verifiedGrant);
    this.#requests = new AuthorizedRequests(this.#http, this.#tokens);
    this.#events = new EventsClient({
      requests: this.#requests,
      apiBaseUrl: options.apiBaseUrl,
      timestampUnit: options.timestampUnit ?? 'auto',
      now,
    });
  }

  /** Spec §4.1: the validated events of one machine, newest first. */
  async getEvents(serialNumber: string, options: GetEventsOptions = {}): Promise<EventsResult> {
    const signal = this.#signalFor(options.signal);
    try {
      return await this.#events.getEvents(serialNumber, { ...options, signal });
    } catch (error) {
      throw this.#named(error, options.signal);
    }
  }

  /**
   * A fresh password grant (spec §5.3) with the current credentials; throws ApiError when they do
   * not work. The grant it returns can start the session's client (ClientOptions.verifiedGrant).
   */
  async verifyCredentials(signal?: AbortSignal): Promise<VerifiedGrant> {
    const combined = this.#signalFor(signal);
    try {
      return await this.#tokens.grantFresh(combined);
    } catch (error) {
      throw this.#named(error, signal);
    }
  }

  /**
   * GETs a HAL link's target. Relative hrefs resolve against the API base; only
   * http and https are followed; the bearer token is sent only to the API's own
   * origin, so a link to another host never receives it.
   */
  async fetchLink(href: string, signal?: AbortSignal): Promise<LinkedResource> {
    const combined = this.#signalFor(signal);
    try {
      const base = this.#apiBaseUrl.endsWith('/') ? this.#apiBaseUrl : `${this.#apiBaseUrl}/`;
      const url = resolveHref(href, base);
      if (url === undefined || !isOpenable(url))
        throw invalidInputError((t) => t('Only http and https links can be followed; this link is not one.'));
      // Both parse here: resolveHref has parsed the base (the API base URL's origin) and returned url.
      const response =
        new URL(url).origin === new URL(base).origin
          ? await this.#requests.get(url, combined, LINK_ACCEPT)
          : await this.#http.send({ method: 'GET', url, headers: { accept: LINK_ACCEPT }, signal: combined });
      return this.#linkedResource(response);
    } catch (error) {
      throw this.#named(error, signal);
    }
  }

  /** What the adaptive concurrency limit has learnt so far; for diagnostics and the bench. */
  concurrency(): LimitSnapshot & { readonly active: number; readonly maxActive: number; readonly ceiling: number } {
    const limiter = this.#http.limiter;
    return { ...limiter.snapshot(), active: limiter.active, maxActive: limiter.maxActive, ceiling: limiter.ceiling };
  }

  /** Forgets the cached token, e.g. after sign-out or when the stored credentials changed. */
  invalidateToken(): void {
    this.#tokens.invalidate();
  }

  /** Cancels everything in flight and closes the connection pool. */
  dispose(): void {
    this.#lifetime.abort();
    this.#tokens.invalidate();
    void this.#http.close();
  }

  toString(): string {
    return `OnboardingClient(api: ${redactUrl(this.#apiBaseUrl)}, auth: ${redactUrl(this.#authUrl)}, token: ${this.#tokens.hasToken ? 'cached' : 'none'})`;
  }

  toJSON(): string {
    return this.toString();
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return this.toString();
  }

  #linkedResource(response: HttpResponse): LinkedResource {
    if (response.status < 200 || response.status >= 300) {
      throw errorForApiStatus(
        describeRequest('GET', response.url),
        response.status,
        parseRetryAfter(response.headers['retry-after'], Date.now()),
        (t) => t('The linked resource'),
      );
    }
    const contentType = response.headers['content-type'];
    const base = { url: response.url, status: response.status, ...definedOnly({ contentType }) };
    const json = parseJsonBody(response.body, contentType, (t) => t('The linked resource'));
    return json.ok ? { ...base, json: json.value } : { ...base, text: new TextDecoder('utf-8').decode(response.body) };
  }

  /**
   * The signal a call runs with: the caller's and the client's lifetime
   * together. A signal per call, even without the caller's: listeners then
   * attach to it rather than piling up on the one lifetime signal shared by
   * every call.
   */
  #signalFor(signal: AbortSignal | undefined): AbortSignal {
    if (this.#lifetime.signal.aborted) throw disposedError();
    if (signal?.aborted === true) throw cancelledError();
    return AbortSignal.any(signal === undefined ? [this.#lifetime.signal] : [signal, this.#lifetime.signal]);
  }

  /** A call the client's dispose ended (and not its caller) says so. */
  #named(error: unknown, signal: AbortSignal | undefined): unknown {
    return this.#lifetime.signal.aborted && signal?.aborted !== true ? disposedError() : error;
  }
}

/** With http.proxyStrictSSL off, every https request says so in the log: verification is never off silently. */
function withCertificateChecks(onRequest: (entry: RequestLogEntry) => void, strict: boolean): (entry: RequestLogEntry) => void {
  if (strict) return onRequest;
  return (entry) => {
    onRequest(entry.url.startsWith('https:') ? { ...entry, certificateChecksOff: true } : entry);
  };
}

/**
 * Defers loading the network stack (a separate bundle, see esbuild.mjs) until the
 * first request: most activations only draw cached views and never touch the
 * network. The HTTP client calls the loader once and then the transport directly.
 */
function lazyTransport(options: TransportOptions): () => Transport {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return () => (require('./http/undiciTransport') as typeof import('./http/undiciTransport')).createTransport(options);
}
