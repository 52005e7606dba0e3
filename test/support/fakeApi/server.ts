// The loopback HTTP server: records each request, routes it to an endpoint,
// and lets the fault engine delay, trickle, replace or drop the answer.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { EndpointContext, Handler } from './context';
import { LoadGate, NO_LOAD_LIMITS, type LoadStats } from './capacity';
import { defaultData } from './data';
import { EVENTS_PATH, handleEvents } from './eventsEndpoint';
import { FaultEngine, type FaultPlan } from './faults';
import { faultReply } from './faultReplies';
import { handleMachine, MACHINES_PREFIX } from './machinesEndpoint';
import { errorReply, jsonReply, type Reply } from './reply';
import { handleToken, TOKEN_PATH } from './tokenEndpoint';
import { TokenStore } from './tokens';
import type { FakeApi, FakeApiConfig, FakeApiData, FakeApiOptions, FaultEndpoint, RecordedRequest } from './types';

export const DEFAULT_CONFIG: Readonly<FakeApiConfig> = {
  order: 'asc',
  envelope: 'plain',
  timestampFilter: 'after-inclusive',
  contentType: 'application/json',
  tokenLifetimeSeconds: 3600,
  unknownSerial: 'empty',
  noPermissionStatus: 403,
  latencyMs: 0,
  cursorDefaultLimit: 20,
  ...NO_LOAD_LIMITS,
};

/** Copies only configuration keys, so options like `port` or `data` never end up in the config. */
function applyConfig(target: FakeApiConfig, patch: Partial<FakeApiConfig>): FakeApiConfig {
  for (const key of Object.keys(DEFAULT_CONFIG) as (keyof FakeApiConfig)[]) {
    if (patch[key] !== undefined) {
      Object.assign(target, { [key]: patch[key] });
    }
  }
  return target;
}

function endpointOf(path: string): FaultEndpoint {
  if (path === TOKEN_PATH) {
    return 'token';
  }
  if (path === EVENTS_PATH) {
    return 'events';
  }
  return path.startsWith(MACHINES_PREFIX) ? 'machines' : 'other';
}

function record(req: IncomingMessage, body: string): RecordedRequest {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    }
  }
  return {
    method: req.method ?? 'GET',
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers,
    body,
    at: Date.now(),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', reject);
  });
}

class FakeApiServer implements FakeApi {
  readonly requests: RecordedRequest[] = [];
  private readonly tokens = new TokenStore();
  private readonly faults: FaultEngine;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly live: FakeApiConfig;
  private readonly gate = new LoadGate(() => this.live);
  private readonly server: Server;
  private listeningPort = 0;
  private closed = false;
  private readonly holds = new Map<string, { readonly count: number; readonly waiting: (() => void)[] }>();

  constructor(
    private readonly data: FakeApiData,
    config: FakeApiConfig,
    private readonly foreignOrigin: boolean,
    private readonly tls: FakeApiOptions['tls'],
  ) {
    this.live = config;
    const onRequest = (req: IncomingMessage, res: ServerResponse): void => void this.onRequest(req, res);
    // https.Server is an http.Server with TLS in front: everything below works on either.
    this.server = tls === undefined ? createServer(onRequest) : createTlsServer({ key: tls.key, cert: tls.cert }, onRequest);
    this.faults = new FaultEngine(data.permanentFaults ?? []);
  }

  get port(): number {
    return this.listeningPort;
  }
  get baseUrl(): string {
    return `${this.tls === undefined ? 'http' : 'https'}://127.0.0.1:${this.listeningPort}`;
  }
  get authUrl(): string {
    return `${this.baseUrl}/oauth`;
  }
  get config(): Readonly<FakeApiConfig> {
    return { ...this.live };
  }

  listen(port: number): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      // Loopback only: the fake must never be reachable from elsewhere.
      this.server.listen(port, '127.0.0.1', () => {
        this.listeningPort = (this.server.address() as AddressInfo).port;
        this.server.off('error', reject);
        resolve();
      });
    });
  }

  holdEventRequests(serial: string, count: number, timeoutMs: number): void {
    const hold = { count: Math.max(1, count), waiting: [] as (() => void)[] };
    this.holds.set(serial, hold);
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        this.release(serial, hold);
      },
      Math.max(0, timeoutMs),
    );
    this.timers.add(timer);
  }

  private release(serial: string, hold: { readonly waiting: (() => void)[] }): void {
    if (this.holds.get(serial) === hold) this.holds.delete(serial);
    for (const answer of hold.waiting.splice(0)) answer();
  }

  /** Resolves when the request may be answered: at once, or when its hold is released. */
  private held(endpoint: FaultEndpoint, serial: string | undefined): Promise<void> {
    const hold = endpoint === 'events' && serial !== undefined ? this.holds.get(serial) : undefined;
    if (hold === undefined) return Promise.resolve();
    return new Promise((resolve) => {
      hold.waiting.push(resolve);
      if (hold.waiting.length >= hold.count) this.release(serial ?? '', hold);
    });
  }

  addFault(fault: Parameters<FakeApi['addFault']>[0]): void {
    this.faults.add(fault);
  }
  clearFaults(): void {
    this.faults.clear();
  }
  setLatency(ms: number): void {
    this.live.latencyMs = ms;
  }
  configure(patch: Partial<FakeApiConfig>): void {
    applyConfig(this.live, patch);
  }
  revokeAllTokens(): void {
    this.tokens.revokeAll();
  }
  setPassword(username: string, password: string): void {
    const user = this.data.users.find((u) => u.username === username);
    if (user === undefined) {
      throw new Error(`fake API: no user ${username}`);
    }
    user.password = password;
  }
  removeUser(username: string): void {
    this.data.users = this.data.users.filter((u) => u.username !== username);
    this.tokens.revokeUser(username);
  }
  addUser(user: FakeApiData['users'][number]): void {
    this.data.users.push({ ...user });
  }
  setMachineEvents(serial: string, events: unknown[]): void {
    this.data.machines[serial] = [...events];
  }
  addEvent(serial: string, event: unknown): void {
    (this.data.machines[serial] ??= []).push(event);
  }
  clearRequests(): void {
    this.requests.length = 0;
  }
  tokenRequests(): RecordedRequest[] {
    return this.requests.filter((r) => r.path === TOKEN_PATH);
  }
  eventRequests(serial?: string): RecordedRequest[] {
    return this.requests.filter((r) => r.path === EVENTS_PATH && (serial === undefined || r.query['serialNumber'] === serial));
  }
  loadStats(): LoadStats {
    return this.gate.stats();
  }
  resetLoadStats(): void {
    this.gate.resetStats();
  }
  receivedAuthorization(): boolean {
    return this.requests.some((r) => r.headers['authorization'] !== undefined);
  }

  close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) {
      clearTimeout(timer);
    }
    this.timers.clear();
    return new Promise((resolve) => {
      this.server.close(() => {
        resolve();
      });
      // Keep-alive and trickling connections would otherwise hold close() open.
      this.server.closeAllConnections();
    });
  }

  /** A delay that close() cancels, so no timer outlives the server. */
  private sleep(ms: number): Promise<void> {
    if (ms <= 0) {
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        resolve();
      }, ms);
      this.timers.add(timer);
    });
  }

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const request = record(req, await readBody(req));
      this.requests.push(request);
      const endpoint = endpointOf(request.path);
      const plan = this.faults.plan({ endpoint, serialNumber: request.query['serialNumber'] });
      await this.held(endpoint, request.query['serialNumber']);
      // Capacity and rate limit first: a request the server cannot take is refused at once.
      const admission = await this.gate.admit();
      if (admission.kind === 'rejected') {
        const reply = errorReply(429, 'Too many requests; retry later.', request.path, this.baseUrl);
        res.writeHead(reply.status, { ...reply.headers, 'retry-after': admission.retryAfter }).end(reply.body);
        return;
      }
      try {
        await this.sleep(this.live.latencyMs + plan.latencyMs);
        if (this.closed || res.destroyed) {
          return;
        }
        await this.answer(request, endpoint, plan, res);
      } finally {
        admission.release();
      }
    } catch (error: unknown) {
      if (!res.headersSent && !res.destroyed) {
        res.writeHead(500, { 'content-type': 'text/plain' }).end(`fake API bug: ${String(error)}`);
      }
    }
  }

  private async answer(request: RecordedRequest, endpoint: FaultEndpoint, plan: FaultPlan, res: ServerResponse): Promise<void> {
    const terminal = plan.terminal;
    if (terminal?.kind === 'reset') {
      // resetAndDestroy sends a TCP RST, which the client sees as ECONNRESET.
      res.socket?.resetAndDestroy();
      return;
    }
    if (terminal?.kind === 'hugeBody') {
      await this.sendHuge(res, terminal.bytes, terminal.chunked === true);
      return;
    }
    const context: EndpointContext = {
      request,
      config: this.live,
      data: this.data,
      tokens: this.tokens,
      baseUrl: this.baseUrl,
      envelope: plan.envelope ?? this.live.envelope,
    };
    const reply: Reply = terminal !== undefined ? faultReply(terminal, request.path, this.baseUrl) : this.route(endpoint)(context);
    if (plan.slowBody !== undefined) {
      await this.sendSlowly(res, reply, plan.slowBody.chunkBytes ?? 1, plan.slowBody.delayMs);
    } else {
      res.writeHead(reply.status, reply.headers).end(reply.body);
    }
  }

  private route(endpoint: FaultEndpoint): Handler {
    if (this.foreignOrigin) {
      return (context) =>
        context.request.method === 'GET'
          ? jsonReply(200, { origin: 'foreign', path: context.request.path }, context.baseUrl, 'application/hal+json')
          : errorReply(405, 'Use GET.', context.request.path, context.baseUrl);
    }
    switch (endpoint) {
      case 'token':
        return handleToken;
      case 'events':
        return handleEvents;
      case 'machines':
        return handleMachine;
      case 'other':
        return (context) => errorReply(404, 'No such resource.', context.request.path, context.baseUrl);
    }
  }

  private async sendSlowly(res: ServerResponse, reply: Reply, chunkBytes: number, delayMs: number): Promise<void> {
    const body = Buffer.from(reply.body);
    res.writeHead(reply.status, { ...reply.headers, 'content-length': String(body.length) });
    for (let offset = 0; offset < body.length; offset += chunkBytes) {
      if (this.closed || res.destroyed) {
        return;
      }
      res.write(body.subarray(offset, offset + chunkBytes));
      await this.sleep(delayMs);
    }
    res.end();
  }

  /** Valid JSON of exactly `bytes` bytes (or the minimum wrapper), streamed with back-pressure. */
  private async sendHuge(res: ServerResponse, bytes: number, chunked: boolean): Promise<void> {
    const head = Buffer.from('{"events":[],"padding":"');
    const tail = Buffer.from('"}');
    let padding = Math.max(0, bytes - head.length - tail.length);
    res.writeHead(200, {
      'content-type': 'application/json',
      // Node sends Transfer-Encoding: chunked when no length is set.
      ...(chunked ? {} : { 'content-length': String(head.length + padding + tail.length) }),
    });
    res.write(head);
    const block = Buffer.alloc(64 * 1024, 'x');
    while (padding > 0) {
      if (this.closed || res.destroyed) {
        return;
      }
      const chunk = padding >= block.length ? block : block.subarray(0, padding);
      padding -= chunk.length;
      if (!res.write(chunk)) {
        await new Promise<void>((resolve) => {
          const done = (): void => {
            res.off('drain', done);
            res.off('close', done);
            resolve();
          };
          res.on('drain', done);
          res.on('close', done);
        });
      }
    }
    res.end(tail);
  }
}

export async function startFakeApi(options: FakeApiOptions = {}): Promise<FakeApi> {
  // A deep copy, so mutations of one fake never leak into another or into the caller's data.
  const data = structuredClone(options.data ?? defaultData());
  const server = new FakeApiServer(data, applyConfig({ ...DEFAULT_CONFIG }, options), options.foreignOrigin === true, options.tls);
  await server.listen(options.port ?? 0);
  return server;
}

/** A second origin for tests of HAL-link following: records whether a token leaked to it. */
export function startForeignOrigin(options: Omit<FakeApiOptions, 'foreignOrigin'> = {}): Promise<FakeApi> {
  return startFakeApi({ ...options, foreignOrigin: true });
}
