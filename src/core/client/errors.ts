// Errors a UI can act on, and the one place that builds them. Every message
// says what to do next, and none ever contains a password, client secret or
// token: callers may show or log them. Messages are assembled only from status
// codes, error codes, hosts and paths: never from server bodies or library
// messages, which could echo a secret.

import { LocalizedError } from '../common/errors';
import type { Localize, LocalizedText } from '../common/localize';
import { AUTH_SCHEME, certificateFailure } from './http/networkFailures';
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

/**
 * `message` is English (logs, agent tools); a view shows `errorMessage(error, t)`,
 * which renders the same text in the user's language.
 */
export class ApiError extends LocalizedError {
  constructor(
    readonly kind: ApiErrorKind,
    text: LocalizedText,
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
    super(text);
    this.name = 'ApiError';
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

/**
 * The sign-in command as the Command Palette shows it, in `t`'s language: the
 * translation must equal package.nls's category and title (a unit test checks).
 */
export function signInCommand(t: Localize): string {
  return t("'Onboarding Events: Sign In'");
}

/** Where a message sends the user when only a look at the network path can tell the cause. */
export function testConnectionCommand(t: Localize): string {
  return t("'Onboarding Events: Test Connection'");
}

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

/** The URL's host:port, or "the server" in `t`'s language where the URL does not parse. */
function hostOf(url: string): (t: Localize) => string {
  let host: string | undefined;
  try {
    host = new URL(url).host;
  } catch {
    host = undefined;
  }
  return (t) => host ?? t('the server');
}

export function cancelledError(): ApiError {
  return new ApiError('cancelled', (t) => t('The request was cancelled.'));
}

export function disposedError(): ApiError {
  return new ApiError('cancelled', (t) => t('The request was cancelled because the extension is shutting down or reloading its settings.'));
}

export function invalidCredentialsError(request: string, status?: number): ApiError {
  return new ApiError(
    'invalid-credentials',
    (t) => t('The API rejected the credentials. Run {0} again.', signInCommand(t)),
    withStatus({ request }, status),
  );
}

export function rejectedFreshTokenError(request: string): ApiError {
  return new ApiError(
    'invalid-credentials',
    (t) =>
      t(
        'The API rejected a freshly issued access token (HTTP 401). Check that the API base URL and the authorization URL belong to the same environment, then run {0} again.',
        signInCommand(t),
      ),
    { status: 401, request },
  );
}

export function permissionDeniedError(request: string, status?: number): ApiError {
  return new ApiError(
    'permission-denied',
    (t) =>
      t(
        "The API user is not allowed to read onboarding events. Ask the administrator who created the API user to grant it access to the Onboarding Events API (scope 'api'), then sign in again.",
      ),
    withStatus({ request }, status),
  );
}

/** `what`: the subject of the sentence, e.g. "No machine with this serial number"; the requested resource when absent. */
export function notFoundError(request: string, what?: LocalizedText): ApiError {
  return new ApiError(
    'not-found',
    (t) =>
      what === undefined
        ? t('The requested resource was not found (HTTP 404). Check the serial number and the API base URL setting.')
        : t('{0} was not found (HTTP 404). Check the serial number and the API base URL setting.', what(t)),
    { status: 404, request },
  );
}

export function rateLimitedError(request: string, status: number, retryAfterMs?: number): ApiError {
  const details = retryAfterMs === undefined ? { status, request } : { status, request, retryAfterMs };
  return new ApiError(
    'rate-limited',
    (t) =>
      retryAfterMs === undefined
        ? t('The API is limiting how often it may be called (HTTP {0}). Wait a minute and try again.', status)
        : t(
            'The API is limiting how often it may be called (HTTP {0}). Wait {1} s and try again.',
            status,
            Math.max(1, Math.ceil(retryAfterMs / 1000)),
          ),
    details,
  );
}

export function serverError(request: string, status: number): ApiError {
  return new ApiError(
    'server',
    (t) => t('The API had a problem answering (HTTP {0}). Try again later; if it persists, the service may be down.', status),
    { status, request },
  );
}

export function unexpectedStatusError(request: string, status: number): ApiError {
  return new ApiError('protocol', (t) => t('The API answered with an unexpected HTTP {0}. Check the API base URL setting.', status), {
    status,
    request,
  });
}

/** `problem`: one sentence saying what was wrong with the answer; the advice is added here. */
export function protocolError(request: string, problem: LocalizedText, status?: number): ApiError {
  return new ApiError(
    'protocol',
    (t) => t('{0} Check the API base URL and authorization URL settings, and any proxy in between.', problem(t)),
    withStatus({ request }, status),
  );
}

export function invalidInputError(text: LocalizedText): ApiError {
  return new ApiError('invalid-input', text);
}

/** Maps a request that produced no response. */
export function errorForTransportFailure(error: TransportError, method: string, url: string, timeoutMs: number): ApiError {
  const request = describeRequest(method, url);
  const host = hostOf(url);
  const { proxyHost, proxyStatus, causes = [error.code], caFile = '', engine, certificateOwnerUnknown = false } = error.context;
  const code = error.code;
  const fromVsCode = error.context.proxyFromVsCode === true || (proxyHost === undefined && engine === 'vscode');
  const network = (failure: ApiNetworkFailure, text: LocalizedText): ApiError =>
    new ApiError('network', text, { request, network: failure, causes });
  const timeout = (failure: ApiNetworkFailure, text: LocalizedText): ApiError =>
    new ApiError('timeout', text, { request, network: failure, causes });
  // VS Code's stack may choose a proxy (system settings, PAC) that we cannot name.
  const proxy: ProxyName = { host: proxyHost, fromVsCode, engine };
  switch (error.failure) {
    case 'aborted':
      return cancelledError();
    case 'connect-timeout':
      return timeout('connect-timeout', (t) =>
        t('Could not connect to {0} in time. Check your network and proxy settings, then try again.', host(t)),
      );
    case 'headers-timeout':
    case 'body-timeout':
    case 'total-timeout':
      return timeout('response-timeout', (t) =>
        t(
          '{0} did not answer within {1} s. Try again, or raise the request timeout setting if the service is slow.',
          host(t),
          Math.round(timeoutMs / 1000),
        ),
      );
    case 'too-large':
      return protocolError(request, (t) => t('The answer from {0} was larger than the allowed maximum, so it was not read.', host(t)));
    case 'proxy-invalid':
      return network('proxy-invalid', (t) =>
        t('The proxy setting is not a valid URL. Fix the http.proxy setting or the HTTPS_PROXY environment variable.'),
      );
    case 'invalid-url':
      return invalidInputError((t) => t('The URL for {0} is not valid. Check the API base URL and authorization URL settings.', request));
    case 'untrusted-certificate': {
      const fix = (t: Localize): string =>
        t(
          "If your company or a TLS-inspecting proxy uses its own CA, save its certificate (PEM) to a file and set {0} to that file's path, or add the CA to the operating system's certificate store.",
          CA_FILE_SETTING,
        );
      const selfSigned = code === 'DEPTH_ZERO_SELF_SIGNED_CERT';
      return network('untrusted-certificate', (t) => {
        if (certificateOwnerUnknown) {
          return selfSigned
            ? t(
                '{0}, or a proxy VS Code chose from the system settings or a PAC file, presented a self-signed certificate ({1}): VS Code does not say which; {2} shows it. {3}',
                host(t),
                code,
                testConnectionCommand(t),
                fix(t),
              )
            : t(
                '{0}, or a proxy VS Code chose from the system settings or a PAC file, presented a certificate from a certificate authority this computer does not trust ({1}): VS Code does not say which; {2} shows it. {3}',
                host(t),
                code,
                testConnectionCommand(t),
                fix(t),
              );
        }
        return selfSigned
          ? t('{0} presented a self-signed certificate ({1}). {2}', host(t), code, fix(t))
          : t('{0} presented a certificate from a certificate authority this computer does not trust ({1}). {2}', host(t), code, fix(t));
      });
    }
    case 'certificate-expired':
      return network('certificate-expired', (t) => {
        const whose = certificateOwnerUnknown
          ? t(
              '{0}, or of a proxy VS Code chose from the system settings or a PAC file (VS Code does not say which; {1} shows it),',
              host(t),
              testConnectionCommand(t),
            )
          : host(t);
        return code === 'CERT_NOT_YET_VALID'
          ? t(
              "The certificate of {0} is not valid yet ({1}). Check this computer's date and time; otherwise ask the server's administrators.",
              whose,
              code,
            )
          : t(
              "The certificate of {0} has expired ({1}). Ask the server's administrators to renew it, and check this computer's date and time.",
              whose,
              code,
            );
      });
    case 'certificate-name-mismatch':
      return network('certificate-name-mismatch', (t) =>
        t(
          'The certificate of {0} was issued for another host name ({1}). Use the host name the certificate names in the API base URL and authorization URL settings.',
          host(t),
          code,
        ),
      );
    case 'proxy-certificate':
      return network('proxy-certificate', (t) => proxyCertificateMessage(t, proxy, code));
    case 'proxy-auth-required':
      return network('proxy-auth-required', (t) => proxyAuthMessage(t, proxy, error.context));
    case 'proxy-refused':
      return network('proxy-refused', (t) =>
        t(
          '{0} refused to open a connection to {1} (HTTP {2}). Ask your network administrators to allow {1}, or exempt it with the http.noProxy setting or NO_PROXY if it is reachable without the proxy.',
          proxyName(t, proxy, 'start'),
          host(t),
          proxyStatus ?? 502,
        ),
      );
    case 'proxy-unreachable':
      return network('proxy-unreachable', (t) =>
        t(
          'Could not connect to {0} ({1}). Check the http.proxy setting and the HTTPS_PROXY and HTTP_PROXY environment variables.',
          proxyName(t, proxy, 'inside'),
          code,
        ),
      );
    case 'ca-file':
      return network('ca-file', (t) =>
        t(
          'The CA certificates file "{0}" could not be used ({1}). Set {2} to a readable PEM file of CA certificates, or clear it.',
          caFile,
          code,
          CA_FILE_SETTING,
        ),
      );
    case 'dns':
      return network('dns', (t) =>
        t(
          'The host name {0} could not be found ({1}). Check the API base URL and authorization URL settings, and your DNS or VPN connection.',
          hostnameOf(url, t),
          code,
        ),
      );
    case 'connection-refused':
      return network('connection-refused', (t) =>
        t(
          '{0} refused the connection ({1}). Check the port in the API base URL and authorization URL settings, and that the service (or your SSH tunnel) is running.',
          host(t),
          code,
        ),
      );
    case 'connection':
      return network('connection', (t) =>
        t('Could not reach {0} ({1}). Check your network connection, the API base URL and proxy settings, then try again.', host(t), code),
      );
  }
}

/** Which proxy a message is about: one that is named, one VS Code chose itself, or one we cannot name. */
interface ProxyName {
  readonly host: string | undefined;
  readonly fromVsCode: boolean;
  readonly engine: NetworkFailureContext['engine'];
}

/** The proxy as the subject of a sentence ('start': capitalized where the language has capitals) or inside one. */
function proxyName(t: Localize, proxy: ProxyName, where: 'start' | 'inside'): string {
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

/**
 * The API was never reached: the advice is about the proxy's address and the CA, never the API's
 * URLs. A proxy VS Code found itself (`fromVsCode`) is not in http.proxy, and the CA file
 * reaches only the handshake with a proxy that http.proxy or HTTPS_PROXY names.
 */
function proxyCertificateMessage(t: Localize, proxy: ProxyName, code: string): string {
  const inside = proxyName(t, proxy, 'inside');
  if (certificateFailure(code) === 'certificate-name-mismatch') {
    return proxy.fromVsCode
      ? t(
          'The certificate of {0} was issued for another host name ({1}). Ask your network administrators to address the proxy by a name its certificate holds in the system proxy settings or PAC file, or set http.proxy to such an address.',
          inside,
          code,
        )
      : t(
          "The certificate of {0} was issued for another host name ({1}). Use the host name the proxy's certificate names in the http.proxy setting (or HTTPS_PROXY).",
          inside,
          code,
        );
  }
  if (certificateFailure(code) === 'certificate-expired') {
    return t(
      "The certificate of {0} is not valid now ({1}). Check this computer's date and time; otherwise ask your network administrators to renew it.",
      inside,
      code,
    );
  }
  const start = proxyName(t, proxy, 'start');
  return proxy.fromVsCode
    ? t(
        "{0} presented a certificate from a certificate authority this computer does not trust ({1}); the API's own certificate is not the problem. Add your company's CA certificate to the operating system's certificate store (VS Code trusts it while http.systemCertificates is on), or set http.proxy to the proxy and {2} to a PEM file of that CA.",
        start,
        code,
        CA_FILE_SETTING,
      )
    : t(
        "{0} presented a certificate from a certificate authority this computer does not trust ({1}). Check the address in the http.proxy setting; if it is right, save your company's CA certificate (PEM) to a file and set {2} to that file's path, or add the CA to the operating system's certificate store.",
        start,
        code,
        CA_FILE_SETTING,
      );
}

/**
 * A 407. On our own undici route the credentials come only from the proxy URL or
 * http.proxyAuthorization. On VS Code's path (read in @vscode/proxy-agent 0.45, VS Code 1.139, and
 * measured against Squid) VS Code answers Negotiate/Kerberos with the computer's ticket
 * (http.proxyKerberosServicePrincipal names the service), asks the user in a dialog for Basic,
 * answers no other scheme (NTLM alone included), and never sends http.proxyAuthorization.
 */
function proxyAuthMessage(t: Localize, proxy: ProxyName, context: NetworkFailureContext): string {
  const { proxyCredentialsSent = false, engine, proxyHost, proxyFromVsCode = false } = context;
  const start = proxyName(t, proxy, 'start');
  // Names a proxy sent: only plain scheme names reach a message (Test Connection passes its own reading on too).
  const proxyAuthSchemes = (context.proxyAuthSchemes ?? []).filter((scheme) => AUTH_SCHEME.test(scheme)).slice(0, 5);
  if (engine !== 'vscode') {
    return proxyCredentialsSent
      ? t(
          '{0} rejected the proxy credentials (HTTP 407). Correct the user and password in the proxy URL (http.proxy or HTTPS_PROXY) or the http.proxyAuthorization setting.',
          start,
        )
      : t(
          '{0} requires authentication (HTTP 407). Put the user and password in the proxy URL (http://user:password@host:port in http.proxy or HTTPS_PROXY), or set http.proxyAuthorization.',
          start,
        );
  }
  const offers = (name: string): boolean => proxyAuthSchemes.some((scheme) => scheme.toLowerCase() === name);
  const known = proxyAuthSchemes.length > 0;
  const schemes = proxyAuthSchemes.join(', ');
  const head = proxyCredentialsSent
    ? known
      ? t('{0} rejected the proxy credentials (HTTP 407) and asks for {1}.', start, schemes)
      : t('{0} rejected the proxy credentials (HTTP 407).', start)
    : known
      ? t('{0} requires authentication (HTTP 407) and asks for {1}.', start, schemes)
      : t('{0} requires authentication (HTTP 407).', start);
  const named = proxyHost !== undefined && !proxyFromVsCode;
  const advice: string[] = [];
  if (!known || offers('negotiate') || offers('kerberos')) {
    advice.push(
      t(
        "VS Code answers Negotiate with this computer's Kerberos ticket: sign in to your company's domain (or run kinit), and if the proxy's service principal is not HTTP/<proxy host>, set http.proxyKerberosServicePrincipal.",
      ),
    );
  }
  if (!known || offers('basic')) {
    advice.push(
      proxyCredentialsSent
        ? t('For Basic, correct the user and password in the proxy URL (http.proxy or HTTPS_PROXY), or enter them when VS Code asks.')
        : named
          ? t(
              "For Basic, VS Code asks for the proxy's user and password in a dialog; or put them in the proxy URL (http://user:password@host:port in http.proxy or HTTPS_PROXY), or set http.proxyAuthorization, which the extension then sends to that proxy itself.",
            )
          : t("For Basic, VS Code asks for the proxy's user and password in a dialog."),
    );
  }
  if (known && !offers('negotiate') && !offers('kerberos') && !offers('basic')) {
    advice.push(
      named
        ? t(
            "VS Code's network stack answers only Negotiate (Kerberos) and Basic: ask your network administrators to offer one of them on this proxy, or set http.proxyAuthorization to a header the proxy accepts, which the extension then sends itself.",
          )
        : t(
            "VS Code's network stack answers only Negotiate (Kerberos) and Basic: ask your network administrators to offer one of them on this proxy.",
          ),
    );
  }
  return [head, ...advice].join(' ');
}

function hostnameOf(url: string, t: Localize): string {
  try {
    return new URL(url).hostname;
  } catch {
    return t('the server');
  }
}

function withStatus<T extends object>(details: T, status: number | undefined): T | (T & { status: number }) {
  return status === undefined ? details : { ...details, status };
}

/**
 * Maps a non-2xx answer of the API (not the token endpoint). 401 is handled by
 * the caller, which owns the one-retry-with-a-new-token rule.
 */
export function errorForApiStatus(request: string, status: number, retryAfterMs: number | undefined, what?: LocalizedText): ApiError {
  if (status === 401) return invalidCredentialsError(request, status);
  if (status === 403) return permissionDeniedError(request, status);
  if (status === 404) return notFoundError(request, what);
  if (status === 429) return rateLimitedError(request, status, retryAfterMs);
  if (status >= 500) return serverError(request, status);
  return unexpectedStatusError(request, status);
}
