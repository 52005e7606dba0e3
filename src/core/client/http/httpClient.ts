// Every request passes here: the limit, bounded retries honouring Retry-After, cancellation, timeouts
// and the size cap; never de-duplication (the events cache owns that). Any HTTP status goes back to the
// caller, who knows what it means; ApiError only when no usable response arrived.

import { definedOnly } from '../../common/definedOnly';
import { cancelledError, errorForTransportFailure } from '../errors';
import { ConcurrencyLimiter, type Priority, type SampleOutcome } from './concurrencyLimiter';
import { RETRYABLE_FAILURES, RETRYABLE_STATUSES, backoffDelay, parseRetryAfter, sleep, type RetryPolicy } from './retryPolicy';
import { TransportError, isTransportError, type HttpMethod, type Transport, type TransportResponse } from './transport';

// URLs lose any user:password; queries stay, as they hold only serial numbers, timestamps and cursors.
export interface RequestLogEntry {
  readonly method: string;
  readonly url: string;
  readonly status?: number;
  readonly durationMs: number;
  /** A failure code such as ECONNRESET or headers-timeout; never a library message. */
  readonly error?: string;
  readonly attempt: number;
  /** Set when http.proxyStrictSSL is false: the server's certificate was not verified. */
  readonly certificateChecksOff?: boolean;
}

export type RequestLogger = (entry: RequestLogEntry) => void;

/** A request as one log line (the extension's log, oe --debug): method, URL, status or failure, time taken, attempt. */
export function requestLogLine(entry: RequestLogEntry): string {
  const status = entry.status === undefined ? (entry.error ?? 'failed') : String(entry.status);
  const attempt = entry.attempt > 1 ? ` (attempt ${entry.attempt})` : '';
  const unchecked = entry.certificateChecksOff === true ? ' — certificate NOT verified (http.proxyStrictSSL is off)' : '';
  return `${entry.method} ${entry.url} → ${status} in ${Math.round(entry.durationMs)} ms${attempt}${unchecked}`;
}

/** Strips credentials embedded in a URL (`https://user:pass@host`) before it is logged or shown. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return '(invalid URL)';
  }
}

export interface HttpRequest {
  readonly method: HttpMethod;
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly signal?: AbortSignal;
  readonly priority?: Priority;
}

export interface HttpResponse extends TransportResponse {
  readonly url: string;
}

export interface HttpClientOptions {
  /** A transport, or what builds it at the first request (the default loads undici only then: onboardingClient.ts). */
  readonly transport: Transport | (() => Transport);
  readonly maxConcurrency: number;
  readonly requestTimeoutMs: number;
  readonly maxResponseBytes: number;
  readonly retry: RetryPolicy;
  readonly onRequest?: RequestLogger;
  readonly now: () => number;
  readonly sleep?: (ms: number, signal: AbortSignal | undefined) => Promise<'slept' | 'aborted'>;
}

const OVERLOAD_STATUSES: ReadonlySet<number> = new Set([429, 503]);

export class HttpClient {
  readonly #options: HttpClientOptions;
  readonly #limiter: ConcurrencyLimiter;
  #transport: Transport | undefined;
  readonly #load: () => Transport;
  #closed = false;

  constructor(options: HttpClientOptions) {
    this.#options = options;
    const { transport } = options;
    if (typeof transport === 'function') this.#load = transport;
    else {
      this.#transport = transport;
      this.#load = () => transport;
    }
    this.#limiter = new ConcurrencyLimiter({ ceiling: options.maxConcurrency, now: options.now });
  }

  get limiter(): ConcurrencyLimiter {
    return this.#limiter;
  }

  async send(request: HttpRequest): Promise<HttpResponse> {
    const { retry } = this.#options;
    const { signal } = request;
    for (let attempt = 1; ; attempt++) {
      const retriesLeft = attempt <= retry.maxRetries;
      let response: HttpResponse;
      try {
        response = await this.#attempt(request, attempt);
      } catch (error) {
        if (signal?.aborted === true) throw cancelledError();
        if (isTransportError(error) && RETRYABLE_FAILURES.has(error.failure) && retriesLeft) {
          await this.#wait(backoffDelay(attempt - 1, retry), signal);
          continue;
        }
        if (isTransportError(error)) throw errorForTransportFailure(error, request.method, request.url, this.#options.requestTimeoutMs);
        throw error;
      }
      if (!RETRYABLE_STATUSES.has(response.status) || !retriesLeft) return response;
      const retryAfterMs = parseRetryAfter(response.headers['retry-after'], this.#options.now());
      // A long Retry-After is reported rather than waited out: the view would look frozen.
      if (retryAfterMs !== undefined && retryAfterMs > retry.maxRetryAfterMs) return response;
      // With a Retry-After the limiter already holds every queued request (see #attempt); the retry waits in the queue.
      if (retryAfterMs === undefined) await this.#wait(backoffDelay(attempt - 1, retry), signal);
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#transport?.close();
  }

  /** An injected transport may throw anything: only a code survives into the log and the error. */
  async #attempt(request: HttpRequest, attempt: number): Promise<HttpResponse> {
    const { requestTimeoutMs, maxResponseBytes, onRequest, now } = this.#options;
    const { signal } = request;
    const permit = await this.#limiter.acquire({
      ...definedOnly({ priority: request.priority, signal }),
      retry: attempt > 1,
    });
    let outcome: SampleOutcome = 'ignore';
    const started = now();
    const log = (result: { status: number } | { error: string }): void => {
      if (onRequest === undefined) return;
      try {
        onRequest({ method: request.method, url: redactUrl(request.url), durationMs: now() - started, attempt, ...result });
      } catch {
        // A failing logger must not fail the request it describes.
      }
    };
    try {
      if (this.#closed) throw new Error('The transport is closed.');
      this.#transport ??= this.#load();
      const response = await this.#transport.request({
        method: request.method,
        url: request.url,
        headers: request.headers ?? {},
        ...definedOnly({ body: request.body, signal }),
        timeouts: { headersMs: requestTimeoutMs, bodyMs: requestTimeoutMs, totalMs: requestTimeoutMs },
        maxBytes: maxResponseBytes,
      });
      log({ status: response.status });
      // A new connection's handshake is no server queue: on a busy machine a burst of them would cut the limit.
      outcome = OVERLOAD_STATUSES.has(response.status) ? 'overload' : response.newConnection === true ? 'ignore' : 'ok';
      if (RETRYABLE_STATUSES.has(response.status)) {
        // Set before this slot is released, so no queued request slips out in between.
        const retryAfterMs = parseRetryAfter(response.headers['retry-after'], now());
        if (retryAfterMs !== undefined && retryAfterMs <= this.#options.retry.maxRetryAfterMs)
          this.#limiter.pauseUntil(now() + retryAfterMs);
      }
      return { ...response, url: request.url };
    } catch (error) {
      const failure = isTransportError(error)
        ? error
        : new TransportError(signal?.aborted === true ? 'aborted' : 'connection', 'TRANSPORT_FAILED');
      log({ error: describeFailure(failure) });
      // A server too busy to answer in time is overloaded too; a refused connection says nothing about load.
      if (failure.failure.endsWith('-timeout')) outcome = 'overload';
      throw failure;
    } finally {
      permit.release(outcome);
    }
  }

  async #wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
    if ((await (this.#options.sleep ?? sleep)(ms, signal)) === 'aborted') throw cancelledError();
  }
}

/** "untrusted-certificate UND_ERR_CONNECT ← UNABLE_TO_VERIFY_LEAF_SIGNATURE via proxy host:port": codes and hosts only. */
function describeFailure(failure: TransportError): string {
  const { causes = [], proxyHost, proxyStatus } = failure.context;
  const chain = causes.length > 1 ? causes.join(' ← ') : failure.code;
  const proxy = proxyHost === undefined ? '' : ` via proxy ${proxyHost}${proxyStatus !== undefined ? ` (HTTP ${proxyStatus})` : ''}`;
  return `${failure.failure} ${chain}${proxy}`;
}
