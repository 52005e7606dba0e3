import * as assert from 'node:assert/strict';
import { plainLocalize } from '../../../src/common/localize';
import { machineLinkQuery, parseMachineLink } from '../../../src/domain/links/machineLink';

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
