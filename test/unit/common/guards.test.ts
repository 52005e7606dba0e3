import * as assert from 'node:assert/strict';
import { isRecord, stringsOf } from '../../../src/core/common/guards';

describe('guards for untrusted values', () => {
  const records: readonly [unknown, boolean][] = [
    [{}, true],
    [{ a: 1 }, true],
    [null, false],
    [[], false],
    ['text', false],
    [undefined, false],
  ];
  for (const [value, expected] of records) {
    it(`isRecord(${JSON.stringify(value)}) is ${expected}`, () => {
      assert.equal(isRecord(value), expected);
    });
  }

  const strings: readonly [unknown, string[]][] = [
    [
      ['a', 1, 'b', null],
      ['a', 'b'],
    ],
    [[], []],
    ['a', []],
    [undefined, []],
    [{ 0: 'a', length: 1 }, []],
  ];
  for (const [value, expected] of strings) {
    it(`stringsOf(${JSON.stringify(value)}) keeps only the strings of an array: ${JSON.stringify(expected)}`, () => {
      assert.deepEqual(stringsOf(value), expected);
    });
  }
});
