// POST {authUrl}/token: the OAuth 2.0 resource-owner password grant of spec §5,
// with client authentication by HTTP Basic as RFC 6749 §2.3.1 prescribes.
// Error bodies follow RFC 6749 §5.2 because the spec shows none (§7).

import type { EndpointContext } from './context';
import { jsonReply, type Reply } from './reply';

export const TOKEN_PATH = '/oauth/token';

/** application/x-www-form-urlencoded decoding: '+' is a space, then percent-decoding. */
function formDecode(value: string): string | undefined {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

function oauthError(context: EndpointContext, status: number, error: string, description: string): Reply {
  const headers: Record<string, string> = { 'cache-control': 'no-store', pragma: 'no-cache' };
  if (status === 401) {
    headers['www-authenticate'] = 'Basic realm="fake-api", charset="UTF-8"';
  }
  return jsonReply(status, { error, error_description: description }, context.baseUrl, 'application/json', headers);
}

function parseBasic(header: string | undefined): { clientId: string; clientSecret: string } | undefined {
  const match = header === undefined ? null : /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (match === null || match[1] === undefined) {
    return undefined;
  }
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) {
    return undefined;
  }
  const clientId = formDecode(decoded.slice(0, colon));
  const clientSecret = formDecode(decoded.slice(colon + 1));
  return clientId === undefined || clientSecret === undefined ? undefined : { clientId, clientSecret };
}

export function handleToken(context: EndpointContext): Reply {
  const { request, data, config } = context;
  if (request.method !== 'POST') {
    return { ...oauthError(context, 405, 'invalid_request', 'Use POST.'), headers: { allow: 'POST' } };
  }
  const contentType = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (contentType !== 'application/x-www-form-urlencoded') {
    return oauthError(context, 400, 'invalid_request', 'Content-Type must be application/x-www-form-urlencoded.');
  }

  const client = parseBasic(request.headers['authorization']);
  const known = client !== undefined && data.clients.some((c) => c.clientId === client.clientId && c.clientSecret === client.clientSecret);
  if (!known) {
    return oauthError(context, 401, 'invalid_client', 'Client authentication failed.');
  }

  const form = new URLSearchParams(request.body);
  const grantType = form.get('grant_type');
  if (grantType === null) {
    return oauthError(context, 400, 'invalid_request', 'Missing grant_type.');
  }
  if (grantType !== 'password') {
    return oauthError(context, 400, 'unsupported_grant_type', `Grant type "${grantType}" is not supported.`);
  }
  const scope = form.get('scope');
  if (scope === null || !scope.split(' ').includes('api')) {
    return oauthError(context, 400, 'invalid_scope', 'The scope must be "api".');
  }
  const username = form.get('username');
  const password = form.get('password');
  if (username === null || password === null) {
    return oauthError(context, 400, 'invalid_request', 'Missing username or password.');
  }
  const user = data.users.find((u) => u.username === username);
  if (user === undefined || user.password !== password) {
    return oauthError(context, 400, 'invalid_grant', 'Bad credentials.');
  }
  if (user.noPermission === true) {
    return oauthError(context, config.noPermissionStatus, 'access_denied', 'The user granted no permission.');
  }

  const lifetime = config.tokenLifetimeSeconds;
  return jsonReply(
    200,
    {
      token_type: 'Bearer',
      expires_in: Math.ceil(lifetime),
      access_token: context.tokens.issue(user.username, lifetime, 'api'),
      scope: 'api',
    },
    context.baseUrl,
    'application/json',
    { 'cache-control': 'no-store', pragma: 'no-cache' },
  );
}
