import assert from 'node:assert/strict';
import { plainLocalize, type Localize } from '../../../src/common/localize';
import { checkSerialNumber, serialNumberArgument } from '../../../src/domain/serialNumbers/serialNumberInput';

describe('serial number input', () => {
  const accepted: readonly [string, string][] = [
    ['MX-4711-A0023', 'MX-4711-A0023'],
    ['  MX-4711-A0023\n', 'MX-4711-A0023'],
    ['anything the pattern would not match', 'anything the pattern would not match'],
  ];
  for (const [input, serialNumber] of accepted) {
    it(`accepts ${JSON.stringify(input)} as ${serialNumber}`, () => {
      assert.deepEqual(checkSerialNumber(input, plainLocalize), { ok: true, serialNumber });
    });
  }

  const refused: readonly [string, RegExp][] = [
    ['', /it is empty/],
    ['   ', /it is empty/],
    ['X'.repeat(129), /at most 128 characters; this one has 129/],
    ['MX-4711\tA0023', /control character/],
  ];
  for (const [input, why] of refused) {
    it(`refuses ${JSON.stringify(input.slice(0, 20))} and says why, by the core's rules`, () => {
      const result = checkSerialNumber(input, plainLocalize);
      assert.ok(!result.ok);
      assert.match(result.message, why);
    });
  }

  it('words the reason through the t it is given, so the user reads it in their language', () => {
    const german: Localize = (message, ...args) =>
      message === 'Enter a serial number: it is empty.' ? 'Geben Sie eine Seriennummer ein.' : plainLocalize(message, ...args);
    assert.deepEqual(checkSerialNumber(' ', german), { ok: false, message: 'Geben Sie eine Seriennummer ein.' });
  });
});

describe('serial number command argument', () => {
  // Commands are run by palette, keybindings, command links and other extensions: any value can arrive.
  const cases: readonly [string, unknown, string | undefined][] = [
    ['a string', 'MX-4711-A0023', 'MX-4711-A0023'],
    ['a string as typed (checked later, not here)', ' MX-4711-A0023 ', ' MX-4711-A0023 '],
    ['an empty string', '', ''],
    ['{ serialNumber }', { serialNumber: 'MX-4711-A0023' }, 'MX-4711-A0023'],
    ['{ serialNumber, key } as the hover passes it', { serialNumber: 'MX-4711-A0023', key: 'k' }, 'MX-4711-A0023'],
    ['{ serialNumber } that is not a string', { serialNumber: 4711 }, undefined],
    ['an object without serialNumber', { serial: 'MX-4711-A0023' }, undefined],
    ['an array', ['MX-4711-A0023'], undefined],
    ['null', null, undefined],
    ['undefined (the palette)', undefined, undefined],
    ['a number', 4711, undefined],
  ];
  for (const [what, arg, expected] of cases) {
    it(`${what} gives ${expected === undefined ? 'undefined' : JSON.stringify(expected)}`, () => {
      assert.equal(serialNumberArgument(arg), expected);
    });
  }
});
