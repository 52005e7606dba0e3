// The board shared: CSV with formula cells defused, a Markdown table whose
// cells cannot break out or become markup, and an SVG whose server text is
// XML text.
import * as assert from 'node:assert/strict';
import {
  boardToCsv,
  boardToMarkdown,
  markdownCell,
  safeColor,
  timelineSvg,
  xmlText,
  type ExportWords,
} from '../../../../../src/core/domain/board/boardExport';
import { lineRows } from '../../../../support/board/boardFixtures';
import { boardStateWords, exportWords } from '../../../../../src/extension/board/boardStrings';
import { plainLocalize } from '../../../../../src/core/common/localize';

const words: ExportWords = exportWords(plainLocalize);

describe('board exports', () => {
  const rows = lineRows();

  const [first] = rows;
  if (!first) throw new Error('the line has machines');

  it('writes CSV with a header, whole seconds and ISO times, and defuses cells a spreadsheet would run', () => {
    const csv = boardToCsv(rows, words);
    const lines = csv.replace(/^\ufeff/, '').split('\r\n');
    assert.equal(lines[0], 'Serial number,State,Newest event,Newest event time (UTC),Duration (s),Events,Error');
    assert.equal(lines[1], 'MX-4711-A0023,onboarded,MACHINE_CREATED,2025-01-15T08:28:00.000Z,1680,5,');
    const hostile = boardToCsv([{ ...first, newestType: '=HYPERLINK("http://x","y")', error: '@SUM(1)' }], words).split('\r\n')[1];
    assert.equal(hostile, `MX-4711-A0023,onboarded,"'=HYPERLINK(""http://x"",""y"")",2025-01-15T08:28:00.000Z,1680,5,'@SUM(1)`);
  });

  it('writes a Markdown table whose cells stay cells and stay text', () => {
    const markdown = boardToMarkdown(rows, words).split('\n');
    assert.equal(markdown[0], '| Serial number | State | Newest event | Newest event time (UTC) | Duration | Events | Error |');
    assert.equal(markdown[1], '| --- | --- | --- | --- | --- | --- | --- |');
    assert.equal(markdown[2], '| MX-4711-A0023 | onboarded | MACHINE\\_CREATED | 2025-01-15T08:28:00.000Z | 28 min | 5 |  |');
    assert.equal(markdownCell('a|b\nc `d` <img> **e** [f](g)'), 'a\\|b c \\`d\\` \\<img\\> \\*\\*e\\*\\* \\[f\\](g)');
    for (const line of markdown.filter((l) => l !== '')) assert.equal(line.split(/(?<!\\)\|/).length, 9, line);
  });

  it('draws an SVG in which server text is text, and takes only colour syntax from the page', () => {
    const svg = timelineSvg(rows, {
      from: Date.UTC(2025, 0, 15, 7),
      to: Date.UTC(2025, 0, 15, 10),
      look: {
        background: '#000',
        foreground: 'red;"/><script>alert(1)</script>',
        grid: '#888',
        states: { ...boardStateWords(plainLocalize), onboarded: '#00ff00' },
      },
      states: boardStateWords(plainLocalize),
      title: 'Board <line 3>',
      aligned: false,
      formatTick: (at) => new Date(at).toISOString().slice(11, 16),
    });
    assert.ok(!svg.includes('<script'), 'no element from the page or the server');
    assert.ok(!svg.includes('<img'));
    assert.ok(svg.includes('<title>Board &lt;line 3&gt;</title>'));
    assert.ok(svg.includes('TBL-2200-C0666 · failed'));
    assert.ok(svg.includes('fill="#00ff00"'), 'the onboarded diamond in its colour');
    assert.equal((svg.match(/<path d="M[^"]*Z" fill/g) ?? []).length, 1, 'one onboarded event: one diamond');
    const aligned = timelineSvg(rows, {
      from: -60_000,
      to: 3_600_000,
      look: { background: '#000', foreground: '#fff', grid: '#888', states: boardStateWords(plainLocalize) },
      states: boardStateWords(plainLocalize),
      title: 'aligned',
      aligned: true,
      formatTick: (at) => `+${at / 60_000} min`,
    });
    assert.ok(aligned.includes('>+0 min<') && aligned.includes('>+30 min<'), 'an aligned axis counts from each first event');
    assert.equal(xmlText('a&b<c>"\u0001'), 'a&amp;b&lt;c&gt;&quot;');
    assert.equal(safeColor('rgba(1, 2, 3, 0.5)', '#fff'), 'rgba(1, 2, 3, 0.5)');
    assert.equal(safeColor('url(javascript:x)', '#fff'), '#fff');
  });
});
