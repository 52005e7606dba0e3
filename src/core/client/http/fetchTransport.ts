// A Transport over the fetch VS Code patches with its network stack (proxies, PAC, Kerberos, OS
// certificates), which the bundled undici skips. It adds our bounds fetch lacks: three deadlines, the
// body cap, cancellation and our failure names.

import { classifyNetworkError } from './networkFailures';
import {
  isTransportError,
  requestUrl,
  TransportError,
  type NetworkFailureContext,
  type ResponseDeadline,
  type Transport,
  type TransportRequest,
  type TransportResponse,
  type TransportTimeouts,
} from './transport';

export type ProxyForMessages = Pick<NetworkFailureContext, 'proxyHost' | 'proxyCredentialsSent'>;

export interface FetchTransportOptions {
  readonly fetch: typeof globalThis.fetch;
  /** An undici Agent carrying the extra CAs: VS Code's patched fetch reads them from it and still chooses the proxy. */
  readonly dispatcher?: (url: URL) => Promise<object | undefined>;
  /** The proxy we expect for a URL, so its failure names it; one VS Code chose itself is "the proxy". */
  readonly proxyFor?: (url: URL) => ProxyForMessages | undefined;
}

export function createFetchTransport(options: FetchTransportOptions): Transport {
  return new FetchTransport(options);
}

/** The code each deadline is reported with (what undici reports for the first two). */
const DEADLINE_CODES: Readonly<Record<ResponseDeadline, string>> = {
  'headers-timeout': 'UND_ERR_HEADERS_TIMEOUT',
  'body-timeout': 'UND_ERR_BODY_TIMEOUT',
  'total-timeout': 'TOTAL_TIMEOUT',
};

const CLOSED = Symbol('transport closed');

class FetchTransport implements Transport {
  readonly #options: FetchTransportOptions;
  readonly #inFlight = new Set<AbortController>();
  #closed = false;

  constructor(options: FetchTransportOptions) {
    this.#options = options;
  }

  async request(request: TransportRequest): Promise<TransportResponse> {
    const url = requestUrl(request);
    if (this.#closed) throw new TransportError('aborted', 'TRANSPORT_CLOSED');
    if (request.signal?.aborted === true) throw new TransportError('aborted', 'ABORT_ERR');

    // One controller for the caller's cancel, our deadlines and close(): each tears down the request itself.
    const controller = new AbortController();
    const deadlines = new Deadlines(request.timeouts, () => {
      controller.abort();
    });
    const forwardAbort = (): void => {
      controller.abort();
    };
    request.signal?.addEventListener('abort', forwardAbort);
    this.#inFlight.add(controller);

    try {
      const init: RequestInit & { dispatcher?: object } = {
        method: request.method,
        headers: request.headers,
        signal: controller.signal,
        // Like the undici transport: a redirect is the caller's to see, never followed with our headers.
        redirect: 'manual',
      };
      if (request.body !== undefined) init.body = request.body;
      if (this.#options.dispatcher !== undefined) {
        const dispatcher = await this.#options.dispatcher(url);
        if (dispatcher !== undefined) init.dispatcher = dispatcher;
      }
      const response = await this.#options.fetch(url, init);
      deadlines.progress();
      const body = await readCapped(response, request.maxBytes, deadlines);
      return { status: response.status, headers: flattenHeaders(response.headers), body };
    } catch (error) {
      if (isTransportError(error)) throw error;
      const { expired } = deadlines;
      if (expired !== undefined) throw new TransportError(expired, DEADLINE_CODES[expired], this.#proxyFor(url) ?? {});
      if (controller.signal.reason === CLOSED) throw new TransportError('aborted', 'TRANSPORT_CLOSED');
      // fetch refuses the ports of its "bad ports" list (6000, 6667, ...) before connecting, with no code.
      if (causeMessage(error) === 'bad port') throw new TransportError('invalid-url', 'ERR_FETCH_BAD_PORT');
      throw classifyNetworkError(error, { deadlinePassed: false, proxyMayBeHidden: true, ...this.#proxyFor(url) });
    } finally {
      deadlines.stop();
      request.signal?.removeEventListener('abort', forwardAbort);
      this.#inFlight.delete(controller);
    }
  }

  close(): Promise<void> {
    this.#closed = true;
    for (const controller of this.#inFlight) controller.abort(CLOSED);
    this.#inFlight.clear();
    return Promise.resolve();
  }

  #proxyFor(url: URL): ProxyForMessages | undefined {
    return this.#options.proxyFor?.(url);
  }
}

/**
 * The three deadlines on one timer: per-request timers re-armed at every chunk were a share of a
 * burst's CPU. A chunk only notes the time; the timer checks on firing which deadline passed.
 */
class Deadlines {
  expired: ResponseDeadline | undefined;
  readonly #bodyMs: number;
  readonly #totalAt: number;
  #pauseAt: number;
  #pause: 'headers-timeout' | 'body-timeout' = 'headers-timeout';
  #timer: ReturnType<typeof setTimeout> | undefined;
  #armedAt = Number.POSITIVE_INFINITY;
  readonly #onExpire: () => void;

  constructor(timeouts: TransportTimeouts, onExpire: () => void) {
    const now = performance.now();
    this.#bodyMs = timeouts.bodyMs;
    this.#totalAt = now + timeouts.totalMs;
    this.#pauseAt = now + timeouts.headersMs;
    this.#onExpire = onExpire;
    this.#arm(now);
  }

  progress(): void {
    const now = performance.now();
    this.#pause = 'body-timeout';
    this.#pauseAt = now + this.#bodyMs;
    if (Math.min(this.#pauseAt, this.#totalAt) < this.#armedAt) this.#arm(now);
  }

  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #arm(now: number): void {
    clearTimeout(this.#timer);
    this.#armedAt = Math.min(this.#pauseAt, this.#totalAt);
    this.#timer = setTimeout(this.#check, Math.max(0, this.#armedAt - now));
  }

  readonly #check = (): void => {
    this.#timer = undefined;
    const now = performance.now();
    // Ties go to the total deadline.
    if (now >= this.#totalAt && this.#totalAt <= this.#pauseAt) this.expired = 'total-timeout';
    else if (now >= this.#pauseAt) this.expired = this.#pause;
    else if (now >= this.#totalAt) this.expired = 'total-timeout';
    if (this.expired === undefined) this.#arm(now);
    else this.#onExpire();
  };
}

/** Given up (the connection cancelled) as soon as it passes maxBytes. */
async function readCapped(response: Response, maxBytes: number, deadlines: Deadlines): Promise<Uint8Array> {
  if (Number(response.headers.get('content-length')) > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new TransportError('too-large', 'RESPONSE_TOO_LARGE');
  }
  if (response.body === null) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    deadlines.progress();
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new TransportError('too-large', 'RESPONSE_TOO_LARGE');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}

/** Lower-cased names (as Headers gives them), repeated headers joined with ", " as the undici transport does. */
function flattenHeaders(headers: Headers): Record<string, string> {
  const flat: Record<string, string> = {};
  headers.forEach((value, name) => {
    flat[name] = value;
  });
  const cookies = headers.getSetCookie();
  if (cookies.length > 0) flat['set-cookie'] = cookies.join(', ');
  return flat;
}

function causeMessage(error: unknown): string | undefined {
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  return cause instanceof Error ? cause.message : undefined;
}
