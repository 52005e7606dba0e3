// The one seam between the core and the network. The core only ever talks to
// this interface, so undici stays in its own lazily loaded bundle and tests or
// benchmarks can inject another implementation.

import type { LookupFunction } from 'node:net';

export type HttpMethod = 'GET' | 'POST';

export interface TransportTimeouts {
  readonly headersMs: number;
  readonly bodyMs: number;
  /** Wall-clock budget for the whole exchange, so a trickling body cannot hang a view. */
  readonly totalMs: number;
}

export interface TransportRequest {
  readonly method: HttpMethod;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly signal?: AbortSignal;
  readonly timeouts: TransportTimeouts;
  /** Larger answers are refused rather than buffered (a misbehaving proxy can send anything). */
  readonly maxBytes: number;
}

export interface TransportResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
  /** The request went out on a connection opened for it, so its latency includes the handshake. Absent when unknown. */
  readonly newConnection?: boolean;
}

/**
 * Why a request produced no response: the one list of names from the transport up, so nothing above
 * depends on undici's error classes.
 */
export type NetworkFailure =
  | 'aborted'
  | 'invalid-url'
  | 'too-large'
  | 'connect-timeout'
  | ResponseDeadline
  /** A response deadline passed, whichever one: how an ApiError reports the three above. */
  | 'response-timeout'
  | 'connection'
  | 'connection-refused'
  | 'dns'
  | 'untrusted-certificate'
  | 'certificate-expired'
  | 'certificate-name-mismatch'
  /** The TLS handshake with an https proxy failed (the code says why): the API was never reached. */
  | 'proxy-certificate'
  | 'proxy-auth-required'
  | 'proxy-refused'
  | 'proxy-unreachable'
  /** The proxy setting (or HTTPS_PROXY) is not a proxy URL undici can use. */
  | 'proxy-invalid'
  | 'ca-file';

export type ResponseDeadline = 'headers-timeout' | 'body-timeout' | 'total-timeout';

export interface NetworkFailureContext {
  /** host[:port] of the proxy, never its user or password. */
  readonly proxyHost?: string;
  readonly proxyStatus?: number;
  /** Whether a Proxy-Authorization header was sent: a 407 then means wrong credentials, not missing ones. */
  readonly proxyCredentialsSent?: boolean;
  /** Error codes from the outermost error to its root cause, e.g. UND_ERR_CONNECT ← ECONNREFUSED. */
  readonly causes?: readonly string[];
  /** The CA file that could not be used (a path the user typed into a setting). */
  readonly caFile?: string;
  /** The schemes a proxy's 407 asked for (Negotiate, NTLM, Basic, ...), names only, when the error carried them. */
  readonly proxyAuthSchemes?: readonly string[];
  /** Which engine carried the request: on 'vscode', VS Code's stack chose the proxy and answered its challenges. */
  readonly engine?: NetworkEngine;
  /** The failing proxy is one VS Code chose itself (system settings, PAC), not one http.proxy or the environment names. */
  readonly proxyFromVsCode?: boolean;
  /**
   * A certificate failure on VS Code's path that could not be pinned on the API or on a proxy VS
   * Code chose itself: its errors carry the same codes for both handshakes.
   */
  readonly certificateOwnerUnknown?: boolean;
}

/**
 * The undici bundle has its own copy of this class, so `instanceof` fails across bundles; a registry
 * symbol is the same in both.
 */
const TRANSPORT_ERROR = Symbol.for('onboardingEvents.TransportError');

export class TransportError extends Error {
  readonly [TRANSPORT_ERROR] = true;

  constructor(
    /** The finest name the transport knows: which deadline passed, never the 'response-timeout' that groups them. */
    readonly failure: Exclude<NetworkFailure, 'response-timeout'>,
    /** A short system code such as ECONNRESET; never the library's message, which may quote URLs with credentials. */
    readonly code: string,
    readonly context: NetworkFailureContext = {},
  ) {
    super(`${failure} (${code})`);
    this.name = 'TransportError';
  }
}

export function isTransportError(value: unknown): value is TransportError {
  return (
    value instanceof TransportError ||
    (typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[TRANSPORT_ERROR] === true)
  );
}

export function requestUrl(request: Pick<TransportRequest, 'url'>): URL {
  try {
    return new URL(request.url);
  } catch {
    throw new TransportError('invalid-url', 'ERR_INVALID_URL');
  }
}

export interface Transport {
  request(request: TransportRequest): Promise<TransportResponse>;
  close(): Promise<void>;
}

export interface ProxySettings {
  readonly proxy?: string;
  /** VS Code `http.proxyStrictSSL`; false accepts self-signed certificates of the target behind the proxy. */
  readonly proxyStrictSSL?: boolean;
  readonly noProxy?: readonly string[];
  /** VS Code `http.proxyAuthorization`: the whole Proxy-Authorization header value; wins over user:password in the proxy URL. */
  readonly proxyAuthorization?: string;
}

export interface TrustSettings {
  /** VS Code `http.systemCertificates`: also trust the operating system's store (default true). */
  readonly systemCertificates?: boolean;
  readonly caCertificatesFile?: string;
}

/** 'vscode': the extension host's global fetch, patched by VS Code (networkPath.ts); 'undici': our own undici transport. */
export type NetworkEngine = 'vscode' | 'undici';

export interface TransportOptions extends ProxySettings, TrustSettings {
  readonly connectTimeoutMs: number;
  readonly connectionsPerOrigin: number;
  readonly env: Readonly<NodeJS.ProcessEnv>;
  readonly lookup?: LookupFunction;
  /** 'vscode' inside an extension host (networkPath.ts says per request which engine carries it); 'undici' by default. */
  readonly engine?: NetworkEngine;
  readonly fetch?: typeof globalThis.fetch;
}
