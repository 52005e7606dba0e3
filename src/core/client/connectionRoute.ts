// Test Connection's first stage: which proxy the client's transport takes to a
// target (selectProxy decides; this says why), and which engine carries the
// requests (networkPath.ts decides). Proxy credentials are sent to the proxy
// and shown as ***.

import type { Localize } from '../common/localize';
import type { NetworkPath, NetworkPathReason } from './http/networkPath';
import { bypassesProxy, isLoopbackHost, parseNoProxy, selectProxy } from './http/proxySelection';
import { literal, type CheckStage } from './connectionReport';
import { parseUrl } from './connectionStages';
import type { HttpSettings } from './onboardingClient';

type ProxyReason = 'loopback' | 'setting' | 'environment' | 'exempted' | 'none';

export interface Route {
  readonly reason: ProxyReason;
  /** Where the proxy came from: `http.proxy` or the environment variable's name. */
  readonly source?: string;
  /** The list that exempted the host. */
  readonly exemptedBy?: 'NO_PROXY' | 'http.noProxy';
  /** The proxy, credentials included (they are sent to it, never shown). */
  readonly proxy?: URL;
  readonly proxyAuthorization?: string;
  readonly credentialsFrom?: 'url' | 'http.proxyAuthorization';
}

function envName(env: Readonly<NodeJS.ProcessEnv>, names: readonly string[]): string | undefined {
  // The same order as proxySelection's: upper case before lower case, HTTPS_PROXY before HTTP_PROXY.
  return names.flatMap((name) => [name, name.toLowerCase()]).find((name) => (env[name]?.trim() ?? '') !== '');
}

/** The proxy the client's transport picks (selectProxy decides), and why. */
export function routeFor(target: URL, http: HttpSettings, env: Readonly<NodeJS.ProcessEnv>): Route {
  if (isLoopbackHost(target.hostname)) return { reason: 'loopback' };
  const fromSetting = (http.proxy?.trim() ?? '') !== '';
  const variable = fromSetting
    ? undefined
    : envName(env, target.protocol === 'https:' ? ['HTTPS_PROXY', 'HTTP_PROXY'] : target.protocol === 'http:' ? ['HTTP_PROXY'] : []);
  const source = fromSetting ? 'http.proxy' : variable;
  if (source === undefined) return { reason: 'none' };
  const chosen = selectProxy(target, http, env);
  if (chosen === undefined) {
    const byEnv = bypassesProxy(target, parseNoProxy(env['NO_PROXY'] ?? env['no_proxy'] ?? ''));
    return { reason: 'exempted', source, exemptedBy: byEnv ? 'NO_PROXY' : 'http.noProxy' };
  }
  const proxy = parseUrl(chosen);
  if (proxy === undefined) return { reason: fromSetting ? 'setting' : 'environment', source };
  const authorization = http.proxyAuthorization?.trim();
  if (authorization !== undefined && authorization !== '') {
    return {
      reason: fromSetting ? 'setting' : 'environment',
      source,
      proxy,
      proxyAuthorization: authorization,
      credentialsFrom: 'http.proxyAuthorization',
    };
  }
  if (proxy.username !== '' && proxy.password !== '') {
    const basic = Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString('base64');
    return { reason: fromSetting ? 'setting' : 'environment', source, proxy, proxyAuthorization: `Basic ${basic}`, credentialsFrom: 'url' };
  }
  return { reason: fromSetting ? 'setting' : 'environment', source, proxy };
}

/** A proxy URL for the report: its user and password as ***. */
export function shownProxy(proxy: URL): string {
  const credentials = proxy.username !== '' || proxy.password !== '' ? '***:***@' : '';
  return `${proxy.protocol}//${credentials}${proxy.host}`;
}

/** Whom a path is tested for: one title per case, so each is a whole sentence in every language. */
export type TargetRole = 'both' | 'api' | 'auth';

function proxyTitle(role: TargetRole, url: URL, t: Localize): string {
  switch (role) {
    case 'both':
      return t('Proxy for the API and the authorization server ({0})', url.host);
    case 'api':
      return t('Proxy for the API ({0})', url.host);
    case 'auth':
      return t('Proxy for the authorization server ({0})', url.host);
  }
}

function proxySummary(route: Route, url: URL, t: Localize, proxySetting: string | undefined): string {
  switch (route.reason) {
    case 'loopback':
      return t('none: a loopback address never goes through a proxy (the traffic stays on this computer).');
    case 'none':
      return proxySetting === undefined
        ? t('none: no HTTPS_PROXY or HTTP_PROXY environment variable.')
        : t('none: no http.proxy setting and no HTTPS_PROXY or HTTP_PROXY environment variable.');
    case 'exempted':
      // routeFor names the source of every exempted route; http.proxy stands in only to keep the type honest.
      return route.exemptedBy === 'NO_PROXY'
        ? t('none: {0} is set, but the NO_PROXY environment variable exempts {1}.', route.source ?? 'http.proxy', literal(url.hostname))
        : t('none: {0} is set, but the http.noProxy setting exempts {1}.', route.source ?? 'http.proxy', literal(url.hostname));
    case 'setting':
      return route.proxy === undefined
        ? t('the http.proxy setting is set, but is not a proxy URL.')
        : t('{0}, from the http.proxy setting.', literal(shownProxy(route.proxy)));
    case 'environment':
      return route.proxy === undefined
        ? t('the {0} environment variable is set, but is not a proxy URL.', route.source ?? 'HTTPS_PROXY')
        : t('{0}, from the {1} environment variable.', literal(shownProxy(route.proxy)), route.source ?? 'HTTPS_PROXY');
  }
}

export function proxyStage(
  role: TargetRole,
  url: URL,
  route: Route,
  path: NetworkPath,
  http: HttpSettings,
  t: Localize,
  proxySetting: string | undefined,
): CheckStage {
  const title = proxyTitle(role, url, t);
  const details: string[] = [];
  const summary = proxySummary(route, url, t, proxySetting);
  if (route.reason === 'setting' || route.reason === 'environment') {
    details.push(
      route.credentialsFrom === 'url'
        ? t('Proxy credentials: the user and password in the proxy URL (sent as Basic, not shown).')
        : route.credentialsFrom === 'http.proxyAuthorization'
          ? t('Proxy credentials: the http.proxyAuthorization setting (sent, not shown).')
          : t('Proxy credentials: none configured.'),
    );
  }
  details.push(engineWords(path.reason, t));
  if (path.engine === 'vscode' && http.proxyAuthorization !== undefined) {
    details.push(
      t(
        "http.proxyAuthorization is set but not used: VS Code's network path does not send it, and no proxy is named by http.proxy or the environment for the extension to send it to.",
      ),
    );
  }
  return {
    title,
    status: route.reason === 'setting' || route.reason === 'environment' ? (route.proxy === undefined ? 'failed' : 'ok') : 'ok',
    summary,
    details,
  };
}

/** Which engine carries the requests to a target, and why (networkPath.ts decides). */
function engineWords(reason: NetworkPathReason, t: Localize): string {
  switch (reason) {
    case 'vscode':
      return t(
        "The extension's requests take VS Code's network path, which also applies the operating system's proxy settings and PAC files, answers a proxy's Negotiate (Kerberos) challenge and asks you for Basic proxy credentials. Which proxy VS Code picks from those is not visible to extensions: the steps below test the proxy the settings and environment name; the token and events requests go as VS Code resolves it.",
      );
    case 'loopback':
      return t("The extension's requests go straight to this computer with its own HTTP stack (undici), never through a proxy.");
    case 'strict-ssl-off':
      return t(
        "The extension's requests take its own HTTP stack (undici), because http.proxyStrictSSL is off and VS Code's network path does not apply that setting.",
      );
    case 'proxy-authorization':
      return t(
        "The extension's requests take its own HTTP stack (undici) to the proxy named here, because http.proxyAuthorization is set and VS Code's network path does not send that header.",
      );
    case 'outside-vscode':
      return t("The requests take the extension's own HTTP stack (undici): this process is not a VS Code extension host.");
  }
}
