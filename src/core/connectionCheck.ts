// Test Connection: checks the way to the API and to the authorization server
// one step at a time, the way a network engineer would (which proxy, name
// resolution, TCP, the proxy's CONNECT, TLS and who vouches for the
// certificate), then makes the client's own token and events calls. Each step
// has its own deadline; the first failure decides the verdict, in the words
// the client's errors use (errorForTransportFailure), so the report and the
// views never give different advice. The steps use node:dns, node:net and
// node:tls directly because undici hides what a report must show (the
// addresses, the proxy's answer, the certificate chain).
//
// Nothing secret enters the report: credentials go only to the client; proxy
// credentials are sent to the proxy but shown as ***; the token response is
// read for expires_in, scope and token_type only.
//
// Every step is worded in the `t` the caller passes (vscode.l10n.t from the
// command), as whole sentences: the report is read by the user and pasted into
// tickets. Codes (ECONNREFUSED, HTTP 407), setting ids and values from outside
// stay as they are in every language.

import { X509Certificate } from 'node:crypto';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { readFile, stat } from 'node:fs/promises';
import { connect as netConnect, isIP, type LookupFunction, type Socket } from 'node:net';
import { connect as tlsConnect, rootCertificates, type DetailedPeerCertificate, type TLSSocket } from 'node:tls';
import { definedOnly } from '../common/definedOnly';
import type { Localize } from '../common/localize';
import type { CredentialsProvider } from './auth/tokenClient';
import { cancelledError, errorForTransportFailure, isApiError, signInCommand, testConnectionCommand } from './errors';
import { redactUrl } from './http/httpClient';
import { networkPathFor, type NetworkEngine, type NetworkPath, type NetworkPathReason } from './http/networkPath';
import { bypassesProxy, isLoopbackHost, parseNoProxy, selectProxy } from './http/proxySelection';
import {
  TransportError,
  type NetworkFailureContext,
  type Transport,
  type TransportOptions,
  type TransportRequest,
  type TransportResponse,
} from './http/transport';
import { loadTrustedCertificates, MAX_CA_FILE_BYTES, pemCertificates } from './http/trustedCertificates';
import { DEFAULT_HTTP_SETTINGS, OnboardingClient, type HttpSettings } from './onboardingClient';
import { formatDuration, literal, type CheckStep, type ConnectionReport, type Verdict } from './connectionReport';

/** Every step's deadline: a report that never arrives helps nobody. */
export const CHECK_LIMITS = {
  lookupMs: 5_000,
  /** The connect timeout setting, but never longer than this. */
  connectMs: 10_000,
  proxyAnswerMs: 10_000,
  tlsMs: 10_000,
  /** Each of the token and events requests (no retries: the report is about one attempt). */
  requestMs: 15_000,
  /** A proxy's answer to CONNECT is a status line and a few headers. */
  maxProxyAnswerBytes: 16 * 1024,
} as const;

/** The deadlines one check runs with: CHECK_LIMITS, or shorter ones a caller passes (never longer: see runConnectionCheck). */
export type CheckLimits = { readonly [K in Exclude<keyof typeof CHECK_LIMITS, 'maxProxyAnswerBytes'>]: number };

/**
 * The events request needs a serial number; without one from the caller it
 * asks for one nobody owns: an empty answer (or a 404) proves the path as well
 * as a machine's events, and reads no one's data.
 */
export const PROBE_SERIAL_NUMBER = 'CONNECTION-TEST-0000';

export interface ConnectionCheckInput {
  /** Words every step and verdict: the user reads the report (vscode.l10n.t), a test may pass plainLocalize. */
  readonly t: Localize;
  readonly environment: string;
  readonly apiBaseUrl: string;
  readonly authUrl: string;
  /** Absent when nothing is stored for the environment: the token and events steps are then skipped. */
  readonly credentials?: CredentialsProvider;
  /** The client's network settings (proxy, trust, lookup, env), as the session's clients get them. */
  readonly http?: HttpSettings;
  readonly serialNumber?: string;
  readonly signal?: AbortSignal;
  /** About the host (extension and VS Code versions); the check adds Node.js and the platform. */
  readonly facts?: readonly (readonly [string, string])[];
  /** The transport of the token and events requests; the client's own (createTransport, by `http.engine`) unless a test passes one. */
  readonly createTransport?: (options: TransportOptions) => Transport;
  /** Each access token as it arrives (the log's redactor learns it); never kept here. */
  readonly onToken?: (value: string) => void;
  readonly now?: () => Date;
  /** Shorter deadlines (longer ones are capped at CHECK_LIMITS). */
  readonly limits?: Partial<CheckLimits>;
}

/** Runs every step (each bounded) and returns the report; throws only when `signal` cancels it. */
export async function runConnectionCheck(input: ConnectionCheckInput): Promise<ConnectionReport> {
  const startedAt = (input.now ?? (() => new Date()))();
  const http = input.http ?? {};
  const env = http.env ?? process.env;
  const limits = { ...CHECK_LIMITS, ...input.limits };
  const { t } = input;
  const check = new Check(t, input.signal, {
    lookupMs: Math.min(limits.lookupMs, CHECK_LIMITS.lookupMs),
    connectMs: Math.min(limits.connectMs, CHECK_LIMITS.connectMs),
    proxyAnswerMs: Math.min(limits.proxyAnswerMs, CHECK_LIMITS.proxyAnswerMs),
    tlsMs: Math.min(limits.tlsMs, CHECK_LIMITS.tlsMs),
    requestMs: Math.min(limits.requestMs, CHECK_LIMITS.requestMs),
  });
  const facts: (readonly [string, string])[] = [
    ...(input.facts ?? []),
    ['Node.js', process.versions.node],
    [t('Platform'), `${process.platform} ${process.arch}`],
  ];
  const report = (verdict: Verdict): ConnectionReport => ({
    environment: input.environment,
    apiBaseUrl: shownUrl(input.apiBaseUrl, t),
    authUrl: shownUrl(input.authUrl, t),
    startedAt: startedAt.toISOString(),
    facts,
    steps: check.steps,
    verdict,
  });

  const api = parseUrl(input.apiBaseUrl);
  const auth = parseUrl(input.authUrl);
  if (api === undefined || auth === undefined) {
    return report({
      ok: false,
      headline: t('The API base URL or the authorization URL is not a valid URL.'),
      advice: t('Sign in again with the URLs your administrator gave you ({0}).', signInCommand(t)),
    });
  }
  // One path per origin: an API and token endpoint on the same host share a proxy, a name and a certificate.
  const targets: { role: TargetRole; url: URL }[] =
    api.origin === auth.origin
      ? [{ role: 'both', url: api }]
      : [
          { role: 'api', url: api },
          { role: 'auth', url: auth },
        ];
  const routes = targets.map((target) => ({
    ...target,
    route: routeFor(target.url, http, env),
    // The same answer the client's transport acts on: which engine carries this target's requests.
    path: networkPathFor(target.url, { ...http, engine: http.engine ?? 'undici', env }),
  }));
  for (const { role, url, route, path } of routes) check.record(proxyStep(role, url, route, path, http, t));
  for (const { url, route, path } of routes) {
    if (check.failed) break;
    await checkPath(check, url, route, path.engine, http, env);
  }

  // On VS Code's stack a system proxy or PAC file we cannot see may reach what the direct steps
  // could not: the client's own requests then still decide whether the extension works.
  const directVerdict = check.verdict;
  const vscodeMayReach = directVerdict !== undefined && routes.some(({ path }) => path.engine === 'vscode');
  if (vscodeMayReach && input.credentials !== undefined && input.signal?.aborted !== true) {
    check.verdict = undefined;
    await checkRequests(check, input, input.credentials, http, env);
    check.verdict ??= {
      ok: true,
      headline: t("VS Code's network path reaches the API; the direct way tested above does not."),
      advice: t(
        "The extension's requests take VS Code's network stack (its proxy settings, the system proxy or a PAC file, Kerberos proxy authentication and its credentials dialog), so they work. The failed steps above show the direct way, which only tools that do not use VS Code's network stack take.",
      ),
    };
  } else if (check.failed) {
    check.skip(tokenTitle(input.authUrl, t), t('an earlier step failed'));
    check.skip(eventsTitle(input.apiBaseUrl, input.serialNumber, t), t('an earlier step failed'));
  } else if (input.credentials === undefined) {
    check.skip(tokenTitle(input.authUrl, t), t('no credentials are stored for this environment (sign in first)'));
    check.skip(eventsTitle(input.apiBaseUrl, input.serialNumber, t), t('needs a token'));
  } else {
    await checkRequests(check, input, input.credentials, http, env);
  }
  if (input.signal?.aborted === true) throw cancelledError();

  return report(
    check.verdict ??
      (input.credentials === undefined
        ? {
            ok: true,
            headline: t('The network path works; the sign-in was not tested.'),
            advice: t(
              'Name resolution, the connection and the certificate are fine. Sign in ({0}), then run {1} again to test the token and events requests.',
              signInCommand(t),
              testConnectionCommand(t),
            ),
          }
        : {
            ok: true,
            headline: t('Everything works: the authorization server issued a token and the API answered.'),
            advice: t(
              "If a view still shows an error, try again: it may have passed. If it stays, attach this report and the log ('Onboarding Events: Show Log') to a ticket.",
            ),
          }),
  );
}

/** The steps so far and the first failure's verdict. */
class Check {
  readonly steps: CheckStep[] = [];
  verdict: Verdict | undefined;

  constructor(
    readonly t: Localize,
    readonly signal: AbortSignal | undefined,
    readonly limits: CheckLimits,
  ) {}

  get failed(): boolean {
    return this.verdict !== undefined || this.signal?.aborted === true;
  }

  record(step: CheckStep, verdict?: Verdict): void {
    this.steps.push(step);
    if (verdict !== undefined) this.verdict ??= verdict;
  }

  skip(title: string, why: string): void {
    this.steps.push({ title, status: 'skipped', summary: why, details: [] });
  }
}

// ─── Which proxy ────────────────────────────────────────────────────────────

type ProxyReason = 'loopback' | 'setting' | 'environment' | 'exempted' | 'none';

interface Route {
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
type TargetRole = 'both' | 'api' | 'auth';

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

function proxySummary(route: Route, url: URL, t: Localize): string {
  switch (route.reason) {
    case 'loopback':
      return t('none: a loopback address never goes through a proxy (the traffic stays on this computer).');
    case 'none':
      return t('none: no http.proxy setting and no HTTPS_PROXY or HTTP_PROXY environment variable.');
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

function proxyStep(role: TargetRole, url: URL, route: Route, path: NetworkPath, http: HttpSettings, t: Localize): CheckStep {
  const title = proxyTitle(role, url, t);
  const details: string[] = [];
  const summary = proxySummary(route, url, t);
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

// ─── Name resolution, TCP, CONNECT, TLS ─────────────────────────────────────

/** A step's failure in the client's own terms: the message errorForTransportFailure writes is the advice, in `t`'s language. */
function verdictFor(
  t: Localize,
  failure: TransportError['failure'],
  code: string,
  url: string,
  context: NetworkFailureContext = {},
): Verdict {
  const error = errorForTransportFailure(new TransportError(failure, code, context), 'GET', url, CHECK_LIMITS.requestMs);
  return verdictOf(error.text(t));
}

const DNS_FAILURES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'EAI_NODATA']);

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : error instanceof StepTimeout ? 'ETIMEDOUT' : 'UNKNOWN';
}

class StepTimeout extends Error {
  constructor(readonly ms: number) {
    super(`no answer within ${ms} ms`);
  }
}

/**
 * Waits for `work` at most `ms` and no longer than the caller wants; on either,
 * `giveUp` tears down what the work holds (its socket), so nothing lingers.
 */
function bounded<T>(work: Promise<T>, ms: number, signal: AbortSignal | undefined, giveUp: () => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const stop = (error: Error): void => {
      cleanup();
      giveUp();
      reject(error);
    };
    const timer = setTimeout(() => {
      stop(new StepTimeout(ms));
    }, ms);
    const onAbort = (): void => {
      stop(cancelledError());
    };
    const cleanup = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    if (signal?.aborted === true) {
      stop(cancelledError());
      return;
    }
    signal?.addEventListener('abort', onAbort);
    work.then(
      (value) => {
        cleanup();
        resolve(value);
      },
      (error: unknown) => {
        cleanup();
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number } | { error: unknown; ms: number }> {
  const started = performance.now();
  try {
    const value = await run();
    return { value, ms: performance.now() - started };
  } catch (error) {
    return { error, ms: performance.now() - started };
  }
}

function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

function portOf(url: URL): number {
  return url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
}

/** Where the first hop goes (the proxy, or the server itself), then each step along the way. */
async function checkPath(
  check: Check,
  target: URL,
  route: Route,
  engine: NetworkEngine,
  http: HttpSettings,
  env: Readonly<NodeJS.ProcessEnv>,
): Promise<void> {
  const { t } = check;
  if ((route.reason === 'setting' || route.reason === 'environment') && route.proxy === undefined) {
    check.record(
      { title: t('Proxy URL'), status: 'failed', summary: t('not a URL the extension can use.'), details: [] },
      verdictFor(t, 'proxy-invalid', 'ERR_INVALID_PROXY', target.href),
    );
    return;
  }
  const proxy = route.proxy;
  const hop = proxy ?? target;
  // The first hop's step titles: the server's, or the proxy's, each a whole phrase.
  const lookupTitle = proxy === undefined ? t('Name resolution of {0}', target.host) : t('Name resolution of the proxy {0}', proxy.host);
  const tcpTitle = proxy === undefined ? t('TCP connection to {0}', target.host) : t('TCP connection to the proxy {0}', proxy.host);
  const viaProxy = (context: NetworkFailureContext = {}): NetworkFailureContext =>
    proxy === undefined ? context : { proxyHost: proxy.host, proxyCredentialsSent: route.proxyAuthorization !== undefined, ...context };
  const failureOf = (direct: TransportError['failure']): TransportError['failure'] => (proxy === undefined ? direct : 'proxy-unreachable');
  const sockets: Socket[] = [];
  try {
    // Name resolution of the first hop: behind a proxy, the proxy resolves the server's name.
    const host = hostOf(hop);
    let address: LookupAddress;
    if (isIP(host) !== 0) {
      address = { address: host, family: isIP(host) };
      check.record({
        title: lookupTitle,
        status: 'ok',
        summary: t('not needed: {0} is an address.', literal(host)),
        details: proxy === undefined ? [] : [t('The proxy resolves the server name itself.')],
      });
    } else {
      const lookup = http.lookup ?? dnsLookup;
      const result = await timed(() => bounded(resolveAll(lookup, host), check.limits.lookupMs, check.signal, () => undefined));
      if ('error' in result) {
        if (check.signal?.aborted === true) return;
        const code = codeOf(result.error);
        check.record(
          {
            title: lookupTitle,
            status: 'failed',
            summary: t('{0} could not be resolved ({1}).', literal(host), code),
            details: [],
            durationMs: result.ms,
          },
          verdictFor(t, DNS_FAILURES.has(code) ? failureOf('dns') : failureOf('connection'), code, target.href, viaProxy()),
        );
        return;
      }
      const [first] = result.value;
      if (first === undefined) throw new Error('unreachable: resolveAll returns at least one address');
      address = first;
      check.record({
        title: lookupTitle,
        status: 'ok',
        summary: `${literal(host)} → ${result.value.map((entry) => literal(entry.address)).join(t(', '))}`,
        details: proxy === undefined ? [] : [t('The proxy resolves the server name itself.')],
        durationMs: result.ms,
      });
    }

    // TCP to the first address.
    const port = portOf(hop);
    const connectMs = Math.min(http.connectTimeoutMs ?? check.limits.connectMs, check.limits.connectMs);
    const shownAddress = address.family === 6 ? `[${address.address}]:${port}` : `${address.address}:${port}`;
    const tcp = await timed(() => {
      const socket = netConnect({ host: address.address, port });
      sockets.push(socket);
      return bounded(
        once(socket, 'connect').then(() => socket),
        connectMs,
        check.signal,
        () => socket.destroy(),
      );
    });
    if ('error' in tcp) {
      if (check.signal?.aborted === true) return;
      const code = codeOf(tcp.error);
      const failure = code === 'ECONNREFUSED' ? 'connection-refused' : code === 'ETIMEDOUT' ? 'connect-timeout' : 'connection';
      check.record(
        {
          title: tcpTitle,
          status: 'failed',
          summary:
            code === 'ETIMEDOUT'
              ? t('{0}: no answer within {1}.', literal(shownAddress), formatDuration(connectMs))
              : t('{0}: {1}.', literal(shownAddress), code),
          details: [],
          durationMs: tcp.ms,
        },
        verdictFor(t, failureOf(failure), code, target.href, viaProxy()),
      );
      return;
    }
    check.record({
      title: tcpTitle,
      status: 'ok',
      summary: t('connected to {0}.', literal(shownAddress)),
      details: [],
      durationMs: tcp.ms,
    });
    let socket: Socket = tcp.value;

    const trust = await trustFor(http, env, t);
    if (trust.error !== undefined) {
      check.record(
        {
          title: t('Trusted certificate authorities'),
          status: 'failed',
          summary: t('the CA file could not be used ({0}).', trust.error.code),
          details: [],
        },
        verdictFor(t, 'ca-file', trust.error.code, target.href, trust.error.context),
      );
      return;
    }

    // An https proxy: TLS with the proxy first, vouched for like any server.
    if (proxy !== undefined && proxy.protocol === 'https:') {
      const proxyTls = await handshake(
        check,
        sockets,
        hostOf(proxy),
        t('TLS handshake with the proxy {0}', proxy.host),
        trust.value,
        http,
        proxy.href,
        viaProxy(),
      );
      if (proxyTls === undefined) return;
      socket = proxyTls;
    }

    if (proxy !== undefined) {
      if (target.protocol !== 'https:') {
        check.skip(
          t('Tunnel through the proxy to {0}', target.host),
          t('plain HTTP goes to the proxy as a request, not a tunnel: the token and events requests show whether it forwards them.'),
        );
        return;
      }
      const tunnel = await proxyTunnel(check, socket, target, proxy, route, engine);
      if (tunnel === undefined) return;
    }

    if (target.protocol === 'https:') {
      await handshake(check, sockets, hostOf(target), t('TLS handshake with {0}', target.host), trust.value, http, target.href, viaProxy());
    }
  } finally {
    // Only the outermost layer: a TLS socket owns the handle of the socket it wraps, and
    // destroying both closes that handle twice, which crashes Node 20 in the next TLS connection.
    sockets.at(-1)?.destroy();
  }
}

function resolveAll(lookup: LookupFunction, host: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    lookup(host, { all: true }, (error, addresses) => {
      if (error !== null) reject(error);
      else if (!Array.isArray(addresses) || addresses.length === 0) reject(Object.assign(new Error('no address'), { code: 'ENOTFOUND' }));
      else resolve(addresses);
    });
  });
}

function once(emitter: Socket, event: 'connect' | 'secureConnect'): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error): void => {
      emitter.off(event, onEvent);
      reject(error);
    };
    const onEvent = (): void => {
      emitter.off('error', onError);
      resolve();
    };
    emitter.once(event, onEvent);
    emitter.once('error', onError);
  });
}

/** Sends CONNECT and reads the proxy's answer; the socket is the tunnel when it says 200. */
async function proxyTunnel(
  check: Check,
  socket: Socket,
  target: URL,
  proxy: URL,
  route: Route,
  engine: NetworkEngine,
): Promise<Socket | undefined> {
  const { t } = check;
  const title = t('Tunnel through the proxy {0} to {1}', proxy.host, target.host);
  const authority = `${hostOf(target).includes(':') ? `[${hostOf(target)}]` : hostOf(target)}:${portOf(target)}`;
  const request = [
    `CONNECT ${authority} HTTP/1.1`,
    `Host: ${authority}`,
    ...(route.proxyAuthorization !== undefined ? [`Proxy-Authorization: ${route.proxyAuthorization}`] : []),
    '',
    '',
  ].join('\r\n');
  const answer = await timed(() =>
    bounded(readProxyAnswer(socket, request), check.limits.proxyAnswerMs, check.signal, () => socket.destroy()),
  );
  const context = { proxyHost: proxy.host, proxyCredentialsSent: route.proxyAuthorization !== undefined };
  if ('error' in answer) {
    if (check.signal?.aborted === true) return undefined;
    const code = codeOf(answer.error);
    check.record(
      { title, status: 'failed', summary: t('no answer to CONNECT ({0}).', code), details: [], durationMs: answer.ms },
      verdictFor(t, 'proxy-unreachable', code, target.href, context),
    );
    return undefined;
  }
  const { status, challenges } = answer.value;
  const details = challenges.length > 0 ? [t('The proxy asks for: {0}.', challenges.map(literal).join(t(', ')))] : [];
  if (status === 200) {
    check.record({ title, status: 'ok', summary: t('the proxy opened the tunnel (HTTP 200).'), details, durationMs: answer.ms });
    return socket;
  }
  if (status === 407) {
    check.record(
      {
        title,
        status: 'failed',
        summary: context.proxyCredentialsSent
          ? t('the proxy wants authentication (HTTP 407) and refused the credentials sent.')
          : t('the proxy wants authentication (HTTP 407); none were sent.'),
        details,
        durationMs: answer.ms,
      },
      // The advice for the path the requests take: on VS Code's, what VS Code does with each scheme asked for.
      verdictFor(t, 'proxy-auth-required', 'PROXY_407', target.href, {
        ...context,
        proxyStatus: 407,
        engine,
        ...(challenges.length > 0 ? { proxyAuthSchemes: challenges } : {}),
      }),
    );
    return undefined;
  }
  check.record(
    { title, status: 'failed', summary: t('the proxy refused the tunnel (HTTP {0}).', status), details, durationMs: answer.ms },
    verdictFor(t, 'proxy-refused', `PROXY_${status}`, target.href, { ...context, proxyStatus: status }),
  );
  return undefined;
}

/** The status and the authentication schemes offered (names only) of a proxy's answer to CONNECT. */
function readProxyAnswer(socket: Socket, request: string): Promise<{ status: number; challenges: string[] }> {
  return new Promise((resolve, reject) => {
    let received = Buffer.alloc(0);
    const finish = (): void => {
      socket.off('data', onData);
      socket.off('error', onError);
      socket.off('end', onEnd);
      // The tunnel's bytes belong to the TLS handshake that follows: stop reading them here.
      socket.pause();
    };
    const onData = (chunk: Buffer): void => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n\r\n');
      if (end === -1) {
        if (received.length > CHECK_LIMITS.maxProxyAnswerBytes) {
          finish();
          reject(Object.assign(new Error('proxy answer too long'), { code: 'PROXY_ANSWER_TOO_LONG' }));
        }
        return;
      }
      finish();
      const head = received.subarray(0, end).toString('latin1').split('\r\n');
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(head[0] ?? '')?.[1];
      if (status === undefined) {
        reject(Object.assign(new Error('not an HTTP answer'), { code: 'PROXY_BAD_ANSWER' }));
        return;
      }
      const challenges = head
        .filter((line) => /^proxy-authenticate:/i.test(line))
        .map((line) => /^proxy-authenticate:\s*([A-Za-z0-9!#$%&'*+.^_`|~-]+)/i.exec(line)?.[1])
        .filter((scheme): scheme is string => scheme !== undefined)
        .slice(0, 5);
      resolve({ status: Number(status), challenges });
    };
    const onError = (error: Error): void => {
      finish();
      reject(error);
    };
    const onEnd = (): void => {
      finish();
      reject(Object.assign(new Error('the proxy closed the connection'), { code: 'ECONNRESET' }));
    };
    socket.on('data', onData);
    socket.on('error', onError);
    socket.on('end', onEnd);
    socket.write(request);
  });
}

// ─── Trust ──────────────────────────────────────────────────────────────────

interface TrustStore {
  /** Where the certificates came from; `file` is the file's path for the two file stores. */
  readonly kind: 'ca-file' | 'node-extra' | 'bundled' | 'system';
  readonly file?: string;
  readonly certificates: readonly X509Certificate[];
}

interface Trust {
  /** What the client's transport trusts: the same list (loadTrustedCertificates). */
  readonly ca: readonly string[];
  /** The same certificates by where they came from, to say which store vouched for a server. */
  readonly stores: readonly TrustStore[];
  readonly summary: string;
}

async function trustFor(
  http: HttpSettings,
  env: Readonly<NodeJS.ProcessEnv>,
  t: Localize,
): Promise<{ value: Trust; error?: undefined } | { error: TransportError }> {
  let loaded;
  try {
    loaded = await loadTrustedCertificates(
      definedOnly({ systemCertificates: http.systemCertificates, caCertificatesFile: http.caCertificatesFile }),
      env,
    );
  } catch (error) {
    if (error instanceof TransportError) return { error };
    return { error: new TransportError('ca-file', codeOf(error), definedOnly({ caFile: http.caCertificatesFile })) };
  }
  const parse = (pems: readonly string[]): X509Certificate[] =>
    pems.flatMap((pem) => {
      try {
        return [new X509Certificate(pem)];
      } catch {
        return [];
      }
    });
  const file = http.caCertificatesFile?.trim();
  const extraFile = env['NODE_EXTRA_CA_CERTS']?.trim();
  const fromFile = file === undefined || file === '' ? [] : parse(await pemsOf(file));
  const fromExtra = extraFile === undefined || extraFile === '' ? [] : parse(await pemsOf(extraFile));
  const bundled = parse(rootCertificates);
  const all = parse(loaded.ca);
  const known = new Set([...fromFile, ...fromExtra, ...bundled].map((cert) => cert.fingerprint256));
  const system = all.filter((cert) => !known.has(cert.fingerprint256));
  const systemStore =
    loaded.systemStore === 'off'
      ? t('operating system store: off (http.systemCertificates is false)')
      : loaded.systemStore === 'unavailable'
        ? t('operating system store: could not be read on this system')
        : loaded.systemStore === 'node'
          ? t('operating system store: read (through Node.js), {0} not among the others', system.length)
          : t('operating system store: read (as files), {0} not among the others', system.length);
  const stores: TrustStore[] = [
    ...(file !== undefined && file !== '' ? [{ kind: 'ca-file' as const, file, certificates: fromFile }] : []),
    ...(extraFile !== undefined && extraFile !== '' ? [{ kind: 'node-extra' as const, file: extraFile, certificates: fromExtra }] : []),
    { kind: 'bundled', certificates: bundled },
    { kind: 'system', certificates: system },
  ];
  // A list of facts, each its own message, joined by '{0}; {1}' (Chinese writes the semicolon full-width).
  const summary = [
    t('bundled roots: {0}', bundled.length),
    systemStore,
    file === undefined || file === ''
      ? t('onboardingEvents.caCertificatesFile: not set')
      : t('onboardingEvents.caCertificatesFile: {0} from {1}', loaded.fromFile, literal(file)),
    ...(extraFile !== undefined && extraFile !== '' ? [t('NODE_EXTRA_CA_CERTS: {0} from {1}', fromExtra.length, literal(extraFile))] : []),
  ].reduce((list, item) => t('{0}; {1}', list, item));
  return { value: { ca: loaded.ca, stores, summary } };
}

/** The PEM certificates of a file loadTrustedCertificates already accepted (so it exists and is small). */
async function pemsOf(path: string): Promise<string[]> {
  try {
    if ((await stat(path)).size > MAX_CA_FILE_BYTES) return [];
    return pemCertificates(await readFile(path, 'utf8'));
  } catch {
    return [];
  }
}

/** Why a certificate was refused, with what was trusted: one whole message per reason. */
function refusal(code: string | undefined, host: string, trusted: string, t: Localize): string {
  const shownCode = code ?? 'UNKNOWN';
  switch (code === undefined ? undefined : certificateFailure(code)) {
    case 'certificate-expired':
      return t('Not accepted ({0}): it has expired or is not valid yet. Trusted: {1}.', shownCode, trusted);
    case 'certificate-name-mismatch':
      return t('Not accepted ({0}): it does not name {1}. Trusted: {2}.', shownCode, literal(host), trusted);
    default:
      return t('Not accepted ({0}): no trusted certificate authority vouches for it. Trusted: {1}.', shownCode, trusted);
  }
}

/** "Accepted: vouched for by …, found in …", one whole message per store. */
function acceptedBy(anchor: X509Certificate, store: TrustStore, t: Localize): string {
  const name = literal(nameOf(anchor.subject));
  switch (store.kind) {
    case 'ca-file':
      return t(
        'Accepted: vouched for by {0}, found in the file in onboardingEvents.caCertificatesFile ({1}).',
        name,
        literal(store.file ?? ''),
      );
    case 'node-extra':
      return t('Accepted: vouched for by {0}, found in the NODE_EXTRA_CA_CERTS file ({1}).', name, literal(store.file ?? ''));
    case 'bundled':
      return t("Accepted: vouched for by {0}, found in Node.js's bundled root certificates.", name);
    case 'system':
      return t("Accepted: vouched for by {0}, found in the operating system's certificate store.", name);
  }
}

/** OpenSSL's verdicts, in the transport's names. */
function certificateFailure(code: string): TransportError['failure'] {
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') return 'certificate-expired';
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID' || code === 'HOSTNAME_MISMATCH') return 'certificate-name-mismatch';
  return 'untrusted-certificate';
}

function nameOf(distinguished: string): string {
  // X509Certificate writes one attribute per line ("C=DE\nO=Plant\nCN=api.plant.test").
  return distinguished
    .split('\n')
    .filter((part) => part !== '')
    .join(', ');
}

/** The chain the server sent, leaf first, each certificate once. */
function chainOf(peer: DetailedPeerCertificate): X509Certificate[] {
  const chain: X509Certificate[] = [];
  const seen = new Set<string>();
  // At run time a missing certificate is an empty object, and a chain's end has no issuer: the types promise more.
  type Link = { readonly raw?: Buffer; readonly issuerCertificate?: Link } | undefined;
  let current: Link = peer;
  while (current?.raw !== undefined && chain.length < 10) {
    const cert = new X509Certificate(current.raw);
    if (seen.has(cert.fingerprint256)) break;
    seen.add(cert.fingerprint256);
    chain.push(cert);
    current = current.issuerCertificate;
  }
  return chain;
}

/** The store holding the certificate that vouches for the chain's top: its issuer, or the top itself. */
function anchorOf(
  chain: readonly X509Certificate[],
  stores: readonly TrustStore[],
): { store: TrustStore; anchor: X509Certificate } | undefined {
  const top = chain.at(-1);
  if (top === undefined) return undefined;
  const fingerprints = new Set(chain.map((cert) => cert.fingerprint256));
  for (const store of stores) {
    for (const candidate of store.certificates) {
      if (fingerprints.has(candidate.fingerprint256)) return { store, anchor: candidate };
      if (candidate.subject === top.issuer && top.checkIssued(candidate) && top.verify(candidate.publicKey)) {
        return { store, anchor: candidate };
      }
    }
  }
  return undefined;
}

/** TLS over the outermost of `layers` (the TCP socket, or a proxy's TLS); the new layer joins them at once. */
async function handshake(
  check: Check,
  layers: Socket[],
  host: string,
  title: string,
  trust: Trust,
  http: HttpSettings,
  url: string,
  context: NetworkFailureContext,
): Promise<TLSSocket | undefined> {
  const { t } = check;
  const result = await timed(() => {
    // Verification is judged below, from the same list the client trusts, so the report can show a refused certificate too.
    const secure = tlsConnect({
      socket: layers.at(-1),
      ...(isIP(host) === 0 ? { servername: host } : {}),
      host,
      ca: [...trust.ca],
      rejectUnauthorized: false,
    });
    layers.push(secure);
    secure.on('error', () => undefined);
    return bounded(
      once(secure, 'secureConnect').then(() => secure),
      check.limits.tlsMs,
      check.signal,
      () => secure.destroy(),
    );
  });
  if ('error' in result) {
    if (check.signal?.aborted === true) return undefined;
    const code = codeOf(result.error);
    check.record(
      {
        title,
        status: 'failed',
        summary: t('no TLS session ({0}).', code),
        details: [t('Trusted: {0}.', trust.summary)],
        durationMs: result.ms,
      },
      verdictFor(t, code === 'ETIMEDOUT' ? 'connect-timeout' : 'connection', code, url, context),
    );
    return undefined;
  }
  const secure = result.value;
  const chain = chainOf(secure.getPeerCertificate(true));
  const leaf = chain[0];
  const details: string[] = [];
  if (leaf !== undefined) {
    details.push(t('Certificate: {0}, issued by {1}.', literal(nameOf(leaf.subject)), literal(nameOf(leaf.issuer))));
    details.push(t('Valid from {0} to {1}.', literal(leaf.validFrom), literal(leaf.validTo)));
    if (leaf.subjectAltName !== undefined) details.push(t('Names: {0}.', literal(leaf.subjectAltName)));
    details.push(t('SHA-256 fingerprint: {0}.', literal(leaf.fingerprint256)));
  }
  if (chain.length > 1) details.push(t('Chain: {0}.', chain.map((cert) => literal(nameOf(cert.subject))).join(' → ')));
  const anchor = anchorOf(chain, trust.stores);
  const protocol = secure.getProtocol() ?? 'TLS';
  const authorizationError = secure.authorizationError as unknown as string | Error | null | undefined;
  const code = authorizationError instanceof Error ? codeOf(authorizationError) : (authorizationError ?? undefined);
  const strict = http.proxyStrictSSL !== false;
  if (secure.authorized) {
    details.push(
      anchor === undefined
        ? t('Accepted by the trusted certificate authorities ({0}).', trust.summary)
        : acceptedBy(anchor.anchor, anchor.store, t),
    );
    check.record({ title, status: 'ok', summary: t('{0}, certificate verified.', protocol), details, durationMs: result.ms });
    return secure;
  }
  details.push(refusal(code, host, trust.summary, t));
  if (!strict) {
    details.push(
      t(
        'http.proxyStrictSSL is false: the extension accepts this certificate without checking it. Anyone on the way could read the traffic.',
      ),
    );
    check.record({
      title,
      status: 'ok',
      summary: t('{0}, certificate NOT verified (http.proxyStrictSSL is off).', protocol),
      details,
      durationMs: result.ms,
    });
    return secure;
  }
  const failureCode = code ?? 'UNABLE_TO_VERIFY_LEAF_SIGNATURE';
  check.record(
    { title, status: 'failed', summary: t('{0}, certificate refused ({1}).', protocol, failureCode), details, durationMs: result.ms },
    verdictFor(t, certificateFailure(failureCode), failureCode, url, context),
  );
  return undefined;
}

// ─── The client's own token and events requests ─────────────────────────────

function tokenTitle(authUrl: string, t: Localize): string {
  return t('Token request POST {0}', redactUrl(`${authUrl.replace(/\/+$/, '')}/token`));
}

function eventsTitle(apiBaseUrl: string, serialNumber: string | undefined, t: Localize): string {
  return t(
    'Events request GET {0} for serial number {1}',
    redactUrl(`${apiBaseUrl.replace(/\/+$/, '')}/events`),
    literal(serialNumber ?? PROBE_SERIAL_NUMBER),
  );
}

interface Exchange {
  readonly method: string;
  readonly url: string;
  readonly status?: number;
  /** From a token response: what the report may show of it. */
  readonly token?: { readonly expiresIn?: unknown; readonly scope?: unknown; readonly tokenType?: unknown };
}

/** The client's transport, watched: every exchange's status, and of the token response only its harmless fields. */
class WatchedTransport implements Transport {
  readonly exchanges: Exchange[] = [];

  constructor(
    private readonly inner: Transport,
    private readonly tokenUrl: string,
  ) {}

  async request(request: TransportRequest): Promise<TransportResponse> {
    const response = await this.inner.request(request);
    const exchange: Exchange = { method: request.method, url: request.url, status: response.status };
    this.exchanges.push(
      request.method === 'POST' && request.url === this.tokenUrl ? { ...exchange, token: tokenFields(response.body) } : exchange,
    );
    return response;
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

function tokenFields(body: Uint8Array): NonNullable<Exchange['token']> {
  try {
    const parsed: unknown = JSON.parse(new TextDecoder('utf-8').decode(body));
    if (typeof parsed !== 'object' || parsed === null) return {};
    const { expires_in: expiresIn, scope, token_type: tokenType } = parsed as Record<string, unknown>;
    return { expiresIn, scope, tokenType };
  } catch {
    return {};
  }
}

function clientTransport(options: TransportOptions): Transport {
  // The client's own transport for `engine`, loaded lazily like the client's (esbuild keeps it a separate bundle).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('./http/undiciTransport') as typeof import('./http/undiciTransport')).createTransport(options);
}

async function checkRequests(
  check: Check,
  input: ConnectionCheckInput,
  credentials: CredentialsProvider,
  http: HttpSettings,
  env: Readonly<NodeJS.ProcessEnv>,
): Promise<void> {
  const { t } = check;
  const tokenUrl = `${input.authUrl.replace(/\/+$/, '')}/token`;
  const transportOptions: TransportOptions = {
    ...definedOnly({
      proxy: http.proxy,
      proxyStrictSSL: http.proxyStrictSSL,
      noProxy: http.noProxy,
      proxyAuthorization: http.proxyAuthorization,
      systemCertificates: http.systemCertificates,
      caCertificatesFile: http.caCertificatesFile,
      lookup: http.lookup,
      engine: http.engine,
    }),
    connectTimeoutMs: Math.min(http.connectTimeoutMs ?? DEFAULT_HTTP_SETTINGS.connectTimeoutMs, check.limits.connectMs),
    connectionsPerOrigin: 2,
    env,
  };
  const transport = new WatchedTransport((input.createTransport ?? clientTransport)(transportOptions), tokenUrl);
  const client = new OnboardingClient({
    apiBaseUrl: input.apiBaseUrl,
    authUrl: input.authUrl,
    credentials,
    http: {
      ...http,
      maxRetries: 0,
      requestTimeoutMs: Math.min(http.requestTimeoutMs ?? DEFAULT_HTTP_SETTINGS.requestTimeoutMs, check.limits.requestMs),
    },
    transport,
    ...definedOnly({ onToken: input.onToken }),
  });
  try {
    const token = await timed(() => client.verifyCredentials(input.signal));
    const tokenExchange = transport.exchanges.find((exchange) => exchange.token !== undefined);
    if ('error' in token) {
      if (input.signal?.aborted === true) return;
      const message = isApiError(token.error) ? token.error.text(t) : t('The token request failed.');
      const status = tokenExchange?.status;
      check.record(
        {
          title: tokenTitle(input.authUrl, t),
          status: 'failed',
          summary: status === undefined ? t('no answer.') : `HTTP ${status}.`,
          details: [message],
          durationMs: token.ms,
        },
        verdictOf(message),
      );
      check.skip(eventsTitle(input.apiBaseUrl, input.serialNumber, t), t('needs a token'));
      return;
    }
    const fields = tokenExchange?.token ?? {};
    // The token's facts as items of a list, each its own message.
    const expires = typeof fields.expiresIn === 'number' ? t('expires_in {0} s', fields.expiresIn) : t('no expires_in (1 hour assumed)');
    const scope = typeof fields.scope === 'string' ? t('scope {0}', literal(fields.scope)) : t('no scope named');
    const tokenStatus = tokenExchange?.status ?? 200;
    check.record({
      title: tokenTitle(input.authUrl, t),
      status: 'ok',
      summary:
        typeof fields.tokenType === 'string'
          ? t('HTTP {0}: {1} token, {2}, {3}. The token itself is not shown.', tokenStatus, literal(fields.tokenType), expires, scope)
          : t('HTTP {0}: a token, {1}, {2}. The token itself is not shown.', tokenStatus, expires, scope),
      details: [],
      durationMs: token.ms,
    });

    const before = transport.exchanges.length;
    const serial = input.serialNumber ?? PROBE_SERIAL_NUMBER;
    const events = await timed(() => client.getEvents(serial, { ...definedOnly({ signal: input.signal }), maxPages: 1 }));
    const made = transport.exchanges.slice(before);
    const status = made.at(-1)?.status;
    const requests = made.length;
    if ('error' in events) {
      if (input.signal?.aborted === true) return;
      const error = events.error;
      // A serial number nobody owns may be a 404: the API answered, which is all this step asks.
      if (isApiError(error) && error.kind === 'not-found') {
        check.record({
          title: eventsTitle(input.apiBaseUrl, input.serialNumber, t),
          status: 'ok',
          summary:
            requests > 1
              ? t('HTTP {0}: the API answered (no machine with this serial number) in {1} requests.', status ?? 404, requests)
              : t('HTTP {0}: the API answered (no machine with this serial number).', status ?? 404),
          details: [],
          durationMs: events.ms,
        });
        return;
      }
      const message = isApiError(error) ? error.text(t) : t('The events request failed.');
      check.record(
        {
          title: eventsTitle(input.apiBaseUrl, input.serialNumber, t),
          status: 'failed',
          summary: status === undefined ? t('no answer.') : `HTTP ${status}.`,
          details: [message],
          durationMs: events.ms,
        },
        verdictOf(message),
      );
      return;
    }
    check.record({
      title: eventsTitle(input.apiBaseUrl, input.serialNumber, t),
      status: 'ok',
      summary: eventsSummary(status ?? 200, events.value.events.length, requests, t),
      details: [],
      durationMs: events.ms,
    });
  } finally {
    client.dispose();
  }
}

/** "HTTP 200: 3 events.": one whole message for one event and for many, with and without the count of requests. */
function eventsSummary(status: number, count: number, requests: number, t: Localize): string {
  if (requests > 1) {
    return count === 1
      ? t('HTTP {0}: 1 event in {1} requests.', status, requests)
      : t('HTTP {0}: {1} events in {2} requests.', status, count, requests);
  }
  return count === 1 ? t('HTTP {0}: 1 event.', status) : t('HTTP {0}: {1} events.', status, count);
}

/**
 * A message of ours split where it turns from what went wrong to what to do:
 * after its first sentence, which ends in ". " in English and German and in
 * "。" (no space) in Chinese. Not after a one-letter word: German writes
 * "z. B." and "d. h." (with a no-break space inside), which end no sentence.
 */
export function verdictOf(message: string): Verdict {
  const end = message.search(/(?<!(?:^|[\s(])\p{L})[.!?](?=\s|$)|[。！？]/u);
  const headline = end > 0 ? message.slice(0, end + 1) : message;
  return { ok: false, headline, advice: message.slice(headline.length).trim() };
}

/** A URL for the report, its credentials removed; a value that is not a URL is said so in `t`'s language. */
function shownUrl(url: string, t: Localize): string {
  return parseUrl(url) === undefined ? t('(not a valid URL)') : redactUrl(url);
}

function parseUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}
