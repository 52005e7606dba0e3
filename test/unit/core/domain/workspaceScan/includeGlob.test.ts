// The include glob on RE2: VS Code's glob syntax, and linear time whatever the repository writes.
import * as assert from 'node:assert/strict';
import { plainLocalize } from '../../../../../src/core/common/localize';
import { compileIncludeGlob, MAX_GLOB_LENGTH, type IncludeGlob } from '../../../../../src/core/domain/workspaceScan/includeGlob';
import { DEFAULT_SCAN_INCLUDE } from '../../../../../src/core/domain/settings/settingsRules';

function glob(text: string): IncludeGlob {
  const compiled = compileIncludeGlob(text, plainLocalize);
  if ('problem' in compiled) assert.fail(compiled.problem);
  return compiled;
}

describe('the include glob (domain/workspaceScan/includeGlob.ts)', () => {
  it('matches as VS Code globs do: ** any folders, * and ? in one name, {a,b} nested, [ranges], [!negated]', () => {
    const cases: [string, string, boolean][] = [
      [DEFAULT_SCAN_INCLUDE, 'line1/cell.yaml', true],
      [DEFAULT_SCAN_INCLUDE, 'cell.yaml', true],
      [DEFAULT_SCAN_INCLUDE, 'a/b/.env', true],
      [DEFAULT_SCAN_INCLUDE, 'a/b/cell.png', false],
      ['**/*.yaml', 'a/b/c.yaml', true],
      ['src/*.ts', 'src/a.ts', true],
      ['src/*.ts', 'src/a/b.ts', false],
      ['src/**', 'src/a/b.ts', true],
      ['?.md', 'a.md', true],
      ['?.md', 'ab.md', false],
      ['**/{cell,line{1,2}}.txt', 'x/line2.txt', true],
      ['**/{cell,line{1,2}}.txt', 'x/line3.txt', false],
      ['**/m[0-9].yaml', 'm7.yaml', true],
      ['**/m[!0-9].yaml', 'm7.yaml', false],
      ['**/m[!0-9].yaml', 'mx.yaml', true],
      ['a+b(c).txt', 'a+b(c).txt', true],
      ['a+b(c).txt', 'aab(c).txt', false],
    ];
    for (const [pattern, path, expected] of cases) assert.equal(glob(pattern).matches(path), expected, `${pattern} on ${path}`);
  });

  it('matches a backtracking glob in linear time: a long name takes milliseconds, not minutes', () => {
    const hostile = glob('**/@(a*)*(a*)*(a*)*(a*)b');
    const started = Date.now();
    for (let length = 20; length <= 2000; length += 20) assert.equal(hostile.matches('a'.repeat(length)), false);
    assert.ok(Date.now() - started < 2000, `${Date.now() - started} ms`);
  });

  it('refuses a glob too long or too deep, and an open group, with words for the message', () => {
    const problem = (text: string): string => {
      const compiled = compileIncludeGlob(text, plainLocalize);
      assert.ok('problem' in compiled, text);
      return compiled.problem;
    };
    assert.equal(problem('*'.repeat(MAX_GLOB_LENGTH + 1)), `it is longer than ${MAX_GLOB_LENGTH} characters`);
    assert.equal(problem(`${'{a,'.repeat(11)}b${'}'.repeat(11)}`), 'its brace groups are nested deeper than 10');
    assert.equal(problem('{a,b'), 'a brace group is not closed');
  });
});
