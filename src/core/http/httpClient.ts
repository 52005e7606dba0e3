// Every request the core makes passes through here: one concurrency limit,
// coalescing of identical concurrent GETs, bounded retries with backoff that
// honours Retry-After, cancellation, timeouts and a response size cap. It
// returns any HTTP status to the caller (who knows what a 401 or 404 means for
// its endpoint) and throws ApiError only when no usable response arrived.

import { cancelledError, errorForTransportFailure } from '../errors';
import { ConcurrencyLimiter, type RequestPriority, type SampleOutcome } from './concurrencyLimiter';
import { RequestCoalescer } from './requestCoalescer';
import { redactUrl, type RequestLogger } from './requestLog';
import { RETRYABLE_FAILURES, RETRYABLE_STATUSES, backoffDelay, parseRetryAfter, sleep, type RetryPolicy } from './retryPolicy';
import { TransportError, isTransportError, type HttpMethod, type Transport, type TransportResponse } from './transport';

export interface HttpRequest {
  readonly method: HttpMethod;
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly signal?: AbortSignal;
  /** Interactive when absent: bulk requests (refresh-all, scans) queue behind interactive ones. */
  readonly priority?: RequestPriority;
}

export interface HttpResponse extends TransportResponse {
  readonly url: string;
}

export interface HttpClientOptions {
  readonly transport: Transport;
  /** The ceiling of the adaptive concurrency limit. */
  readonly maxConcurrency: number;
  readonly requestTimeoutMs: number;
  readonly maxResponseBytes: number;
  readonly retry: RetryPolicy;
  readonly onRequest?: RequestLogger;
  readonly now: () => number;
  /** Waits out a backoff step; `sleep` unless a test injects one to see the delays without waiting. */
  readonly sleep?: (ms: number, signal: AbortSignal | undefined) => Promise<'slept' | 'aborted'>;
}

/** Answers that say the server is overloaded, whatever else they say. */
const OVERLOAD_STATUSES: ReadonlySet<number> = new Set([429, 503]);

export class HttpClient {
  readonly #options: HttpClientOptions;
  readonly #limiter: ConcurrencyLimiter;
  readonly #coalescer = new RequestCoalescer<HttpResponse>();

  constructor(options: HttpClientOptions) {
    this.#options = options;
    this.#limiter = new ConcurrencyLimiter({ ceiling: options.maxConcurrency, now: options.now });
  }

  get limiter(): ConcurrencyLimiter {
    return this.#limiter;
  }

  /**
   * Sends a request, retrying temporary failures. A GET that is identical to one
   * in flight (same URL, same Authorization) joins it instead of being sent again.
   */
  send(request: HttpRequest): Promise<HttpResponse> {
    if (request.method !== 'GET') return this.#sendWithRetries(request, request.signal);
    // Without an Authorization header the second entry is null, which no header's text can equal.
    const key = JSON.stringify([request.url, request.headers?.['authorization']]);
    // An interactive caller joining a queued bulk GET must not wait behind the bulk queue with it.
    if ((request.priority ?? 'interactive') === 'interactive') this.#limiter.expedite(key);
    return this.#coalescer.run(key, request.signal, (sharedSignal) => this.#sendWithRetries({ ...request, key }, sharedSignal));
  }

  async close(): Promise<void> {
    await this.#options.transport.close();
  }

  async #sendWithRetries(request: HttpRequest & { readonly key?: string }, signal: AbortSignal | undefined): Promise<HttpResponse> {
    const { retry } = this.#options;
    for (let attempt = 1; ; attempt++) {
      const retriesLeft = attempt <= retry.maxRetries;
      let response: HttpResponse;
      try {
        response = await this.#limited(request, signal, attempt);
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
      // With a Retry-After the limiter already holds every queued request (see #limited); the retry waits in the queue.
      if (retryAfterMs === undefined) await this.#wait(backoffDelay(attempt - 1, retry), signal);
    }
  }

  /** One attempt in a slot of the limiter, which learns from how the server answered. */
  async #limited(
    request: HttpRequest & { readonly key?: string },
    signal: AbortSignal | undefined,
    attempt: number,
  ): Promise<HttpResponse> {
    const permit = await this.#limiter.acquire({
      priority: request.priority ?? 'interactive',
      retry: attempt > 1,
      ...(signal !== undefined ? { signal } : {}),
      key: request.key,
    });
    let outcome: SampleOutcome = 'ignore';
    try {
      const response = await this.#attempt(request, signal, attempt);
      outcome = OVERLOAD_STATUSES.has(response.status) ? 'overload' : 'ok';
      if (RETRYABLE_STATUSES.has(response.status)) {
        // The server's Retry-After holds every queued request, not only this one; it is set
        // before this slot is released, so no queued request slips out in between.
        const retryAfterMs = parseRetryAfter(response.headers['retry-after'], this.#options.now());
        if (retryAfterMs !== undefined && retryAfterMs <= this.#options.retry.maxRetryAfterMs)
          this.#limiter.pauseUntil(this.#options.now() + retryAfterMs);
      }
      return response;
    } catch (error) {
      // A server too busy to answer in time is overloaded too; a refused connection says nothing about load.
      if (isTransportError(error) && error.failure.endsWith('-timeout')) outcome = 'overload';
      throw error;
    } finally {
      permit.release(outcome);
    }
  }

  async #wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
    if ((await (this.#options.sleep ?? sleep)(ms, signal)) === 'aborted') throw cancelledError();
  }

  async #attempt(request: HttpRequest, signal: AbortSignal | undefined, attempt: number): Promise<HttpResponse> {
    const { transport, requestTimeoutMs, maxResponseBytes, onRequest, now } = this.#options;
    const started = now();
    const log = (outcome: { status: number } | { error: string }): void => {
      if (onRequest === undefined) return;
      try {
        onRequest({ method: request.method, url: redactUrl(request.url), durationMs: now() - started, attempt, ...outcome });
      } catch {
        // A failing logger must not fail the request it describes.
      }
    };
    try {
      const response = await transport.request({
        method: request.method,
        url: request.url,
        headers: request.headers ?? {},
        ...(request.body !== undefined ? { body: request.body } : {}),
        ...(signal !== undefined ? { signal } : {}),
        timeouts: { headersMs: requestTimeoutMs, bodyMs: requestTimeoutMs, totalMs: requestTimeoutMs },
        maxBytes: maxResponseBytes,
      });
      log({ status: response.status });
      return { ...response, url: request.url };
    } catch (error) {
      // An injected transport may throw anything; its text could carry anything, so only a code survives.
      const failure = isTransportError(error)
        ? error
        : new TransportError(signal?.aborted === true ? 'aborted' : 'connection', 'TRANSPORT_FAILED');
      log({ error: describeFailure(failure) });
      throw failure;
    }
  }
}

/** "untrusted-certificate UND_ERR_CONNECT ← UNABLE_TO_VERIFY_LEAF_SIGNATURE via proxy host:port": codes and hosts only. */
function describeFailure(failure: TransportError): string {
  // Stryker disable next-line ArrayDeclaration: a default of one cause is not more than one either: the chain is the failure's code
  const { causes = [], proxyHost, proxyStatus } = failure.context;
  const chain = causes.length > 1 ? causes.join(' ← ') : failure.code;
  const proxy = proxyHost === undefined ? '' : ` via proxy ${proxyHost}${proxyStatus !== undefined ? ` (HTTP ${proxyStatus})` : ''}`;
  return `${failure.failure} ${chain}${proxy}`;
}
