// The undici transport on its own, against small servers on 127.0.0.1 that
// misbehave on demand: what it sends, what it hands back, the size cap, the
// deadlines, cancellation, closing, and the routes (plain, TLS, proxy).

import * as assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TransportOptions } from '../../../src/core/client/http/transport';
import { createUndiciTransport } from '../../../src/core/client/http/undiciTransport';
import { getRequest, transportFailureOf, transportOptions, TIMEOUTS } from './transportRequests';
import { loopbackLookup } from '../../support/network/loopbackLookup';
import { startRecordingProxy, type RecordingProxy } from '../../support/network/recordingProxy';
import { PLANT_HOST, testPki } from '../../support/network/testPki';

interface Received {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

interface TestServer {
  readonly port: number;
  readonly received: Received[];
  /** TCP connections accepted so far. */
  readonly connections: () => number;
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** Starts `server` on 127.0.0.1 and records what reaches it; closing also drops open sockets. */
async function listen(server: Server | ReturnType<typeof createNetServer>, received: Received[] = []): Promise<TestServer> {
  const sockets = new Set<Socket>();
  let connections = 0;
  server.on('connection', (socket: Socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    received,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => {
          resolve();
        });
      }),
  };
}

/** Records each request (with its body), then lets `handler` answer. */
function recording(received: Received[], handler: Handler): Handler {
  return (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() });
      handler(req, res);
    });
  };
}

async function startHttp(handler: Handler): Promise<TestServer> {
  const received: Received[] = [];
  return listen(createHttpServer(recording(received, handler)), received);
}

const text = (body: Uint8Array): string => Buffer.from(body).toString();

describe('undici transport', function () {
  this.timeout(15_000);
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  const transportWith = (extra: Partial<TransportOptions> = {}) => {
    const transport = createUndiciTransport(transportOptions(extra));
    cleanups.push(() => transport.close());
    return transport;
  };
  const serve = async (handler: Handler): Promise<TestServer> => {
    const server = await startHttp(handler);
    cleanups.push(() => server.close());
    return server;
  };

  describe('what it sends and hands back', () => {
    it('sends the method, path with query, headers and body, and returns status, headers and body', async () => {
      const server = await serve((_req, res) => {
        res.setHeader('X-Repeated', ['one', 'two']);
        res.setHeader('Content-Type', 'text/plain');
        res.writeHead(201).end('created');
      });
      const response = await transportWith().request({
        ...getRequest(`http://127.0.0.1:${server.port}/a/b?serial=1&x=%20`),
        method: 'POST',
        headers: { 'X-Client': 'test', 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=password',
      });
      assert.equal(response.status, 201);
      assert.equal(text(response.body), 'created');
      assert.equal(response.headers['x-repeated'], 'one, two');
      assert.equal(response.headers['content-type'], 'text/plain');
      const [received] = server.received;
      assert.equal(received?.method, 'POST');
      assert.equal(received.url, '/a/b?serial=1&x=%20');
      assert.equal(received.headers['x-client'], 'test');
      assert.equal(received.body, 'grant_type=password');
    });

    it('sends a GET without a body', async () => {
      const server = await serve((_req, res) => res.end());
      const response = await transportWith().request(getRequest(`http://127.0.0.1:${server.port}/`));
      assert.equal(response.status, 200);
      assert.equal(response.body.length, 0);
      assert.equal(server.received[0]?.headers['content-length'], undefined);
      assert.equal(server.received[0]?.headers['transfer-encoding'], undefined);
    });

    it('refuses an address that is not a URL, sending nothing', async () => {
      const error = await transportFailureOf(transportWith().request(getRequest('not a url')));
      assert.deepEqual([error.failure, error.code], ['invalid-url', 'ERR_INVALID_URL']);
    });

    it('resolves host names with the injected lookup, also for plain http', async () => {
      const server = await serve((_req, res) => res.end('ok'));
      const lookup = loopbackLookup(['api.plant.test']);
      const response = await transportWith({ lookup }).request(getRequest(`http://api.plant.test:${server.port}/`));
      assert.equal(text(response.body), 'ok');
      assert.ok(lookup.asked.includes('api.plant.test'));
    });

    it('reads no certificate store for plain http to the loopback: a CA file that cannot be used does not stop it', async () => {
      const server = await serve((_req, res) => res.end('ok'));
      const transport = transportWith({ caCertificatesFile: join(tmpdir(), 'oe-no-such-ca-file.pem') });
      const response = await transport.request(getRequest(`http://127.0.0.1:${server.port}/`));
      assert.equal(text(response.body), 'ok');
      const error = await transportFailureOf(transport.request(getRequest(`https://127.0.0.1:${server.port}/`)));
      assert.deepEqual([error.failure, error.code], ['ca-file', 'ENOENT']);
    });

    it('opens at most connectionsPerOrigin sockets to one origin', async () => {
      const server = await serve((_req, res) => setTimeout(() => res.end('ok'), 20));
      const transport = transportWith({ connectionsPerOrigin: 1 });
      const url = `http://127.0.0.1:${server.port}/`;
      await Promise.all([transport.request(getRequest(url)), transport.request(getRequest(url)), transport.request(getRequest(url))]);
      assert.equal(server.received.length, 3);
      assert.equal(server.connections(), 1);
    });

    it('a request sent as soon as the previous answer was read goes over the same connection (a token, then the events)', async () => {
      const server = await serve((_req, res) => res.end('ok'));
      const transport = transportWith();
      const origin = `http://127.0.0.1:${server.port}`;
      await transport.request({ ...getRequest(`${origin}/oauth/token`), method: 'POST', body: 'grant_type=password' });
      await transport.request(getRequest(`${origin}/public/api/onboarding-events/events?serialNumber=1`));
      assert.equal(server.received.length, 2);
      assert.equal(server.connections(), 1, 'TCP connections for two requests in a row to one origin');
    });
  });

  describe('size cap', () => {
    it('refuses a body announced larger than the cap before reading it', async () => {
      // Announces 2 KiB, sends 10 bytes and then nothing: only an early refusal ends this before the deadline.
      const server = await serve((_req, res) => {
        res.writeHead(200, { 'Content-Length': '2048' });
        res.write('0123456789');
      });
      const error = await transportFailureOf(
        transportWith().request(getRequest(`http://127.0.0.1:${server.port}/`, { timeouts: { ...TIMEOUTS, totalMs: 3_000 } })),
      );
      assert.deepEqual([error.failure, error.code], ['too-large', 'RESPONSE_TOO_LARGE']);
    });

    it('reads a body announced at exactly the cap', async () => {
      const server = await serve((_req, res) => res.end('x'.repeat(1024)));
      const response = await transportWith().request(getRequest(`http://127.0.0.1:${server.port}/`));
      assert.equal(response.body.length, 1024);
    });

    it('reads a streamed body of exactly the cap and refuses one byte more', async () => {
      let size = 1024;
      const server = await serve((_req, res) => {
        res.write('x'.repeat(size - 1));
        setTimeout(() => res.end('y'), 10);
      });
      const transport = transportWith();
      const url = `http://127.0.0.1:${server.port}/`;
      const response = await transport.request(getRequest(url));
      assert.equal(text(response.body), `${'x'.repeat(1023)}y`);
      size = 1025;
      const error = await transportFailureOf(transport.request(getRequest(url)));
      assert.deepEqual([error.failure, error.code], ['too-large', 'RESPONSE_TOO_LARGE']);
    });

    it('refuses a streamed body that runs past the cap while more is still coming, leaving no error unhandled', async () => {
      const server = await serve((_req, res) => {
        res.writeHead(200);
        res.write('x'.repeat(2048));
        const timer = setInterval(() => res.write('.'), 10);
        res.on('close', () => {
          clearInterval(timer);
        });
      });
      const error = await transportFailureOf(transportWith().request(getRequest(`http://127.0.0.1:${server.port}/`)));
      assert.deepEqual([error.failure, error.code], ['too-large', 'RESPONSE_TOO_LARGE']);
    });
  });

  describe('deadlines and cancellation', () => {
    it('our own deadline ends a body that keeps trickling in: total-timeout', async () => {
      const server = await serve((_req, res) => {
        res.writeHead(200);
        const timer = setInterval(() => res.write('.'), 20);
        res.on('close', () => {
          clearInterval(timer);
        });
      });
      const error = await transportFailureOf(
        transportWith().request(getRequest(`http://127.0.0.1:${server.port}/`, { timeouts: { ...TIMEOUTS, totalMs: 200 } })),
      );
      assert.deepEqual([error.failure, error.code], ['total-timeout', 'TOTAL_TIMEOUT']);
    });

    it('an already cancelled signal sends nothing', async () => {
      const server = await serve((_req, res) => res.end());
      const controller = new AbortController();
      controller.abort();
      const error = await transportFailureOf(
        transportWith().request(getRequest(`http://127.0.0.1:${server.port}/`, { signal: controller.signal })),
      );
      assert.deepEqual([error.failure, error.code], ['aborted', 'ABORT_ERR']);
      assert.equal(server.connections(), 0);
    });

    it('cancelling while waiting for the answer aborts the request: aborted, not a timeout', async () => {
      let arrived: () => void = () => undefined;
      const requestArrived = new Promise<void>((resolve) => {
        arrived = resolve;
      });
      const server = await serve(() => {
        arrived();
      });
      const controller = new AbortController();
      const pending = transportFailureOf(
        transportWith().request(getRequest(`http://127.0.0.1:${server.port}/`, { signal: controller.signal })),
      );
      await requestArrived;
      controller.abort();
      const error = await pending;
      assert.deepEqual([error.failure, error.code], ['aborted', 'ABORT_ERR']);
    });

    it("leaves no listener on the caller's signal once a request is over, answered or failed", async () => {
      const server = await serve((req, res) => (req.url === '/fail' ? res.destroy() : res.end('ok')));
      const transport = transportWith();
      const { signal } = new AbortController();
      await transport.request(getRequest(`http://127.0.0.1:${server.port}/`, { signal }));
      await transportFailureOf(transport.request(getRequest(`http://127.0.0.1:${server.port}/fail`, { signal })));
      assert.equal(getEventListeners(signal, 'abort').length, 0);
    });
  });

  describe('closing', () => {
    it('refuses requests after close, plain http and https alike', async () => {
      const server = await serve((_req, res) => res.end());
      const transport = transportWith();
      await transport.request(getRequest(`http://127.0.0.1:${server.port}/`));
      await transport.close();
      for (const url of [`http://127.0.0.1:${server.port}/`, `https://127.0.0.1:${server.port}/`, `https://${PLANT_HOST}/`]) {
        const error = await transportFailureOf(transport.request(getRequest(url)));
        assert.deepEqual([error.failure, error.code], ['aborted', 'TRANSPORT_CLOSED'], url);
      }
      const proxied = createUndiciTransport(transportOptions({ proxy: `http://127.0.0.1:${server.port}` }));
      await proxied.close();
      const error = await transportFailureOf(proxied.request(getRequest(`https://${PLANT_HOST}/`)));
      assert.deepEqual([error.failure, error.code], ['aborted', 'TRANSPORT_CLOSED']);
      assert.equal(server.received.length, 1);
    });

    it('ends the requests still in flight on every route', async () => {
      const pki = testPki();
      const silentHttp = await serve(() => undefined);
      const arrivedOverTls: Received[] = [];
      const silentHttps = await listen(
        createHttpsServer(
          { key: pki.server.key, cert: pki.server.cert },
          recording(arrivedOverTls, () => undefined),
        ),
        arrivedOverTls,
      );
      cleanups.push(() => silentHttps.close());
      const proxy = await startRecordingProxy({ hosts: [PLANT_HOST] });
      cleanups.push(() => proxy.close());
      const direct = createUndiciTransport(transportOptions({ caCertificatesFile: pki.caFile, lookup: loopbackLookup([PLANT_HOST]) }));
      const proxied = createUndiciTransport(transportOptions({ caCertificatesFile: pki.caFile, proxy: proxy.url }));
      const pending = [
        direct.request(getRequest(`http://127.0.0.1:${silentHttp.port}/`)),
        direct.request(getRequest(`https://${PLANT_HOST}:${silentHttps.port}/`)),
        proxied.request(getRequest(`https://${PLANT_HOST}:${silentHttps.port}/`)),
      ].map((request) => transportFailureOf(request));
      await waitFor(() => silentHttp.received.length === 1 && silentHttps.received.length === 2);
      await Promise.all([direct.close(), proxied.close()]);
      for (const error of await Promise.all(pending)) assert.deepEqual([error.failure, error.code], ['connection', 'UND_ERR_DESTROYED']);
    });
  });

  describe('TLS and proxies', () => {
    const pki = testPki();

    it('gives up on a TLS handshake that does not complete within connectTimeoutMs', async () => {
      const silent = await listen(createNetServer(() => undefined));
      cleanups.push(() => silent.close());
      const error = await transportFailureOf(
        transportWith({ connectTimeoutMs: 100 }).request(getRequest(`https://127.0.0.1:${silent.port}/`)),
      );
      assert.deepEqual([error.failure, error.code], ['connect-timeout', 'UND_ERR_CONNECT_TIMEOUT']);
    });

    it('gives up on an https proxy whose handshake does not complete within connectTimeoutMs', async () => {
      const silent = await listen(createNetServer(() => undefined));
      cleanups.push(() => silent.close());
      const transport = transportWith({
        connectTimeoutMs: 100,
        proxy: `https://proxy.test:${silent.port}`,
        lookup: loopbackLookup(['proxy.test']),
      });
      const error = await transportFailureOf(transport.request(getRequest(`https://${PLANT_HOST}/`)));
      assert.deepEqual([error.failure, error.code], ['proxy-unreachable', 'UND_ERR_CONNECT_TIMEOUT']);
      assert.equal(error.context.proxyHost, `proxy.test:${silent.port}`);
    });

    it('refuses a proxy setting that is not a URL', async () => {
      const error = await transportFailureOf(
        transportWith({ proxy: 'http://proxy corp:3128' }).request(getRequest(`https://${PLANT_HOST}/`)),
      );
      assert.deepEqual([error.failure, error.code], ['proxy-invalid', 'ERR_INVALID_PROXY']);
    });

    it('http.proxyStrictSSL false also accepts an unverifiable certificate of a target behind the proxy', async () => {
      const api = await serve((_req, res) => res.end('ok'));
      const front = await listen(
        createHttpsServer({ key: pki.selfSigned.key, cert: pki.selfSigned.cert }, (_req, res) => res.end('behind')),
      );
      cleanups.push(() => front.close());
      const proxy = await startRecordingProxy({ hosts: [PLANT_HOST] });
      cleanups.push(() => proxy.close());
      const url = `https://${PLANT_HOST}:${front.port}/`;
      const strict = await transportFailureOf(transportWith({ proxy: proxy.url }).request(getRequest(url)));
      assert.equal(strict.failure, 'untrusted-certificate');
      const response = await transportWith({ proxy: proxy.url, proxyStrictSSL: false }).request(getRequest(url));
      assert.equal(text(response.body), 'behind');
      assert.equal(api.received.length, 0);
    });

    describe('a proxy that wants authentication', () => {
      let proxy: RecordingProxy;
      let api: TestServer;
      beforeEach(async () => {
        proxy = await startRecordingProxy({ hosts: [PLANT_HOST], credentials: { user: 'plant', password: 'secret' } });
        api = await startHttp((_req, res) => res.end('ok'));
      });
      afterEach(async () => {
        await proxy.close();
        await api.close();
      });

      const cases: readonly [string, () => Partial<TransportOptions>, boolean][] = [
        ['no credentials', () => ({ proxy: proxy.url }), false],
        ['a user without a password, which is not sent', () => ({ proxy: `http://plant@127.0.0.1:${proxy.port}` }), false],
        ['a wrong password', () => ({ proxy: proxy.urlWithCredentials('plant', 'wrong') }), true],
        ['a wrong http.proxyAuthorization', () => ({ proxy: proxy.url, proxyAuthorization: 'Basic d3Jvbmc6d3Jvbmc=' }), true],
      ];
      for (const [what, settings, sent] of cases) {
        for (const scheme of ['http', 'https']) {
          it(`${what}: a 407 to an ${scheme} request is "proxy authentication required", credentials sent: ${String(sent)}`, async () => {
            const error = await transportFailureOf(transportWith(settings()).request(getRequest(`${scheme}://${PLANT_HOST}:${api.port}/`)));
            assert.deepEqual([error.failure, error.code], ['proxy-auth-required', 'PROXY_407']);
            assert.equal(error.context.proxyHost, `127.0.0.1:${proxy.port}`);
            assert.equal(error.context.proxyStatus, 407);
            assert.equal(error.context.proxyCredentialsSent, sent);
          });
        }
      }

      it('with the right credentials, a plain http request goes through the proxy as an absolute URI', async () => {
        const response = await transportWith({ proxy: proxy.urlWithCredentials('plant', 'secret') }).request(
          getRequest(`http://${PLANT_HOST}:${api.port}/x?y=1`),
        );
        assert.equal(text(response.body), 'ok');
        assert.deepEqual(
          proxy.visits.map((visit) => [visit.method, visit.target]),
          [['GET', `http://${PLANT_HOST}:${api.port}/x?y=1`]],
        );
      });

      it('with the right http.proxyAuthorization, a request goes through the proxy', async () => {
        const proxyAuthorization = `Basic ${Buffer.from('plant:secret').toString('base64')}`;
        const response = await transportWith({ proxy: proxy.url, proxyAuthorization }).request(
          getRequest(`http://${PLANT_HOST}:${api.port}/`),
        );
        assert.equal(text(response.body), 'ok');
        assert.equal(proxy.visits.length, 1);
      });
    });
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}
