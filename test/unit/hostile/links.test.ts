// Hostile corpus: links a server puts in an event (href or a deprecation
// URL). What is opened must be exactly what was shown; a URL that reads as
// one host and opens another is refused. Add a row.
import assert from 'node:assert/strict';
import { deprecationDecision, externalUrl, openDecision, type LinkRefusal } from '../../../src/extension/details/linkPolicy';
import { API_BASE, event, T_MS } from '../details/fixtures';

interface Row {
  readonly name: string;
  readonly url: string;
  /** The normalized URL opened and its host; or why it is refused. */
  readonly expected: { readonly url: string; readonly host: string } | LinkRefusal;
}

const rows: readonly Row[] = [
  {
    name: 'a plain https URL',
    url: 'https://docs.example.com/deprecations#x',
    expected: { url: 'https://docs.example.com/deprecations#x', host: 'docs.example.com' },
  },
  {
    name: 'upper-case scheme and host are normalized',
    url: 'HTTPS://Docs.Example.COM/a',
    expected: { url: 'https://docs.example.com/a', host: 'docs.example.com' },
  },
  {
    name: 'a look-alike Unicode host shows in its xn-- form',
    url: 'https://exаmple.com/',
    expected: { url: 'https://xn--exmple-4nf.com/', host: 'xn--exmple-4nf.com' },
  },
  {
    name: 'a space in the path is percent-encoded in what is shown and opened',
    url: 'https://docs.example.com/a%20b',
    expected: { url: 'https://docs.example.com/a%20b', host: 'docs.example.com' },
  },
  {
    name: 'a plain http URL',
    url: 'http://docs.example.com/a',
    expected: { url: 'http://docs.example.com/a', host: 'docs.example.com' },
  },
  {
    name: "another URL with a user, in the query, is not this link's userinfo",
    url: 'https://good.com/?next=https://u@evil.com',
    expected: { url: 'https://good.com/?next=https://u@evil.com', host: 'good.com' },
  },
  { name: 'backslash before @ (reads as evil.com, opens good.com)', url: 'https://good.com\\@evil.com', expected: 'disguised' },
  { name: 'user:password before the host', url: 'https://good.com:pw@evil.com/', expected: 'userinfo' },
  { name: 'a bare @ before the host', url: 'https://good.com@evil.com/', expected: 'userinfo' },
  { name: 'an empty user before the host', url: 'https://@evil.com/', expected: 'userinfo' },
  { name: 'an empty user and password before the host', url: 'https://:@evil.com/', expected: 'userinfo' },
  // Without the slashes the parser still reads userinfo ("https://u@evil.com/"), which the pattern on the raw text does not see.
  { name: 'a user with no slashes after the scheme', url: 'https:u@evil.com/', expected: 'userinfo' },
  { name: 'a password with no user and no slashes after the scheme', url: 'https::p@evil.com/', expected: 'userinfo' },
  { name: 'a right-to-left override', url: 'https://evil.com/\u202emoc.doog', expected: 'disguised' },
  { name: 'a zero-width space in the host', url: 'https://goo\u200bgle.com/', expected: 'disguised' },
  { name: 'a tab', url: 'https://good.com/\tx', expected: 'disguised' },
  { name: 'a newline', url: 'https://good.com/\nx', expected: 'disguised' },
  { name: 'a leading space', url: ' https://good.com/', expected: 'disguised' },
  { name: 'a command: URI', url: 'command:workbench.action.terminal.new', expected: 'scheme' },
  { name: 'javascript:', url: 'javascript:alert(1)', expected: 'scheme' },
  { name: 'file:', url: 'file:///etc/passwd', expected: 'scheme' },
];

describe('hostile input: links from the server', () => {
  for (const row of rows) {
    it(`${row.name}: ${JSON.stringify(row.url)} → ${typeof row.expected === 'string' ? `refused (${row.expected})` : row.expected.url}`, () => {
      const checked = externalUrl(row.url);
      if (typeof row.expected === 'string') assert.deepEqual(checked, { ok: false, reason: row.expected });
      else assert.deepEqual(checked, { ok: true, ...row.expected });
    });
  }

  it('a deprecation link is judged the same way: what opens is what the modal shows, host apart', () => {
    const withDeprecation = (deprecation: string) => ({
      event: event({ type: 'T', message: 'm', timestamp: T_MS, _links: { old: { href: 'https://x.test/a', deprecation } } }),
      apiBaseUrl: API_BASE,
    });
    assert.deepEqual(deprecationDecision(withDeprecation('https://good.com\\@evil.com'), 0), {
      kind: 'refuse',
      shown: 'https://good.com\\@evil.com',
      reason: 'disguised',
    });
    assert.deepEqual(deprecationDecision(withDeprecation('HTTPS://Good.com/why'), 0), {
      kind: 'allow',
      url: 'https://good.com/why',
      host: 'good.com',
    });
  });

  it('an href with a password before the host is neither opened nor fetched', () => {
    const request = {
      event: event({ type: 'T', message: 'm', timestamp: T_MS, _links: { a: { href: 'https://u:p@evil.com/' } } }),
      apiBaseUrl: API_BASE,
    };
    assert.deepEqual(openDecision(request, 0, {}), { kind: 'refuse', shown: 'https://u:p@evil.com/', reason: 'userinfo' });
  });
});
