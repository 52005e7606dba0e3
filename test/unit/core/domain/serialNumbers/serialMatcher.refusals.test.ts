// What the serial matcher tells the user about a pattern it refuses (the
// notification's exact words), which user patterns it accepts, and its edges:
// the length cap, a fractional minimum length, patterns that can match only
// an empty string somewhere, and offsets at the very ends of the text.
import assert from 'node:assert/strict';
import { plainLocalize, type Localize } from '../../../../../src/core/common/localize';
import { createSerialMatcher, DEFAULT_SERIAL_PATTERN } from '../../../../../src/core/domain/serialNumbers/serialMatcher';

/** The notification text for a refused pattern, as the user reads it. */
const refusal = (pattern: string, reason: string): string =>
  `The serial-number pattern "${pattern}" cannot be used (${reason}); using the default ${DEFAULT_SERIAL_PATTERN} instead.`;

describe('serial matcher: why a pattern is refused, in the words the user reads', () => {
  const rows: readonly [string, string][] = [
    [
      '(\\w)\\1',
      'backreferences (\\1, \\k<name>) are not supported, as they cannot be matched in linear time; spell out the repeated part instead',
    ],
    [
      '(?<id>\\w)\\k<id>',
      'backreferences (\\1, \\k<name>) are not supported, as they cannot be matched in linear time; spell out the repeated part instead',
    ],
    [
      'MX(?=-\\d)',
      'lookaheads ((?=…), (?!…)) are not supported; use \\b, a character class, or include the following text in the pattern instead',
    ],
    [
      'MX(?!-0)',
      'lookaheads ((?=…), (?!…)) are not supported; use \\b, a character class, or include the following text in the pattern instead',
    ],
    ['(?<=SN-(A|B))\\d{4}', 'a lookbehind may not contain a capturing group; write (?:…) inside it instead'],
    ['(?<!(x))y', 'a lookbehind may not contain a capturing group; write (?:…) inside it instead'],
    ['a'.repeat(1001), 'it is longer than 1000 characters'],
    ['[A-Z0-9-]{10,128}', 'it is too complex (248 steps, at most 120); use smaller repetition counts, such as {2,8} instead of {2,200}'],
    ['\\w*', 'it matches an empty string, so it would match everywhere'],
    ['^$', 'it matches an empty string, so it would match everywhere'],
  ];
  for (const [pattern, reason] of rows) {
    it(`${JSON.stringify(pattern.slice(0, 30))}: ${reason.slice(0, 40)}…`, () => {
      const matcher = createSerialMatcher({ pattern });
      assert.equal(matcher.problem, refusal(pattern, reason));
      assert.equal(matcher.source, DEFAULT_SERIAL_PATTERN);
    });
  }

  it('accepts a pattern of exactly 120 steps and refuses one of 121', () => {
    assert.equal(createSerialMatcher({ pattern: '\\bSN-\\d{3,58}\\b' }).problem, undefined);
    assert.equal(
      createSerialMatcher({ pattern: '\\bSN-\\d{2,58}\\b' }).problem,
      refusal(
        '\\bSN-\\d{2,58}\\b',
        'it is too complex (121 steps, at most 120); use smaller repetition counts, such as {2,8} instead of {2,200}',
      ),
    );
  });

  it('a pattern RE2 cannot read is refused with what RE2 says about it', () => {
    assert.equal(createSerialMatcher({ pattern: '([A-Z' }).problem, refusal('([A-Z', 'error parsing regexp: missing closing ]: `[A-Z`'));
  });

  it('a pattern at exactly 1000 characters is not refused for its length', () => {
    assert.doesNotMatch(createSerialMatcher({ pattern: 'a'.repeat(1000) }).problem ?? '', /longer than/);
  });

  it('the trimmed pattern is the one quoted and used', () => {
    const matcher = createSerialMatcher({ pattern: '  \\bSN-\\d{6}\\b  ' });
    assert.equal(matcher.problem, undefined);
    assert.equal(matcher.source, '\\bSN-\\d{6}\\b');
    assert.equal(
      createSerialMatcher({ pattern: ' ^$ ' }).problem,
      refusal('^$', 'it matches an empty string, so it would match everywhere'),
    );
  });

  it('words the reason and the sentence through the t it is given', () => {
    const marked: Localize = (message, ...args) => `«${plainLocalize(message, ...args)}»`;
    assert.equal(
      createSerialMatcher({ pattern: '^$', t: marked }).problem,
      `«${refusal('^$', '«it matches an empty string, so it would match everywhere»')}»`,
    );
  });
});

describe('serial matcher: user patterns it accepts', () => {
  const accepted: readonly [string, string, readonly string[]][] = [
    ['a lookbehind holding a non-capturing group', '(?<=(?:SN|ID):)\\d{4}', ['1234', '5678']],
    ['a capturing group after a lookbehind', '(?<=x)(\\d{4})', ['9999']],
    ['a negative lookbehind', '(?<!-)\\b\\d{4}\\b', ['1234', '5678']],
    ['a JavaScript \\u escape (translated for RE2)', '\\u0053N\\d{4}', ['SN1234']],
  ];
  for (const [what, pattern, expected] of accepted) {
    it(`${what}: ${pattern}`, () => {
      const matcher = createSerialMatcher({ pattern, minLength: 1 });
      assert.equal(matcher.problem, undefined);
      assert.deepEqual(
        matcher.findAll('SN:1234 ID:5678 x9999 -4321 SN1234').map((m) => m.serialNumber),
        expected,
      );
    });
  }

  it('the default pattern written out is the default, with no problem', () => {
    for (const pattern of ['', '   ', DEFAULT_SERIAL_PATTERN, ` ${DEFAULT_SERIAL_PATTERN} `]) {
      const matcher = createSerialMatcher({ pattern });
      assert.equal(matcher.problem, undefined, JSON.stringify(pattern));
      assert.equal(matcher.source, DEFAULT_SERIAL_PATTERN);
      assert.deepEqual(
        matcher.findAll('x MX-4711-A0023 y').map((m) => m.serialNumber),
        ['MX-4711-A0023'],
      );
    }
  });
});

describe('serial matcher: edges', () => {
  it('keeps a match of 128 characters and drops one of 129 (the core refuses longer serial numbers)', () => {
    const matcher = createSerialMatcher({ pattern: 'SN-\\d+' });
    const longest = `SN-${'1'.repeat(125)}`;
    assert.deepEqual(
      matcher.findAll(`${longest} SN-${'2'.repeat(126)}`).map((m) => m.serialNumber),
      [longest],
    );
    assert.equal(matcher.isSerialNumber(longest), true);
    assert.equal(matcher.isSerialNumber(`${longest}1`), false);
  });

  it('rounds a fractional minimum length down', () => {
    assert.deepEqual(
      createSerialMatcher({ minLength: 13.9 })
        .findAll('MX-4711-A0023')
        .map((m) => m.serialNumber),
      ['MX-4711-A0023'],
    );
  });

  it('refuses a match holding a control, bidi or markup character, whatever the pattern', () => {
    const matcher = createSerialMatcher({ pattern: 'SN[^ ]{4}' });
    assert.deepEqual(
      matcher.findAll('SN\t123 SN\u202e123 SN](x) SN$(x) SN-123').map((m) => m.serialNumber),
      ['SN-123'],
    );
  });

  // \b and a bare lookbehind match nothing in an empty string, so they pass the empty-match check, yet match only empty strings.
  for (const pattern of ['\\b', '(?<=a)']) {
    it(`a pattern that matches only empty strings (${pattern}) finds nothing, even with a minimum length of 0`, () => {
      for (const minLength of [0, 6]) {
        const matcher = createSerialMatcher({ pattern, minLength });
        assert.equal(matcher.problem, undefined);
        assert.deepEqual(matcher.findAll('ab a cd a'), []);
        assert.equal(matcher.matchAt('ab a cd a', 9), undefined);
        assert.equal(matcher.isSerialNumber('a'), false);
      }
    });
  }

  for (const [what, options] of [
    ['the default pattern', {}],
    ['a user pattern', { pattern: '\\b[A-Z]{2}-\\d{4}-[A-Z]\\d{4}\\b' }],
  ] as const) {
    it(`matchAt finds a serial number at the very start and the very end of the text (${what})`, () => {
      const matcher = createSerialMatcher(options);
      const serial = { serialNumber: 'MX-4711-A0023', start: 0, end: 13 };
      assert.deepEqual(matcher.matchAt('MX-4711-A0023', 0), serial);
      assert.deepEqual(matcher.matchAt('MX-4711-A0023', 13), serial);
      assert.deepEqual(matcher.matchAt('MX-4711-A0023', 5), serial);
      assert.deepEqual(matcher.matchAt('ab MX-4711-A0023', 16), { ...serial, start: 3, end: 16 });
      assert.equal(matcher.matchAt('MX-4711-A0023', 14), undefined);
      assert.equal(matcher.matchAt('MX-4711-A0023', -1), undefined);
    });
  }

  it('finds serial numbers that touch (a user pattern without \\b); where they meet, the first one covers the offset', () => {
    const matcher = createSerialMatcher({ pattern: 'SN\\d{4}' });
    assert.deepEqual(
      matcher.findAll('SN1234SN5678').map((m) => m.serialNumber),
      ['SN1234', 'SN5678'],
    );
    assert.equal(matcher.matchAt('SN1234SN5678', 6)?.serialNumber, 'SN1234');
    assert.equal(matcher.matchAt('SN1234SN5678', 7)?.serialNumber, 'SN5678');
  });

  it('matchAt far past the end of the text finds nothing and does not throw (a user pattern)', () => {
    assert.equal(createSerialMatcher({ pattern: '\\bSN-\\d{6}\\b' }).matchAt('SN-123456', 999), undefined);
  });

  it('matchAt finds a serial number that ends at the offset even when 200 characters precede it (a user pattern)', () => {
    const matcher = createSerialMatcher({ pattern: '\\bSN-\\d{6}\\b' });
    const text = `${'x '.repeat(100)}SN-123456`;
    assert.deepEqual(matcher.matchAt(text, text.length), { serialNumber: 'SN-123456', start: 200, end: 209 });
    assert.deepEqual(matcher.matchAt(text, 200), { serialNumber: 'SN-123456', start: 200, end: 209 });
  });
});
