import * as assert from 'node:assert/strict';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bypassesProxy, normalizeProxyUrl, parseNoProxy, selectProxy } from '../../../src/core/client/http/proxySelection';
import { startFakeApi, TEST_SERIALS, type FakeApi } from '../../support/fakeApi';
import { makeClient } from './testClient';

const target = (url: string): URL => new URL(url);

describe('proxy selection (VS Code http.proxy settings, HTTPS_PROXY / HTTP_PROXY / NO_PROXY)', () => {
  it('uses no proxy when nothing is configured', () => {
    assert.equal(selectProxy(target('https://api.example/x'), {}, {}), undefined);
  });

  it('prefers the http.proxy setting over the environment', () => {
    assert.equal(
      selectProxy(target('https://api.example/x'), { proxy: 'http://setting:1' }, { HTTPS_PROXY: 'http://env:2' }),
      'http://setting:1',
    );
  });

  it('uses HTTPS_PROXY for https targets, falling back to HTTP_PROXY, and HTTP_PROXY for http targets', () => {
    const env = { HTTPS_PROXY: 'http://secure:1', HTTP_PROXY: 'http://plain:2' };
    assert.equal(selectProxy(target('https://a.example'), {}, env), 'http://secure:1');
    assert.equal(selectProxy(target('http://a.example'), {}, env), 'http://plain:2');
    assert.equal(selectProxy(target('https://a.example'), {}, { HTTP_PROXY: 'http://plain:2' }), 'http://plain:2');
    assert.equal(selectProxy(target('http://a.example'), {}, { HTTPS_PROXY: 'http://secure:1' }), undefined);
  });

  it('reads lower-case variables too, upper case winning', () => {
    assert.equal(selectProxy(target('https://a.example'), {}, { https_proxy: 'http://lower:1' }), 'http://lower:1');
    assert.equal(
      selectProxy(target('https://a.example'), {}, { https_proxy: 'http://lower:1', HTTPS_PROXY: 'http://upper:2' }),
      'http://upper:2',
    );
  });

  it('adds http:// to a proxy given without a scheme', () => {
    assert.equal(normalizeProxyUrl('proxy.corp:3128'), 'http://proxy.corp:3128');
    assert.equal(normalizeProxyUrl('https://proxy.corp'), 'https://proxy.corp');
  });

  it('exempts hosts listed in NO_PROXY and in the http.noProxy setting', () => {
    const env = { HTTPS_PROXY: 'http://proxy:1', NO_PROXY: 'internal.example' };
    assert.equal(selectProxy(target('https://api.internal.example'), {}, env), undefined);
    assert.equal(selectProxy(target('https://other.example'), { noProxy: ['other.example'] }, env), undefined);
    assert.equal(selectProxy(target('https://third.example'), { noProxy: ['other.example'] }, env), 'http://proxy:1');
  });

  const noProxyCases: readonly [string, string, boolean][] = [
    ['*', 'https://anything.example', true],
    ['example.com', 'https://example.com', true],
    ['example.com', 'https://api.example.com', true],
    ['example.com', 'https://notexample.com', false],
    ['.example.com', 'https://example.com', true],
    ['.example.com', 'https://api.example.com', true],
    ['*.example.com', 'https://api.example.com', true],
    ['EXAMPLE.com', 'https://Api.Example.COM', true],
    ['example.com:8443', 'https://example.com:8443', true],
    ['example.com:8443', 'https://example.com', false],
    ['example.com:443', 'https://example.com', true],
    ['127.0.0.1', 'http://127.0.0.1:8080', true],
    ['127.0.0.1', 'http://127.0.0.10', false],
    ['10.0.0.0/8', 'http://10.20.30.40', true],
    ['10.0.0.0/8', 'http://11.0.0.1', false],
    ['[::1]', 'http://[::1]:3000', true],
    ['::1', 'http://[::1]:3000', true],
    ['[::1]:3000', 'http://[::1]:3001', false],
    ['[::1]:3000', 'http://[::1]:3000', true],
    ['[2001:db8::1]', 'https://[2001:db8::1]', true],
    ['2001:1::1', 'http://[2001:1::1]', true],
    ['2001:1::1', 'http://[2001:1::2]', false],
    ['example.com', 'https://example.com./', true],
    ['example.com.', 'https://api.example.com', true],
    ['example.com:80', 'http://example.com', true],
    ['example.com:80', 'https://example.com', false],
    ['example.com:443', 'http://example.com', false],
    ['example.com', 'https://example.com.evil.example', false],
    ['.', 'http://a../', false],
    ['*.', 'http://a../', false],
    ['10.1.2.3/32', 'http://10.1.2.3', true],
    ['10.1.2.3/32', 'http://10.1.2.4', false],
    ['10.1.2.0/24', 'http://10.1.2.200', true],
    ['10.1.2.0/24', 'http://10.1.3.1', false],
    ['0.0.0.0/0', 'http://203.0.113.9', true],
    ['10.0.0.0/8', 'http://api.example', false],
    ['10.0.0.0/-1', 'http://10.0.0.1', false],
    ['10.0.0.0/33', 'http://10.200.0.1', false],
    ['10.0.0.0/8.5', 'http://10.0.0.1', false],
    ['10.0.0.0/', 'http://192.0.2.1', false],
    ['10.0.0/8', 'http://10.0.0.1', false],
    ['10.0.0.256/8', 'http://10.0.0.1', false],
    ['10.1.2.255/32', 'http://10.1.2.255', true],
    ['1x.0.0.0/8', 'http://0.0.0.1', false],
    ['x1.0.0.0/8', 'http://0.0.0.1', false],
  ];
  for (const [entry, url, expected] of noProxyCases) {
    it(`NO_PROXY=${entry} ${expected ? 'exempts' : 'does not exempt'} ${url}`, () => {
      assert.equal(bypassesProxy(target(url), parseNoProxy(entry)), expected);
    });
  }

  const loopbackCases: readonly string[] = [
    'http://127.0.0.1:8080/x',
    'http://127.1.2.3/x',
    'http://127.1/x',
    'http://localhost:3000/x',
    'http://LOCALHOST./x',
    'http://[::1]:8080/x',
    'http://[0:0:0:0:0:0:0:1]/x',
    'http://[::ffff:127.0.0.1]/x',
    'https://127.0.0.1:8443/x',
  ];
  for (const url of loopbackCases) {
    it(`never proxies the loopback target ${url}, whatever the settings and environment say`, () => {
      const env = { HTTPS_PROXY: 'http://env:2', HTTP_PROXY: 'http://env:2' };
      assert.equal(selectProxy(target(url), { proxy: 'http://setting:1' }, env), undefined);
    });
  }

  for (const url of ['http://128.0.0.1/x', 'http://localhost.example/x', 'http://api.localhost/x', 'http://10.0.0.1/x', 'http://[::2]/x']) {
    it(`still proxies the non-loopback target ${url}`, () => {
      assert.equal(selectProxy(target(url), { proxy: 'http://setting:1' }, {}), 'http://setting:1');
    });
  }

  it('ignores a blank http.proxy setting and blank variables, and trims the one it uses', () => {
    assert.equal(selectProxy(target('https://a.example'), { proxy: '  ' }, { HTTPS_PROXY: ' http://env:2 ' }), 'http://env:2');
    assert.equal(selectProxy(target('https://a.example'), { proxy: ' http://setting:1\n' }, {}), 'http://setting:1');
    assert.equal(selectProxy(target('https://a.example'), {}, { HTTPS_PROXY: ' ', https_proxy: 'http://lower:1' }), 'http://lower:1');
    assert.equal(selectProxy(target('https://a.example'), {}, { HTTPS_PROXY: '', HTTP_PROXY: 'http://plain:2' }), 'http://plain:2');
    assert.equal(selectProxy(target('https://a.example'), { proxy: '' }, { HTTPS_PROXY: '\t' }), undefined);
  });

  it('sends no other scheme to a proxy from the environment', () => {
    const env = { HTTPS_PROXY: 'http://secure:1', HTTP_PROXY: 'http://plain:2' };
    assert.equal(selectProxy(target('ftp://files.example/x'), {}, env), undefined);
    assert.equal(selectProxy(target('wss://a.example/x'), {}, env), undefined);
  });

  it('exempts a host only when NO_PROXY or http.noProxy names it', () => {
    const env = { HTTPS_PROXY: 'http://proxy:1' };
    for (const host of ['stryker', 'was', 'here', 'api.example']) {
      assert.equal(selectProxy(target(`https://${host}/`), {}, env), 'http://proxy:1', host);
      assert.equal(selectProxy(target(`https://${host}/`), { noProxy: [] }, { ...env, NO_PROXY: '' }), 'http://proxy:1', host);
    }
    assert.equal(selectProxy(target('https://b.example'), { noProxy: ['a.example b.example'] }, env), undefined);
  });

  it('adds http:// to a proxy given without a scheme, and keeps any scheme given', () => {
    assert.equal(normalizeProxyUrl('HTTPS://Proxy.corp:443'), 'HTTPS://Proxy.corp:443');
    assert.equal(normalizeProxyUrl('socks5://proxy.corp:1080'), 'socks5://proxy.corp:1080');
    assert.equal(normalizeProxyUrl('proxy.corp:3128/?next=http://x'), 'http://proxy.corp:3128/?next=http://x');
    assert.equal(normalizeProxyUrl('proxy.corp'), 'http://proxy.corp');
  });

  it('splits NO_PROXY on commas and white space', () => {
    assert.deepEqual(parseNoProxy(' a.example, b.example  c.example,,'), ['a.example', 'b.example', 'c.example']);
  });

  describe('through a real forward proxy on loopback', () => {
    let api: FakeApi;
    let proxy: Server;
    let proxied: string[];

    beforeEach(async () => {
      api = await startFakeApi();
      proxied = [];
      // A minimal absolute-URI forward proxy: enough to prove requests go through it.
      proxy = createServer((req, res) => {
        proxied.push(`${req.method ?? ''} ${req.url ?? ''}`);
        const upstream = new URL(req.url ?? '');
        const forward = httpRequest(
          {
            host: upstream.hostname,
            port: upstream.port,
            path: `${upstream.pathname}${upstream.search}`,
            method: req.method,
            headers: req.headers,
          },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        forward.on('error', () => res.writeHead(502).end());
        req.pipe(forward);
      });
      await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    });

    afterEach(async () => {
      await api.close();
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
    });

    it('never sends a loopback API to the proxy: the credentials stay on this machine', async () => {
      const { port } = proxy.address() as AddressInfo;
      const proxyUrl = `http://127.0.0.1:${port}`;
      const client = makeClient(api, { http: { proxy: proxyUrl, env: { HTTP_PROXY: proxyUrl, HTTPS_PROXY: proxyUrl } } });
      try {
        await client.verifyCredentials();
        const result = await client.getEvents(TEST_SERIALS.onboarded);
        assert.equal(result.events.length, 3);
        assert.deepEqual(proxied, []);
        assert.equal(api.tokenRequests().length, 1);
      } finally {
        client.dispose();
      }
    });

    it('goes direct when NO_PROXY exempts the host', async () => {
      const { port } = proxy.address() as AddressInfo;
      const client = makeClient(api, { http: { env: { HTTP_PROXY: `http://127.0.0.1:${port}`, NO_PROXY: '127.0.0.1' } } });
      try {
        await client.getEvents(TEST_SERIALS.onboarded);
        assert.deepEqual(proxied, []);
        assert.equal(api.eventRequests().length, 1);
      } finally {
        client.dispose();
      }
    });
  });
});
