// What an agent should ask its user to do about an error, in the terms of the program that
// answers the agent's tools: VS Code's commands for the extension's tools, oe's environment
// for `oe mcp`. English, as every tool result is.
import { plainLocalize } from '../common/localize';
import { errorMessage } from '../common/errors';
import { causeOf, problemText, type ErrorCause } from './errors';

/** The program that answers the agent's tools. */
export type AgentProgram = 'extension' | 'oe';

type Need = 'credentials' | 'urls' | 'network' | 'trust' | 'timeout';

/** What the user does in each program, per need: one table per program. */
const ASK: Readonly<Record<AgentProgram, Readonly<Record<Need, string>>>> = {
  extension: {
    credentials: 'Ask the user to sign in again: the command "Onboarding Events: Sign In" in VS Code\'s Command Palette.',
    urls: 'Ask the user to check the API base URL and authorization URL they signed in with ("Onboarding Events: Sign In" in VS Code changes them).',
    network:
      'Ask the user to run "Onboarding Events: Test Connection" in VS Code: it shows where the way to the API fails (network, proxy, VPN).',
    trust:
      'Ask the user to run "Onboarding Events: Test Connection" in VS Code and to trust their company\'s CA (the setting onboardingEvents.caCertificatesFile, or the operating system\'s certificate store).',
    timeout: 'Call the tool again later; if it keeps timing out, the user can raise the setting onboardingEvents.requestTimeoutSeconds.',
  },
  oe: {
    credentials:
      "Ask the user to check OE_CLIENT_ID, OE_CLIENT_SECRET, OE_USERNAME and OE_PASSWORD in the environment oe mcp is started with (the agent's MCP server configuration).",
    urls: 'Ask the user to check OE_API_URL and OE_AUTH_URL in the environment oe mcp is started with.',
    network:
      'Ask the user to run oe test-connection in a terminal: it shows where the way to the API fails; HTTPS_PROXY and NO_PROXY choose the proxy.',
    trust:
      "Ask the user to run oe test-connection in a terminal and to trust their company's CA (--ca-file or NODE_EXTRA_CA_CERTS for oe mcp, or the operating system's certificate store).",
    timeout:
      'Call the tool again later; if it keeps timing out, the user can raise onboardingEvents.requestTimeoutSeconds in the .vscode/settings.json of the folder oe mcp runs in.',
  },
};

/** The wording for agents of one program's tools: the cause, then what to ask the user or do. */
export function remediesForAgents(program: AgentProgram): (error: unknown) => string {
  const ask = ASK[program];
  return (error) => {
    const cause = causeOf(error);
    if (cause === undefined) return errorMessage(error);
    return `${problemText(cause, plainLocalize)} ${agentRemedy(cause, ask)}`;
  };
}

function agentRemedy(cause: ErrorCause, ask: Readonly<Record<Need, string>>): string {
  switch (cause.kind) {
    case 'cancelled':
    case 'shutting-down':
      return 'Nothing was read; call the tool again.';
    case 'invalid-input':
      return 'Correct the input and call the tool again.';
    case 'not-signed-in':
    case 'invalid-credentials':
      return ask.credentials;
    case 'permission-denied':
      return "Tell the user: the administrator who created their API user must grant it access to the Onboarding Events API (scope 'api').";
    case 'not-found':
      return cause.endpoint === 'api' ? `Check the serial number; if it is right: ${ask.urls}` : ask.urls;
    case 'rate-limited':
      return cause.retryAfterMs === undefined
        ? 'Wait a minute before calling the tool again.'
        : `Wait ${Math.max(1, Math.ceil(cause.retryAfterMs / 1000))} s before calling the tool again.`;
    case 'server':
      return 'Call the tool again later; if it persists, the service may be down.';
    case 'fresh-token-rejected':
    case 'unexpected-status':
    case 'bad-answer':
    case 'invalid-url':
    case 'certificate-name-mismatch':
    case 'dns':
    case 'connection-refused':
      return ask.urls;
    case 'connect-timeout':
    case 'connection':
    case 'proxy-invalid':
    case 'proxy-auth-required':
    case 'proxy-refused':
    case 'proxy-unreachable':
      return ask.network;
    case 'untrusted-certificate':
    case 'proxy-certificate':
    case 'ca-file':
      return ask.trust;
    case 'certificate-expired':
      return "Tell the user: the certificate's owners must renew it, or this computer's date and time are wrong.";
    case 'response-timeout':
      return ask.timeout;
  }
}
