// Edge cases of the proxy rules that a wrong reading would get wrong: which
// IPv6 hosts count as loopback, and NO_PROXY CIDR entries with too few parts.

import * as assert from 'node:assert/strict';
import { bypassesProxy, isLoopbackHost, parseNoProxy } from '../../../src/core/client/http/proxySelection';

describe('proxy rules at the edges', () => {
  const loopback: readonly [string, boolean][] = [
    ['http://[::ffff:127.0.1.1]/', true],
    ['http://[::ffff:127.255.255.255]/', true],
    ['http://[1::ffff:7f00:1]/', false],
    ['http://[::ffff:7f00:1:2]/', false],
    ['http://[::ffff:128.0.0.1]/', false],
    ['http://[::2]/', false],
    ['http://localhost.example/', false],
    ['http://notlocalhost/', false],
  ];
  for (const [url, expected] of loopback) {
    it(`${url} is ${expected ? '' : 'not '}a loopback host`, () => {
      assert.equal(isLoopbackHost(new URL(url).hostname), expected);
    });
  }

  it('a bracketed entry with anything before or after it exempts nothing', () => {
    assert.equal(bypassesProxy(new URL('http://[::1]:3000/'), parseNoProxy('[::1]:3000')), true);
    assert.equal(bypassesProxy(new URL('http://[::1]:3000/'), parseNoProxy('x[::1]:3000')), false);
    assert.equal(bypassesProxy(new URL('http://[::1]:3000/'), parseNoProxy('[::1]:3000x')), false);
  });

  it('a host:port entry whose port is not a number exempts nothing', () => {
    assert.equal(bypassesProxy(new URL('http://example.com/'), parseNoProxy('example.com:http')), false);
    assert.equal(bypassesProxy(new URL('http://example.com:8080/'), parseNoProxy('example.com:')), false);
  });

  it('a CIDR entry needs four octets: 0.0.10/8 exempts nothing', () => {
    assert.equal(bypassesProxy(new URL('http://0.0.0.1/'), parseNoProxy('0.0.10/8')), false);
    assert.equal(bypassesProxy(new URL('http://0.0.0.1/'), parseNoProxy('0.0.0.10/8')), true);
  });
});
