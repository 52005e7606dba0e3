// Hostile corpus: what one open document may cost the Problems panel. A file
// of a million lines (under the 5 MB limit) used to be read line by line on
// every answer from the API: 1.19 s and +88 MB the first time, 0.29 s each
// time after. Now its serial numbers are indexed once, bounded, and kept
// current by edits, so an answer costs the lines that hold its serial number
// and an edit the lines it touched (issue 24 item 3).
import assert from 'node:assert/strict';
import { createSerialMatcher } from '../../../../../src/core/domain/serialNumbers/serialMatcher';
import {
  MAX_INDEXED_LINES,
  MAX_INDEXED_MATCHES,
  SerialIndex,
  type LineEdit,
} from '../../../../../src/core/domain/serialNumbers/visibleSerials';

const matcher = createSerialMatcher();
const serial = (i: number): string =>
  `MX-${String(1000 + Math.floor(i / 10_000)).padStart(4, '0')}-A${String(i % 10_000).padStart(4, '0')}`;

/** A document as lines, with a count of the lines read from it. */
function document(lines: string[]) {
  let read = 0;
  return {
    lines,
    lineText: (line: number): string => {
      read++;
      return lines[line] ?? '';
    },
    read: () => read,
    resetRead: () => {
      read = 0;
    },
  };
}

/** Replaces old lines start..end (both included) with `text`, as an editor does, and says so as a LineEdit. */
function edit(doc: ReturnType<typeof document>, start: number, end: number, text: string): LineEdit {
  const replacement = text.split('\n');
  doc.lines.splice(start, end - start + 1, ...replacement);
  return { startLine: start, endLine: end, newLines: replacement.length - 1 };
}

describe('hostile input: what one open document may cost the Problems panel', () => {
  it('a million empty lines: at most MAX_INDEXED_LINES are read, and the index says it was cut', () => {
    const doc = document(Array.from({ length: 1_000_000 }, () => ''));
    doc.lines[10] = `serial ${serial(1)}`;
    const index = new SerialIndex(matcher, doc.lineText, doc.lines.length);
    assert.ok(doc.read() <= MAX_INDEXED_LINES, `${doc.read()} lines read`);
    assert.equal(index.cut, 'lines');
    assert.deepEqual([...index.bySerial().keys()], [serial(1)]);
  });

  it('a million serial numbers: at most MAX_INDEXED_MATCHES are kept', () => {
    const doc = document(Array.from({ length: 20_000 }, (_, i) => `${serial(i)} ${serial(i + 20_000)}`));
    const index = new SerialIndex(matcher, doc.lineText, doc.lines.length);
    assert.equal(index.matches, MAX_INDEXED_MATCHES);
    assert.equal(index.cut, 'matches');
  });

  it('where one serial number is costs no reading once indexed', () => {
    const doc = document(Array.from({ length: 40_000 }, (_, i) => (i % 100 === 0 ? `- ${serial(i)}` : '  note: nothing here')));
    const index = new SerialIndex(matcher, doc.lineText, doc.lines.length);
    doc.resetRead();
    assert.deepEqual(
      index
        .bySerial()
        .get(serial(3_700))
        ?.map((match) => match.line),
      [3_700],
    );
    assert.equal(doc.read(), 0);
  });

  it('an edit reads only the lines it touched, and the index then equals a new one', () => {
    const doc = document(Array.from({ length: 40_000 }, (_, i) => (i % 100 === 0 ? `- ${serial(i)}` : '  note')));
    const index = new SerialIndex(matcher, doc.lineText, doc.lines.length);
    const edits: (() => LineEdit)[] = [
      () => edit(doc, 5, 5, `typed ${serial(77_777)}`),
      () => edit(doc, 100, 300, 'pasted over three serial numbers'),
      () => edit(doc, 0, 0, `a\nb\n${serial(55_555)}\nc`),
      () => edit(doc, 39_000, 39_002, ''),
    ];
    assert.equal(index.bySerial().has(serial(77_777)), false);
    for (const make of edits) {
      doc.resetRead();
      const change = make();
      assert.equal(index.update([change], doc.lineText, doc.lines.length), true);
      assert.ok(doc.read() <= change.newLines + 1, `${doc.read()} lines read for one edit`);
      const fresh = new SerialIndex(matcher, document(doc.lines).lineText, doc.lines.length);
      assert.deepEqual(index.all(), fresh.all());
      assert.deepEqual(index.bySerial(), fresh.bySerial());
    }
  });

  it('serial numbers typed and pasted by those edits are found where they landed', () => {
    const doc = document(['one', 'two']);
    const index = new SerialIndex(matcher, doc.lineText, doc.lines.length);
    index.update([edit(doc, 1, 1, `x ${serial(77_777)}`)], doc.lineText, doc.lines.length);
    index.update([edit(doc, 0, 0, `a\nb\n${serial(55_555)}`)], doc.lineText, doc.lines.length);
    assert.deepEqual(
      index.all().map((match) => [match.line, match.serialNumber]),
      [
        [2, serial(55_555)],
        [3, serial(77_777)],
      ],
    );
  });

  it('an index that was cut asks to be built again rather than guess which lines moved in', () => {
    const doc = document(Array.from({ length: MAX_INDEXED_LINES + 10 }, () => ''));
    const index = new SerialIndex(matcher, doc.lineText, doc.lines.length);
    assert.equal(index.update([edit(doc, 0, 0, '')], doc.lineText, doc.lines.length), false);
  });
});
