// What to do about an error, in VS Code's terms: the command titles, the settings, Show Log.
// Pure (no vscode import) so the unit tier runs every cause through it; the texts and their
// l10n keys are the ones the extension always showed.
import { errorMessage } from '../../core/common/errors';
import type { Localize } from '../../core/common/localize';
import { certificateFailure } from '../../core/client/http/networkFailures';
import { causeOf, hostText, isSelfSigned, proxyName, type ErrorCause, type ProxyName } from '../../core/client/errors';
import type { ProgramWording } from '../../core/client/connectionCheck';
import { expiredText, neutralText, proxyExpiredText } from '../../core/client/sharedRemedies';
import type { AgentAsks } from '../../core/client/agentRemedies';

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

/** Anything thrown, as a view shows it: the cause and what to do in VS Code. */
export function extensionErrorText(error: unknown, t: Localize): string {
  const cause = causeOf(error);
  return cause === undefined ? errorMessage(error, t) : extensionCauseText(cause, t);
}

/** The extension's words for Test Connection and for errors. */
export const EXTENSION_WORDING: ProgramWording = {
  error: extensionErrorText,
  names: { caFile: CA_FILE_SETTING, proxySetting: 'http.proxy' },
  checkAdvice: (advice, t) => {
    switch (advice) {
      case 'fix-urls':
        return t('Sign in again with the URLs your administrator gave you ({0}).', signInCommand(t));
      case 'sign-in-then-test':
        return t(
          'Name resolution, the connection and the certificate are fine. Sign in ({0}), then run {1} again to test the token and events requests.',
          signInCommand(t),
          testConnectionCommand(t),
        );
      case 'report-with-log':
        return t(
          "If a view still shows an error, try again: it may have passed. If it stays, attach this report and the log ('Onboarding Events: Show Log') to a ticket.",
        );
    }
  },
};

function extensionCauseText(cause: ErrorCause, t: Localize): string {
  switch (cause.kind) {
    case 'cancelled':
      return t('The request was cancelled.');
    case 'shutting-down':
      return t('The request was cancelled because the extension is shutting down or reloading its settings.');
    case 'not-signed-in':
      return t('Not signed in. Run {0} first.', signInCommand(t));
    case 'invalid-credentials':
      return t('The API rejected the credentials. Run {0} again.', signInCommand(t));
    case 'fresh-token-rejected':
      return t(
        'The API rejected a freshly issued access token (HTTP 401). Check that the API base URL and the authorization URL belong to the same environment, then run {0} again.',
        signInCommand(t),
      );
    case 'permission-denied':
      return t(
        "The API user is not allowed to read onboarding events. Ask the administrator who created the API user to grant it access to the Onboarding Events API (scope 'api'), then sign in again.",
      );
    case 'not-found':
      if (cause.endpoint === 'token')
        return t(
          '{0} was not found (HTTP 404). Check the serial number and the API base URL setting.',
          t('The token endpoint (check the authorization URL setting)'),
        );
      return cause.what === undefined
        ? t('The requested resource was not found (HTTP 404). Check the serial number and the API base URL setting.')
        : t('{0} was not found (HTTP 404). Check the serial number and the API base URL setting.', cause.what(t));
    case 'rate-limited':
    case 'server':
      return neutralText(cause, t);
    case 'unexpected-status':
      return t('The API answered with an unexpected HTTP {0}. Check the API base URL setting.', cause.status);
    case 'bad-answer':
      return t('{0} Check the API base URL and authorization URL settings, and any proxy in between.', cause.problem(t));
    case 'invalid-url':
      return t('The URL for {0} is not valid. Check the API base URL and authorization URL settings.', cause.request);
    case 'invalid-input':
      return cause.text(t);
    case 'connect-timeout':
      return t('Could not connect to {0} in time. Check your network and proxy settings, then try again.', hostText(cause.host, t));
    case 'response-timeout':
      return t(
        '{0} did not answer within {1} s. Try again, or raise the request timeout setting if the service is slow.',
        hostText(cause.host, t),
        cause.seconds,
      );
    case 'proxy-invalid':
      return t('The proxy setting is not a valid URL. Fix the http.proxy setting or the HTTPS_PROXY environment variable.');
    case 'untrusted-certificate':
      return untrustedText(cause, t);
    case 'certificate-expired': {
      const whose = cause.ownerUnknown
        ? t(
            '{0}, or of a proxy VS Code chose from the system settings or a PAC file (VS Code does not say which; {1} shows it),',
            hostText(cause.host, t),
            testConnectionCommand(t),
          )
        : hostText(cause.host, t);
      return expiredText(whose, cause.code, t);
    }
    case 'certificate-name-mismatch':
      return t(
        'The certificate of {0} was issued for another host name ({1}). Use the host name the certificate names in the API base URL and authorization URL settings.',
        hostText(cause.host, t),
        cause.code,
      );
    case 'proxy-certificate':
      return proxyCertificateText(t, cause.proxy, cause.code);
    case 'proxy-auth-required':
      return proxyAuthText(t, cause);
    case 'proxy-refused':
      return t(
        '{0} refused to open a connection to {1} (HTTP {2}). Ask your network administrators to allow {1}, or exempt it with the http.noProxy setting or NO_PROXY if it is reachable without the proxy.',
        proxyName(t, cause.proxy, 'start'),
        hostText(cause.host, t),
        cause.status,
      );
    case 'proxy-unreachable':
      return t(
        'Could not connect to {0} ({1}). Check the http.proxy setting and the HTTPS_PROXY and HTTP_PROXY environment variables.',
        proxyName(t, cause.proxy, 'inside'),
        cause.code,
      );
    case 'ca-file':
      return t(
        'The CA certificates file "{0}" could not be used ({1}). Set {2} to a readable PEM file of CA certificates, or clear it.',
        cause.file,
        cause.code,
        CA_FILE_SETTING,
      );
    case 'dns':
      return t(
        'The host name {0} could not be found ({1}). Check the API base URL and authorization URL settings, and your DNS or VPN connection.',
        hostText(cause.hostname, t),
        cause.code,
      );
    case 'connection-refused':
      return t(
        '{0} refused the connection ({1}). Check the port in the API base URL and authorization URL settings, and that the service (or your SSH tunnel) is running.',
        hostText(cause.host, t),
        cause.code,
      );
    case 'connection':
      return t(
        'Could not reach {0} ({1}). Check your network connection, the API base URL and proxy settings, then try again.',
        hostText(cause.host, t),
        cause.code,
      );
  }
}

function untrustedText(cause: Extract<ErrorCause, { kind: 'untrusted-certificate' }>, t: Localize): string {
  const host = hostText(cause.host, t);
  const fix = t(
    "If your company or a TLS-inspecting proxy uses its own CA, save its certificate (PEM) to a file and set {0} to that file's path, or add the CA to the operating system's certificate store.",
    CA_FILE_SETTING,
  );
  const selfSigned = isSelfSigned(cause.code);
  if (cause.ownerUnknown) {
    return selfSigned
      ? t(
          '{0}, or a proxy VS Code chose from the system settings or a PAC file, presented a self-signed certificate ({1}): VS Code does not say which; {2} shows it. {3}',
          host,
          cause.code,
          testConnectionCommand(t),
          fix,
        )
      : t(
          '{0}, or a proxy VS Code chose from the system settings or a PAC file, presented a certificate from a certificate authority this computer does not trust ({1}): VS Code does not say which; {2} shows it. {3}',
          host,
          cause.code,
          testConnectionCommand(t),
          fix,
        );
  }
  return selfSigned
    ? t('{0} presented a self-signed certificate ({1}). {2}', host, cause.code, fix)
    : t('{0} presented a certificate from a certificate authority this computer does not trust ({1}). {2}', host, cause.code, fix);
}

/**
 * The API was never reached: the advice is about the proxy's address and the CA, never the API's
 * URLs. A proxy VS Code found itself is not in http.proxy, and the CA file reaches only the
 * handshake with a proxy that http.proxy or HTTPS_PROXY names.
 */
function proxyCertificateText(t: Localize, proxy: ProxyName, code: string): string {
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
  if (certificateFailure(code) === 'certificate-expired') return proxyExpiredText(inside, code, t);
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
 * http.proxyAuthorization. On VS Code's path VS Code answers Negotiate with the computer's
 * Kerberos ticket, asks for Basic in a dialog, answers no other scheme, and never sends http.proxyAuthorization.
 */
function proxyAuthText(t: Localize, cause: Extract<ErrorCause, { kind: 'proxy-auth-required' }>): string {
  const { proxy, credentialsSent, schemes } = cause;
  const start = proxyName(t, proxy, 'start');
  if (proxy.engine !== 'vscode') {
    return credentialsSent
      ? t(
          '{0} rejected the proxy credentials (HTTP 407). Correct the user and password in the proxy URL (http.proxy or HTTPS_PROXY) or the http.proxyAuthorization setting.',
          start,
        )
      : t(
          '{0} requires authentication (HTTP 407). Put the user and password in the proxy URL (http://user:password@host:port in http.proxy or HTTPS_PROXY), or set http.proxyAuthorization.',
          start,
        );
  }
  const offers = (name: string): boolean => schemes.some((scheme) => scheme.toLowerCase() === name);
  const known = schemes.length > 0;
  const list = schemes.join(', ');
  const head = credentialsSent
    ? known
      ? t('{0} rejected the proxy credentials (HTTP 407) and asks for {1}.', start, list)
      : t('{0} rejected the proxy credentials (HTTP 407).', start)
    : known
      ? t('{0} requires authentication (HTTP 407) and asks for {1}.', start, list)
      : t('{0} requires authentication (HTTP 407).', start);
  const named = proxy.host !== undefined && !proxy.fromVsCode;
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
      credentialsSent
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

/** What an agent asks its user to do, in this program's terms (core/client/agentRemedies.ts picks one per cause). */
export const EXTENSION_AGENT_ASKS: AgentAsks = {
  credentials: 'Ask the user to sign in again: the command "Onboarding Events: Sign In" in VS Code\'s Command Palette.',
  urls: 'Ask the user to check the API base URL and authorization URL they signed in with ("Onboarding Events: Sign In" in VS Code changes them).',
  network:
    'Ask the user to run "Onboarding Events: Test Connection" in VS Code: it shows where the way to the API fails (network, proxy, VPN).',
  trust:
    'Ask the user to run "Onboarding Events: Test Connection" in VS Code and to trust their company\'s CA (the setting onboardingEvents.caCertificatesFile, or the operating system\'s certificate store).',
  timeout: 'Call the tool again later; if it keeps timing out, the user can raise the setting onboardingEvents.requestTimeoutSeconds.',
};
