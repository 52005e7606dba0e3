import assert from 'node:assert/strict';
import { plainLocalize, type Localize } from '../../../../../src/core/common/localize';
import { checkSerialNumber, serialNumberArgument } from '../../../../../src/core/domain/serialNumbers/serialNumberInput';

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

  // A t that marks what it words: each reason must come through it, not as the core's English.
  const marked: Localize = (message, ...args) => `«${plainLocalize(message, ...args)}»`;
  const worded: readonly [string, string, string][] = [
    ['an empty input', '  ', '«Enter a serial number: it is empty.»'],
    ['an overlong input', ` ${'X'.repeat(129)} `, '«A serial number is at most 128 characters; this one has 129. Check what was pasted.»'],
    [
      'a line break',
      'MX-4711\nA0023',
      '«The serial number contains a control character (such as a tab or line break). Remove it and try again.»',
    ],
    [
      'a C1 control character',
      'MX-4711\u0085A0023',
      '«The serial number contains a control character (such as a tab or line break). Remove it and try again.»',
    ],
    [
      'a right-to-left override',
      'MX-4711-\u202eA0023',
      '«The serial number contains an invisible or right-to-left formatting character, so it would not read as what it is. Type it again.»',
    ],
    [
      'a zero-width space',
      'MX-4711\u200b-A0023',
      '«The serial number contains an invisible or right-to-left formatting character, so it would not read as what it is. Type it again.»',
    ],
    [
      'a Markdown link',
      'MX-4711](command:x)',
      '«The serial number contains "](" or "$(", which are never part of a serial number. Check what was pasted.»',
    ],
    [
      'an icon',
      'MX-$(alert)',
      '«The serial number contains "](" or "$(", which are never part of a serial number. Check what was pasted.»',
    ],
  ];
  for (const [what, input, message] of worded) {
    it(`refuses ${what} in the words of the t it is given`, () => {
      assert.deepEqual(checkSerialNumber(input, marked), { ok: false, message });
    });
  }

  it('names the control character, not the length, in an input of exactly 128 characters', () => {
    assert.deepEqual(checkSerialNumber(`MX\t${'X'.repeat(125)}`, marked), {
      ok: false,
      message: '«The serial number contains a control character (such as a tab or line break). Remove it and try again.»',
    });
  });

  it('accepts exactly 128 characters (after trimming) and refuses 129', () => {
    assert.deepEqual(checkSerialNumber(` ${'X'.repeat(128)} `, marked), { ok: true, serialNumber: 'X'.repeat(128) });
    assert.equal(checkSerialNumber('X'.repeat(129), marked).ok, false);
  });

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
    [
      'a Machines tree node, as a menu passes it',
      { kind: 'machine', id: 'pinned/MX-4711-A0023', serialNumber: 'MX-4711-A0023' },
      'MX-4711-A0023',
    ],
    ['{ event } as an event node passes it', { event: { serialNumber: 'MX-4711-A0023', key: 'k' } }, 'MX-4711-A0023'],
    ['{ event } whose serial number is not a string', { event: { serialNumber: 4711 } }, undefined],
    ['{ event } that is not an object', { event: 'MX-4711-A0023' }, undefined],
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
