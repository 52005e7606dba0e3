// The only file that imports undici. esbuild emits it as its own bundle
// (dist/undiciTransport.js) that lazyTransport.ts requires on the first
// request, so activating the extension never loads the HTTP stack.

import { Agent, ProxyAgent, type Dispatcher } from 'undici';
import { selectProxy } from './proxySelection';
import { TransportError, isTransportError, type Transport, type TransportFailure, type TransportOptions, type TransportRequest, type TransportResponse } from './transport';

/** Idle keep-alive sockets are reused for this long; a refresh burst then pays no new handshakes. */
const KEEP_ALIVE_MS = 30_000;

export function createUndiciTransport(options: TransportOptions): Transport {
  return new UndiciTransport(options);
}

class UndiciTransport implements Transport {
  readonly #options: TransportOptions;
  readonly #direct: Agent;
  /** One ProxyAgent per proxy URL, so its sockets to the proxy are pooled too. */
  readonly #proxies = new Map<string, ProxyAgent>();

  constructor(options: TransportOptions) {
    this.#options = options;
    this.#direct = new Agent({
      connections: options.connectionsPerOrigin,
      keepAliveTimeout: KEEP_ALIVE_MS,
      // VS Code applies http.proxyStrictSSL to every request, not only proxied ones
      // (TLS-inspecting networks need it without an explicit proxy); we follow it.
      connect: { timeout: options.connectTimeoutMs, rejectUnauthorized: options.proxyStrictSSL !== false },
    });
  }

  async request(request: TransportRequest): Promise<TransportResponse> {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      throw new TransportError('invalid-url', 'ERR_INVALID_URL');
    }
    if (request.signal?.aborted === true) throw new TransportError('aborted', 'ABORT_ERR');

    // One controller carries both the caller's cancellation and our overall deadline,
    // so either one tears down the socket request rather than only the promise.
    const controller = new AbortController();
    let deadlinePassed = false;
    const deadline = setTimeout(() => {
      deadlinePassed = true;
      controller.abort();
    }, request.timeouts.totalMs);
    const forwardAbort = (): void => {
      controller.abort();
    };
    request.signal?.addEventListener('abort', forwardAbort, { once: true });

    try {
      const response = await this.#dispatcherFor(url).request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: request.method,
        headers: { ...request.headers },
        body: request.body ?? null,
        signal: controller.signal,
        headersTimeout: request.timeouts.headersMs,
        bodyTimeout: request.timeouts.bodyMs,
      });
      const body = await readCapped(response.body, response.headers['content-length'], request.maxBytes);
      return { status: response.statusCode, headers: flattenHeaders(response.headers), body };
    } catch (error) {
      throw translateError(error, deadlinePassed);
    } finally {
      clearTimeout(deadline);
      request.signal?.removeEventListener('abort', forwardAbort);
    }
  }

  async close(): Promise<void> {
    const dispatchers: Dispatcher[] = [this.#direct, ...this.#proxies.values()];
    this.#proxies.clear();
    await Promise.allSettled(dispatchers.map((dispatcher) => dispatcher.destroy()));
  }

  #dispatcherFor(url: URL): Dispatcher {
    const proxy = selectProxy(url, this.#options, this.#options.env);
    if (proxy === undefined) return this.#direct;
    let agent = this.#proxies.get(proxy);
    if (agent === undefined) {
      try {
        agent = new ProxyAgent({
          uri: proxy,
          // http targets go to the proxy as absolute-URI requests: many proxies refuse CONNECT to port 80.
          proxyTunnel: false,
          connections: this.#options.connectionsPerOrigin,
          keepAliveTimeout: KEEP_ALIVE_MS,
          connect: { timeout: this.#options.connectTimeoutMs },
          requestTls: { rejectUnauthorized: this.#options.proxyStrictSSL !== false },
        });
      } catch {
        throw new TransportError('proxy', 'ERR_INVALID_PROXY');
      }
      this.#proxies.set(proxy, agent);
    }
    return agent;
  }
}

async function readCapped(body: Dispatcher.ResponseData['body'], contentLength: string | string[] | undefined, maxBytes: number): Promise<Uint8Array> {
  // Refuse early when the server announces too much, before reading a byte of it.
  if (typeof contentLength === 'string' && Number(contentLength) > maxBytes) {
    body.destroy();
    throw new TransportError('too-large', 'RESPONSE_TOO_LARGE');
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body) {
    const buffer = chunk as Buffer;
    total += buffer.length;
    if (total > maxBytes) {
      body.destroy();
      throw new TransportError('too-large', 'RESPONSE_TOO_LARGE');
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks, total);
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

const FAILURE_BY_CODE: Readonly<Record<string, TransportFailure>> = {
  UND_ERR_CONNECT_TIMEOUT: 'connect-timeout',
  UND_ERR_HEADERS_TIMEOUT: 'headers-timeout',
  UND_ERR_BODY_TIMEOUT: 'body-timeout',
  UND_ERR_RES_EXCEEDED_MAX_SIZE: 'too-large',
};

/** Keeps only a code: undici's messages can quote a proxy URL with its password. */
function translateError(error: unknown, deadlinePassed: boolean): TransportError {
  if (isTransportError(error)) return error;
  const code = errorCode(error);
  if (code === 'UND_ERR_ABORTED' || code === 'ABORT_ERR' || (error instanceof Error && error.name === 'AbortError')) {
    return deadlinePassed ? new TransportError('total-timeout', 'TOTAL_TIMEOUT') : new TransportError('aborted', 'ABORT_ERR');
  }
  if (code === 'UND_ERR_INVALID_ARG') return new TransportError('invalid-url', code);
  return new TransportError(FAILURE_BY_CODE[code] ?? 'connection', code);
}

function errorCode(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const { code, cause } = error as { code?: unknown; cause?: unknown };
    if (typeof code === 'string') return code;
    if (typeof cause === 'object' && cause !== null) {
      const causeCode = (cause as { code?: unknown }).code;
      if (typeof causeCode === 'string') return causeCode;
    }
  }
  return 'UNKNOWN';
}
