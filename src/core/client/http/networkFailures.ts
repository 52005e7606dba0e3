// What undici, Node and VS Code's fetch throw, as a NetworkFailure: the same whichever engine carried
// it. Only codes are read, as messages may quote a proxy URL with its password; no undici import.

import { definedOnly } from '../../common/definedOnly';
import { isTransportError, TransportError, type NetworkFailure, type NetworkFailureContext } from './transport';

/** OpenSSL's verdicts on a certificate, by what they mean: the one list (Test Connection and the certificate probe read it too). */
const CERTIFICATE_FAILURES: Readonly<Record<string, CertificateFailure>> = {
  // No trusted CA issued this certificate.
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'untrusted-certificate',
  UNABLE_TO_GET_ISSUER_CERT: 'untrusted-certificate',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'untrusted-certificate',
  SELF_SIGNED_CERT_IN_CHAIN: 'untrusted-certificate',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'untrusted-certificate',
  CERT_UNTRUSTED: 'untrusted-certificate',
  CERT_SIGNATURE_FAILURE: 'untrusted-certificate',
  INVALID_CA: 'untrusted-certificate',
  CERT_HAS_EXPIRED: 'certificate-expired',
  CERT_NOT_YET_VALID: 'certificate-expired',
  ERR_TLS_CERT_ALTNAME_INVALID: 'certificate-name-mismatch',
  HOSTNAME_MISMATCH: 'certificate-name-mismatch',
};

export type CertificateFailure = Extract<NetworkFailure, 'untrusted-certificate' | 'certificate-expired' | 'certificate-name-mismatch'>;

export function certificateFailure(code: string): CertificateFailure | undefined {
  return Object.hasOwn(CERTIFICATE_FAILURES, code) ? CERTIFICATE_FAILURES[code] : undefined;
}

export const DNS_FAILURES: ReadonlySet<string> = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'EAI_NODATA']);

/** undici's wrapper of a failed TLS handshake with an https proxy (it uses it only for a name mismatch). */
const PROXY_TLS = 'UND_ERR_PRX_TLS';

const TIMEOUTS: Readonly<Record<string, TransportError['failure']>> = {
  UND_ERR_CONNECT_TIMEOUT: 'connect-timeout',
  ETIMEDOUT: 'connect-timeout',
  UND_ERR_HEADERS_TIMEOUT: 'headers-timeout',
  UND_ERR_BODY_TIMEOUT: 'body-timeout',
};

/**
 * undici reports a proxy's refusal only in a message (as a cancel or a bad URL); VS Code's proxy
 * agent words its 407 with other punctuation, so only the start is matched.
 */
const PROXY_STATUS: readonly RegExp[] = [/^Proxy response \((\d{3})\)/, /^Proxy Authentication Required \((\d{3})\)/];

/**
 * Set on errors of the connection to the proxy itself: both legs carry the same certificate codes,
 * and only this tells whose certificate failed. A registry symbol, as the undici bundle has its own copy.
 */
export const PROXY_LEG = Symbol.for('onboardingEvents.proxyLeg');

export interface FailureSituation extends Pick<NetworkFailureContext, 'proxyHost' | 'proxyCredentialsSent'> {
  readonly deadlinePassed: boolean;
  /** A proxy VS Code chose itself (system settings, PAC) may have no name we know. */
  readonly proxyMayBeHidden?: boolean;
}

export function causeCodes(error: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    const { code, cause } = current as { code?: unknown; cause?: unknown };
    if (typeof code === 'string' && codes.at(-1) !== code) codes.push(code);
    current = cause;
  }
  return codes;
}

export function classifyNetworkError(error: unknown, situation: FailureSituation): TransportError {
  if (isTransportError(error)) return error;
  const codes = causeCodes(error);
  const outer = codes[0] ?? 'UNKNOWN';
  const base: NetworkFailureContext = {
    causes: codes,
    ...(situation.proxyHost !== undefined
      ? { proxyHost: situation.proxyHost, proxyCredentialsSent: situation.proxyCredentialsSent === true }
      : {}),
    ...(situation.proxyMayBeHidden === true ? { engine: 'vscode' as const } : {}),
  };
  const make = (failure: TransportError['failure'], code: string, extra: NetworkFailureContext = {}): TransportError =>
    new TransportError(failure, code, { ...base, ...extra });

  const proxyStatus = proxyStatusOf(error);
  if (proxyStatus !== undefined && (situation.proxyHost !== undefined || situation.proxyMayBeHidden === true)) {
    const schemes = proxyStatus === 407 ? proxyAuthSchemesOf(error) : [];
    return make(proxyStatus === 407 ? 'proxy-auth-required' : 'proxy-refused', `PROXY_${proxyStatus}`, {
      proxyStatus,
      ...(schemes.length > 0 ? { proxyAuthSchemes: schemes } : {}),
    });
  }
  // An aborted signal's reason: AbortError from the caller, TimeoutError from AbortSignal.timeout (our deadline).
  if (
    outer === 'UND_ERR_ABORTED' ||
    outer === 'ABORT_ERR' ||
    (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError'))
  ) {
    return situation.deadlinePassed ? make('total-timeout', 'TOTAL_TIMEOUT') : make('aborted', 'ABORT_ERR');
  }
  if (outer === 'UND_ERR_INVALID_ARG') return make('invalid-url', outer);
  if (outer === 'UND_ERR_RES_EXCEEDED_MAX_SIZE') return make('too-large', outer);

  // The innermost recognised code decides: undici wraps socket errors in its own.
  const certificate = [...codes].reverse().find((code) => certificateFailure(code) !== undefined);
  if (certificate !== undefined) {
    // The proxy's handshake first: blaming the API would send the user to change URLs that are right.
    if (situation.proxyHost !== undefined && (codes.includes(PROXY_TLS) || onProxyLeg(error)))
      return make('proxy-certificate', certificate);
    // undici names the proxy's handshake (for a name mismatch) also when VS Code chose the proxy
    // itself; the inner error's host is then the only name of that proxy there is.
    if (situation.proxyMayBeHidden === true && codes.includes(PROXY_TLS)) {
      const host = proxyTlsHostOf(error);
      return make('proxy-certificate', certificate, { proxyFromVsCode: true, ...definedOnly({ proxyHost: host }) });
    }
    return make(certificateFailure(certificate) ?? 'untrusted-certificate', certificate);
  }
  const root = codes.at(-1) ?? outer;
  const timeout = TIMEOUTS[root] ?? TIMEOUTS[outer];
  // Through a proxy we connect only to the proxy: the target's refusals come back as a status.
  if (
    situation.proxyHost !== undefined &&
    (DNS_FAILURES.has(root) ||
      root === 'ECONNREFUSED' ||
      timeout === 'connect-timeout' ||
      root === 'EHOSTUNREACH' ||
      root === 'ENETUNREACH')
  ) {
    return make('proxy-unreachable', root);
  }
  if (DNS_FAILURES.has(root)) return make('dns', root);
  if (root === 'ECONNREFUSED') return make('connection-refused', root);
  if (timeout !== undefined) return make(timeout, root);
  return make('connection', root);
}

function onProxyLeg(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    if ((current as Record<symbol, unknown>)[PROXY_LEG] === true) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** The host name Node checked in a proxy's name-mismatch error (no port, no credentials), if it looks like one. */
function proxyTlsHostOf(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    const { code, host, cause } = current as { code?: unknown; host?: unknown; cause?: unknown };
    if (
      typeof code === 'string' &&
      certificateFailure(code) === 'certificate-name-mismatch' &&
      typeof host === 'string' &&
      HOST_NAME.test(host)
    )
      return host;
    current = cause;
  }
  return undefined;
}

const HOST_NAME = /^[A-Za-z0-9.:[\]-]{1,253}$/;
/** Narrower than RFC 9110's token, so no Markdown or link syntax from a proxy reaches a hover or report. */
export const AUTH_SCHEME = /^[A-Za-z][A-Za-z0-9-]{0,31}$/;

/** From VS Code's proxy agent's 407 (`connectResponseHeaders`): names only, never a realm or token, at most 5. */
function proxyAuthSchemesOf(error: unknown): string[] {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    const { connectResponseHeaders: headers, cause } = current as { connectResponseHeaders?: unknown; cause?: unknown };
    if (typeof headers === 'object' && headers !== null) {
      const value: unknown = Object.entries(headers as Record<string, unknown>).find(
        ([name]) => name.toLowerCase() === 'proxy-authenticate',
      )?.[1];
      const challenges = (Array.isArray(value) ? (value as unknown[]) : [value]).filter(
        (entry): entry is string => typeof entry === 'string',
      );
      const schemes: string[] = [];
      // A header may join several challenges with commas; a scheme is the token before the first space.
      for (const part of challenges.join(',').split(',')) {
        const scheme = part.trim().split(/\s+/)[0] ?? '';
        // An auth-param (`nonce="…"`, `stale=false`) after a comma has an '=', which no scheme has.
        if (AUTH_SCHEME.test(scheme) && !schemes.some((known) => known.toLowerCase() === scheme.toLowerCase())) schemes.push(scheme);
      }
      return schemes.slice(0, 5);
    }
    current = cause;
  }
  return [];
}

function proxyStatusOf(error: unknown): number | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    for (const pattern of PROXY_STATUS) {
      const match = pattern.exec(current.message);
      if (match?.[1] !== undefined) return Number(match[1]);
    }
    current = current.cause;
  }
  return undefined;
}
