// SerialIndex at its edges, beside hostile/documentIndex.test.ts (its costs): a document of
// exactly the line limit is whole, and one change event with edits in several places reads
// every line between the first and the last edit again.
import * as assert from 'node:assert/strict';
import { createSerialMatcher } from '../../../../../src/core/domain/serialNumbers/serialMatcher';
import { SerialIndex } from '../../../../../src/core/domain/serialNumbers/visibleSerials';

const matcher = createSerialMatcher();
const serialsOf = (index: SerialIndex): string[] => index.all().map((match) => `${match.line}:${match.serialNumber}`);

describe('serial index at its edges', () => {
  it('a document of exactly the line limit is read whole; one line more is cut', () => {
    const lines = ['MX-4711-A0001', '', '', '', 'MX-4711-A0005'];
    const whole = new SerialIndex(matcher, (line) => lines[line] ?? '', 5, { lines: 5, matches: 100 });
    assert.equal(whole.cut, undefined);
    assert.deepEqual(serialsOf(whole), ['0:MX-4711-A0001', '4:MX-4711-A0005']);
    const cut = new SerialIndex(matcher, (line) => [...lines, 'MX-4711-A0006'][line] ?? '', 6, { lines: 5, matches: 100 });
    assert.equal(cut.cut, 'lines');
    assert.deepEqual(serialsOf(cut), ['0:MX-4711-A0001', '4:MX-4711-A0005']);
  });

  it('reads again every line from the first edit to the last, whatever order the edits come in', () => {
    const before = ['', 'MX-4711-A0001', '', '', '', 'MX-4711-A0005', '', 'MX-4711-A0007'];
    const index = new SerialIndex(matcher, (line) => before[line] ?? '', before.length);
    const after = ['', 'MX-4711-B0001', '', 'MX-4711-B0003', '', 'MX-4711-B0005', '', 'MX-4711-A0007'];
    const edits = [
      { startLine: 5, endLine: 5, newLines: 0 },
      { startLine: 1, endLine: 1, newLines: 0 },
    ];
    assert.equal(
      index.update(edits, (line) => after[line] ?? '', after.length),
      true,
    );
    assert.deepEqual(serialsOf(index), ['1:MX-4711-B0001', '3:MX-4711-B0003', '5:MX-4711-B0005', '7:MX-4711-A0007']);
    assert.equal(index.matches, 4);
  });
});
