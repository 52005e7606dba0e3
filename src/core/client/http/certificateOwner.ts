// VS Code's path reports an untrusted certificate of the proxy and of the API alike, so we ask: one
// bounded TLS handshake of our own, same CAs, to the named https proxy or else the API, sending no
// request and no credential.

import type { LookupFunction } from 'node:net';
import { connect } from 'node:tls';
import { definedOnly } from '../../common/definedOnly';
import { certificateFailure } from './networkFailures';
import { TransportError } from './transport';

/** A probe is over within this, whatever the network does: the user is waiting for the message. */
export const PROBE_TIMEOUT_MS = 4_000;
/** One probe per host and port serves the failures of a burst (a tree refresh fails many requests at once). */
const PROBE_REUSE_MS = 30_000;

/** What one handshake said: 'ok', the certificate code it failed with, or 'unreachable' (no answer about certificates). */
export type HandshakeAnswer = 'ok' | 'unreachable' | (string & {});

export interface ProbeOptions {
  readonly ca: readonly string[];
  readonly lookup?: LookupFunction;
  readonly timeoutMs?: number;
}

export function probeHandshake(host: string, port: number, options: ProbeOptions): Promise<HandshakeAnswer> {
  return new Promise((resolve) => {
    const socket = connect({
      host,
      port,
      ca: [...options.ca],
      // SNI takes names only; an address is checked against the certificate's IP entries.
      ...(/^[\d.]+$|:/.test(host) ? {} : { servername: host }),
      ...definedOnly({ lookup: options.lookup }),
    });
    const finish = (answer: HandshakeAnswer): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(() => {
      finish('unreachable');
    }, options.timeoutMs ?? PROBE_TIMEOUT_MS);
    socket.once('secureConnect', () => {
      finish('ok');
    });
    socket.once('error', (error: Error & { code?: unknown }) => {
      finish(typeof error.code === 'string' && certificateFailure(error.code) !== undefined ? error.code : 'unreachable');
    });
  });
}

export interface CertificateOwnerOptions extends ProbeOptions {
  /** The proxy http.proxy or the environment names for the request's URL, with its scheme; none when not named. */
  readonly proxy?: URL;
}

/** Pins an untrusted or expired certificate on the proxy or the API, or marks it unknown. */
export class CertificateOwner {
  readonly #answers = new Map<string, { readonly at: number; readonly answer: Promise<HandshakeAnswer> }>();

  async refine(error: TransportError, url: URL, options: CertificateOwnerOptions): Promise<TransportError> {
    if (error.failure !== 'untrusted-certificate' && error.failure !== 'certificate-expired') return error;
    const { proxy } = options;
    // Through a plain-http proxy the only TLS is the API's, inside the tunnel.
    if (proxy?.protocol === 'http:') return error;
    const hop = proxy ?? url;
    const answer = await this.#probe(hop.hostname.replace(/^\[|\]$/g, ''), portOf(hop), options);
    if (proxy !== undefined) {
      if (answer === 'ok') return error;
      if (answer !== 'unreachable') return new TransportError('proxy-certificate', answer, { ...error.context, proxyHost: proxy.host });
    } else {
      // Straight to the API it fails too: the API's certificate (as this computer sees it).
      if (answer !== 'ok' && answer !== 'unreachable') return error;
      // The API's certificate is trusted directly: what failed is what VS Code's path put in between.
      if (answer === 'ok') return new TransportError('proxy-certificate', error.code, { ...error.context, proxyFromVsCode: true });
    }
    return new TransportError(error.failure, error.code, { ...error.context, certificateOwnerUnknown: true });
  }

  #probe(host: string, port: number, options: ProbeOptions): Promise<HandshakeAnswer> {
    const key = `${host}:${port}`;
    const now = Date.now();
    const known = this.#answers.get(key);
    if (known !== undefined && now - known.at < PROBE_REUSE_MS) return known.answer;
    const answer = probeHandshake(host, port, options);
    // A few proxies and APIs at most; the bound only guards against a setting that keeps changing.
    if (this.#answers.size >= 32) this.#answers.clear();
    this.#answers.set(key, { at: now, answer });
    return answer;
  }
}

function portOf(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'http:' ? 80 : 443;
}
