import * as assert from 'node:assert/strict';
import { definedOnly } from '../../../src/core/common/definedOnly';

describe('definedOnly: options without their undefined fields', () => {
  it('drops undefined fields and keeps every other value, falsy ones and null included', () => {
    const out = definedOnly({ a: undefined, b: 0, c: '', d: null, e: false, f: 'x' });
    assert.deepEqual(out, { b: 0, c: '', d: null, e: false, f: 'x' });
    assert.equal('a' in out, false);
  });

  it('gives an empty object when nothing is defined', () => {
    assert.deepEqual(definedOnly({ lookup: undefined }), {});
  });
});
