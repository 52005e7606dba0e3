// What an agent should ask its user to do about an error: the cause, then the program's own ask
// (its remedies module supplies the words). English, as every tool result is.
import { plainLocalize } from '../common/localize';
import { errorMessage } from '../common/errors';
import { causeOf, problemText, type ErrorCause } from './errors';

type Need = 'credentials' | 'urls' | 'network' | 'trust' | 'timeout';

/** What the user does about each need, in the terms of the program that answers the agent (its remedies module). */
export type AgentAsks = Readonly<Record<Need, string>>;

/** The wording for agents of one program's tools: the cause, then what to ask the user or do. */
export function agentWording(ask: AgentAsks): (error: unknown) => string {
  return (error) => {
    const cause = causeOf(error);
    if (cause === undefined) return errorMessage(error);
    return `${problemText(cause, plainLocalize)} ${agentRemedy(cause, ask)}`;
  };
}

function agentRemedy(cause: ErrorCause, ask: AgentAsks): string {
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
