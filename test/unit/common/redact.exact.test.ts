import * as assert from 'node:assert/strict';
import { Redactor } from '../../../src/core/common/redact';

// Exact outputs: which part of a credential-shaped text goes, and what stays around it.
describe('Redactor, exactly what it removes', () => {
  const shapes: ReadonlyArray<readonly [string, string]> = [
    ['proxy http://user:pw@proxy.example:8080/', 'proxy http://[redacted]@proxy.example:8080/'],
    ['https://user:pw@proxy.example/ at the start', 'https://[redacted]@proxy.example/ at the start'],
    ['{"password":"a b"}', '{"password":"[redacted]"}'],
    ['password: hunter2 rest', 'password: [redacted] rest'],
    ['password:hunter2', 'password:[redacted]'],
    ["{'password': 'hunter2'}", "{'password': '[redacted]'}"],
    ['password:  hunter2', 'password:  [redacted]'],
    ['client_secret :s3cr3t', 'client_secret :[redacted]'],
  ];
  for (const [text, expected] of shapes) {
    it(`removes the credential in ${JSON.stringify(text)} and keeps its frame`, () => {
      assert.equal(new Redactor().redact(text), expected);
    });
  }

  it('keeps the last 16 access tokens: the 17th evicts the first, and an empty one takes no place', () => {
    const redactor = new Redactor();
    const tokens = Array.from({ length: 17 }, (_, i) => `token-${String(i).padStart(2, '0')}-abcdef`);
    redactor.addToken(tokens[0]);
    redactor.addToken('');
    redactor.addToken(undefined);
    for (const token of tokens.slice(1, 16)) redactor.addToken(token);
    // 16 real tokens so far: all still redacted.
    assert.equal(redactor.redact(tokens.slice(0, 16).join(' ')), Array(16).fill('[redacted]').join(' '));
    redactor.addToken(tokens[16]);
    assert.equal(redactor.redact(`${tokens[0]} ${tokens[1]} ${tokens[16]}`), `${tokens[0]} [redacted] [redacted]`);
  });

  it('an empty secret removes nothing', () => {
    const redactor = new Redactor();
    redactor.addSecret('');
    assert.equal(redactor.redact('nothing to hide here'), 'nothing to hide here');
  });

  it('a secret of four characters goes even inside a word; a shorter one only where it stands alone, every time', () => {
    const redactor = new Redactor();
    redactor.addSecret('k3y9');
    redactor.addSecret('q1');
    assert.equal(redactor.redact('xk3y9x q1 and q1 but aq1b'), 'x[redacted]x [redacted] and [redacted] but aq1b');
  });

  it('a short secret with regex characters matches only itself', () => {
    const redactor = new Redactor();
    redactor.addSecret('a.b');
    assert.equal(redactor.redact('x ab y a.b'), 'x ab y [redacted]');
  });

  it('removes a secret in its JSON-escaped forms and leaves the quotes around it', () => {
    const redactor = new Redactor();
    redactor.addSecret('pa"ss\\word');
    redactor.addSecret('pässwörd');
    assert.equal(redactor.redact('{"note":"pa\\"ss\\\\word"}'), '{"note":"[redacted]"}');
    assert.equal(redactor.redact('{"p":"p\\u00e4ssw\\u00f6rd"}'), '{"p":"[redacted]"}');
  });

  it('removes a secret with a space written as "+" with other characters left as encodeURIComponent leaves them', () => {
    const redactor = new Redactor();
    redactor.addSecret('a b!');
    assert.equal(redactor.redact('q=a+b!&r=1'), 'q=[redacted]&r=1');
  });
});
