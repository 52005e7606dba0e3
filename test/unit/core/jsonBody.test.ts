// Reading a body as JSON (spec §4.1 declares */*, so the body decides): what
// parses, and what the user is told when it does not.

import * as assert from 'node:assert/strict';
import { plainLocalize } from '../../../src/core/common/localize';
import { parseJsonBody } from '../../../src/core/client/jsonBody';

/** The parse as English text, so a problem can be compared. */
type ParsedText = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly problem: string };

const SOURCE = 'The API';
const EMPTY = 'The API answered with an empty body where JSON was expected.';
const HTML = 'The API answered with an HTML page instead of JSON; a sign-in page of a proxy or single sign-on gateway often does this.';
const NOT_JSON = 'The API answered with a body that is not valid JSON.';

function parse(text: string, contentType?: string): ParsedText {
  const parsed = parseJsonBody(new TextEncoder().encode(text), contentType, () => SOURCE);
  return parsed.ok ? parsed : { ok: false, problem: parsed.problem(plainLocalize) };
}

describe('reading a JSON body', () => {
  it('parses JSON whatever the Content-Type says', () => {
    assert.deepEqual(parse('{"a":[1,"x"]}', 'text/plain'), { ok: true, value: { a: [1, 'x'] } });
    assert.deepEqual(parse('  \n[true]\n'), { ok: true, value: [true] });
  });

  it('skips a leading byte-order mark', () => {
    assert.deepEqual(parse('\uFEFF{"a":1}', 'application/json'), { ok: true, value: { a: 1 } });
  });

  it('keeps a byte-order mark inside a string value as it is', () => {
    assert.deepEqual(parse('{"a":"x\uFEFFy"}'), { ok: true, value: { a: 'x\uFEFFy' } });
  });

  const problems: readonly [string, string, string | undefined, string][] = [
    ['an empty body', '', 'application/json', EMPTY],
    ['a body of only white space', ' \r\n\t ', 'application/json', EMPTY],
    ['a body of only a byte-order mark', '\uFEFF', undefined, EMPTY],
    ['a page starting with "<", whatever the Content-Type', '<!DOCTYPE html><p>Sign in</p>', 'application/json', HTML],
    ['a page starting with "<" after white space', '\n  <html></html>', 'text/plain', HTML],
    ['a page starting with "<" without a Content-Type', '<html></html>', undefined, HTML],
    ['a non-JSON body declared as HTML', 'Sign in here', 'text/html; charset=utf-8', HTML],
    ['a non-JSON body declared as HTML in capitals', 'Sign in here', 'Text/HTML', HTML],
    ['a non-JSON body declared as something else', 'Sign in here', 'text/plain', NOT_JSON],
    ['a non-JSON body without a Content-Type', 'Sign in here', undefined, NOT_JSON],
    ['truncated JSON', '{"events":[{"type":"ONBOAR', 'application/json', NOT_JSON],
    ['text ending in "<"', 'oops <', undefined, NOT_JSON],
  ];
  for (const [name, text, contentType, problem] of problems) {
    it(name, () => {
      assert.deepEqual(parse(text, contentType), { ok: false, problem });
    });
  }

  it('names the source it was given', () => {
    const parsed = parseJsonBody(new Uint8Array(), undefined, (t) => t('The authorization server'));
    assert.equal(
      parsed.ok ? 'parsed' : parsed.problem(plainLocalize),
      'The authorization server answered with an empty body where JSON was expected.',
    );
  });
});
