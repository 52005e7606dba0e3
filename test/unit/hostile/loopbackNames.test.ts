// Hostile corpus: host names that read as "this computer" but are answered by
// DNS. Plain http and a direct connection (no proxy) are allowed only for
// targets whose traffic cannot leave the machine: literal 127.0.0.0/8, ::1 and
// `localhost` (answered from the hosts file). `oe.localhost` is reserved for
// loopback by RFC 6761, but glibc with `hosts: files dns` asks DNS for it, and a
// rogue answer would receive the client secret and the password in clear.
// Add a row.
import assert from 'node:assert/strict';
import { selectProxy } from '../../../src/core/client/http/proxySelection';
import { checkEndpointUrl } from '../../../src/core/domain/session/environmentRules';

interface Row {
  readonly url: string;
  /** True when plain http is allowed and no proxy is used: the traffic stays on this machine. */
  readonly loopback: boolean;
}

const rows: readonly Row[] = [
  { url: 'http://oe.localhost:8080', loopback: false },
  { url: 'http://api.oe.localhost', loopback: false },
  { url: 'http://OE.LOCALHOST.:8080', loopback: false },
  { url: 'http://localhost.:8080', loopback: true },
  { url: 'http://localhost:8080', loopback: true },
  { url: 'http://127.0.0.1:8080', loopback: true },
  { url: 'http://127.45.6.7', loopback: true },
  { url: 'http://[::1]:8080', loopback: true },
  { url: 'http://[::ffff:127.0.0.1]:8080', loopback: true },
];

const PROXY = 'http://proxy.example:3128';

describe('hostile input: names that only claim to be loopback', () => {
  for (const { url, loopback } of rows) {
    it(`${url}: plain http ${loopback ? 'allowed' : 'refused'}`, () => {
      const check = checkEndpointUrl(url);
      assert.equal(check.ok ? 'accepted' : check.problem, loopback ? 'accepted' : 'insecure');
    });

    it(`${url}: ${loopback ? 'never proxied' : 'goes through the configured proxy like any remote host'}`, () => {
      const target = new URL(url.replace(/^http:/, 'https:'));
      assert.equal(selectProxy(target, { proxy: PROXY }, { HTTPS_PROXY: PROXY }), loopback ? undefined : PROXY);
    });
  }
});
