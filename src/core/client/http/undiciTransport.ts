// The only file that imports undici: its own bundle, loaded on the first request, so activation never
// loads the HTTP stack. undici's request() rather than its fetch: fetch costs about three times the CPU
// per request, and only that cost keeps two engines.

import type { IncomingHttpHeaders } from 'node:http';
import type { Duplex } from 'node:stream';
import { createSecureContext, type SecureContext } from 'node:tls';
import type { Agent as UndiciAgent, Dispatcher, Pool as UndiciPool } from 'undici';
import { definedOnly } from '../../common/definedOnly';
import { Agent, Pool, ProxyAgent } from './undiciDispatchers';
import { CertificateOwner } from './certificateOwner';
import { createFetchTransport } from './fetchTransport';
import { networkPathFor } from './networkPath';
import { classifyNetworkError, PROXY_LEG } from './networkFailures';
import { linkedSignal } from './linkedSignal';
import { selectProxy } from './proxySelection';
import {
  isTransportError,
  requestUrl,
  TransportError,
  type NetworkFailureContext,
  type Transport,
  type TransportOptions,
  type TransportRequest,
  type TransportResponse,
} from './transport';
import { loadTrustedCertificates } from './trustedCertificates';

/** Idle keep-alive sockets are reused for this long; a refresh burst then pays no new handshakes. */
const KEEP_ALIVE_MS = 30_000;

export function createUndiciTransport(options: TransportOptions): Transport {
  return new UndiciTransport(options);
}

/**
 * Inside VS Code, each request on the path networkPathFor names: VS Code's patched fetch, or undici
 * for loopback and for http.proxyStrictSSL off.
 */
export function createTransport(options: TransportOptions): Transport {
  if (options.engine !== 'vscode') return createUndiciTransport(options);
  return new NetworkPathTransport(options);
}

class NetworkPathTransport implements Transport {
  readonly #options: TransportOptions;
  readonly #vscode: Transport;
  #undici: Transport | undefined;
  readonly #dispatchers = new Map<string, Promise<Dispatcher>>();
  readonly #certificateOwner = new CertificateOwner();
  /** The trusted CAs, read once (OS store and file): the dispatchers and the certificate probes share them. */
  #ca: Promise<readonly string[]> | undefined;

  constructor(options: TransportOptions) {
    this.#options = options;
    const pathOptions = { ...options, engine: 'vscode' as const };
    this.#vscode = createFetchTransport({
      fetch: options.fetch ?? globalThis.fetch,
      ...definedOnly({ dispatcher: options.caCertificatesFile === undefined ? undefined : (url: URL) => this.#caDispatcher(url) }),
      proxyFor: (url) => {
        const { proxy } = networkPathFor(url, pathOptions);
        return proxy === undefined ? undefined : { proxyHost: proxy.host, proxyCredentialsSent: proxy.credentials };
      },
    });
  }

  async request(request: TransportRequest): Promise<TransportResponse> {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      throw new TransportError('invalid-url', 'ERR_INVALID_URL');
    }
    if (networkPathFor(url, { ...this.#options, engine: 'vscode' }).engine !== 'vscode') {
      this.#undici ??= createUndiciTransport(this.#options);
      return this.#undici.request(request);
    }
    try {
      return await this.#vscode.request(request);
    } catch (error) {
      if (!isTransportError(error)) throw error;
      throw await this.#whoseCertificate(error, url);
    }
  }

  async close(): Promise<void> {
    const dispatchers = [...this.#dispatchers.values()];
    this.#dispatchers.clear();
    await Promise.allSettled([
      this.#vscode.close(),
      this.#undici?.close(),
      ...dispatchers.map((dispatcher) => dispatcher.then((agent) => agent.destroy())),
    ]);
  }

  /** VS Code's errors do not say whose certificate failed: a handshake of our own asks (certificateOwner.ts). */
  async #whoseCertificate(error: TransportError, url: URL): Promise<TransportError> {
    if (error.failure !== 'untrusted-certificate' && error.failure !== 'certificate-expired') return error;
    const named = selectProxy(url, this.#options, this.#options.env);
    let proxy: URL | undefined;
    try {
      proxy = named === undefined ? undefined : new URL(named);
    } catch {
      return error;
    }
    try {
      const ca = await this.#trustedCas();
      return await this.#certificateOwner.refine(error, url, { ca, ...definedOnly({ proxy, lookup: this.#options.lookup }) });
    } catch {
      return error;
    }
  }

  /**
   * VS Code's patched fetch reads the CA list from a ProxyAgent's `requestTls`/`proxyTls` but from an
   * Agent's `connect.ca` for the API only: a URL with a named proxy gets a ProxyAgent for it, one
   * without the CA-only Agent (a proxy VS Code finds itself is then checked against the OS store).
   */
  #caDispatcher(url: URL): Promise<Dispatcher> {
    const proxy = selectProxy(url, this.#options, this.#options.env) ?? '';
    let dispatcher = this.#dispatchers.get(proxy);
    if (dispatcher === undefined) {
      dispatcher = this.#trustedCas().then((ca) => {
        const tls = { ca: [...ca], timeout: this.#options.connectTimeoutMs };
        const agent = (): Dispatcher => new Agent({ keepAliveTimeout: KEEP_ALIVE_MS, connect: tls });
        if (proxy === '') return agent();
        try {
          return new ProxyAgent({ uri: proxy, keepAliveTimeout: KEEP_ALIVE_MS, requestTls: tls, proxyTls: tls });
        } catch {
          // Not a proxy URL undici takes: VS Code's resolver decides alone, as without the file.
          return agent();
        }
      });
      this.#dispatchers.set(proxy, dispatcher);
    }
    return dispatcher;
  }

  #trustedCas(): Promise<readonly string[]> {
    this.#ca ??= loadTrustedCertificates(this.#options, this.#options.env).then(({ ca }) => ca);
    return this.#ca;
  }
}

interface Route {
  readonly dispatcher: Dispatcher;
  readonly proxy?: Required<Pick<NetworkFailureContext, 'proxyHost' | 'proxyCredentialsSent'>>;
}

class UndiciTransport implements Transport {
  readonly #options: TransportOptions;
  #secureContext: Promise<SecureContext> | undefined;
  #direct: UndiciAgent | undefined;
  /** Plain HTTP to loopback: needs no TLS context, so no certificate store is read for it. */
  #plain: UndiciAgent | undefined;
  readonly #proxies = new Map<string, Route>();
  readonly #watched = new WeakMap<Dispatcher, Dispatcher>();
  #closed = false;

  constructor(options: TransportOptions) {
    this.#options = options;
  }

  async request(request: TransportRequest): Promise<TransportResponse> {
    const url = requestUrl(request);
    if (request.signal?.aborted === true) throw new TransportError('aborted', 'ABORT_ERR');

    // One signal for the caller's cancellation and our deadline, so either tears down the socket request.
    const linked = linkedSignal([request.signal], request.timeouts.totalMs);

    let route: Route | undefined;
    try {
      route = await this.#routeFor(url);
      const watch = new RequestWatch();
      // Through a proxy, undici does not say when it opens a connection.
      const dispatcher = route.proxy === undefined ? this.#watching(route.dispatcher) : route.dispatcher;
      const response = await dispatcher.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: request.method,
        headers: { ...request.headers },
        body: request.body ?? null,
        signal: linked.signal,
        headersTimeout: request.timeouts.headersMs,
        bodyTimeout: request.timeouts.bodyMs,
        opaque: watch,
      });
      const body = await readCapped(response.body, response.headers['content-length'], request.maxBytes);
      // undici hands the connection back one turn of the event loop after the response ended: a request that
      // follows at once (the events after their token) then reuses it instead of opening a second one.
      await new Promise(setImmediate);
      return {
        status: response.statusCode,
        headers: flattenHeaders(response.headers),
        body,
        ...definedOnly({ newConnection: watch.newConnection }),
      };
    } catch (error) {
      throw classifyNetworkError(error, { deadlinePassed: linked.timedOut, ...route?.proxy });
    } finally {
      linked.dispose();
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    const dispatchers: Dispatcher[] = [
      ...(this.#plain !== undefined ? [this.#plain] : []),
      ...(this.#direct !== undefined ? [this.#direct] : []),
      ...[...this.#proxies.values()].map((route) => route.dispatcher),
    ];
    this.#proxies.clear();
    this.#direct = undefined;
    this.#plain = undefined;
    await Promise.allSettled(dispatchers.map((dispatcher) => dispatcher.destroy()));
  }

  /** The agent, telling each request's RequestWatch whether it went out on a connection opened for it. */
  #watching(agent: Dispatcher): Dispatcher {
    let watched = this.#watched.get(agent);
    if (watched === undefined) {
      watched = watchConnections(agent);
      this.#watched.set(agent, watched);
    }
    return watched;
  }

  /** Loaded on the first request, once: reading the OS store and the CA file costs a few milliseconds. */
  #trust(): Promise<SecureContext> {
    this.#secureContext ??= loadTrustedCertificates(this.#options, this.#options.env).then(({ ca }) =>
      createSecureContext({ ca: [...ca] }),
    );
    return this.#secureContext;
  }

  #tls(secureContext: SecureContext): { secureContext: SecureContext; rejectUnauthorized: boolean } {
    // VS Code applies http.proxyStrictSSL to every request, not only proxied ones
    // (TLS-inspecting networks need it without an explicit proxy); we follow it.
    return { secureContext, rejectUnauthorized: this.#options.proxyStrictSSL !== false };
  }

  async #routeFor(url: URL): Promise<Route> {
    const lookup = definedOnly({ lookup: this.#options.lookup });
    const proxy = selectProxy(url, this.#options, this.#options.env);
    if (proxy === undefined && url.protocol === 'http:') {
      // Plain HTTP straight to the server (loopback only, sign-in allows nothing else): no certificates to load.
      if (this.#closed) throw new TransportError('aborted', 'TRANSPORT_CLOSED');
      this.#plain ??= new Agent({
        connections: this.#options.connectionsPerOrigin,
        keepAliveTimeout: KEEP_ALIVE_MS,
        connect: { timeout: this.#options.connectTimeoutMs, ...lookup },
      });
      return { dispatcher: this.#plain };
    }
    const secureContext = await this.#trust();
    if (this.#closed) throw new TransportError('aborted', 'TRANSPORT_CLOSED');
    if (proxy === undefined) {
      this.#direct ??= new Agent({
        connections: this.#options.connectionsPerOrigin,
        keepAliveTimeout: KEEP_ALIVE_MS,
        connect: { timeout: this.#options.connectTimeoutMs, ...this.#tls(secureContext), ...lookup },
      });
      return { dispatcher: this.#direct };
    }
    let route = this.#proxies.get(proxy);
    if (route === undefined) {
      let proxyUrl: URL;
      try {
        proxyUrl = new URL(proxy);
      } catch {
        throw new TransportError('proxy-invalid', 'ERR_INVALID_PROXY');
      }
      const token = this.#options.proxyAuthorization;
      try {
        route = {
          dispatcher: new ProxyAgent({
            uri: proxy,
            // http targets go to the proxy as absolute-URI requests: many proxies refuse CONNECT to port 80.
            // https targets are always tunnelled with CONNECT, so the proxy sees neither headers nor bodies.
            proxyTunnel: false,
            ...definedOnly({ token }),
            connections: this.#options.connectionsPerOrigin,
            keepAliveTimeout: KEEP_ALIVE_MS,
            proxyTls: { timeout: this.#options.connectTimeoutMs, ...this.#tls(secureContext), ...lookup },
            requestTls: this.#tls(secureContext),
            // The pool of connections to the proxy: its connector marks its own failures, so a
            // certificate the proxy presents is not taken for the API's (networkFailures.ts).
            clientFactory: (origin: URL, poolOptions: object) => new Pool(origin, markProxyLeg(poolOptions)),
          }),
          proxy: {
            proxyHost: proxyUrl.host,
            // As undici decides: the token, else Basic from the URL only when it has both a user and a password.
            proxyCredentialsSent: token !== undefined || (proxyUrl.username !== '' && proxyUrl.password !== ''),
          },
        };
      } catch {
        throw new TransportError('proxy-invalid', 'ERR_INVALID_PROXY');
      }
      this.#proxies.set(proxy, route);
    }
    return route;
  }
}

/** Filled in as undici writes one request: whether the connection under it was opened for it. */
class RequestWatch {
  newConnection: boolean | undefined;
}

/**
 * undici emits 'connect' and writes the first request on the new connection in one synchronous run;
 * it writes on a connection it reuses on a later turn of the event loop.
 */
function watchConnections(agent: Dispatcher): Dispatcher {
  let justConnected = false;
  agent.on('connect', () => {
    justConnected = true;
    queueMicrotask(() => {
      justConnected = false;
    });
  });
  return agent.compose((dispatch) => (options, handler) => {
    // request() hands its own options on to dispatch(), opaque included; the types name it on request()'s only.
    const watch = (options as { readonly opaque?: unknown }).opaque;
    if (!(watch instanceof RequestWatch)) return dispatch(options, handler);
    return dispatch(
      options,
      new ConnectionObserver(handler, () => {
        watch.newConnection = justConnected;
      }),
    );
  });
}

/** Hands every call on to undici's own handler, and says when the request is written. */
class ConnectionObserver implements Dispatcher.DispatchHandler {
  readonly #inner: Dispatcher.DispatchHandler;
  readonly #onStart: () => void;

  constructor(inner: Dispatcher.DispatchHandler, onStart: () => void) {
    this.#inner = inner;
    this.#onStart = onStart;
  }

  onRequestStart(controller: Dispatcher.DispatchController, context: unknown): void {
    this.#onStart();
    this.#inner.onRequestStart?.(controller, context);
  }

  onRequestUpgrade(controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders, socket: Duplex): void {
    this.#inner.onRequestUpgrade?.(controller, statusCode, headers, socket);
  }

  onResponseStart(
    controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: IncomingHttpHeaders,
    statusMessage?: string,
  ): void {
    this.#inner.onResponseStart?.(controller, statusCode, headers, statusMessage);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.#inner.onResponseData?.(controller, chunk);
  }

  onResponseEnd(controller: Dispatcher.DispatchController, trailers: IncomingHttpHeaders): void {
    this.#inner.onResponseEnd?.(controller, trailers);
  }

  onResponseError(controller: Dispatcher.DispatchController, error: Error): void {
    this.#inner.onResponseError?.(controller, error);
  }
}

function readCapped(
  body: Dispatcher.ResponseData['body'],
  contentLength: string | string[] | undefined,
  maxBytes: number,
): Promise<Uint8Array> {
  // Refuse early when the server announces too much, before reading a byte of it. undici gives
  // an array only for a repeated header, and Number() of two or more values is NaN, as of none.
  if (Number(contentLength) > maxBytes) {
    // Destroying a body that is still arriving makes undici emit RequestAbortedError on it: with
    // no listener that is an uncaught exception in the extension host. We refused it; ignore that.
    body.on('error', () => undefined);
    body.destroy();
    return Promise.reject(new TransportError('too-large', 'RESPONSE_TOO_LARGE'));
  }
  // By events rather than an async iterator: a promise per chunk is most of the cost of a small answer.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let settled = false;
    const fail = (error: Error): void => {
      if (settled) return;
      settled = true;
      reject(error);
    };
    // Stays attached to the end: a body destroyed below must not turn RequestAbortedError into an uncaught exception.
    body.on('error', fail);
    body.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > maxBytes) {
        fail(new TransportError('too-large', 'RESPONSE_TOO_LARGE'));
        body.destroy();
        return;
      }
      chunks.push(chunk);
    });
    body.on('end', () => {
      if (settled) return;
      settled = true;
      resolve(Buffer.concat(chunks, total));
    });
    // Every body closes, ended or not: the error (and its stack) only for one that closed before its end.
    body.on('close', () => {
      if (!settled) fail(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
    });
  });
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function markProxyLeg(options: UndiciPool.Options): UndiciPool.Options {
  const { connect } = options;
  if (typeof connect !== 'function') return options;
  return {
    ...options,
    connect: (connectOptions, callback) => {
      connect(connectOptions, (error, socket) => {
        if (error !== null) {
          (error as Error & { [PROXY_LEG]?: boolean })[PROXY_LEG] = true;
          callback(error, null);
        } else {
          callback(null, socket);
        }
      });
    },
  };
}
