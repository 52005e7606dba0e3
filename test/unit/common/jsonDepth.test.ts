import * as assert from 'node:assert/strict';
import { jsonDepth, MAX_JSON_DEPTH, pruneDeepJson, TOO_DEEP } from '../../../src/core/common/jsonDepth';

/** `{ a: { a: … 1 } }`, `levels` objects deep. */
function nested(levels: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

describe('JSON depth and pruning', () => {
  const depths: readonly [unknown, number][] = [
    [1, 0],
    [null, 0],
    ['text', 0],
    [[], 1],
    [{}, 1],
    [{ a: null, b: 'x' }, 1],
    [[[1]], 2],
    [{ a: { b: [] } }, 3],
    [[1, [2, [3]], {}], 3],
    [[{}, [[[]]]], 4],
  ];
  for (const [value, expected] of depths) {
    it(`jsonDepth(${JSON.stringify(value)}) is ${expected}`, () => {
      assert.equal(jsonDepth(value), expected);
    });
  }

  it('stops counting at the first level above the limit', () => {
    assert.equal(jsonDepth(nested(10), 2), 3);
    assert.equal(jsonDepth(nested(10), 10), 10);
    assert.equal(jsonDepth(nested(3), 3), 3);
  });

  it('replaces what lies below maxDepth, in objects and arrays, and keeps scalars and nulls above it', () => {
    assert.deepEqual(pruneDeepJson({ a: { b: { c: 1 } }, n: null, s: 's' }, 2), { a: { b: TOO_DEEP }, n: null, s: 's' });
    assert.deepEqual(pruneDeepJson([1, [2, [3]], 'x', null], 2), [1, [2, TOO_DEEP], 'x', null]);
    assert.deepEqual(pruneDeepJson({ list: [[1], 2] }, 2), { list: [TOO_DEEP, 2] });
    assert.deepEqual(pruneDeepJson({ empty: [], kept: {}, deep: [[[1]]] }, 2), { empty: [], kept: {}, deep: [TOO_DEEP] });
  });

  it('returns a value exactly maxDepth deep as it is, and prunes one level deeper', () => {
    const exact = nested(2);
    assert.equal(pruneDeepJson(exact, 2), exact);
    assert.deepEqual(pruneDeepJson(nested(3), 2), { a: { a: TOO_DEEP } });
  });

  it(`by default keeps ${MAX_JSON_DEPTH} levels and prunes the ${MAX_JSON_DEPTH + 1}th`, () => {
    const kept = nested(MAX_JSON_DEPTH);
    assert.equal(pruneDeepJson(kept), kept);
    const pruned = pruneDeepJson(nested(MAX_JSON_DEPTH + 1));
    assert.notEqual(pruned, undefined);
    assert.equal(jsonDepth(pruned), MAX_JSON_DEPTH);
    assert.equal(MAX_JSON_DEPTH, 64);
    assert.equal(TOO_DEEP, '[nested too deeply to show]');
  });
});
