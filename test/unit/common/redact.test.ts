import * as assert from 'node:assert/strict';
import { Redactor } from '../../../src/core/common/redact';
import { TEST_CREDENTIALS } from '../../support/fakeApi';

describe('log redaction', () => {
  it('removes registered secrets in plain, percent-encoded and form-encoded form', () => {
    const redactor = new Redactor();
    redactor.addSecret(TEST_CREDENTIALS.password);
    redactor.addSecret(TEST_CREDENTIALS.clientSecret);
    const form = new URLSearchParams({ password: TEST_CREDENTIALS.password }).toString();
    const text = `plain ${TEST_CREDENTIALS.password} uri ${encodeURIComponent(TEST_CREDENTIALS.clientSecret)} form ${form}`;
    const out = redactor.redact(text);
    assert.equal(out.includes(TEST_CREDENTIALS.password), false);
    assert.equal(out.includes(encodeURIComponent(TEST_CREDENTIALS.clientSecret)), false);
    assert.equal(out.includes(form.split('=')[1] ?? '∅'), false);
    assert.match(out, /^plain \[redacted\] uri \[redacted\] form password=\[redacted\]$/);
  });

  it('removes a secret that contains another registered secret as a whole', () => {
    const redactor = new Redactor();
    redactor.addSecret('abcd');
    redactor.addSecret('abcdefgh');
    assert.equal(redactor.redact('x abcdefgh y'), 'x [redacted] y');
  });

  it('removes bearer and basic credentials, token fields and JWTs it was never told about', () => {
    const redactor = new Redactor();
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJl';
    assert.equal(redactor.redact('Authorization: Bearer abc.DEF-123'), 'Authorization: Bearer [redacted]');
    assert.equal(redactor.redact('Authorization: Basic dXNlcjpwYXNz'), 'Authorization: Basic [redacted]');
    assert.equal(redactor.redact('{"access_token":"tok123","token_type":"Bearer"}'), '{"access_token":"[redacted]","token_type":"Bearer"}');
    assert.equal(
      redactor.redact('grant_type=password&password=hunter22&client_secret=s3'),
      'grant_type=password&password=[redacted]&client_secret=[redacted]',
    );
    assert.equal(redactor.redact(`token ${jwt} end`), 'token [redacted] end');
  });

  it('removes bearer and basic credentials whatever the case of the scheme (RFC 9110: schemes are case-insensitive)', () => {
    const redactor = new Redactor();
    for (const scheme of ['bearer', 'BEARER', 'bEaReR', 'basic', 'BASIC']) {
      assert.equal(redactor.redact(`authorization: ${scheme} dXNlcjpwYXNz`), `authorization: ${scheme} [redacted]`, scheme);
    }
  });

  it('removes a registered secret with spaces in its form-encoded form (space as "+")', () => {
    const redactor = new Redactor();
    redactor.addSecret('two words&more');
    assert.equal(redactor.redact('form field=two+words%26more end'), 'form field=[redacted] end');
    assert.equal(redactor.redact('uri two%20words%26more end'), 'uri [redacted] end');
  });

  it('keeps ordinary text intact and ignores values too short to be secrets', () => {
    const redactor = new Redactor();
    redactor.addSecret('');
    redactor.addSecret('abc');
    redactor.addSecret(undefined);
    const line = 'GET http://127.0.0.1:4000/public/api/onboarding-events/events?serialNumber=ABC-1234-XY7Z9 → 200 in 12 ms';
    assert.equal(redactor.redact(line), line);
  });
});
