// Bearer-token check shared by the resource endpoints (spec §5.6), answering
// 401 with the RFC 6750 §3 WWW-Authenticate challenge.

import type { EndpointContext } from './context';
import { jsonReply, type Reply } from './reply';

/** Undefined when the request may proceed, otherwise the 401 to send. */
export function requireBearer(context: EndpointContext): Reply | undefined {
  const header = context.request.headers['authorization'];
  const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (match === null || match[1] === undefined) {
    // RFC 6750 §3.1: no error code when the request carried no credentials.
    return jsonReply(
      401,
      { error: 'unauthorized', error_description: 'Full authentication is required.' },
      context.baseUrl,
      'application/json',
      { 'www-authenticate': 'Bearer realm="onboarding-events"' },
    );
  }
  const check = context.tokens.check(match[1]);
  if (check.ok) {
    return undefined;
  }
  return jsonReply(401, { error: 'invalid_token', error_description: check.reason }, context.baseUrl, 'application/json', {
    'www-authenticate': `Bearer realm="onboarding-events", error="invalid_token", error_description="${check.reason}"`,
  });
}
