// Properties of the CSV export over any server text: read back as RFC 4180,
// every cell holds the text as sent (or behind one apostrophe), and no cell a
// spreadsheet would read starts a formula.
import * as assert from 'node:assert/strict';
import { CSV_COLUMNS, csvCell, eventsToCsv } from '../../../../../src/core/domain/events/exportEvents';
import { validateEvent } from '../../../../../src/core/client/validateEvents';
import type { OnboardingEvent } from '../../../../../src/core/client/model';
import { fc, holds } from '../../../../support/properties';

/** What OWASP lists as a formula start, after any leading white space; a tab or CR counts on its own. */
function startsFormula(cell: string): boolean {
  return /^[\t\r]/.test(cell) || /^[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]/.test(cell.replace(/^\s+/, ''));
}

/** An RFC 4180 reader: rows of cells, quotes undone. */
function readCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charAt(i);
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  if (cell !== '' || row.length > 0) rows.push([...row, cell]);
  return rows;
}

/** Server text with the characters that matter here over-represented. */
const serverText = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc
    .tuple(fc.constantFrom('=', '+', '-', '@', '\t', '\r', ' =', '\u3000+', '\uFF1D', '\uFF20', '"', ',', '\r\n', "'", ' \t-'), fc.string())
    .map(([start, rest]) => start + rest),
);

const serverEvent = fc
  .record({ type: serverText, message: serverText, timestamp: fc.maxSafeInteger(), href: serverText })
  .map(
    ({ type, message, timestamp, href }) =>
      validateEvent({ type, message, timestamp, _links: { machine: { href } } }, 'SN') as OnboardingEvent,
  );

describe('CSV export: properties', () => {
  it('a cell reads back as the text, or the text behind one apostrophe, and never starts a formula', () =>
    holds(
      fc.property(serverText, (text) => {
        const [row, ...rest] = readCsv(`${csvCell(text)}\r\n`);
        assert.equal(rest.length, 0);
        assert.ok(row);
        assert.equal(row.length, 1, 'one cell, whatever separators it holds');
        const cell = row[0] ?? '';
        assert.ok(cell === text || cell === `'${text}`, JSON.stringify(cell));
        assert.ok(!startsFormula(cell), `${JSON.stringify(cell)} starts a formula`);
        if (cell !== text) assert.ok(startsFormula(text), 'only dangerous text is changed');
      }),
    ));

  it('a whole export reads back as a header and one row of seven cells per event, none of them a formula', () =>
    holds(
      fc.property(fc.string(), fc.array(serverEvent, { maxLength: 6 }), (serial, events) => {
        const csv = eventsToCsv(serial, events);
        assert.ok(csv.startsWith('\uFEFF'));
        const rows = readCsv(csv.slice(1));
        assert.deepEqual(rows[0], [...CSV_COLUMNS]);
        assert.equal(rows.length, events.length + 1);
        rows.slice(1).forEach((row, index) => {
          assert.equal(row.length, CSV_COLUMNS.length);
          const timestamp = row[CSV_COLUMNS.indexOf('timestamp')];
          // The two time columns are our own text: a number, and an ISO date (a year before 0 starts with "-").
          assert.equal(timestamp, String(events[index]?.time.raw));
          assert.match(row[CSV_COLUMNS.indexOf('timeUtc')] ?? '', /^$|^[+-]?\d{4,6}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
          row.forEach((cell, column) => {
            if (CSV_COLUMNS[column] !== 'timestamp' && CSV_COLUMNS[column] !== 'timeUtc')
              assert.ok(!startsFormula(cell), `${CSV_COLUMNS[column]}: ${JSON.stringify(cell)}`);
          });
        });
      }),
    ));
});
