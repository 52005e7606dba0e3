// Which engine carries a request, and why (pure, so a report prints what the transport does). Inside
// VS Code, its patched fetch, except where it would do wrong: loopback (never through a proxy), and
// http.proxyStrictSSL off or http.proxyAuthorization for a named proxy, which that fetch ignores.

import { isLoopbackHost, selectProxy } from './proxySelection';
import type { NetworkEngine, ProxySettings } from './transport';

export type { NetworkEngine } from './transport';

export type NetworkPathReason =
  /** Not in an extension host: there is no VS Code network stack to ride. */
  | 'outside-vscode'
  /** The target is on this machine: straight there, never through a proxy. */
  | 'loopback'
  /** http.proxyStrictSSL is off, which only our undici route applies. */
  | 'strict-ssl-off'
  /** http.proxyAuthorization is set for a named proxy, and only our undici route sends it. */
  | 'proxy-authorization'
  /** VS Code's stack: its proxy resolution, proxy authentication and certificate stores. */
  | 'vscode';

export interface NetworkPath {
  readonly engine: NetworkEngine;
  readonly reason: NetworkPathReason;
  /**
   * The proxy our reading of http.proxy and the environment names, without credentials; VS Code may
   * choose another through system settings or PAC.
   */
  readonly proxy?: {
    readonly host: string;
    readonly source: 'setting' | 'environment';
    /** Whether our request sends proxy credentials (from the URL or http.proxyAuthorization). */
    readonly credentials: boolean;
  };
}

export interface NetworkPathOptions extends ProxySettings {
  readonly engine: NetworkEngine;
  readonly env: Readonly<NodeJS.ProcessEnv>;
}

export function networkPathFor(target: URL, options: NetworkPathOptions): NetworkPath {
  const proxy = proxyOf(target, options);
  const withProxy = proxy === undefined ? {} : { proxy };
  if (options.engine === 'undici') return { engine: 'undici', reason: 'outside-vscode', ...withProxy };
  if (isLoopbackHost(target.hostname)) return { engine: 'undici', reason: 'loopback' };
  if (options.proxyStrictSSL === false) return { engine: 'undici', reason: 'strict-ssl-off', ...withProxy };
  if (proxy !== undefined && options.proxyAuthorization !== undefined) return { engine: 'undici', reason: 'proxy-authorization', proxy };
  return { engine: 'vscode', reason: 'vscode', ...withProxy };
}

function proxyOf(target: URL, options: NetworkPathOptions): NetworkPath['proxy'] {
  const selected = selectProxy(target, options, options.env);
  if (selected === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(selected);
  } catch {
    return undefined;
  }
  return {
    host: url.host,
    source: (options.proxy ?? '').trim() !== '' ? 'setting' : 'environment',
    // As undici decides: the token, else Basic from the URL only when it has both a user and a password.
    credentials: options.proxyAuthorization !== undefined || (url.username !== '' && url.password !== ''),
  };
}
