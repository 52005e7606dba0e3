// Hostile corpus: serial-number patterns a workspace's settings can hold.
// Each runs on RE2, so each hostile 10 kB line is scanned in linear time; the
// bench (`npm run bench`) holds the tight 50 ms target, this guards against
// a regression by orders of magnitude. On the old matcher (V8's backtracking
// RegExp) the first rows never finish: the extension host freezes.
import assert from 'node:assert/strict';
import { createSerialMatcher } from '../../../../../src/core/domain/serialNumbers/serialMatcher';
import { HOSTILE_LINES, HOSTILE_PATTERN_ROWS } from '../../../hostile/patternRows';

describe('hostile input: serial-number patterns run in linear time', () => {
  for (const row of HOSTILE_PATTERN_ROWS) {
    it(`${row.pattern} is accepted and scans every hostile 10 kB line quickly`, () => {
      const matcher = createSerialMatcher({ pattern: row.pattern });
      assert.equal(matcher.problem, undefined);
      for (const [name, line] of Object.entries(HOSTILE_LINES)) {
        const started = performance.now();
        matcher.findAll(line);
        matcher.matchAt(line, line.length >> 1);
        const ms = performance.now() - started;
        assert.ok(ms < 500, `${name}: ${ms.toFixed(1)} ms`);
      }
    });
  }

  const refused: readonly [string, RegExp][] = [
    ['(\\w)\\1', /backreferences .* spell out the repeated part/],
    ['MX(?=-\\d{4})', /lookaheads .* instead/],
    ['\\p{L}{1,1000}', /too complex/],
    ['x'.repeat(5000), /longer than/],
  ];
  for (const [pattern, why] of refused) {
    it(`${pattern.slice(0, 30)} is refused with a message that says what to change`, () => {
      const matcher = createSerialMatcher({ pattern });
      assert.match(matcher.problem ?? '', why);
    });
  }

  const markup: readonly string[] = [
    '[Open](command:workbench.action.terminal.new)',
    'A$(alert)B',
    'MX\u202e3200-4711',
    'MX\u200b4711X',
    'MX-4711\u0007',
  ];
  for (const text of markup) {
    it(`a pattern that matches ${JSON.stringify(text)} still yields no serial number (markup, bidi and control characters are refused)`, () => {
      const matcher = createSerialMatcher({ pattern: '\\S{6,}' });
      assert.deepEqual(matcher.findAll(text), []);
      assert.equal(matcher.isSerialNumber(text), false);
    });
  }
});
