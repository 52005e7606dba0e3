// The answers that replace a normal one when a fault says so. `reset` and
// `hugeBody` are not here: they are socket-level and live in the server.

import type { Fault } from './types';
import { errorReply, type Reply } from './reply';

/** What an SSO proxy or captive portal sends instead of JSON. */
export const LOGIN_PAGE_HTML = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Sign in</title></head>
<body><form method="post" action="/login"><h1>Sign in to continue</h1>
<label>User <input name="username"></label><label>Password <input name="password" type="password"></label>
<button type="submit">Sign in</button></form></body></html>
`;

/** Cut off in the middle of a string, as a proxy that truncates a body would. */
export const MALFORMED_JSON = '{"events":[{"type":"ONBOARDING_STARTED","message":"Onboarding sta';

export function faultReply(
  fault: Extract<Fault, { kind: 'status' | 'rateLimit' | 'malformedJson' | 'html' }>,
  path: string,
  baseUrl: string,
): Reply {
  switch (fault.kind) {
    case 'status': {
      const headers = Object.fromEntries(Object.entries(fault.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
      if (fault.body === undefined) {
        const reply = errorReply(fault.status, 'Injected fault.', path, baseUrl);
        return { ...reply, headers: { ...reply.headers, ...headers } };
      }
      if (typeof fault.body === 'string') {
        return { status: fault.status, headers: { 'content-type': 'text/plain; charset=utf-8', ...headers }, body: fault.body };
      }
      return { status: fault.status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(fault.body) };
    }
    case 'rateLimit': {
      const retryAfter = fault.retryAfter instanceof Date ? fault.retryAfter.toUTCString() : String(fault.retryAfter);
      const reply = errorReply(429, 'Rate limit exceeded.', path, baseUrl);
      return { ...reply, headers: { ...reply.headers, 'retry-after': retryAfter } };
    }
    case 'malformedJson':
      return { status: 200, headers: { 'content-type': 'application/json' }, body: MALFORMED_JSON };
    case 'html':
      return { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: LOGIN_PAGE_HTML };
  }
}
