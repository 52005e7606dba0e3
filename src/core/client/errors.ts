// Errors carry what went wrong (a cause: its kind and facts), never what to do: each program
// words the remedy in its own terms (extension/workbench/remedies.ts, cli/remedies.ts,
// agentRemedies.ts with each program's asks). No message holds a password, secret or token, nor text from a server.

import { LocalizedError } from '../common/errors';
import type { Localize, LocalizedText } from '../common/localize';
import { AUTH_SCHEME } from './http/networkFailures';
import type { NetworkFailure, NetworkFailureContext, ResponseDeadline, TransportError } from './http/transport';

export type ApiErrorKind =
  | 'invalid-credentials'
  | 'permission-denied'
  | 'not-found'
  | 'rate-limited'
  | 'server'
  | 'network'
  | 'timeout'
  | 'protocol'
  | 'cancelled'
  | 'invalid-input';

/**
 * Which network failure a 'network' or 'timeout' error is, so a view tells them apart without
 * parsing the message; the kind stays 'network' or 'timeout' so every view offers "Try Again".
 */
export type ApiNetworkFailure = Exclude<NetworkFailure, 'aborted' | 'invalid-url' | 'too-large' | ResponseDeadline>;

/** Which proxy a failure is about: one that is named, one VS Code chose itself, or one nobody can name. */
export interface ProxyName {
  readonly host: string | undefined;
  readonly fromVsCode: boolean;
  readonly engine: NetworkFailureContext['engine'];
}

/** What went wrong, with the facts a program needs to say what to do; `host` undefined: a URL that did not parse. */
export type ErrorCause =
  | { readonly kind: 'cancelled' }
  | { readonly kind: 'shutting-down' }
  | { readonly kind: 'not-signed-in' }
  | { readonly kind: 'invalid-credentials' }
  | { readonly kind: 'fresh-token-rejected' }
  | { readonly kind: 'permission-denied' }
  | { readonly kind: 'not-found'; readonly endpoint: 'api' | 'token'; readonly what?: LocalizedText }
  | { readonly kind: 'rate-limited'; readonly status: number; readonly retryAfterMs?: number }
  | { readonly kind: 'server'; readonly status: number }
  | { readonly kind: 'unexpected-status'; readonly status: number }
  | { readonly kind: 'bad-answer'; readonly problem: LocalizedText }
  | { readonly kind: 'invalid-url'; readonly request: string }
  | { readonly kind: 'invalid-input'; readonly text: LocalizedText }
  | { readonly kind: 'connect-timeout'; readonly host: string | undefined }
  | { readonly kind: 'response-timeout'; readonly host: string | undefined; readonly seconds: number }
  | { readonly kind: 'proxy-invalid' }
  | { readonly kind: 'untrusted-certificate'; readonly host: string | undefined; readonly code: string; readonly ownerUnknown: boolean }
  | { readonly kind: 'certificate-expired'; readonly host: string | undefined; readonly code: string; readonly ownerUnknown: boolean }
  | { readonly kind: 'certificate-name-mismatch'; readonly host: string | undefined; readonly code: string }
  | { readonly kind: 'proxy-certificate'; readonly proxy: ProxyName; readonly code: string }
  | {
      readonly kind: 'proxy-auth-required';
      readonly proxy: ProxyName;
      readonly credentialsSent: boolean;
      /** Plain scheme names the proxy offered (at most five). */
      readonly schemes: readonly string[];
    }
  | { readonly kind: 'proxy-refused'; readonly proxy: ProxyName; readonly host: string | undefined; readonly status: number }
  | { readonly kind: 'proxy-unreachable'; readonly proxy: ProxyName; readonly code: string }
  | { readonly kind: 'ca-file'; readonly file: string; readonly code: string }
  | { readonly kind: 'dns'; readonly hostname: string | undefined; readonly code: string }
  | { readonly kind: 'connection-refused'; readonly host: string | undefined; readonly code: string }
  | { readonly kind: 'connection'; readonly host: string | undefined; readonly code: string };

export type ErrorCauseKind = ErrorCause['kind'];

/** An error with a cause: its `text` says only what went wrong, in the reader's language. */
export class CausedError extends LocalizedError {
  constructor(override readonly cause: ErrorCause) {
    super((t) => problemText(cause, t));
  }
}

/** `message` is the English cause (logs); a program shows its own wording (remedies modules). */
export class ApiError extends CausedError {
  constructor(
    readonly kind: ApiErrorKind,
    cause: ErrorCause,
    readonly details: {
      readonly status?: number;
      /** Milliseconds the server asked us to wait (Retry-After), when it said. */
      readonly retryAfterMs?: number;
      /** Method and path (no query string secrets; serial numbers are not secret). */
      readonly request?: string;
      /** Set on 'network' and 'timeout' errors. */
      readonly network?: ApiNetworkFailure;
      /** Error codes from the outermost to the root cause (e.g. UND_ERR_SOCKET, ECONNRESET): for the log, never a library message. */
      readonly causes?: readonly string[];
    } = {},
  ) {
    super(cause);
    this.name = 'ApiError';
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

export function causeOf(error: unknown): ErrorCause | undefined {
  return error instanceof CausedError ? error.cause : undefined;
}

/** A program's words for anything thrown: the cause and what to do there, in `t`'s language. */
export type ErrorWording = (error: unknown, t: Localize) => string;

/** `host`, or "the server" in `t`'s language where the URL did not parse. */
export function hostText(host: string | undefined, t: Localize): string {
  return host ?? t('the server');
}

export function isSelfSigned(code: string): boolean {
  return code === 'DEPTH_ZERO_SELF_SIGNED_CERT';
}

/** The proxy as the subject of a sentence ('start': capitalized where the language has capitals) or inside one. */
export function proxyName(t: Localize, proxy: ProxyName, where: 'start' | 'inside'): string {
  if (proxy.host !== undefined) {
    if (proxy.fromVsCode) {
      return where === 'start'
        ? t('The proxy {0} (which VS Code chose from the system settings or a PAC file)', proxy.host)
        : t('the proxy {0} (which VS Code chose from the system settings or a PAC file)', proxy.host);
    }
    return where === 'start' ? t('The proxy {0}', proxy.host) : t('the proxy {0}', proxy.host);
  }
  if (proxy.engine === 'vscode') {
    return where === 'start'
      ? t('The proxy VS Code uses (from the system settings or a PAC file)')
      : t('the proxy VS Code uses (from the system settings or a PAC file)');
  }
  return where === 'start' ? t('The proxy') : t('the proxy');
}

/** What went wrong, in a sentence or two, with no remedy: the part every program's wording shares. */
export function problemText(cause: ErrorCause, t: Localize): string {
  switch (cause.kind) {
    case 'cancelled':
    case 'shutting-down':
      return t('The request was cancelled.');
    case 'not-signed-in':
      return t('Not signed in.');
    case 'invalid-credentials':
      return t('The API rejected the credentials.');
    case 'fresh-token-rejected':
      return t('The API rejected a freshly issued access token (HTTP 401).');
    case 'permission-denied':
      return t('The API user is not allowed to read onboarding events.');
    case 'not-found':
      return cause.what === undefined
        ? t('The requested resource was not found (HTTP 404).')
        : t('{0} was not found (HTTP 404).', cause.what(t));
    case 'rate-limited':
      return t('The API is limiting how often it may be called (HTTP {0}).', cause.status);
    case 'server':
      return t('The API had a problem answering (HTTP {0}).', cause.status);
    case 'unexpected-status':
      return t('The API answered with an unexpected HTTP {0}.', cause.status);
    case 'bad-answer':
      return cause.problem(t);
    case 'invalid-url':
      return t('The URL for {0} is not valid.', cause.request);
    case 'invalid-input':
      return cause.text(t);
    case 'connect-timeout':
      return t('Could not connect to {0} in time.', hostText(cause.host, t));
    case 'response-timeout':
      return t('{0} did not answer within {1} s.', hostText(cause.host, t), cause.seconds);
    case 'proxy-invalid':
      return t('The proxy address is not a valid URL.');
    case 'untrusted-certificate':
      return isSelfSigned(cause.code)
        ? t('{0} presented a self-signed certificate ({1}).', hostText(cause.host, t), cause.code)
        : t(
            '{0} presented a certificate from a certificate authority this computer does not trust ({1}).',
            hostText(cause.host, t),
            cause.code,
          );
    case 'certificate-expired':
      return cause.code === 'CERT_NOT_YET_VALID'
        ? t('The certificate of {0} is not valid yet ({1}).', hostText(cause.host, t), cause.code)
        : t('The certificate of {0} has expired ({1}).', hostText(cause.host, t), cause.code);
    case 'certificate-name-mismatch':
      return t('The certificate of {0} was issued for another host name ({1}).', hostText(cause.host, t), cause.code);
    case 'proxy-certificate':
      return t('The certificate of {0} could not be verified ({1}).', proxyName(t, cause.proxy, 'inside'), cause.code);
    case 'proxy-auth-required':
      return cause.credentialsSent
        ? t('{0} rejected the proxy credentials (HTTP 407).', proxyName(t, cause.proxy, 'start'))
        : t('{0} requires authentication (HTTP 407).', proxyName(t, cause.proxy, 'start'));
    case 'proxy-refused':
      return t(
        '{0} refused to open a connection to {1} (HTTP {2}).',
        proxyName(t, cause.proxy, 'start'),
        hostText(cause.host, t),
        cause.status,
      );
    case 'proxy-unreachable':
      return t('Could not connect to {0} ({1}).', proxyName(t, cause.proxy, 'inside'), cause.code);
    case 'ca-file':
      return t('The CA certificates file "{0}" could not be used ({1}).', cause.file, cause.code);
    case 'dns':
      return t('The host name {0} could not be found ({1}).', hostText(cause.hostname, t), cause.code);
    case 'connection-refused':
      return t('{0} refused the connection ({1}).', hostText(cause.host, t), cause.code);
    case 'connection':
      return t('Could not reach {0} ({1}).', hostText(cause.host, t), cause.code);
  }
}

/** "GET /path" for error details: enough to locate the call, nothing a secret could hide in. */
export function describeRequest(method: string, url: string): string {
  try {
    return `${method} ${new URL(url).pathname}`;
  } catch {
    return method;
  }
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}

function hostnameOf(url: string): string | undefined {
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
}

export function cancelledError(): ApiError {
  return new ApiError('cancelled', { kind: 'cancelled' });
}

export function disposedError(): ApiError {
  return new ApiError('cancelled', { kind: 'shutting-down' });
}

export function invalidCredentialsError(request: string, status?: number): ApiError {
  return new ApiError('invalid-credentials', { kind: 'invalid-credentials' }, withStatus({ request }, status));
}

export function rejectedFreshTokenError(request: string): ApiError {
  return new ApiError('invalid-credentials', { kind: 'fresh-token-rejected' }, { status: 401, request });
}

export function permissionDeniedError(request: string, status?: number): ApiError {
  return new ApiError('permission-denied', { kind: 'permission-denied' }, withStatus({ request }, status));
}

/** `what`: the subject of the sentence, e.g. "No machine with this serial number"; the requested resource when absent. */
export function notFoundError(request: string, what?: LocalizedText, endpoint: 'api' | 'token' = 'api'): ApiError {
  return new ApiError('not-found', what === undefined ? { kind: 'not-found', endpoint } : { kind: 'not-found', endpoint, what }, {
    status: 404,
    request,
  });
}

export function rateLimitedError(request: string, status: number, retryAfterMs?: number): ApiError {
  return retryAfterMs === undefined
    ? new ApiError('rate-limited', { kind: 'rate-limited', status }, { status, request })
    : new ApiError('rate-limited', { kind: 'rate-limited', status, retryAfterMs }, { status, request, retryAfterMs });
}

export function serverError(request: string, status: number): ApiError {
  return new ApiError('server', { kind: 'server', status }, { status, request });
}

export function unexpectedStatusError(request: string, status: number): ApiError {
  return new ApiError('protocol', { kind: 'unexpected-status', status }, { status, request });
}

/** `problem`: one sentence saying what was wrong with the answer. */
export function protocolError(request: string, problem: LocalizedText, status?: number): ApiError {
  return new ApiError('protocol', { kind: 'bad-answer', problem }, withStatus({ request }, status));
}

export function invalidInputError(text: LocalizedText): ApiError {
  return new ApiError('invalid-input', { kind: 'invalid-input', text });
}

/** Maps a request that produced no response. */
export function errorForTransportFailure(error: TransportError, method: string, url: string, timeoutMs: number): ApiError {
  const request = describeRequest(method, url);
  const host = hostOf(url);
  const { proxyHost, proxyStatus, causes = [error.code], caFile = '', engine, certificateOwnerUnknown = false } = error.context;
  const code = error.code;
  const fromVsCode = error.context.proxyFromVsCode === true || (proxyHost === undefined && engine === 'vscode');
  const network = (failure: ApiNetworkFailure, cause: ErrorCause): ApiError =>
    new ApiError('network', cause, { request, network: failure, causes });
  // VS Code's stack may choose a proxy (system settings, PAC) that we cannot name.
  const proxy: ProxyName = { host: proxyHost, fromVsCode, engine };
  switch (error.failure) {
    case 'aborted':
      return cancelledError();
    case 'connect-timeout':
      return new ApiError('timeout', { kind: 'connect-timeout', host }, { request, network: 'connect-timeout', causes });
    case 'headers-timeout':
    case 'body-timeout':
    case 'total-timeout':
      return new ApiError(
        'timeout',
        { kind: 'response-timeout', host, seconds: Math.round(timeoutMs / 1000) },
        { request, network: 'response-timeout', causes },
      );
    case 'too-large':
      return protocolError(request, (t) =>
        t('The answer from {0} was larger than the allowed maximum, so it was not read.', hostText(host, t)),
      );
    case 'proxy-invalid':
      return network('proxy-invalid', { kind: 'proxy-invalid' });
    case 'invalid-url':
      return new ApiError('invalid-input', { kind: 'invalid-url', request });
    case 'untrusted-certificate':
      return network('untrusted-certificate', { kind: 'untrusted-certificate', host, code, ownerUnknown: certificateOwnerUnknown });
    case 'certificate-expired':
      return network('certificate-expired', { kind: 'certificate-expired', host, code, ownerUnknown: certificateOwnerUnknown });
    case 'certificate-name-mismatch':
      return network('certificate-name-mismatch', { kind: 'certificate-name-mismatch', host, code });
    case 'proxy-certificate':
      return network('proxy-certificate', { kind: 'proxy-certificate', proxy, code });
    case 'proxy-auth-required':
      return network('proxy-auth-required', {
        kind: 'proxy-auth-required',
        proxy,
        credentialsSent: error.context.proxyCredentialsSent ?? false,
        // Names a proxy sent: only plain scheme names reach a message.
        schemes: (error.context.proxyAuthSchemes ?? []).filter((scheme) => AUTH_SCHEME.test(scheme)).slice(0, 5),
      });
    case 'proxy-refused':
      return network('proxy-refused', { kind: 'proxy-refused', proxy, host, status: proxyStatus ?? 502 });
    case 'proxy-unreachable':
      return network('proxy-unreachable', { kind: 'proxy-unreachable', proxy, code });
    case 'ca-file':
      return network('ca-file', { kind: 'ca-file', file: caFile, code });
    case 'dns':
      return network('dns', { kind: 'dns', hostname: hostnameOf(url), code });
    case 'connection-refused':
      return network('connection-refused', { kind: 'connection-refused', host, code });
    case 'connection':
      return network('connection', { kind: 'connection', host, code });
  }
}

function withStatus<T extends object>(details: T, status: number | undefined): T | (T & { status: number }) {
  return status === undefined ? details : { ...details, status };
}

/** Maps a non-2xx answer of the API (not the token endpoint); 401 is the caller's, which owns the one retry. */
export function errorForApiStatus(request: string, status: number, retryAfterMs: number | undefined, what?: LocalizedText): ApiError {
  if (status === 401) return invalidCredentialsError(request, status);
  if (status === 403) return permissionDeniedError(request, status);
  if (status === 404) return notFoundError(request, what);
  if (status === 429) return rateLimitedError(request, status, retryAfterMs);
  if (status >= 500) return serverError(request, status);
  return unexpectedStatusError(request, status);
}
