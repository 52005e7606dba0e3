// Which proxy a request goes through, as VS Code's request service decides: `http.proxy`, then
// HTTPS_PROXY/HTTP_PROXY; NO_PROXY and `http.noProxy` exempt. Loopback never goes through a proxy:
// the proxy would receive the credentials.

import type { ProxySettings } from './transport';

export function selectProxy(target: URL, settings: ProxySettings, env: Readonly<NodeJS.ProcessEnv>): string | undefined {
  if (isLoopbackHost(target.hostname)) return undefined;
  const candidate = nonEmpty(settings.proxy) ?? proxyFromEnv(target.protocol, env);
  if (candidate === undefined) return undefined;
  const noProxy = [...parseNoProxy(envValue(env, 'NO_PROXY') ?? ''), ...(settings.noProxy ?? []).flatMap(parseNoProxy)];
  if (bypassesProxy(target, noProxy)) return undefined;
  return normalizeProxyUrl(candidate);
}

/**
 * Not `*.localhost`: a resolver without RFC 6761's rule asks DNS, whose answer could send plain http
 * and the credentials to another host.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = stripBrackets(hostname.toLowerCase()).replace(/\.$/, '');
  if (host === 'localhost') return true;
  if (host === '::1') return true;
  // IPv4-mapped IPv6 loopback, as the URL parser writes it: ::ffff:7f00:1.
  if (/^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(host)) return true;
  const value = ipv4ToInt(host);
  return value !== undefined && value >>> 24 === 127;
}

function proxyFromEnv(protocol: string, env: Readonly<NodeJS.ProcessEnv>): string | undefined {
  if (protocol === 'https:') return envValue(env, 'HTTPS_PROXY') ?? envValue(env, 'HTTP_PROXY');
  if (protocol === 'http:') return envValue(env, 'HTTP_PROXY');
  return undefined;
}

/** Upper case first, as curl does; lower case is the older convention. */
function envValue(env: Readonly<NodeJS.ProcessEnv>, name: string): string | undefined {
  return nonEmpty(env[name]) ?? nonEmpty(env[name.toLowerCase()]);
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** People write `proxy.corp:3128` without a scheme; http is what they mean. */
export function normalizeProxyUrl(proxy: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(proxy) ? proxy : `http://${proxy}`;
}

export function parseNoProxy(value: string): string[] {
  return (
    value
      // Runs of separators leave empty entries, dropped below.
      .split(/[\s,]/)
      .map((entry) => entry.toLowerCase())
      .filter((entry) => entry !== '')
  );
}

/**
 * NO_PROXY has no standard; this follows curl: `*`, domains with subdomains, `host:port`, IP literals
 * and IPv4 CIDR blocks.
 */
export function bypassesProxy(target: URL, noProxy: readonly string[]): boolean {
  const host = stripBrackets(target.hostname.toLowerCase()).replace(/\.$/, '');
  const port = target.port !== '' ? target.port : target.protocol === 'https:' ? '443' : '80';
  return noProxy.some((raw) => entryMatches(raw, host, port));
}

function entryMatches(raw: string, host: string, port: string): boolean {
  if (raw === '*') return true;
  const { name, port: entryPort } = splitHostPort(raw);
  if (entryPort !== undefined && entryPort !== port) return false;
  if (name.includes('/')) return ipv4InCidr(host, name);
  const domain = name.replace(/^\*?\./, '').replace(/\.$/, '');
  if (domain === '') return false;
  return host === domain || host.endsWith(`.${domain}`);
}

function splitHostPort(entry: string): { name: string; port?: string } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) {
    const [, name = '', port] = bracketed;
    return port === undefined ? { name } : { name, port };
  }
  // One colon: host:port (a port that is not all digits then matches no URL's port). More: a bare IPv6 address.
  const colon = entry.indexOf(':');
  if (colon !== -1 && colon === entry.lastIndexOf(':')) return { name: entry.slice(0, colon), port: entry.slice(colon + 1) };
  return { name: entry };
}

/** URL host names are bracketed exactly when they are IPv6 addresses. */
function stripBrackets(host: string): string {
  return host.startsWith('[') ? host.slice(1, -1) : host;
}

function ipv4InCidr(host: string, cidr: string): boolean {
  const slash = cidr.indexOf('/');
  const hostValue = ipv4ToInt(host);
  const networkValue = ipv4ToInt(cidr.slice(0, slash));
  const bitsText = cidr.slice(slash + 1);
  // Digits only: Number('') is 0, which would make `10.0.0.0/` exempt every address.
  if (hostValue === undefined || networkValue === undefined || !/^\d{1,2}$/.test(bitsText)) return false;
  const bits = Number(bitsText);
  if (bits > 32) return false;
  if (bits === 0) return true;
  const mask = (0xffffffff << (32 - bits)) >>> 0;
  return (hostValue & mask) >>> 0 === (networkValue & mask) >>> 0;
}

function ipv4ToInt(address: string): number | undefined {
  const parts = address.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return undefined;
    const octet = Number(part);
    if (octet > 255) return undefined;
    value = value * 256 + octet;
  }
  return value;
}
