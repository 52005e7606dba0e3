// A Transport over a WHATWG fetch: in the extension host, the global fetch
// that VS Code patches with its own network stack (http.proxy, the system
// proxy settings and PAC files, Kerberos and Basic proxy authentication, the
// operating system's certificate store). The npm undici package is not
// patched (it is bundled into dist/undiciTransport.js), so a request made
// with it skips all of that; this transport is how our requests take the
// same path as VS Code's own. It keeps our bounds, which fetch lacks: the
// three deadlines, the body cap (read chunk by chunk, aborted past the cap),
// cancellation, and our one list of failure names.

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

/** What a failure message may say about the proxy of a request (never its credentials). */
export type ProxyForMessages = Pick<NetworkFailureContext, 'proxyHost' | 'proxyCredentialsSent'>;

export interface FetchTransportOptions {
  /** The fetch to call; the extension host's global fetch in the product. */
  readonly fetch: typeof globalThis.fetch;
  /**
   * Handed to every request as fetch's `dispatcher` (an undici Agent that carries the extra CA
   * certificates, see networkPath.ts), or nothing: VS Code's patched fetch reads the CA list from
   * it and still chooses the proxy itself.
   */
  readonly dispatcher?: (url: URL) => Promise<object | undefined>;
  /**
   * The proxy our own reading of the settings and environment expects for a URL, so that a failure
   * of the proxy names it. VS Code's choice (system settings, PAC) is not visible to an extension,
   * so a proxy it chose by itself is "the proxy" in messages.
   */
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

/** The abort reason of close(), told apart from a caller's cancel. */
const CLOSED = Symbol('transport closed');

class FetchTransport implements Transport {
  readonly #options: FetchTransportOptions;
  /** Requests in flight, aborted by close() so none outlives the transport. */
  readonly #inFlight = new Set<AbortController>();
  #closed = false;

  constructor(options: FetchTransportOptions) {
    this.#options = options;
  }

  async request(request: TransportRequest): Promise<TransportResponse> {
    const url = requestUrl(request);
    if (this.#closed) throw new TransportError('aborted', 'TRANSPORT_CLOSED');
    if (request.signal?.aborted === true) throw new TransportError('aborted', 'ABORT_ERR');

    // One controller carries the caller's cancellation, our three deadlines and close(): each of
    // them tears down the connection's request, not only the promise.
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
 * The three deadlines of one request on one timer. A burst of requests through fetch is bound by
 * the CPU each costs, and three timers per request, re-armed at every chunk, were a share of it
 * (npm run bench, "100 look-ups at once"). A chunk only moves the pause deadline later, so it only
 * notes the time; the timer, armed for the earliest deadline, checks on firing which one has passed
 * and otherwise waits for the one now due. Only a pause deadline that moves earlier (a body
 * deadline shorter than the headers') re-arms it.
 */
class Deadlines {
  /** Which deadline passed first, once one has. */
  expired: ResponseDeadline | undefined;
  readonly #bodyMs: number;
  readonly #totalAt: number;
  #pauseAt: number;
  #pause: 'headers-timeout' | 'body-timeout' = 'headers-timeout';
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** When the timer is due (performance.now() clock). */
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

  /** The headers or a chunk of the body arrived: the pause deadline starts over. */
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
    // Ties go to the total deadline, as they did when each deadline had its own timer.
    if (now >= this.#totalAt && this.#totalAt <= this.#pauseAt) this.expired = 'total-timeout';
    else if (now >= this.#pauseAt) this.expired = this.#pause;
    else if (now >= this.#totalAt) this.expired = 'total-timeout';
    if (this.expired === undefined) this.#arm(now);
    else this.#onExpire();
  };
}

/**
 * The body, read chunk by chunk and given up (the connection cancelled) as soon as it passes
 * maxBytes. (arrayBuffer() is no cheaper: fetch reads its own stream the same way underneath;
 * measured, 122 µs against 117 µs of CPU per request.)
 */
async function readCapped(response: Response, maxBytes: number, deadlines: Deadlines): Promise<Uint8Array> {
  // Refuse early when the server announces too much, before reading a byte of it.
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
