// Table-style tests of the serial-number matcher, in the manner of
// vscode-pull-request-github's issue-number parser tests: each row is a text,
// the options, and the serial numbers that must (or must not) be found.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  DEFAULT_SERIAL_PATTERN,
  createSerialMatcher,
  MAX_PROGRAM_SIZE,
  type SerialMatcherOptions,
} from '../../../../../src/core/domain/serialNumbers/serialMatcher';
import { DEMO_SERIAL_PATTERN, DEMO_SERIALS, demoData } from '../../../../support/fakeApi';
import { NOTIFICATION_LINK } from '../../../../../src/core/common/notificationText';

interface Row {
  readonly name: string;
  readonly text: string;
  readonly options?: SerialMatcherOptions;
  readonly expected: readonly string[];
}

const rows: readonly Row[] = [
  // Matches
  { name: 'a serial alone', text: 'MX-4711-A0023', expected: ['MX-4711-A0023'] },
  { name: 'a serial in prose', text: 'The press MX-4711-A0023 failed.', expected: ['MX-4711-A0023'] },
  { name: 'four-letter family', text: 'WELD-3100-D0007', expected: ['WELD-3100-D0007'] },
  { name: 'in quotes', text: '"serial": "KRP-0815-B0042",', expected: ['KRP-0815-B0042'] },
  { name: 'in YAML', text: '  - serial: MX-4711-A0024\n', expected: ['MX-4711-A0024'] },
  { name: 'in parentheses and after a comma', text: '(MX-4711-A0023),TBL-2200-C0666', expected: ['MX-4711-A0023', 'TBL-2200-C0666'] },
  { name: 'after a dash (dash is a word boundary)', text: 'id-MX-4711-A0023', expected: ['MX-4711-A0023'] },
  { name: 'in a URL path', text: 'https://example.invalid/m/CNC-5200-E0101?x=1', expected: ['CNC-5200-E0101'] },
  { name: 'followed by a dot at sentence end', text: 'See PRS-0900-A0314.', expected: ['PRS-0900-A0314'] },
  {
    name: 'several on one line, in order',
    text: 'MX-4711-A0023 MX-4711-A0024 LSR-6060-F1234',
    expected: ['MX-4711-A0023', 'MX-4711-A0024', 'LSR-6060-F1234'],
  },
  { name: 'across lines (CRLF)', text: 'MX-4711-A0023\r\nMX-4711-A0024\r\n', expected: ['MX-4711-A0023', 'MX-4711-A0024'] },
  // Non-matches
  { name: 'empty text', text: '', expected: [] },
  { name: 'plain prose', text: 'No machines here, only 2025-06-02 and v4.2.1.', expected: [] },
  { name: 'one-letter family', text: 'M-4711-A0023', expected: [] },
  { name: 'five-letter family glued to a letter (no boundary)', text: 'XWELD-3100-D0007', expected: [] },
  { name: 'glued to a trailing letter', text: 'MX-4711-A0023X', expected: [] },
  { name: 'glued to a trailing digit', text: 'MX-4711-A00231', expected: [] },
  { name: 'glued to an underscore', text: 'MX-4711-A0023_old', expected: [] },
  { name: 'three-digit model', text: 'MX-471-A0023', expected: [] },
  { name: 'short sequence', text: 'MX-4711-A002', expected: [] },
  { name: 'no dashes', text: 'MX4711A0023', expected: [] },
  { name: 'lower case (the default is case-sensitive)', text: 'mx-4711-a0023', expected: [] },
  { name: 'mixed case', text: 'Mx-4711-A0023', expected: [] },
  { name: 'a UUID', text: '3f2a9c1e-4b7d-4e2a-9f3c-1a2b3c4d5e6f', expected: [] },
  // Minimum length
  {
    name: 'min length equal to the serial length keeps it',
    text: 'MX-4711-A0023',
    options: { minLength: 13 },
    expected: ['MX-4711-A0023'],
  },
  {
    name: 'min length above the serial length drops it',
    text: 'MX-4711-A0023 WELD-3100-D0007',
    options: { minLength: 14 },
    expected: ['WELD-3100-D0007'],
  },
  { name: 'min length below 1 counts as 1', text: 'MX-4711-A0023', options: { minLength: -5 }, expected: ['MX-4711-A0023'] },
  // Deny list
  {
    name: 'deny list drops an exact entry',
    text: 'MX-4711-A0023 MX-4711-A0024',
    options: { denyList: ['MX-4711-A0024'] },
    expected: ['MX-4711-A0023'],
  },
  {
    name: 'deny list compares case-insensitively and trims',
    text: 'MX-4711-A0023',
    options: { denyList: ['  mx-4711-a0023 '] },
    expected: [],
  },
  { name: 'deny list entries are not prefixes', text: 'MX-4711-A0023', options: { denyList: ['MX-4711'] }, expected: ['MX-4711-A0023'] },
  { name: 'empty deny-list entries are ignored', text: 'MX-4711-A0023', options: { denyList: ['', '  '] }, expected: ['MX-4711-A0023'] },
  // Case and custom patterns
  {
    name: 'a custom case-insensitive pattern',
    text: 'mx-4711-a0023',
    options: { pattern: '\\b(?:[A-Za-z]{2,4})-\\d{4}-[A-Za-z0-9]{5}\\b' },
    expected: ['mx-4711-a0023'],
  },
  {
    name: 'a custom pattern with a lookbehind',
    text: 'SN:AB123456 AB999999',
    options: { pattern: '(?<=SN:)[A-Z]{2}\\d{6}\\b' },
    expected: ['AB123456'],
  },
  {
    name: 'an invalid pattern falls back to the default',
    text: 'MX-4711-A0023',
    options: { pattern: '([A-Z' },
    expected: ['MX-4711-A0023'],
  },
  {
    name: 'a pattern matching the empty string falls back',
    text: 'MX-4711-A0023 abc',
    options: { pattern: '\\w*' },
    expected: ['MX-4711-A0023'],
  },
  { name: 'a blank pattern means the default', text: 'MX-4711-A0023', options: { pattern: '   ' }, expected: ['MX-4711-A0023'] },
];

describe('serial matcher: findAll', () => {
  for (const row of rows) {
    it(`${row.name}: ${JSON.stringify(row.text)} → [${row.expected.join(', ')}]`, () => {
      const found = createSerialMatcher(row.options).findAll(row.text);
      assert.deepEqual(
        found.map((m) => m.serialNumber),
        row.expected,
      );
      for (const match of found) {
        assert.equal(row.text.slice(match.start, match.end), match.serialNumber, 'offsets point at the serial number');
      }
    });
  }

  it('stops at the limit', () => {
    const text = Array.from({ length: 50 }, (_, i) => `MX-4711-A${String(i).padStart(4, '0')}`).join(' ');
    const matcher = createSerialMatcher();
    assert.equal(matcher.findAll(text, 7).length, 7);
    assert.equal(matcher.findAll(text, 0).length, 0);
    assert.equal(matcher.findAll(text).length, 50);
  });

  it('gives the same answer when called again (no leftover regex state)', () => {
    const matcher = createSerialMatcher();
    const text = 'x MX-4711-A0023 y';
    assert.deepEqual(matcher.findAll(text), matcher.findAll(text));
    matcher.findAll(text, 1);
    assert.equal(matcher.matchAt(text, 3)?.serialNumber, 'MX-4711-A0023');
    assert.equal(matcher.findAll('MX-4711-A0024').length, 1);
  });
});

describe('serial matcher: matchAt', () => {
  const text = 'ab MX-4711-A0023, WELD-3100-D0007 cd';
  const first = { serialNumber: 'MX-4711-A0023', start: 3, end: 16 };
  const second = { serialNumber: 'WELD-3100-D0007', start: 18, end: 33 };
  const table: readonly { offset: number; expected: typeof first | undefined }[] = [
    { offset: 0, expected: undefined },
    { offset: 2, expected: undefined },
    { offset: 3, expected: first },
    { offset: 9, expected: first },
    { offset: 16, expected: first },
    { offset: 17, expected: undefined },
    { offset: 18, expected: second },
    { offset: 33, expected: second },
    { offset: 35, expected: undefined },
    { offset: -1, expected: undefined },
    { offset: 999, expected: undefined },
  ];
  for (const row of table) {
    it(`offset ${row.offset} → ${row.expected?.serialNumber ?? 'nothing'}`, () => {
      assert.deepEqual(createSerialMatcher().matchAt(text, row.offset), row.expected);
    });
  }

  it('respects word boundaries before the search window', () => {
    const long = `${'X'.repeat(300)}MX-4711-A0023`;
    assert.equal(createSerialMatcher().matchAt(long, 305), undefined);
  });

  it('honours the deny list and the minimum length', () => {
    assert.equal(createSerialMatcher({ denyList: ['MX-4711-A0023'] }).matchAt(text, 5), undefined);
    assert.equal(createSerialMatcher({ minLength: 14 }).matchAt(text, 5), undefined);
    assert.equal(createSerialMatcher({ minLength: 14 }).matchAt(text, 20)?.serialNumber, 'WELD-3100-D0007');
  });
});

describe('serial matcher: isSerialNumber', () => {
  const table: readonly [string, boolean][] = [
    ['MX-4711-A0023', true],
    ['MX-4711-A0023 ', false],
    [' MX-4711-A0023', false],
    ['MX-4711-A0023X', false],
    ['see MX-4711-A0023', false],
    ['mx-4711-a0023', false],
    ['', false],
  ];
  for (const [candidate, expected] of table) {
    it(`${JSON.stringify(candidate)} is ${expected ? '' : 'not '}a serial number`, () => {
      assert.equal(createSerialMatcher().isSerialNumber(candidate), expected);
    });
  }

  it('refuses a denied serial number', () => {
    assert.equal(createSerialMatcher({ denyList: ['MX-4711-A0023'] }).isSerialNumber('MX-4711-A0023'), false);
  });
});

describe('serial matcher: defaults and invalid patterns', () => {
  it('the default equals the package.json setting default', () => {
    const manifest = JSON.parse(readFileSync(join(__dirname, '../../../../../../package.json'), 'utf8')) as {
      contributes: { configuration: { properties: Record<string, { default?: unknown }> } };
    };
    const properties = manifest.contributes.configuration.properties;
    assert.equal(properties['onboardingEvents.serialNumber.pattern']?.default, DEFAULT_SERIAL_PATTERN);
    assert.equal(properties['onboardingEvents.serialNumber.minLength']?.default, 6);
  });

  it('the default finds every demo serial number, and only it, in the demo data', () => {
    const matcher = createSerialMatcher();
    const serials = Object.keys(demoData().machines);
    assert.ok(serials.length >= 40);
    for (const serial of serials) {
      assert.ok(new RegExp(`^${DEMO_SERIAL_PATTERN}$`).test(serial), `${serial} is a demo serial`);
      assert.deepEqual(
        matcher.findAll(`x ${serial} y`).map((m) => m.serialNumber),
        [serial],
      );
    }
    for (const serial of Object.values(DEMO_SERIALS)) {
      assert.equal(matcher.isSerialNumber(serial), true, serial);
    }
  });

  it('the fixture workspace file has the expected serial numbers', () => {
    const yaml = readFileSync(join(__dirname, '../../../../../../test/fixtures/workspace/machines.yaml'), 'utf8');
    assert.deepEqual(
      createSerialMatcher()
        .findAll(yaml)
        .map((m) => m.serialNumber),
      ['MX-4711-A0023', 'MX-4711-A0024'],
    );
  });

  const invalid: readonly [string, RegExp][] = [
    ['([A-Z', /cannot be used/],
    ['[', /cannot be used/],
    ['a{2,1}', /cannot be used/],
    ['\\w*', /empty string/],
    ['(?:)', /empty string/],
    ['(\\w{1,}x)*', /empty string/],
    ['(\\w)\\1', /backreferences/],
    ['(?<x>\\w)\\k<x>', /backreferences/],
    ['MX(?=-\\d)', /lookaheads/],
    ['MX(?!-0)', /lookaheads/],
    ['(?<=(SN):)\\w+', /capturing group/],
    ['[A-Z0-9-]{10,128}', /too complex/],
    ['\\p{L}{1,1000}', /too complex/],
    ['a'.repeat(1001), /longer than 1000/],
  ];
  for (const [pattern, why] of invalid) {
    it(`refuses ${JSON.stringify(pattern)} without throwing and says why`, () => {
      const matcher = createSerialMatcher({ pattern });
      assert.match(matcher.problem ?? '', why);
      assert.equal(matcher.source, DEFAULT_SERIAL_PATTERN);
      assert.deepEqual(
        matcher.findAll('MX-4711-A0023').map((m) => m.serialNumber),
        ['MX-4711-A0023'],
      );
    });
  }

  it('words a refused pattern so that the notification showing it has no clickable link (a workspace can set the pattern)', () => {
    for (const pattern of ['[Fix](command:workbench.action.terminal.new)(', '(a)\\1[x](https://evil.example)']) {
      const problem = createSerialMatcher({ pattern }).problem ?? '';
      assert.notEqual(problem, '');
      assert.deepEqual([...problem.matchAll(NOTIFICATION_LINK)], [], problem);
      assert.ok(problem.replace(/\u200b/g, '').includes(pattern), 'the pattern still reads as typed');
    }
  });

  it('a valid custom pattern has no problem', () => {
    const matcher = createSerialMatcher({ pattern: '\\bSN-\\d{6}\\b' });
    assert.equal(matcher.problem, undefined);
    assert.equal(matcher.source, '\\bSN-\\d{6}\\b');
  });

  // These were refused by a nested-quantifier check before; on RE2 they are harmless and may be used.
  for (const pattern of ['(a+)+b', '([A-Z]+-?)*\\d', '(?:[A-Z]*\\d)+']) {
    it(`accepts ${pattern}: on RE2 nested repetitions cost linear time`, () => {
      assert.equal(createSerialMatcher({ pattern }).problem, undefined);
    });
  }

  it(`the default pattern compiles to well under ${MAX_PROGRAM_SIZE} steps`, () => {
    assert.equal(createSerialMatcher({ pattern: DEFAULT_SERIAL_PATTERN }).problem, undefined);
  });
});

describe('serial matcher: performance guard', () => {
  function fiveMegabytes(): string {
    const lines: string[] = [];
    let size = 0;
    let i = 0;
    while (size < 5 * 1024 * 1024) {
      // Mostly near-misses that make the regex work: dashes, digits, letters.
      const line =
        i % 50 === 0
          ? `  - serial: MX-4711-A${String(i % 10000).padStart(4, '0')}  # line ${i}`
          : `  value-${i}: AB-12-X${i} MX-471-A0023 abcd-1234-efghi 2025-06-02T09:30:00Z ${'-'.repeat(i % 20)}`;
      lines.push(line);
      size += line.length + 1;
      i++;
    }
    return lines.join('\n');
  }

  it('scans 5 MB with the default pattern well under a second (no catastrophic backtracking)', () => {
    const text = fiveMegabytes();
    const matcher = createSerialMatcher();
    const started = performance.now();
    const found = matcher.findAll(text);
    const elapsed = performance.now() - started;
    assert.ok(found.length > 1000, `found ${found.length}`);
    // The bench holds the tight 50 ms target; this guards against regressions
    // by orders of magnitude without making CI flaky.
    assert.ok(elapsed < 1000, `took ${elapsed.toFixed(1)} ms`);
  });

  it('a pathological near-miss does not blow up the default pattern', () => {
    const text = `${'AAAA-'.repeat(200_000)}1234-`;
    const started = performance.now();
    assert.deepEqual(createSerialMatcher().findAll(text), []);
    assert.ok(performance.now() - started < 1000);
  });
});
