// A real forwarding and CONNECT proxy on 127.0.0.1 (the `proxy` package, the
// one proxy-agent's own tests use) that records every request it received,
// optionally wants Basic authentication, and can refuse tunnels with a
// status. Names in `hosts` are resolved to 127.0.0.1 by the proxy itself, as a
// corporate proxy resolves names the client cannot: the client never looks
// them up. Any other target that is not loopback gets a 502, so nothing a
// test does can leave the machine.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ProxyVisit {
  /** CONNECT, or the method of a forwarded request. */
  readonly method: string;
  /** `host:port` for CONNECT, the absolute URL for a forwarded request. */
  readonly target: string;
  /** Lower-cased names of the headers the proxy saw. */
  readonly headerNames: readonly string[];
  /** Bytes of request body the proxy saw in the clear (always 0 for CONNECT: the tunnel is opaque). */
  readonly bodyBytes: number;
}

export interface RecordingProxyOptions {
  /** Require `Proxy-Authorization: Basic base64(user:password)`. */
  readonly credentials?: { readonly user: string; readonly password: string };
  /** Answer every CONNECT with this status instead of opening the tunnel (e.g. 502). */
  readonly refuseConnectWith?: number;
  /** Host names the proxy resolves to 127.0.0.1. */
  readonly hosts?: readonly string[];
}

export interface RecordingProxy {
  readonly port: number;
  readonly url: string;
  readonly visits: readonly ProxyVisit[];
  /** A proxy URL with the credentials in it (`http://user:password@127.0.0.1:port`). */
  urlWithCredentials(user: string, password: string): string;
  close(): Promise<void>;
}

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;
type ConnectListener = (req: IncomingMessage, socket: Socket, head: Buffer) => void;

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '[::1]' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export async function startRecordingProxy(options: RecordingProxyOptions = {}): Promise<RecordingProxy> {
  // The package is ESM-only; a dynamic import keeps this CommonJS test build working.
  const { createProxy } = await import('proxy');
  const visits: ProxyVisit[] = [];
  const hosts = new Set((options.hosts ?? []).map((host) => host.toLowerCase()));
  const sockets = new Set<Socket>();
  const server: Server = createServer();
  const proxy = createProxy(server);
  if (options.credentials !== undefined) {
    const expected = `Basic ${Buffer.from(`${options.credentials.user}:${options.credentials.password}`).toString('base64')}`;
    proxy.authenticate = (req) => req.headers['proxy-authorization'] === expected;
  }
  // Take the package's handlers and call them from ours, after recording and resolving.
  const [onRequest] = server.listeners('request') as RequestListener[];
  const [onConnect] = server.listeners('connect') as ConnectListener[];
  server.removeAllListeners('request');
  server.removeAllListeners('connect');
  if (onRequest === undefined || onConnect === undefined) throw new Error('proxy package: no handlers registered');

  /** host:port with a known name replaced by 127.0.0.1, or undefined when the target may not be reached. */
  const resolve = (host: string, port: string): string | undefined => {
    const name = host.toLowerCase();
    if (hosts.has(name)) return `127.0.0.1:${port}`;
    return isLoopback(name) ? `${host}:${port}` : undefined;
  };

  server.on('connect', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    const target = req.url ?? '';
    visits.push({ method: 'CONNECT', target, headerNames: Object.keys(req.headers), bodyBytes: 0 });
    const colon = target.lastIndexOf(':');
    const resolved = resolve(target.slice(0, colon), target.slice(colon + 1));
    const refuse = options.refuseConnectWith ?? (resolved === undefined ? 502 : undefined);
    if (refuse !== undefined) {
      socket.end(`HTTP/1.1 ${refuse} Refused by test proxy\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
      return;
    }
    req.url = resolved;
    onConnect.call(server, req, socket, head);
  });

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const target = req.url ?? '';
    const visit = { method: req.method ?? '', target, headerNames: Object.keys(req.headers), bodyBytes: 0 };
    visits.push(visit);
    req.on('data', (chunk: Buffer) => {
      visit.bodyBytes += chunk.length;
    });
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      res.writeHead(400).end();
      return;
    }
    const resolved = resolve(url.hostname, url.port === '' ? '80' : url.port);
    if (resolved === undefined) {
      res.writeHead(502).end();
      return;
    }
    req.url = `http://${resolved}${url.pathname}${url.search}`;
    onRequest.call(server, req, res);
  });

  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    visits,
    urlWithCredentials: (user, password) => `http://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((done) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => {
          done();
        });
      }),
  };
}
