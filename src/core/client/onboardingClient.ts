// The one object every view reads through, and the only holder of the access token (in private
// fields, so neither toString nor util.inspect shows it).

import { definedOnly } from '../common/definedOnly';
import { cancelledError, describeRequest, disposedError, errorForApiStatus, invalidInputError } from './errors';
import { AuthorizedRequests } from './auth/authorizedRequests';
import { TokenClient, type CredentialsProvider, type VerifiedGrant } from './auth/tokenClient';
import { EventsBudget, EVENTS_BUDGET_BYTES, MAX_BYTES_PER_MACHINE } from './events/eventsBudget';
import { EventsClient } from './events/eventsClient';
import { isOpenable, resolveHref } from './hal';
import { HttpClient, redactUrl, type HttpResponse, type RequestLogEntry, type RequestLogger } from './http/httpClient';
import { linkedSignal, type LinkedSignal } from './http/linkedSignal';
import { DEFAULT_RETRY_POLICY, parseRetryAfter } from './http/retryPolicy';
import type { LookupFunction } from 'node:net';
import type { NetworkEngine, ProxySettings, Transport, TransportOptions, TrustSettings } from './http/transport';
import type { LimitSnapshot } from './http/adaptiveLimit';
import { parseJsonBody } from './jsonBody';
import type { EventsResult, GetEventsOptions } from './model';
import type { TimestampUnitSetting } from './timestamp';

export interface HttpSettings extends ProxySettings, TrustSettings {
  /** Host-name resolution; dns.lookup unless a test injects one (so no DNS query leaves the machine). */
  readonly lookup?: LookupFunction;
  readonly maxConcurrency?: number;
  readonly connectTimeoutMs?: number;
  readonly requestTimeoutMs?: number;
  readonly maxResponseBytes?: number;
  readonly maxRetries?: number;
  readonly retryBaseDelayMs?: number;
  readonly maxRetryAfterMs?: number;
  readonly env?: Readonly<NodeJS.ProcessEnv>;
  /** 'vscode' in an extension host: VS Code's network stack (networkPath.ts); 'undici' everywhere else. */
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
  onRequest?: RequestLogger;
  onToken?: (value: string) => void;
  onGrant?: (grant: VerifiedGrant) => void;
  /** The token of the verification that preceded this client (sign-in): its first request needs no grant of its own. */
  verifiedGrant?: VerifiedGrant;
  transport?: Transport;
  now?: () => number;
}

export interface LinkedResource {
  readonly url: string;
  readonly status: number;
  readonly contentType?: string;
  readonly json?: unknown;
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
  readonly #lifetime = new AbortController();
  /** The calls under way, each with its own signal: dispose() aborts them. */
  readonly #calls = new Set<LinkedSignal>();

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
      ...definedOnly({ onToken: options.onToken, onGrant: options.onGrant }),
    });
    if (options.verifiedGrant !== undefined) this.#tokens.adopt(options.verifiedGrant);
    this.#requests = new AuthorizedRequests(this.#http, this.#tokens);
    this.#events = new EventsClient({
      requests: this.#requests,
      apiBaseUrl: options.apiBaseUrl,
      timestampUnit: options.timestampUnit ?? 'auto',
      now,
      budget: new EventsBudget({ totalBytes: EVENTS_BUDGET_BYTES, perMachineBytes: MAX_BYTES_PER_MACHINE }),
    });
  }

  async getEvents(serialNumber: string, options: GetEventsOptions = {}): Promise<EventsResult> {
    const linked = this.#signalFor(options.signal);
    try {
      return await this.#events.getEvents(serialNumber, { ...options, signal: linked.signal });
    } catch (error) {
      throw this.#named(error, options.signal);
    } finally {
      linked.dispose();
    }
  }

  /**
   * A fresh password grant (spec §5.3) with the current credentials; throws ApiError when they do
   * not work. The grant it returns can start the session's client (ClientOptions.verifiedGrant).
   */
  async verifyCredentials(signal?: AbortSignal): Promise<VerifiedGrant> {
    const linked = this.#signalFor(signal);
    try {
      return await this.#tokens.grantFresh(linked.signal);
    } catch (error) {
      throw this.#named(error, signal);
    } finally {
      linked.dispose();
    }
  }

  /** Only http and https are followed; the bearer token goes only to the API's own origin. */
  async fetchLink(href: string, signal?: AbortSignal): Promise<LinkedResource> {
    const linked = this.#signalFor(signal);
    const combined = linked.signal;
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
    } finally {
      linked.dispose();
    }
  }

  /** What the adaptive concurrency limit has learnt so far; for diagnostics and the bench. */
  concurrency(): LimitSnapshot & { readonly active: number; readonly maxActive: number; readonly ceiling: number } {
    const limiter = this.#http.limiter;
    return { ...limiter.snapshot(), active: limiter.active, maxActive: limiter.maxActive, ceiling: limiter.ceiling };
  }

  invalidateToken(): void {
    this.#tokens.invalidate();
  }

  dispose(): void {
    this.#lifetime.abort();
    for (const call of this.#calls) call.abort(this.#lifetime.signal.reason);
    this.#calls.clear();
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
   * The caller's signal and the client's lifetime together, one per call and let go when the call ends,
   * so listeners do not pile up on the shared lifetime signal.
   */
  #signalFor(signal: AbortSignal | undefined): LinkedSignal {
    if (this.#lifetime.signal.aborted) throw disposedError();
    if (signal?.aborted === true) throw cancelledError();
    // Held in a set that dispose() aborts, not as listeners on the lifetime signal: a refresh of thousands
    // of machines would hang thousands there, each removal a walk of the list.
    const call = linkedSignal([signal]);
    this.#calls.add(call);
    return {
      signal: call.signal,
      timedOut: false,
      abort: (reason) => {
        call.abort(reason);
      },
      dispose: () => {
        call.dispose();
        this.#calls.delete(call);
      },
    };
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
 * The network stack is its own bundle (esbuild.mjs), loaded on the first request: most activations
 * only draw cached views.
 */
function lazyTransport(options: TransportOptions): () => Transport {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return () => (require('./http/undiciTransport') as typeof import('./http/undiciTransport')).createTransport(options);
}
