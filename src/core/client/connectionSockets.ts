// Test Connection's socket stages, the way a network engineer would take them:
// name resolution of the first hop (the proxy, or the server itself), TCP to
// its first address, the proxy's CONNECT, then TLS (connectionTrust.ts). Node's
// own dns.promises, net, events.once and http.request({ method: 'CONNECT' })
// do the work; undici would hide what a report must show (the addresses, the
// proxy's answer). Each stage ends within its deadline (withDeadline).

import type { LookupAddress, LookupAllOptions } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns/promises';
import { once } from 'node:events';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { connect as netConnect, isIP, type LookupFunction, type Socket } from 'node:net';
import { promisify } from 'node:util';
import { definedOnly } from '../common/definedOnly';
import { DNS_FAILURES } from './http/networkFailures';
import type { NetworkEngine } from './http/networkPath';
import type { NetworkFailureContext, TransportError } from './http/transport';
import { literal } from './connectionReport';
import type { Route } from './connectionRoute';
import { CHECK_LIMITS, codeOf, hostOf, portOf, socketReady, timed, verdictFor, withDeadline, type Check } from './connectionStages';
import { handshake, trustFor } from './connectionTrust';
import type { HttpSettings } from './onboardingClient';
import { formatDuration } from '../common/time';

/** Where the first hop goes (the proxy, or the server itself), then each stage along the way. */
export async function checkPath(
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
      verdictFor(check, 'proxy-invalid', 'ERR_INVALID_PROXY', target.href),
    );
    return;
  }
  const proxy = route.proxy;
  const hop = proxy ?? target;
  // The first hop's stage titles: the server's, or the proxy's, each a whole phrase.
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
      const result = await timed(() =>
        withDeadline(check.limits.lookupMs, check.signal, (deadline) => resolveAll(http.lookup, host, deadline)),
      );
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
          verdictFor(check, DNS_FAILURES.has(code) ? failureOf('dns') : failureOf('connection'), code, target.href, viaProxy()),
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
      return socketReady(socket, 'connect', connectMs, check.signal);
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
              ? t('{0}: no answer within {1}.', literal(shownAddress), formatDuration(connectMs, t))
              : t('{0}: {1}.', literal(shownAddress), code),
          details: [],
          durationMs: tcp.ms,
        },
        verdictFor(check, failureOf(failure), code, target.href, viaProxy()),
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

    const trust = await trustFor(http, env, t, check.wording.names.caFile);
    if (trust.error !== undefined) {
      check.record(
        {
          title: t('Trusted certificate authorities'),
          status: 'failed',
          summary: t('the CA file could not be used ({0}).', trust.error.code),
          details: [],
        },
        verdictFor(check, 'ca-file', trust.error.code, target.href, trust.error.context),
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

/** Every address of `host`, by the client's lookup (http.lookup) or the system's; the lookup takes no signal, so the deadline races it. */
async function resolveAll(lookup: LookupFunction | undefined, host: string, deadline: AbortSignal): Promise<LookupAddress[]> {
  const options: LookupAllOptions = { all: true };
  const resolving = lookup === undefined ? dnsLookup(host, options) : (promisify(lookup) as typeof dnsLookup)(host, options);
  const addresses = await Promise.race([resolving, once(deadline, 'abort').then(() => [])]);
  if (!Array.isArray(addresses) || addresses.length === 0)
    throw Object.assign(new Error('no address'), { code: deadline.aborted ? 'ABORT_ERR' : 'ENOTFOUND' });
  return addresses;
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
  const answer = await timed(() =>
    withDeadline(
      check.limits.proxyAnswerMs,
      check.signal,
      (deadline) => askProxy(socket, authority, route.proxyAuthorization, deadline),
      () => socket.destroy(),
    ),
  );
  const context = { proxyHost: proxy.host, proxyCredentialsSent: route.proxyAuthorization !== undefined };
  if ('error' in answer) {
    if (check.signal?.aborted === true) return undefined;
    const code = answerCode(codeOf(answer.error));
    check.record(
      { title, status: 'failed', summary: t('no answer to CONNECT ({0}).', code), details: [], durationMs: answer.ms },
      verdictFor(check, 'proxy-unreachable', code, target.href, context),
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
      verdictFor(check, 'proxy-auth-required', 'PROXY_407', target.href, {
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
    verdictFor(check, 'proxy-refused', `PROXY_${status}`, target.href, { ...context, proxyStatus: status }),
  );
  return undefined;
}

/** The status and the authentication schemes offered (names only) of a proxy's answer to CONNECT. */
async function askProxy(
  socket: Socket,
  authority: string,
  proxyAuthorization: string | undefined,
  deadline: AbortSignal,
): Promise<{ status: number; challenges: string[] }> {
  const request = httpRequest({
    method: 'CONNECT',
    path: authority,
    headers: {
      Host: authority,
      ...definedOnly({ 'Proxy-Authorization': proxyAuthorization }),
      // HTTP/1.1's default, said aloud: without it Node asks the proxy to close the connection we mean to tunnel through.
      Connection: 'keep-alive',
    },
    // Over the stage's own socket (TCP, or TLS with an https proxy): the stages before it are the report's.
    createConnection: () => socket,
    maxHeaderSize: CHECK_LIMITS.maxProxyAnswerBytes,
  });
  // once() rejects with an error that comes while we wait; the hang-up that tearing down at the deadline causes is expected.
  request.on('error', () => undefined);
  request.end();
  // Node hands over the socket on any answer to CONNECT, 200 or not.
  const [response, , head] = (await once(request, 'connect', { signal: deadline })) as [IncomingMessage, Socket, Buffer];
  // The tunnel's bytes belong to the TLS handshake that follows.
  if (head.length > 0) socket.unshift(head);
  const challenges: string[] = [];
  for (let index = 0; index < response.rawHeaders.length; index += 2) {
    if (response.rawHeaders[index]?.toLowerCase() !== 'proxy-authenticate') continue;
    const scheme = /^\s*([A-Za-z0-9!#$%&'*+.^_`|~-]+)/.exec(response.rawHeaders[index + 1] ?? '')?.[1];
    if (scheme !== undefined) challenges.push(scheme);
  }
  return { status: response.statusCode ?? 0, challenges: challenges.slice(0, 5) };
}

/** Node's parser errors in the report's words: an answer too long for its bound, or not HTTP at all. */
function answerCode(code: string): string {
  if (code === 'HPE_HEADER_OVERFLOW') return 'PROXY_ANSWER_TOO_LONG';
  return code.startsWith('HPE_') ? 'PROXY_BAD_ANSWER' : code;
}
