// Environment rules without VS Code: acceptable URLs, stored data read back, names.
import { randomUUID } from 'node:crypto';
import { plainLocalize, type Localize } from '../../common/localize';
import { isLoopbackHost } from '../../client/http/proxySelection';
import type { Environment } from './sessionState';

/** Why a URL was refused; the glue turns each into a localized message. */
export type UrlProblem = 'empty' | 'invalid' | 'scheme' | 'insecure' | 'userinfo' | 'query';

export type UrlCheck = { readonly ok: true; readonly url: string } | { readonly ok: false; readonly problem: UrlProblem };

// One rule for both: what may use plain http is exactly what never goes
// through a proxy, so the two can never disagree about a name.
export { isLoopbackHost };

/**
 * https (or http to loopback); no user:password (it would reach logs), no query or fragment; trailing
 * slashes dropped so paths join cleanly.
 */
export function checkEndpointUrl(text: string): UrlCheck {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, problem: 'empty' };
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return { ok: false, problem: 'invalid' };
  }
  // No hostname check: the URL parser refuses an http(s) URL without a host ('invalid' above).
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, problem: 'scheme' };
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) return { ok: false, problem: 'insecure' };
  if (url.username !== '' || url.password !== '') return { ok: false, problem: 'userinfo' };
  if (url.search !== '' || url.hash !== '') return { ok: false, problem: 'query' };
  const normalized = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  return { ok: true, url: normalized };
}

/** Why a URL was refused, in `t`'s language: the sign-in form and the oe command say it alike. */
export function urlProblemMessage(problem: UrlProblem, t: Localize): string {
  switch (problem) {
    case 'empty':
      return t('Enter a URL, e.g. https://api.example.com.');
    case 'invalid':
      return t('This is not a valid URL. It should look like https://api.example.com.');
    case 'scheme':
      return t('Use an https:// URL.');
    case 'insecure':
      return t(
        'Use https://. Plain http:// is allowed only for this computer (localhost, 127.0.0.1, [::1]), because credentials would travel unencrypted.',
      );
    case 'userinfo':
      return t('Leave user names and passwords out of the URL; they are asked for separately and kept in secret storage.');
    case 'query':
      return t('Leave out the query (?…) and fragment (#…); paths are appended to this URL.');
  }
}

export const MAX_NAME_LENGTH = 60;

/** Environment names are shown in the status bar and the Accounts menu: short, single-line. */
export function checkEnvironmentName(
  text: string,
  others: readonly Environment[],
  ownId?: string,
): 'empty' | 'too-long' | 'taken' | undefined {
  const name = text.trim();
  if (name === '') return 'empty';
  if (name.length > MAX_NAME_LENGTH || /[\r\n]/.test(name)) return 'too-long';
  if (others.some((env) => env.id !== ownId && sameName(env.name, name))) return 'taken';
  return undefined;
}

export function sameName(a: string, b: string): boolean {
  return a.trim().toLocaleLowerCase() === b.trim().toLocaleLowerCase();
}

/** A name for a new environment: the API host ("api.example.com"), made unique with " (2)" etc. */
export function suggestEnvironmentName(apiBaseUrl: string, existing: readonly Environment[], t: Localize = plainLocalize): string {
  let base = t('Default');
  try {
    base = new URL(apiBaseUrl).host || base;
  } catch {
    // keep the default
  }
  let candidate = base;
  for (let n = 2; existing.some((env) => sameName(env.name, candidate)); n++) candidate = `${base} (${n})`;
  return candidate;
}

export function newEnvironmentId(): string {
  return randomUUID();
}

/** Written earlier, maybe by an older version or mid-update: keep only well-formed entries, no duplicate ids. */
export function parseStoredEnvironments(raw: unknown): Environment[] {
  if (!Array.isArray(raw)) return [];
  const seen = new Set<string>();
  const out: Environment[] = [];
  for (const item of raw as unknown[]) {
    const env = parseEnvironment(item);
    if (env === undefined || seen.has(env.id)) continue;
    seen.add(env.id);
    out.push(env);
  }
  return out;
}

function parseEnvironment(item: unknown): Environment | undefined {
  if (typeof item !== 'object' || item === null) return undefined;
  const { id, name, apiBaseUrl, authUrl, clientId, username } = item as Record<string, unknown>;
  if (!filled(id) || !filled(name) || !filled(apiBaseUrl) || !filled(authUrl) || !filled(clientId) || !filled(username)) return undefined;
  if (!checkEndpointUrl(apiBaseUrl).ok || !checkEndpointUrl(authUrl).ok) return undefined;
  return { id, name, apiBaseUrl, authUrl, clientId, username };
}

function filled(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

/** The same API user on the same endpoints: signing in again updates it instead of adding a twin. */
export function findSameAccount(
  environments: readonly Environment[],
  draft: Pick<Environment, 'apiBaseUrl' | 'authUrl' | 'clientId' | 'username'>,
): Environment | undefined {
  return environments.find(
    (env) =>
      env.apiBaseUrl === draft.apiBaseUrl &&
      env.authUrl === draft.authUrl &&
      env.clientId === draft.clientId &&
      env.username === draft.username,
  );
}

/** VS Code adds the provider's name in parentheses, so ours would read "user (Demo) (Onboarding Events)". */
export function accountLabel(env: Pick<Environment, 'username' | 'name'>): string {
  return `${env.username} · ${env.name}`;
}
