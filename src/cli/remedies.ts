// What to do about an error in a terminal: oe's variables (OE_*), its flags (--ca-file,
// --api-url…) and Node's network environment (HTTPS_PROXY, NO_PROXY, NODE_EXTRA_CA_CERTS).
// The cause's sentence comes from the core; only the remedy is oe's.
import { errorMessage } from '../core/common/errors';
import type { Localize } from '../core/common/localize';
import { certificateFailure } from '../core/client/http/networkFailures';
import { causeOf, hostText, problemText, proxyName, type ErrorCause } from '../core/client/errors';
import type { ProgramWording } from '../core/client/connectionCheck';
import { expiredText, neutralText, proxyExpiredText } from '../core/client/sharedRemedies';
import type { AgentAsks } from '../core/client/agentRemedies';

/** Anything thrown, as oe prints it: the cause and what to do in a terminal. */
export function oeErrorText(error: unknown, t: Localize): string {
  const cause = causeOf(error);
  return cause === undefined ? errorMessage(error, t) : oeCauseText(cause, t);
}

export const OE_WORDING: ProgramWording = {
  error: oeErrorText,
  names: { caFile: '--ca-file' },
  checkAdvice: (advice, t) => {
    switch (advice) {
      case 'fix-urls':
        return t('Set OE_API_URL and OE_AUTH_URL (or --api-url and --auth-url) to the URLs your administrator gave you.');
      case 'sign-in-then-test':
        return t(
          'Name resolution, the connection and the certificate are fine. Set OE_CLIENT_ID, OE_CLIENT_SECRET, OE_USERNAME and OE_PASSWORD, then run oe test-connection again to test the token and events requests.',
        );
      case 'report-with-log':
        return t(
          "If a command still fails, try again: it may have passed. If it stays, attach this report and the command's output to a ticket.",
        );
    }
  },
};

function oeCauseText(cause: ErrorCause, t: Localize): string {
  const problem = problemText(cause, t);
  const and = (remedy: string): string => `${problem} ${remedy}`;
  switch (cause.kind) {
    case 'cancelled':
    case 'shutting-down':
    case 'invalid-input':
      return problem;
    case 'not-signed-in':
    case 'invalid-credentials':
      return and(t('Check OE_CLIENT_ID, OE_CLIENT_SECRET, OE_USERNAME and OE_PASSWORD (or the password piped with --password-stdin).'));
    case 'fresh-token-rejected':
      return and(t('Check that OE_API_URL and OE_AUTH_URL (or --api-url and --auth-url) belong to the same environment.'));
    case 'permission-denied':
      return and(
        t(
          "Ask the administrator who created the API user to grant it access to the Onboarding Events API (scope 'api'), then run oe again.",
        ),
      );
    case 'not-found':
      return and(
        cause.endpoint === 'token' ? t('Check OE_AUTH_URL (or --auth-url).') : t('Check the serial number and OE_API_URL (or --api-url).'),
      );
    case 'rate-limited':
    case 'server':
      return neutralText(cause, t);
    case 'unexpected-status':
      return and(t('Check OE_API_URL (or --api-url).'));
    case 'bad-answer':
    case 'invalid-url':
      return and(t('Check OE_API_URL and OE_AUTH_URL (or --api-url and --auth-url), and any proxy in between (HTTPS_PROXY).'));
    case 'connect-timeout':
      return and(t('Check your network, HTTPS_PROXY and NO_PROXY, then try again.'));
    case 'response-timeout':
      return and(
        t("Try again; if the service is slow, raise onboardingEvents.requestTimeoutSeconds in the working folder's .vscode/settings.json."),
      );
    case 'proxy-invalid':
      return and(t('Fix the HTTPS_PROXY (or HTTP_PROXY) environment variable.'));
    case 'untrusted-certificate':
      return and(caRemedy(t));
    case 'certificate-expired':
      return expiredText(hostText(cause.host, t), cause.code, t);
    case 'certificate-name-mismatch':
      return and(t('Use the host name the certificate names in OE_API_URL and OE_AUTH_URL (or --api-url and --auth-url).'));
    case 'proxy-certificate': {
      const failure = certificateFailure(cause.code);
      if (failure === 'certificate-expired') return proxyExpiredText(proxyName(t, cause.proxy, 'inside'), cause.code, t);
      return and(
        failure === 'certificate-name-mismatch'
          ? t("Use the host name the proxy's certificate names in HTTPS_PROXY.")
          : `${t("Check the address in HTTPS_PROXY; if it is right, trust your company's CA.")} ${caRemedy(t)}`,
      );
    }
    case 'proxy-auth-required':
      return and(
        cause.credentialsSent
          ? t('Correct the user and password in the proxy URL in HTTPS_PROXY.')
          : t('Put the user and password in the proxy URL: http://user:password@host:port in HTTPS_PROXY.'),
      );
    case 'proxy-refused':
      return and(
        t(
          'Ask your network administrators to allow {0}, or exempt it with NO_PROXY if it is reachable without the proxy.',
          hostText(cause.host, t),
        ),
      );
    case 'proxy-unreachable':
      return and(t('Check the HTTPS_PROXY and HTTP_PROXY environment variables.'));
    case 'ca-file':
      return and(t('Give --ca-file a readable PEM file of CA certificates, or leave it out.'));
    case 'dns':
      return and(t('Check OE_API_URL and OE_AUTH_URL (or --api-url and --auth-url), and your DNS or VPN connection.'));
    case 'connection-refused':
      return and(
        t(
          'Check the port in OE_API_URL and OE_AUTH_URL (or --api-url and --auth-url), and that the service (or your SSH tunnel) is running.',
        ),
      );
    case 'connection':
      return and(t('Check your network connection, OE_API_URL and HTTPS_PROXY, then try again.'));
  }
}

function caRemedy(t: Localize): string {
  return t(
    "If your company or a TLS-inspecting proxy uses its own CA, save its certificate (PEM) to a file and pass it with --ca-file (or NODE_EXTRA_CA_CERTS), or add the CA to the operating system's certificate store.",
  );
}

/** What an agent asks its user to do, in this program's terms (core/client/agentRemedies.ts picks one per cause). */
export const OE_AGENT_ASKS: AgentAsks = {
  credentials:
    "Ask the user to check OE_CLIENT_ID, OE_CLIENT_SECRET, OE_USERNAME and OE_PASSWORD in the environment oe mcp is started with (the agent's MCP server configuration).",
  urls: 'Ask the user to check OE_API_URL and OE_AUTH_URL in the environment oe mcp is started with.',
  network:
    'Ask the user to run oe test-connection in a terminal: it shows where the way to the API fails; HTTPS_PROXY and NO_PROXY choose the proxy.',
  trust:
    "Ask the user to run oe test-connection in a terminal and to trust their company's CA (--ca-file or NODE_EXTRA_CA_CERTS for oe mcp, or the operating system's certificate store).",
  timeout:
    'Call the tool again later; if it keeps timing out, the user can raise onboardingEvents.requestTimeoutSeconds in the .vscode/settings.json of the folder oe mcp runs in.',
};
