import assert from 'node:assert/strict';
import { createSerialMatcher } from '../../../../../src/core/domain/serialNumbers/serialMatcher';
import { excludeGlob, MAX_MATCHES_PER_FILE, SerialCollector } from '../../../../../src/core/domain/workspaceScan/workspaceSerials';

describe('Serial numbers in workspace files', () => {
  const matcher = createSerialMatcher({ denyList: ['AB-0000-00000'] });

  it('collects each serial number once with its first line per file, sorted', () => {
    const collector = new SerialCollector(matcher);
    collector.add('file:///a.yaml', 'line: 3\nserial: MX-4711-A0023\n  other: MX-4711-A0024 and MX-4711-A0023\n');
    collector.add('file:///b.txt', 'MX-4711-A0023 AB-0000-00000 XMX-4711-A0023X');
    assert.deepEqual(collector.result(), [
      {
        serialNumber: 'MX-4711-A0023',
        occurrences: 3,
        locations: [
          { file: 'file:///a.yaml', line: 1 },
          { file: 'file:///b.txt', line: 0 },
        ],
      },
      { serialNumber: 'MX-4711-A0024', occurrences: 1, locations: [{ file: 'file:///a.yaml', line: 2 }] },
    ]);
  });

  it('sorts by serial number in code-unit order, whatever order the files name them in', () => {
    const collector = new SerialCollector(createSerialMatcher({ pattern: '\\b[A-Za-z]{2}-\\d{4}\\b' }));
    collector.add('file:///a.txt', 'zz-0001 mx-0001 MX-0002 AB-0003 MX-0001');
    assert.deepEqual(
      collector.result().map((found) => found.serialNumber),
      ['AB-0003', 'MX-0001', 'MX-0002', 'mx-0001', 'zz-0001'],
    );
  });

  it('counts lines across LF and CRLF, several serial numbers on a line, and files without any', () => {
    const collector = new SerialCollector(matcher);
    collector.add('file:///none.txt', 'nothing\nhere\n');
    collector.add('file:///c.txt', '\n\r\nMX-4711-A0023 MX-4711-A0024\n\n\nWELD-3100-D0007\nMX-4711-A0024\n');
    assert.deepEqual(collector.result(), [
      { serialNumber: 'MX-4711-A0023', occurrences: 1, locations: [{ file: 'file:///c.txt', line: 2 }] },
      { serialNumber: 'MX-4711-A0024', occurrences: 2, locations: [{ file: 'file:///c.txt', line: 2 }] },
      { serialNumber: 'WELD-3100-D0007', occurrences: 1, locations: [{ file: 'file:///c.txt', line: 5 }] },
    ]);
  });

  it(`counts at most ${MAX_MATCHES_PER_FILE} serial numbers per file`, () => {
    const collector = new SerialCollector(matcher);
    collector.add('file:///many.txt', 'MX-4711-A0023\n'.repeat(MAX_MATCHES_PER_FILE + 5));
    assert.equal(collector.result()[0]?.occurrences, MAX_MATCHES_PER_FILE);
  });

  it('counts the files cut at the cap, and not a file that names exactly as many', () => {
    const collector = new SerialCollector(matcher);
    collector.add('file:///exact.txt', 'MX-4711-A0023\n'.repeat(MAX_MATCHES_PER_FILE));
    assert.equal(collector.filesCut, 0, 'a file of exactly the cap is whole');
    collector.add('file:///over.txt', 'MX-4711-A0024\n'.repeat(MAX_MATCHES_PER_FILE + 1));
    collector.add('file:///over2.txt', 'MX-4711-A0025\n'.repeat(MAX_MATCHES_PER_FILE + 7));
    assert.equal(collector.filesCut, 2, 'each file past the cap is counted once');
    assert.equal(collector.result().find((found) => found.serialNumber === 'MX-4711-A0024')?.occurrences, MAX_MATCHES_PER_FILE);
    const gate = new SerialCollector(matcher, Infinity);
    gate.add('file:///over.txt', 'MX-4711-A0024\n'.repeat(MAX_MATCHES_PER_FILE + 1));
    assert.equal(gate.filesCut, 0, 'no cap, no cut');
  });

  it('builds one exclude glob from files.exclude and search.exclude, leaving out disabled and conditional entries', () => {
    assert.equal(
      excludeGlob({ '**/.git': true, '**/x': false }, { '**/node_modules': true, '**/*.js': { when: '$(basename).ts' } }),
      '{**/.git,**/node_modules}',
    );
    assert.equal(excludeGlob({ '**/.git': true }, undefined), '**/.git');
    assert.equal(excludeGlob({}, {}), undefined);
  });
});
