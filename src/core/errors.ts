// Errors a UI can act on, and the one place that builds them. Every message
// says what to do next, and none ever contains a password, client secret or
// token: callers may show or log them. Messages are assembled only from status
// codes, error codes, hosts and paths: never from server bodies or library
// messages, which could echo a secret.

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
 * Which network failure a 'network' or 'timeout' error is, so a view can tell
 * them apart without parsing the message. The kind stays 'network' (or
 * 'timeout') so every view keeps offering "Try Again" for all of them. A
 * subset of the transport's names: an abort is 'cancelled', a bad URL
 * 'invalid-input', a too-large answer 'protocol', and the three response
 * deadlines are one 'response-timeout' (the request log still names which).
 */
export type ApiNetworkFailure = Exclude<NetworkFailure, 'aborted' | 'invalid-url' | 'too-large' | ResponseDeadline>;

export class ApiError extends Error {
  constructor(
    readonly kind: ApiErrorKind,
    message: string,
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
    super(message);
    this.name = 'ApiError';
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

export const SIGN_IN_COMMAND = "'Onboarding Events: Sign In'";

/** Where a message sends the user when only a look at the network path can tell the cause. */
export const TEST_CONNECTION_COMMAND = "'Onboarding Events: Test Connection'";

/** The machine-scoped setting that adds CA certificates (package.json holds the same id; a test checks). */
export const CA_FILE_SETTING = 'onboardingEvents.caCertificatesFile';

/** "GET /path" for error details: enough to locate the call, nothing a secret could hide in. */
export function describeRequest(method: string, url: string): string {
  try {
    return `${method} ${new URL(url).pathname}`;
  } catch {
    return method;
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'the server';
  }
}

export function cancelledError(): ApiError {
  return new ApiError('cancelled', 'The request was cancelled.');
}

export function disposedError(): ApiError {
  return new ApiError('cancelled', 'The request was cancelled because the extension is shutting down or reloading its settings.');
}

export function invalidCredentialsError(request: string, status?: number): ApiError {
  return new ApiError(
    'invalid-credentials',
    `The API rejected the credentials. Run ${SIGN_IN_COMMAND} again.`,
    withStatus({ request }, status),
  );
}

export function rejectedFreshTokenError(request: string): ApiError {
  return new ApiError(
    'invalid-credentials',
    `The API rejected a freshly issued access token (HTTP 401). Check that the API base URL and the authorization URL belong to the same environment, then run ${SIGN_IN_COMMAND} again.`,
    { status: 401, request },
  );
}

export function permissionDeniedError(request: string, status?: number): ApiError {
  return new ApiError(
    'permission-denied',
    "The API user is not allowed to read onboarding events. Ask the administrator who created the API user to grant it access to the Onboarding Events API (scope 'api'), then sign in again.",
    withStatus({ request }, status),
  );
}

export function notFoundError(request: string, what = 'The requested resource'): ApiError {
  return new ApiError('not-found', `${what} was not found (HTTP 404). Check the serial number and the API base URL setting.`, {
    status: 404,
    request,
  });
}

export function rateLimitedError(request: string, status: number, retryAfterMs?: number): ApiError {
  const wait = retryAfterMs === undefined ? 'Wait a minute' : `Wait ${Math.max(1, Math.ceil(retryAfterMs / 1000))} s`;
  const details = retryAfterMs === undefined ? { status, request } : { status, request, retryAfterMs };
  return new ApiError('rate-limited', `The API is limiting how often it may be called (HTTP ${status}). ${wait} and try again.`, details);
}

export function serverError(request: string, status: number): ApiError {
  return new ApiError(
    'server',
    `The API had a problem answering (HTTP ${status}). Try again later; if it persists, the service may be down.`,
    { status, request },
  );
}

export function unexpectedStatusError(request: string, status: number): ApiError {
  return new ApiError('protocol', `The API answered with an unexpected HTTP ${status}. Check the API base URL setting.`, {
    status,
    request,
  });
}

export function protocolError(request: string, problem: string, status?: number): ApiError {
  return new ApiError(
    'protocol',
    `${problem} Check the API base URL and authorization URL settings, and any proxy in between.`,
    withStatus({ request }, status),
  );
}

export function invalidInputError(message: string): ApiError {
  return new ApiError('invalid-input', message);
}

/** Maps a request that produced no response. */
export function errorForTransportFailure(error: TransportError, method: string, url: string, timeoutMs: number): ApiError {
  const request = describeRequest(method, url);
  const host = hostOf(url);
  const { proxyHost, proxyStatus, causes = [error.code], caFile = '', engine, certificateOwnerUnknown = false } = error.context;
  const fromVsCode = error.context.proxyFromVsCode === true || (proxyHost === undefined && engine === 'vscode');
  const network = (failure: ApiNetworkFailure, message: string): ApiError =>
    new ApiError('network', message, { request, network: failure, causes });
  const timeout = (failure: ApiNetworkFailure, message: string): ApiError =>
    new ApiError('timeout', message, { request, network: failure, causes });
  // VS Code's stack may choose a proxy (system settings, PAC) that we cannot name.
  const proxy =
    proxyHost !== undefined
      ? `the proxy ${proxyHost}${fromVsCode ? ' (which VS Code chose from the system settings or a PAC file)' : ''}`
      : engine === 'vscode'
        ? 'the proxy VS Code uses (from the system settings or a PAC file)'
        : 'the proxy';
  const proxyAtStart = `T${proxy.slice(1)}`;
  switch (error.failure) {
    case 'aborted':
      return cancelledError();
    case 'connect-timeout':
      return timeout('connect-timeout', `Could not connect to ${host} in time. Check your network and proxy settings, then try again.`);
    case 'headers-timeout':
    case 'body-timeout':
    case 'total-timeout':
      return timeout(
        'response-timeout',
        `${host} did not answer within ${Math.round(timeoutMs / 1000)} s. Try again, or raise the request timeout setting if the service is slow.`,
      );
    case 'too-large':
      return protocolError(request, `The answer from ${host} was larger than the allowed maximum, so it was not read.`);
    case 'proxy-invalid':
      return network(
        'proxy-invalid',
        'The proxy setting is not a valid URL. Fix the http.proxy setting or the HTTPS_PROXY environment variable.',
      );
    case 'invalid-url':
      return invalidInputError(`The URL for ${request} is not valid. Check the API base URL and authorization URL settings.`);
    case 'untrusted-certificate': {
      const what =
        error.code === 'DEPTH_ZERO_SELF_SIGNED_CERT'
          ? 'presented a self-signed certificate'
          : 'presented a certificate from a certificate authority this computer does not trust';
      const fix = `If your company or a TLS-inspecting proxy uses its own CA, save its certificate (PEM) to a file and set ${CA_FILE_SETTING} to that file's path, or add the CA to the operating system's certificate store.`;
      return network(
        'untrusted-certificate',
        certificateOwnerUnknown
          ? `${host}, or a proxy VS Code chose from the system settings or a PAC file, ${what} (${error.code}): VS Code does not say which; ${TEST_CONNECTION_COMMAND} shows it. ${fix}`
          : `${host} ${what} (${error.code}). ${fix}`,
      );
    }
    case 'certificate-expired': {
      const whose = certificateOwnerUnknown
        ? `${host}, or of a proxy VS Code chose from the system settings or a PAC file (VS Code does not say which; ${TEST_CONNECTION_COMMAND} shows it),`
        : host;
      return network(
        'certificate-expired',
        error.code === 'CERT_NOT_YET_VALID'
          ? `The certificate of ${whose} is not valid yet (${error.code}). Check this computer's date and time; otherwise ask the server's administrators.`
          : `The certificate of ${whose} has expired (${error.code}). Ask the server's administrators to renew it, and check this computer's date and time.`,
      );
    }
    case 'certificate-name-mismatch':
      return network(
        'certificate-name-mismatch',
        `The certificate of ${host} was issued for another host name (${error.code}). Use the host name the certificate names in the API base URL and authorization URL settings.`,
      );
    case 'proxy-certificate':
      return network('proxy-certificate', proxyCertificateMessage(proxy, error.code, fromVsCode));
    case 'proxy-auth-required':
      return network('proxy-auth-required', proxyAuthMessage(proxyAtStart, error.context));
    case 'proxy-refused':
      return network(
        'proxy-refused',
        `${proxyAtStart} refused to open a connection to ${host} (HTTP ${proxyStatus ?? 502}). Ask your network administrators to allow ${host}, or exempt it with the http.noProxy setting or NO_PROXY if it is reachable without the proxy.`,
      );
    case 'proxy-unreachable':
      return network(
        'proxy-unreachable',
        `Could not connect to ${proxy} (${error.code}). Check the http.proxy setting and the HTTPS_PROXY and HTTP_PROXY environment variables.`,
      );
    case 'ca-file':
      return network(
        'ca-file',
        `The CA certificates file "${caFile}" could not be used (${error.code}). Set ${CA_FILE_SETTING} to a readable PEM file of CA certificates, or clear it.`,
      );
    case 'dns':
      return network(
        'dns',
        `The host name ${hostnameOf(url)} could not be found (${error.code}). Check the API base URL and authorization URL settings, and your DNS or VPN connection.`,
      );
    case 'connection-refused':
      return network(
        'connection-refused',
        `${host} refused the connection (${error.code}). Check the port in the API base URL and authorization URL settings, and that the service (or your SSH tunnel) is running.`,
      );
    case 'connection':
      return network(
        'connection',
        `Could not reach ${host} (${error.code}). Check your network connection, the API base URL and proxy settings, then try again.`,
      );
  }
}

/**
 * The API was never reached: the advice is about the proxy's address and the CA, never the API's
 * URLs. A proxy VS Code found itself (`chosenByVsCode`) is not in http.proxy, and the CA file
 * reaches only the handshake with a proxy that http.proxy or HTTPS_PROXY names.
 */
function proxyCertificateMessage(proxy: string, code: string, chosenByVsCode: boolean): string {
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID' || code === 'HOSTNAME_MISMATCH') {
    return chosenByVsCode
      ? `The certificate of ${proxy} was issued for another host name (${code}). Ask your network administrators to address the proxy by a name its certificate holds in the system proxy settings or PAC file, or set http.proxy to such an address.`
      : `The certificate of ${proxy} was issued for another host name (${code}). Use the host name the proxy's certificate names in the http.proxy setting (or HTTPS_PROXY).`;
  }
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') {
    return `The certificate of ${proxy} is not valid now (${code}). Check this computer's date and time; otherwise ask your network administrators to renew it.`;
  }
  return chosenByVsCode
    ? `T${proxy.slice(1)} presented a certificate from a certificate authority this computer does not trust (${code}); the API's own certificate is not the problem. Add your company's CA certificate to the operating system's certificate store (VS Code trusts it while http.systemCertificates is on), or set http.proxy to the proxy and ${CA_FILE_SETTING} to a PEM file of that CA.`
    : `T${proxy.slice(1)} presented a certificate from a certificate authority this computer does not trust (${code}). Check the address in the http.proxy setting; if it is right, save your company's CA certificate (PEM) to a file and set ${CA_FILE_SETTING} to that file's path, or add the CA to the operating system's certificate store.`;
}

/**
 * A 407. On our own undici route the credentials come only from the proxy URL or
 * http.proxyAuthorization. On VS Code's path (read in @vscode/proxy-agent 0.45, VS Code 1.139, and
 * measured against Squid) VS Code answers Negotiate/Kerberos with the computer's ticket
 * (http.proxyKerberosServicePrincipal names the service), asks the user in a dialog for Basic,
 * answers no other scheme (NTLM alone included), and never sends http.proxyAuthorization.
 */
function proxyAuthMessage(proxyAtStart: string, context: NetworkFailureContext): string {
  const { proxyCredentialsSent = false, engine, proxyHost, proxyFromVsCode = false } = context;
  // Names a proxy sent: only plain scheme names reach a message (Test Connection passes its own reading on too).
  const proxyAuthSchemes = (context.proxyAuthSchemes ?? []).filter((scheme) => AUTH_SCHEME.test(scheme)).slice(0, 5);
  if (engine !== 'vscode') {
    return proxyCredentialsSent
      ? `${proxyAtStart} rejected the proxy credentials (HTTP 407). Correct the user and password in the proxy URL (http.proxy or HTTPS_PROXY) or the http.proxyAuthorization setting.`
      : `${proxyAtStart} requires authentication (HTTP 407). Put the user and password in the proxy URL (http://user:password@host:port in http.proxy or HTTPS_PROXY), or set http.proxyAuthorization.`;
  }
  const offers = (name: string): boolean => proxyAuthSchemes.some((scheme) => scheme.toLowerCase() === name);
  const known = proxyAuthSchemes.length > 0;
  const asks = known ? ` and asks for ${proxyAuthSchemes.join(', ')}` : '';
  const head = proxyCredentialsSent
    ? `${proxyAtStart} rejected the proxy credentials (HTTP 407)${asks}.`
    : `${proxyAtStart} requires authentication (HTTP 407)${asks}.`;
  const advice: string[] = [];
  if (!known || offers('negotiate') || offers('kerberos')) {
    advice.push(
      "VS Code answers Negotiate with this computer's Kerberos ticket: sign in to your company's domain (or run kinit), and if the proxy's service principal is not HTTP/<proxy host>, set http.proxyKerberosServicePrincipal.",
    );
  }
  if (!known || offers('basic')) {
    const named = proxyHost !== undefined && !proxyFromVsCode;
    advice.push(
      proxyCredentialsSent
        ? `For Basic, correct the user and password in the proxy URL (http.proxy or HTTPS_PROXY), or enter them when VS Code asks.`
        : `For Basic, VS Code asks for the proxy's user and password in a dialog${named ? '; or put them in the proxy URL (http://user:password@host:port in http.proxy or HTTPS_PROXY), or set http.proxyAuthorization, which the extension then sends to that proxy itself' : ''}.`,
    );
  }
  if (known && !offers('negotiate') && !offers('kerberos') && !offers('basic')) {
    advice.push(
      `VS Code's network stack answers only Negotiate (Kerberos) and Basic: ask your network administrators to offer one of them on this proxy${proxyHost !== undefined && !proxyFromVsCode ? ', or set http.proxyAuthorization to a header the proxy accepts, which the extension then sends itself' : ''}.`,
    );
  }
  return `${head} ${advice.join(' ')}`;
}

function hostnameOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return 'the server';
  }
}

function withStatus<T extends object>(details: T, status: number | undefined): T | (T & { status: number }) {
  return status === undefined ? details : { ...details, status };
}

/**
 * Maps a non-2xx answer of the API (not the token endpoint). 401 is handled by
 * the caller, which owns the one-retry-with-a-new-token rule.
 */
export function errorForApiStatus(request: string, status: number, retryAfterMs: number | undefined, what?: string): ApiError {
  if (status === 401) return invalidCredentialsError(request, status);
  if (status === 403) return permissionDeniedError(request, status);
  if (status === 404) return notFoundError(request, what);
  if (status === 429) return rateLimitedError(request, status, retryAfterMs);
  if (status >= 500) return serverError(request, status);
  return unexpectedStatusError(request, status);
}
