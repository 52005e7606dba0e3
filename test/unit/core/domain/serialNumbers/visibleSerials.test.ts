import * as assert from 'node:assert/strict';
import { createSerialMatcher } from '../../../../../src/core/domain/serialNumbers/serialMatcher';
import {
  distinctSerials,
  LineMatchCache,
  linesToScan,
  MAX_MATCHED_LINE_LENGTH,
} from '../../../../../src/core/domain/serialNumbers/visibleSerials';

describe('visible serial numbers', () => {
  describe('linesToScan', () => {
    const cases: [string, { start: number; end: number }[], number, number, { start: number; end: number }[]][] = [
      ['grows by the margin and clamps to the document', [{ start: 5, end: 10 }], 100, 3, [{ start: 2, end: 13 }]],
      ['clamps at both ends', [{ start: 0, end: 98 }], 100, 5, [{ start: 0, end: 99 }]],
      [
        'merges overlapping and touching ranges (folded regions)',
        [
          { start: 30, end: 40 },
          { start: 0, end: 10 },
          { start: 11, end: 20 },
        ],
        100,
        0,
        [
          { start: 0, end: 20 },
          { start: 30, end: 40 },
        ],
      ],
      [
        'merges ranges the margin joins',
        [
          { start: 0, end: 10 },
          { start: 14, end: 20 },
        ],
        100,
        2,
        [{ start: 0, end: 22 }],
      ],
      ['gives nothing for an empty document', [{ start: 0, end: 0 }], 0, 5, []],
      ['keeps a range of one line', [{ start: 5, end: 5 }], 100, 0, [{ start: 5, end: 5 }]],
      [
        'drops a range wholly past the end of the document (it changed under the editor)',
        [
          { start: 0, end: 3 },
          { start: 150, end: 160 },
        ],
        100,
        0,
        [{ start: 0, end: 3 }],
      ],
    ];
    for (const [name, ranges, lineCount, margin, expected] of cases) {
      it(name, () => {
        assert.deepEqual(linesToScan(ranges, lineCount, margin), expected);
      });
    }
  });

  describe('LineMatchCache', () => {
    const matcher = createSerialMatcher();
    const lines = Array.from({ length: 100 }, (_, i) =>
      i % 10 === 0 ? `- serial: MX-4711-A${String(i).padStart(4, '0')} # and MX-4711-A0023` : `line ${i}`,
    );

    it('finds the serial numbers on the given lines only, with line and character positions', () => {
      const cache = new LineMatchCache(matcher);
      const found = cache.matchesIn((line) => lines[line] ?? '', [{ start: 5, end: 25 }]);
      assert.deepEqual(
        found.map((m) => [m.line, m.start, m.end, m.serialNumber]),
        [
          [10, 10, 23, 'MX-4711-A0010'],
          [10, 30, 43, 'MX-4711-A0023'],
          [20, 10, 23, 'MX-4711-A0020'],
          [20, 30, 43, 'MX-4711-A0023'],
        ],
      );
      assert.deepEqual(distinctSerials(found), ['MX-4711-A0010', 'MX-4711-A0023', 'MX-4711-A0020']);
    });

    it('reads each line once until reset (scrolling back costs no matching)', () => {
      const cache = new LineMatchCache(matcher);
      const read: number[] = [];
      const text = (line: number) => {
        read.push(line);
        return lines[line] ?? '';
      };
      cache.matchesIn(text, [{ start: 0, end: 9 }]);
      cache.matchesIn(text, [{ start: 5, end: 14 }]);
      assert.deepEqual(read, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]);
      cache.reset();
      cache.matchesIn(text, [{ start: 0, end: 0 }]);
      assert.equal(read.length, 16);
    });

    it('stops at the limit', () => {
      const cache = new LineMatchCache(matcher);
      assert.equal(cache.matchesIn((line) => lines[line] ?? '', [{ start: 0, end: 99 }], 3).length, 3);
    });

    it('looks only at the start of a very long line', () => {
      const cache = new LineMatchCache(matcher);
      const long = `${'x '.repeat(MAX_MATCHED_LINE_LENGTH)} MX-4711-A0023`;
      assert.deepEqual(
        cache.matchesIn(() => long, [{ start: 0, end: 0 }]),
        [],
      );
    });

    it('uses a new matcher after reset(matcher) (the deny list changed)', () => {
      const cache = new LineMatchCache(matcher);
      const text = () => 'MX-4711-A0023';
      assert.equal(cache.matchesIn(text, [{ start: 0, end: 0 }]).length, 1);
      cache.reset(createSerialMatcher({ denyList: ['MX-4711-A0023'] }));
      assert.equal(cache.matchesIn(text, [{ start: 0, end: 0 }]).length, 0);
    });
  });
});
