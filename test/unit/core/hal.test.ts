import * as assert from 'node:assert/strict';
import { expandLink, isOpenable, linkDeprecation, parseLinks, resolveHref } from '../../../src/core/client/hal';

describe('HAL links (spec §2.3, §2.4)', () => {
  it('§2.4 parses all nine HALLink fields with their types', () => {
    const link = {
      href: 'https://api.example/m/1',
      templated: false,
      type: 'application/hal+json',
      deprecation: 'https://api.example/deprecations/1',
      name: 'machine',
      profile: 'https://api.example/profiles/machine',
      title: 'Machine',
      hreflang: 'en',
      seen: '2025-01-15',
    };
    assert.deepEqual(parseLinks({ machine: link }), { ok: true, links: { machine: [link] } });
  });

  it('accepts a relation holding one link or an array of links', () => {
    const result = parseLinks({ machine: { href: '/a' }, related: [{ href: '/b' }, { href: '/c' }] });
    assert.deepEqual(result, { ok: true, links: { machine: [{ href: '/a' }], related: [{ href: '/b' }, { href: '/c' }] } });
  });

  it('keeps unknown link fields in extra and reads null as absent', () => {
    assert.deepEqual(parseLinks({ machine: { href: '/a', title: null, method: 'GET' } }), {
      ok: true,
      links: { machine: [{ href: '/a', extra: { method: 'GET' } }] },
    });
  });

  it('reads an undefined link field as absent, like null', () => {
    assert.deepEqual(parseLinks({ machine: { href: '/a', title: undefined, templated: undefined } }), {
      ok: true,
      links: { machine: [{ href: '/a' }] },
    });
  });

  it('names the field when a link field has the wrong type', () => {
    assert.deepEqual(parseLinks({ machine: { href: 42 } }), { ok: false, reason: '_links.machine.href must be a string' });
    assert.deepEqual(parseLinks({ machine: [{ href: '/a' }, { templated: 'yes' }] }), {
      ok: false,
      reason: '_links.machine[1].templated must be a boolean',
    });
    assert.deepEqual(parseLinks({ machine: 'https://x' }), { ok: false, reason: '_links.machine must be an object' });
    assert.deepEqual(parseLinks([]), { ok: false, reason: '_links must be an object' });
  });

  it('expands templated hrefs per RFC 6570 (url-template)', () => {
    const link = { href: '/machines/{assetId}/events{?from,types*}', templated: true };
    assert.equal(expandLink(link, { assetId: 'a b/c', from: 10, types: ['X', 'Y'] }), '/machines/a%20b%2Fc/events?from=10&types=X&types=Y');
  });

  it('leaves a non-templated href alone even when it contains braces', () => {
    assert.equal(expandLink({ href: '/a/{b}' }, { b: 'x' }), '/a/{b}');
    assert.equal(expandLink({ title: 'no href' }), undefined);
  });

  it('resolves relative hrefs against the API base', () => {
    assert.equal(resolveHref('/public/api/machines/1', 'http://127.0.0.1:1234/'), 'http://127.0.0.1:1234/public/api/machines/1');
    assert.equal(resolveHref('machines/1', 'https://api.example/base/'), 'https://api.example/base/machines/1');
    assert.equal(resolveHref('https://other.example/x', 'https://api.example/'), 'https://other.example/x');
    assert.equal(resolveHref('http://[bad', 'https://api.example/'), undefined);
  });

  const openable: readonly [string, boolean][] = [
    ['https://api.example/m/1', true],
    ['http://127.0.0.1:8080/x', true],
    ['javascript:alert(1)', false],
    ['JavaScript:alert(1)', false],
    ['command:workbench.action.terminal.new', false],
    ['file:///etc/passwd', false],
    ['data:text/html,<script>1</script>', false],
    ['vscode://ms-vscode.something', false],
    ['/relative/only', false],
    ['http://', false],
    ['https://:443/x', false],
    ['http:x', true],
    ['not a url', false],
  ];
  for (const [url, expected] of openable) {
    it(`isOpenable(${JSON.stringify(url)}) is ${expected}`, () => {
      assert.equal(isOpenable(url), expected);
    });
  }

  it('exposes deprecation, with an info URL only when it is safe to open', () => {
    assert.deepEqual(linkDeprecation({ href: '/a' }), { deprecated: false });
    assert.deepEqual(linkDeprecation({ href: '/a', deprecation: 'https://api.example/dep' }), {
      deprecated: true,
      infoUrl: 'https://api.example/dep',
      raw: 'https://api.example/dep',
    });
    assert.deepEqual(linkDeprecation({ href: '/a', deprecation: 'javascript:alert(1)' }), { deprecated: true, raw: 'javascript:alert(1)' });
  });
});
