// The include glob at its edges: where `**` stands for folders and where for any text, literal braces,
// commas and brackets outside a group or class, negation by `!` or `^`, the length and depth limits,
// and a glob RE2 refuses.
import * as assert from 'node:assert/strict';
import { plainLocalize } from '../../../../../src/core/common/localize';
import { compileIncludeGlob, MAX_GLOB_LENGTH } from '../../../../../src/core/domain/workspaceScan/includeGlob';

function matches(pattern: string, path: string): boolean {
  const compiled = compileIncludeGlob(pattern, plainLocalize);
  if ('problem' in compiled) assert.fail(`${pattern}: ${compiled.problem}`);
  return compiled.matches(path);
}

describe('the include glob at its edges', () => {
  const cases: [string, string, boolean][] = [
    // `**` as a whole name is any number of folders, none included.
    ['**/*.yaml', 'c.yaml', true],
    ['x/**/y', 'x/y', true],
    ['x/**/y', 'x/a/b/y', true],
    ['***/a.txt', 'a.txt', true],
    ['***/a.txt', 'd/a.txt', true],
    // Inside a name, `**` is any text, slashes included, but the slash after it stays.
    ['a**/b', 'ab', false],
    ['a**/b', 'a/b', true],
    ['a**/b', 'ax/y/b', true],
    // Braces and commas outside a group are themselves.
    ['a}', 'a}', true],
    ['a,b', 'a,b', true],
    ['a,b', 'a', false],
    // An unclosed bracket is itself; a bracket first in a class is a member.
    ['a[b', 'a[b', true],
    ['a[b', 'ab', false],
    ['m[]x].txt', 'm].txt', true],
    ['m[]x].txt', 'mx.txt', true],
    ['m[]x].txt', 'my.txt', false],
    // `!` and `^` negate only at the start of a class; elsewhere they are members.
    ['m[^0-9].yaml', 'm7.yaml', false],
    ['m[^0-9].yaml', 'mx.yaml', true],
    ['m[!0-9].yaml', 'm!.yaml', true],
    ['m[0-9^].yaml', 'm^.yaml', true],
    ['m[0-9^].yaml', 'mx.yaml', false],
    ['m[a^].txt', 'm^.txt', true],
    ['m[a\\].txt', 'm\\.txt', true],
    ['m[!a].txt', 'm/.txt', false],
  ];
  for (const [pattern, path, expected] of cases)
    it(`${pattern} ${expected ? 'matches' : 'does not match'} ${path}`, () => {
      assert.equal(matches(pattern, path), expected);
    });

  it('takes a glob of exactly the longest length, and groups nested exactly as deep as allowed', () => {
    assert.equal(matches(`${'a'.repeat(MAX_GLOB_LENGTH - 1)}*`, 'a'.repeat(MAX_GLOB_LENGTH + 5)), true);
    assert.equal(matches(`${'{a,'.repeat(10)}b${'}'.repeat(10)}`, 'b'), true);
  });

  it('says what RE2 found wrong with a glob it cannot compile', () => {
    const compiled = compileIncludeGlob('m[z-a].txt', plainLocalize);
    assert.ok('problem' in compiled, 'a reversed range is refused');
    assert.match(compiled.problem, /range/i);
  });
});
