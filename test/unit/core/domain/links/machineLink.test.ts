import * as assert from 'node:assert/strict';
import { plainLocalize } from '../../../../../src/core/common/localize';
import { machineLinkQuery, parseMachineLink } from '../../../../../src/core/domain/links/machineLink';

const parse = (path: string, query: string) => parseMachineLink(path, query, plainLocalize);

describe('machine links (untrusted input from tickets and chat)', () => {
  it('reads serial, environment and timestamp', () => {
    assert.deepEqual(parse('/machine', 'serial=MX-4711-A0023&environment=Production&timestamp=1717320000'), {
      ok: true,
      link: { serialNumber: 'MX-4711-A0023', environment: 'Production', timestamp: 1717320000 },
    });
  });

  it('round-trips what Copy Link writes, including characters that need escaping', () => {
    const link = { serialNumber: 'MX-4711-A0023', environment: 'Plant A & B' };
    assert.deepEqual(parse('/machine', machineLinkQuery(link)), { ok: true, link });
  });

  it('reads watch=1 (or true) as a request to watch, and round-trips it; any other value asks for nothing', () => {
    assert.deepEqual(parse('/machine', 'serial=MX-4711-A0023&watch=1'), { ok: true, link: { serialNumber: 'MX-4711-A0023', watch: true } });
    assert.deepEqual(parse('/machine', 'serial=MX-4711-A0023&watch=true'), {
      ok: true,
      link: { serialNumber: 'MX-4711-A0023', watch: true },
    });
    assert.deepEqual(parse('/machine', 'serial=MX-4711-A0023&watch=0'), { ok: true, link: { serialNumber: 'MX-4711-A0023' } });
    const link = { serialNumber: 'MX-4711-A0023', watch: true };
    assert.deepEqual(parse('/machine', machineLinkQuery(link)), { ok: true, link });
    assert.match(JSON.stringify(parse('/machine', 'serial=MX-4711-A0023&watch=1&watch=1')), /more than once/);
  });

  it('ignores unknown parameters', () => {
    assert.deepEqual(parse('/machine', 'serial=MX-4711-A0023&utm_source=chat'), { ok: true, link: { serialNumber: 'MX-4711-A0023' } });
  });

  const refused: [string, string, string, RegExp][] = [
    ['another path', '/command', 'serial=MX-4711-A0023', /does not point to a machine/],
    ['no serial', '/machine', 'environment=Production', /names no serial number/],
    ['a serial given twice', '/machine', 'serial=A&serial=B', /more than once/],
    ['an overlong serial', '/machine', `serial=${'A'.repeat(500)}`, /too long/],
    ['a control character in the serial', '/machine', 'serial=MX-4711%0AA0023', /control character/],
    ['a control character in the environment', '/machine', 'serial=MX-4711-A0023&environment=Prod%0Auction', /environment name/],
    ['an overlong environment', '/machine', `serial=MX-4711-A0023&environment=${'e'.repeat(101)}`, /environment name/],
    ['a timestamp that is no integer', '/machine', 'serial=MX-4711-A0023&timestamp=1e9', /timestamp/],
    ['a timestamp beyond safe integers', '/machine', 'serial=MX-4711-A0023&timestamp=99999999999999999', /timestamp/],
    ['an overlong query', '/machine', `serial=MX-4711-A0023&x=${'y'.repeat(3000)}`, /too long/],
  ];
  for (const [name, path, query, problem] of refused) {
    it(`refuses ${name}`, () => {
      const parsed = parse(path, query);
      assert.ok(!parsed.ok);
      assert.match(parsed.problem, problem);
    });
  }
});

describe('machine links: the exact problem and the edges', () => {
  const base = 'serial=MX-4711-A0023&x=';
  const ofLength = (length: number): string => base + 'y'.repeat(length - base.length);
  const problems: [string, string, string][] = [
    ['a query over 2048 characters', ofLength(2049), 'it is too long'],
    ['the environment twice', 'serial=MX-4711-A0023&environment=A&environment=B', 'it names "environment" more than once'],
    ['the timestamp twice', 'serial=MX-4711-A0023&timestamp=1&timestamp=2', 'it names "timestamp" more than once'],
    ['the serial twice', 'serial=A&serial=A', 'it names "serial" more than once'],
    ['no serial', 'environment=Production', 'it names no serial number'],
    ['a blank serial', 'serial=%20%20', 'it names no serial number'],
    ['a serial of 131 characters with its spaces', `serial=%20${'X'.repeat(129)}%20`, 'its serial number is too long'],
    [
      'an invisible character in the serial',
      'serial=MX-4711-%E2%80%AEA0023',
      'The serial number contains an invisible or right-to-left formatting character, so it would not read as what it is. Type it again.',
    ],
    ['an environment of 101 characters', `serial=MX-4711-A0023&environment=${'e'.repeat(101)}`, 'its environment name cannot be one'],
    ['DEL in the environment', 'serial=MX-4711-A0023&environment=Prod%7F', 'its environment name cannot be one'],
    ['a C1 control in the environment', 'serial=MX-4711-A0023&environment=Prod%C2%85', 'its environment name cannot be one'],
    ['a line separator in the environment', 'serial=MX-4711-A0023&environment=Prod%E2%80%A8uction', 'its environment name cannot be one'],
    [
      'a paragraph separator in the environment',
      'serial=MX-4711-A0023&environment=Prod%E2%80%A9uction',
      'its environment name cannot be one',
    ],
    ['a timestamp with a space after it', 'serial=MX-4711-A0023&timestamp=123%20', 'its timestamp is not a whole number'],
    ['a timestamp with a space before it', 'serial=MX-4711-A0023&timestamp=%20123', 'its timestamp is not a whole number'],
    ['a timestamp with a plus sign', 'serial=MX-4711-A0023&timestamp=%2B123', 'its timestamp is not a whole number'],
    ['a hexadecimal timestamp', 'serial=MX-4711-A0023&timestamp=0x10', 'its timestamp is not a whole number'],
    ['a 16-digit timestamp beyond safe integers', 'serial=MX-4711-A0023&timestamp=9999999999999999', 'its timestamp is not a whole number'],
  ];
  for (const [name, query, problem] of problems) {
    it(`refuses ${name}: "${problem.slice(0, 40)}"`, () => {
      assert.deepEqual(parse('/machine', query), { ok: false, problem });
    });
  }

  const accepted: [string, string, Record<string, unknown>][] = [
    ['a query of exactly 2048 characters', ofLength(2048), { serialNumber: 'MX-4711-A0023' }],
    ['a serial of 128 characters between spaces', `serial=%20${'X'.repeat(128)}%20`, { serialNumber: 'X'.repeat(128) }],
    ['a blank environment (left out)', 'serial=MX-4711-A0023&environment=%20%20', { serialNumber: 'MX-4711-A0023' }],
    [
      'an environment of 100 characters, trimmed',
      `serial=MX-4711-A0023&environment=%20${'e'.repeat(99)}`,
      { serialNumber: 'MX-4711-A0023', environment: 'e'.repeat(99) },
    ],
    [
      'an environment with a no-break space',
      'serial=MX-4711-A0023&environment=Plant%C2%A0A',
      { serialNumber: 'MX-4711-A0023', environment: 'Plant\u00a0A' },
    ],
    ['an empty timestamp (left out)', 'serial=MX-4711-A0023&timestamp=', { serialNumber: 'MX-4711-A0023' }],
    ['a negative timestamp', 'serial=MX-4711-A0023&timestamp=-5', { serialNumber: 'MX-4711-A0023', timestamp: -5 }],
    [
      'the largest safe timestamp',
      'serial=MX-4711-A0023&timestamp=9007199254740991',
      { serialNumber: 'MX-4711-A0023', timestamp: 9007199254740991 },
    ],
    ['a one-digit timestamp', 'serial=MX-4711-A0023&timestamp=7', { serialNumber: 'MX-4711-A0023', timestamp: 7 }],
  ];
  for (const [name, query, link] of accepted) {
    it(`accepts ${name}`, () => {
      assert.deepEqual(parse('/machine', query), { ok: true, link });
    });
  }

  it('refuses a path that is /machine with a trailing slash: "it does not point to a machine"', () => {
    assert.deepEqual(parse('/machine/', 'serial=MX-4711-A0023'), { ok: false, problem: 'it does not point to a machine' });
  });

  it('words its problems through the t it is given', () => {
    const marked = (message: string, ...args: (string | number | boolean)[]) => `«${plainLocalize(message, ...args)}»`;
    assert.deepEqual(parseMachineLink('/machine', 'serial=A&serial=B', marked), {
      ok: false,
      problem: '«it names "serial" more than once»',
    });
  });

  it('writes only the parameters a link has', () => {
    assert.equal(machineLinkQuery({ serialNumber: 'MX-4711-A0023' }), 'serial=MX-4711-A0023');
    assert.equal(machineLinkQuery({ serialNumber: 'MX-4711-A0023', timestamp: 1717320000 }), 'serial=MX-4711-A0023&timestamp=1717320000');
    assert.equal(
      machineLinkQuery({ serialNumber: 'MX-4711-A0023', environment: 'Plant A', timestamp: -1 }),
      'serial=MX-4711-A0023&environment=Plant+A&timestamp=-1',
    );
  });
});
