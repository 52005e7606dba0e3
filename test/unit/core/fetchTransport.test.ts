// The fetch transport (the engine inside VS Code) against small servers on
// 127.0.0.1, over Node's own global fetch: what it sends and hands back, the
// size cap, the three deadlines, cancellation and closing, and how fetch's
// errors become our failure names. And the engine choice per request
// (networkPath.ts) with a fetch that records what it was asked.

import * as assert from 'node:assert/strict';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { createFetchTransport } from '../../../src/core/client/http/fetchTransport';
import { networkPathFor } from '../../../src/core/client/http/networkPath';
import type { Transport } from '../../../src/core/client/http/transport';
import { createTransport } from '../../../src/core/client/http/undiciTransport';
import { errorForTransportFailure } from '../../../src/core/client/errors';
import { testPki } from '../../support/network/testPki';
import { getRequest, transportFailureOf, transportOptions } from './transportRequests';

interface Started {
  readonly port: number;
  readonly received: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[];
  /** Sockets the server saw closed by the client. */
  readonly closedByClient: () => number;
  close(): Promise<void>;
}

async function listen(server: Server, received: Started['received'] = []): Promise<Started> {
  const sockets = new Set<Socket>();
  let closed = 0;
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => {
      closed++;
      sockets.delete(socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    received,
    closedByClient: () => closed,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => {
          resolve();
        });
      }),
  };
}

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Started> {
  const received: Started['received'] = [];
  const server = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() });
      handler(req, res);
    });
  });
  return listen(server, received);
}

const text = (body: Uint8Array): string => Buffer.from(body).toString();
const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('fetch transport (the engine inside VS Code), over a real fetch', function () {
  this.timeout(15_000);
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
  });
  const started = async (handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Started> => {
    const server = await serve(handler);
    cleanups.push(() => server.close());
    return server;
  };
  const transport = (): Transport => {
    const created = createFetchTransport({ fetch: globalThis.fetch });
    cleanups.push(() => created.close());
    return created;
  };

  it('sends the method, headers and body, and hands back the status, lower-cased headers and the body', async () => {
    const server = await started((_req, res) => {
      res.writeHead(201, { 'Content-Type': 'application/json', 'X-Twice': ['a', 'b'] });
      res.end('{"ok":true}');
    });
    const response = await transport().request(
      getRequest(`http://127.0.0.1:${server.port}/oauth/token?x=1`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: 'grant_type=password',
      }),
    );
    assert.equal(response.status, 201);
    assert.equal(response.headers['content-type'], 'application/json');
    assert.equal(response.headers['x-twice'], 'a, b');
    assert.equal(text(response.body), '{"ok":true}');
    const [request] = server.received;
    assert.equal(request?.method, 'POST');
    assert.equal(request.url, '/oauth/token?x=1');
    assert.equal(request.body, 'grant_type=password');
    assert.equal(request.headers['content-type'], 'application/x-www-form-urlencoded');
    assert.equal(request.headers.accept, 'application/json');
  });

  it('hands a redirect back instead of following it with our headers', async () => {
    const server = await started((_req, res) => {
      res.writeHead(302, { Location: 'http://127.0.0.1:9/elsewhere' });
      res.end();
    });
    const response = await transport().request(getRequest(`http://127.0.0.1:${server.port}/`, { headers: { authorization: 'Bearer t' } }));
    assert.equal(response.status, 302);
    assert.equal(response.headers['location'], 'http://127.0.0.1:9/elsewhere');
    assert.equal(server.received.length, 1);
  });

  it('refuses an answer that announces more than maxBytes, before reading it', async () => {
    const server = await started((_req, res) => {
      res.writeHead(200, { 'Content-Length': 5000 });
      res.end('x'.repeat(5000));
    });
    const error = await transportFailureOf(transport().request(getRequest(`http://127.0.0.1:${server.port}/`, { maxBytes: 1024 })));
    assert.deepEqual([error.failure, error.code], ['too-large', 'RESPONSE_TOO_LARGE']);
  });

  it('stops reading a streamed answer as soon as it passes maxBytes, and lets the connection go', async () => {
    let written = 0;
    const server = await started((_req, res) => {
      res.writeHead(200);
      const timer = setInterval(() => {
        written += 512;
        res.write('y'.repeat(512));
      }, 5);
      res.on('close', () => {
        clearInterval(timer);
      });
    });
    const error = await transportFailureOf(transport().request(getRequest(`http://127.0.0.1:${server.port}/`, { maxBytes: 2048 })));
    assert.deepEqual([error.failure, error.code], ['too-large', 'RESPONSE_TOO_LARGE']);
    const at = written;
    await delay(100);
    assert.ok(written - at <= 512, `the server kept writing after the cap: ${written - at} more bytes`);
    assert.ok(at < 64 * 1024, `read ${at} bytes for a cap of 2048`);
  });

  it('reads an answer of exactly maxBytes', async () => {
    const server = await started((_req, res) => res.end('z'.repeat(1024)));
    const response = await transport().request(getRequest(`http://127.0.0.1:${server.port}/`, { maxBytes: 1024 }));
    assert.equal(response.body.byteLength, 1024);
  });

  it('gives up when the headers do not arrive within headersMs', async () => {
    const server = await started(() => undefined);
    const error = await transportFailureOf(
      transport().request(getRequest(`http://127.0.0.1:${server.port}/`, { timeouts: { headersMs: 150, bodyMs: 5_000, totalMs: 5_000 } })),
    );
    assert.deepEqual([error.failure, error.code], ['headers-timeout', 'UND_ERR_HEADERS_TIMEOUT']);
  });

  it('gives up on a body that pauses longer than bodyMs between chunks', async () => {
    const server = await started((_req, res) => {
      res.writeHead(200);
      res.write('first');
    });
    const begun = performance.now();
    const error = await transportFailureOf(
      transport().request(getRequest(`http://127.0.0.1:${server.port}/`, { timeouts: { headersMs: 5_000, bodyMs: 150, totalMs: 5_000 } })),
    );
    assert.deepEqual([error.failure, error.code], ['body-timeout', 'UND_ERR_BODY_TIMEOUT']);
    // At the pause deadline, not at the later headers or total one.
    const took = performance.now() - begun;
    assert.ok(took < 2_000, `gave up after ${Math.round(took)} ms for a bodyMs of 150`);
  });

  it('reads a body whose chunks each come within bodyMs, though the whole takes several bodyMs', async () => {
    const server = await started((_req, res) => {
      res.writeHead(200);
      let sent = 0;
      const timer = setInterval(() => {
        res.write(String(sent));
        if (++sent === 6) {
          clearInterval(timer);
          res.end();
        }
      }, 100);
      res.on('close', () => {
        clearInterval(timer);
      });
    });
    const response = await transport().request(
      getRequest(`http://127.0.0.1:${server.port}/`, { timeouts: { headersMs: 5_000, bodyMs: 400, totalMs: 5_000 } }),
    );
    assert.equal(text(response.body), '012345');
  });

  it('gives up on a body that trickles past totalMs, though each chunk is in time', async () => {
    const server = await started((_req, res) => {
      res.writeHead(200);
      const timer = setInterval(() => res.write('.'), 40);
      res.on('close', () => {
        clearInterval(timer);
      });
    });
    const error = await transportFailureOf(
      transport().request(getRequest(`http://127.0.0.1:${server.port}/`, { timeouts: { headersMs: 5_000, bodyMs: 200, totalMs: 300 } })),
    );
    assert.deepEqual([error.failure, error.code], ['total-timeout', 'TOTAL_TIMEOUT']);
  });

  it("stops at the caller's cancel, before and during the request", async () => {
    const server = await started(() => undefined);
    const already = new AbortController();
    already.abort();
    const before = await transportFailureOf(
      transport().request(getRequest(`http://127.0.0.1:${server.port}/`, { signal: already.signal })),
    );
    assert.deepEqual([before.failure, before.code], ['aborted', 'ABORT_ERR']);
    const cancel = new AbortController();
    const pending = transport().request(getRequest(`http://127.0.0.1:${server.port}/`, { signal: cancel.signal }));
    setTimeout(() => {
      cancel.abort();
    }, 50);
    const during = await transportFailureOf(pending);
    assert.equal(during.failure, 'aborted');
  });

  it('close() ends the requests in flight and refuses new ones', async () => {
    const server = await started(() => undefined);
    const closing = createFetchTransport({ fetch: globalThis.fetch });
    const pending = closing.request(getRequest(`http://127.0.0.1:${server.port}/`));
    await delay(50);
    await closing.close();
    const error = await transportFailureOf(pending);
    assert.deepEqual([error.failure, error.code], ['aborted', 'TRANSPORT_CLOSED']);
    const after = await transportFailureOf(closing.request(getRequest(`http://127.0.0.1:${server.port}/`)));
    assert.deepEqual([after.failure, after.code], ['aborted', 'TRANSPORT_CLOSED']);
  });

  it('names a refused connection by its code', async () => {
    const closed = createNetServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const error = await transportFailureOf(transport().request(getRequest(`http://127.0.0.1:${port}/`)));
    assert.deepEqual([error.failure, error.code], ['connection-refused', 'ECONNREFUSED']);
  });

  it('names a certificate no trusted CA issued by its OpenSSL code', async () => {
    const pki = testPki();
    const server = await listen(createHttpsServer({ key: pki.selfSigned.key, cert: pki.selfSigned.cert }, (_req, res) => res.end('no')));
    cleanups.push(() => server.close());
    const error = await transportFailureOf(transport().request(getRequest(`https://127.0.0.1:${server.port}/`)));
    assert.equal(error.failure, 'untrusted-certificate');
    assert.equal(error.code, 'DEPTH_ZERO_SELF_SIGNED_CERT');
  });

  it("names a URL fetch will not call (its 'bad port' list) as an invalid URL", async () => {
    const error = await transportFailureOf(transport().request(getRequest('http://127.0.0.1:6000/')));
    assert.deepEqual([error.failure, error.code], ['invalid-url', 'ERR_FETCH_BAD_PORT']);
  });
});

describe('fetch transport: what VS Code’s patched fetch reports', () => {
  /** A fetch that fails as the extension host's does: TypeError('fetch failed') with the cause. */
  const failingWith =
    (cause: Error): typeof globalThis.fetch =>
    () =>
      Promise.reject(new TypeError('fetch failed', { cause }));

  it("VS Code's 407 from its proxy agent is a proxy-authentication failure naming the proxy our settings give", async () => {
    const transport = createFetchTransport({
      fetch: failingWith(new Error('Proxy response (407) ?.== 200 when HTTP Tunneling')),
      proxyFor: () => ({ proxyHost: 'proxy.plant.test:3128', proxyCredentialsSent: false }),
    });
    const error = await transportFailureOf(transport.request(getRequest('https://api.plant.test/v1/x')));
    assert.deepEqual([error.failure, error.code, error.context.proxyHost], ['proxy-auth-required', 'PROXY_407', 'proxy.plant.test:3128']);
    assert.match(
      errorForTransportFailure(error, 'GET', 'https://api.plant.test/v1/x', 30_000).message,
      /^The proxy proxy\.plant\.test:3128 requires authentication/,
    );
  });

  it('a 407 of a proxy VS Code found by itself (system settings, PAC) is still the proxy asking for credentials', async () => {
    const transport = createFetchTransport({
      fetch: failingWith(Object.assign(new Error('Proxy response (407) ?.== 200 when HTTP Tunneling'), { code: 'UND_ERR_ABORTED' })),
    });
    const error = await transportFailureOf(transport.request(getRequest('https://api.plant.test/v1/x')));
    assert.deepEqual([error.failure, error.code], ['proxy-auth-required', 'PROXY_407']);
    assert.match(
      errorForTransportFailure(error, 'GET', 'https://api.plant.test/v1/x', 30_000).message,
      /^The proxy VS Code uses \(from the system settings or a PAC file\) requires authentication \(HTTP 407\)/,
    );
  });

  it('a refused connection to the proxy is the proxy being unreachable', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:3128'), { code: 'ECONNREFUSED' });
    const transport = createFetchTransport({ fetch: failingWith(refused), proxyFor: () => ({ proxyHost: 'proxy.plant.test:3128' }) });
    const error = await transportFailureOf(transport.request(getRequest('https://api.plant.test/v1/x')));
    assert.deepEqual([error.failure, error.code], ['proxy-unreachable', 'ECONNREFUSED']);
  });

  it("an https proxy's name mismatch (undici's UND_ERR_PRX_TLS) is the proxy's certificate", async () => {
    const altname = Object.assign(new Error('altname'), { code: 'ERR_TLS_CERT_ALTNAME_INVALID' });
    const wrapped = Object.assign(new Error('secure proxy connection'), { code: 'UND_ERR_PRX_TLS', cause: altname });
    const transport = createFetchTransport({ fetch: failingWith(wrapped), proxyFor: () => ({ proxyHost: 'proxy.plant.test:3129' }) });
    const error = await transportFailureOf(transport.request(getRequest('https://api.plant.test/v1/x')));
    assert.deepEqual([error.failure, error.code], ['proxy-certificate', 'ERR_TLS_CERT_ALTNAME_INVALID']);
  });

  it('hands the dispatcher to fetch with every request', async () => {
    const seen: unknown[] = [];
    const dispatcher = { name: 'ca-agent' };
    const transport = createFetchTransport({
      fetch: (_input, init) => {
        seen.push((init as { dispatcher?: unknown } | undefined)?.dispatcher);
        return Promise.resolve(new Response('ok'));
      },
      dispatcher: () => Promise.resolve(dispatcher),
    });
    await transport.request(getRequest('https://api.plant.test/a'));
    await transport.request(getRequest('https://api.plant.test/b'));
    assert.deepEqual(seen, [dispatcher, dispatcher]);
  });
});

describe('network path: which engine carries a request, and why', () => {
  const vscode = { engine: 'vscode' as const, env: {} };

  it('outside VS Code: undici, with the proxy it uses', () => {
    assert.deepEqual(
      networkPathFor(new URL('https://api.plant.test/'), { engine: 'undici', env: { HTTPS_PROXY: 'http://u:p@proxy:3128' } }),
      {
        engine: 'undici',
        reason: 'outside-vscode',
        proxy: { host: 'proxy:3128', source: 'environment', credentials: true },
      },
    );
  });

  it("inside VS Code: VS Code's stack, naming the proxy http.proxy gives (without credentials)", () => {
    assert.deepEqual(networkPathFor(new URL('https://api.plant.test/'), { ...vscode, proxy: 'proxy.plant.test:3128' }), {
      engine: 'vscode',
      reason: 'vscode',
      proxy: { host: 'proxy.plant.test:3128', source: 'setting', credentials: false },
    });
    assert.deepEqual(networkPathFor(new URL('https://api.plant.test/'), vscode), { engine: 'vscode', reason: 'vscode' });
  });

  it('loopback goes straight with undici, even with a proxy set', () => {
    for (const url of ['http://127.0.0.1:8080/', 'https://localhost/', 'http://[::1]:1/']) {
      assert.deepEqual(
        networkPathFor(new URL(url), { ...vscode, proxy: 'http://proxy:3128' }),
        { engine: 'undici', reason: 'loopback' },
        url,
      );
    }
  });

  it('http.proxyStrictSSL off: undici, which applies it', () => {
    assert.equal(networkPathFor(new URL('https://api.plant.test/'), { ...vscode, proxyStrictSSL: false }).reason, 'strict-ssl-off');
  });

  it("http.proxyAuthorization with a named proxy: undici, which sends the header VS Code's path drops; without a proxy, VS Code's stack", () => {
    const withHeader = { ...vscode, proxyAuthorization: 'Basic cGxhbnQ6c2VjcmV0' };
    assert.deepEqual(networkPathFor(new URL('https://api.plant.test/'), { ...withHeader, proxy: 'http://proxy.plant.test:3128' }), {
      engine: 'undici',
      reason: 'proxy-authorization',
      proxy: { host: 'proxy.plant.test:3128', source: 'setting', credentials: true },
    });
    assert.deepEqual(networkPathFor(new URL('https://api.plant.test/'), withHeader), { engine: 'vscode', reason: 'vscode' });
  });

  it('createTransport sends a remote request to the fetch, a loopback one to undici', async () => {
    const asked: string[] = [];
    const server = await serve((_req, res) => res.end('local'));
    const transport = createTransport(
      transportOptions({
        engine: 'vscode',
        proxy: 'http://127.0.0.1:9',
        fetch: (input) => {
          asked.push(input instanceof Request ? input.url : input.toString());
          return Promise.resolve(new Response('remote'));
        },
      }),
    );
    try {
      assert.equal(text((await transport.request(getRequest('https://api.plant.test/v1/x'))).body), 'remote');
      assert.equal(text((await transport.request(getRequest(`http://127.0.0.1:${server.port}/`))).body), 'local');
      assert.deepEqual(asked, ['https://api.plant.test/v1/x']);
      assert.equal(server.received.length, 1);
    } finally {
      await transport.close();
      await server.close();
    }
  });
});
