// Which engine carries a request, and why: pure, so the rules are tested
// without a network and a diagnostic report can print the same answer the
// transport acts on.
//
// Inside VS Code the answer is VS Code's own network stack (the extension
// host's global fetch, which VS Code patches), except where it would do the
// wrong thing for us:
// - loopback targets (an SSH tunnel, a local fake) go straight, never through
//   a proxy: VS Code's resolver may send them to http.proxy or a PAC's choice,
//   and a proxy would receive the credentials;
// - with http.proxyStrictSSL off: the patched fetch does not apply that
//   setting (@vscode/proxy-agent's fetch patch passes only CA lists on), and
//   the user asked for it, so our undici route, which does, is used;
// - with http.proxyAuthorization set and a proxy named by http.proxy or the
//   environment: the extension host's patched fetch never sends that header
//   (measured in VS Code 1.139: Squid logged each CONNECT without a user and
//   answered 407; only VS Code's own marketplace requests read the setting),
//   so the user's header would be dropped; our undici route sends it to that
//   proxy. Without a named proxy there is nowhere to send it, and VS Code's
//   stack (system proxy, PAC) keeps the request.
// The per-machine extra CA file needs no other engine: tried in the extension
// host (VS Code 1.139, test/integration/network/vscodeNetwork.test.ts), the
// patched fetch, given an undici Agent as `dispatcher`, replaces it with its own
// Agent or ProxyAgent (so the request still takes VS Code's proxy) and reads
// the Agent's `connect.ca` as the CA list for the target's certificate. So the
// dispatcher carries Node's roots, the OS store and the file, and both work
// together. (Its connection to an https proxy is verified against VS Code's
// own list: the file does not reach that handshake.)
// Outside an extension host (unit tests, the benchmark, a command-line
// process) there is no patched fetch to ride, and undici is the engine.

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
   * The proxy our reading of http.proxy and the environment names for the target, without
   * credentials: the one the undici engine uses; on the vscode engine the one VS Code takes too,
   * unless its system settings or a PAC file choose another (not visible to an extension).
   */
  readonly proxy?: {
    /** host:port. */
    readonly host: string;
    readonly source: 'setting' | 'environment';
    /** Whether our request sends proxy credentials (from the URL or http.proxyAuthorization). */
    readonly credentials: boolean;
  };
}

export interface NetworkPathOptions extends ProxySettings {
  /** Whether the process is an extension host whose global fetch VS Code patches. */
  readonly engine: NetworkEngine;
  /** Where HTTPS_PROXY, HTTP_PROXY and NO_PROXY are read. */
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
