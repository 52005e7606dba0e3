import assert from 'node:assert/strict';
import { csvCell, defaultExportName, eventsToCsv, eventsToJson, formatOf } from '../../../../../src/core/domain/events/exportEvents';
import { event, SERIAL, T0 } from '../../../machines/fixtures';

describe('Exporting events', () => {
  it('quotes CSV cells with separators, quotes or line breaks (RFC 4180)', () => {
    assert.equal(csvCell('plain'), 'plain');
    assert.equal(csvCell('a,b'), '"a,b"');
    assert.equal(csvCell('say "hi"'), '"say ""hi"""');
    assert.equal(csvCell('two\nlines'), '"two\nlines"');
  });

  it('guards cells a spreadsheet would run as a formula', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r'])
      assert.equal(csvCell(`${start}1+1`).replace(/^"/, '').startsWith(`'${start}`), true, JSON.stringify(start));
    assert.equal(csvCell('=HYPERLINK("http://evil.invalid","x")'), `"'=HYPERLINK(""http://evil.invalid"",""x"")"`);
    assert.equal(csvCell('a=b'), 'a=b', 'only a leading character is dangerous');
    for (const sneaky of [' =1+1', '\u3000=1+1', '\uFF1D1+1', '\uFF0B1', '\uFF0D1', '\uFF20SUM(A1)']) {
      assert.equal(csvCell(sneaky).startsWith("'"), true, `${JSON.stringify(sneaky)} is guarded (leading space or fullwidth form)`);
    }
  });

  it('writes a header, one row per event, CRLF line ends and a BOM', () => {
    const created = event({
      minute: 1,
      type: 'MACHINE_CREATED',
      message: 'Created, finally',
      assetId: '3f2b8c1e-7a4d-4e4b-9a6f-1c2d3e4f5a6b',
    });
    const csv = eventsToCsv(SERIAL, [created, event({ minute: 0, type: '-1', message: '@admin' })]);
    assert.ok(csv.startsWith('\uFEFFserialNumber,type,message,timestamp,timeUtc,assetId,machineLink\r\n'));
    const rows = csv.slice(1).split('\r\n');
    assert.equal(rows.length, 4);
    assert.equal(
      rows[1],
      `${SERIAL},MACHINE_CREATED,"Created, finally",${T0 + 60_000},2025-01-15T08:01:00.000Z,3f2b8c1e-7a4d-4e4b-9a6f-1c2d3e4f5a6b,http://fake-api.base.invalid/public/api/machines/3f2b8c1e-7a4d-4e4b-9a6f-1c2d3e4f5a6b`,
    );
    assert.equal(rows[2], `${SERIAL},'-1,'@admin,${T0},2025-01-15T08:00:00.000Z,,`);
    assert.equal(rows[3], '');
  });

  it('writes JSON with the events exactly as the server sent them', () => {
    const e = event({ minute: 0, type: 'A', message: 'm' });
    const json = JSON.parse(eventsToJson(SERIAL, [e], { exportedAt: T0, fetchedAt: T0 - 1000, filter: 'Filtered: type: A' })) as Record<
      string,
      unknown
    >;
    assert.deepEqual(json, {
      serialNumber: SERIAL,
      exportedAt: '2025-01-15T08:00:00.000Z',
      fetchedAt: '2025-01-15T07:59:59.000Z',
      filter: 'Filtered: type: A',
      count: 1,
      events: [e.raw],
    });
  });

  it('picks the format from the file name and suggests a safe name', () => {
    assert.equal(formatOf('/tmp/x.CSV'), 'csv');
    assert.equal(formatOf('/tmp/x.json'), 'json');
    assert.equal(formatOf('/tmp/x'), 'json');
    assert.equal(defaultExportName('MX/47 11:..', 'csv'), 'MX_47_11_..-onboarding-events.csv');
    assert.equal(defaultExportName('..', 'json'), '_-onboarding-events.json');
  });
});
