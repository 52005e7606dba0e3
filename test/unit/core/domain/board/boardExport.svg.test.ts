// The SVG export's picture, measured: where lanes, bars, points and ticks sit, which shape each
// state gets, what falls outside the range, and which colours the page may set. boardExport.test.ts
// checks that server and page text stay text; this checks that the picture shows the rows.
import * as assert from 'node:assert/strict';
import { plainLocalize, type Localize } from '../../../../../src/core/common/localize';
import { boardRow, type BoardRow } from '../../../../../src/core/domain/board/boardRows';
import {
  boardToCsv,
  boardToMarkdown,
  MAX_SVG_LANES,
  safeColor,
  timelineSvg,
  type SvgOptions,
} from '../../../../../src/core/domain/board/boardExport';
import { DEFAULT_EVENT_STATE_RULES } from '../../../../../src/core/domain/events/eventState';
import { BOARD_T0, fixtureResult, type FixtureEvent } from '../../../../support/board/boardFixtures';

const MINUTE = 60_000;
const STATE_WORDS = {
  onboarded: 'onboarded',
  failed: 'failed',
  'in-progress': 'in progress',
  'no-events': 'no events',
  unknown: 'unknown',
  unavailable: 'unavailable',
  'not-loaded': 'not loaded',
} as const;
const COLORS = {
  onboarded: '#00aa00',
  failed: '#cc0000',
  'in-progress': '#0000cc',
  'no-events': '#777777',
  unknown: '#aaaa00',
  unavailable: '#aa00aa',
  'not-loaded': '#00aaaa',
} as const;

const row = (serial: string, events: readonly FixtureEvent[]): BoardRow =>
  boardRow(serial, { result: fixtureResult(serial, events) }, DEFAULT_EVENT_STATE_RULES);

function options(overrides: Partial<SvgOptions> = {}): SvgOptions {
  return {
    from: BOARD_T0,
    to: BOARD_T0 + 20 * MINUTE,
    look: { background: '#101010', foreground: '#eeeeee', grid: '#444444', states: COLORS },
    states: STATE_WORDS,
    title: 'line 3',
    aligned: false,
    formatTick: (at, step) => `${(at - BOARD_T0) / MINUTE}m/${step / MINUTE}`,
    ...overrides,
  };
}

// The layout: lanes from y = 40, 22 px each; the plot from x = 220, 900 px wide.
const laneY = (i: number): number => 40 + i * 22 + 11;
const xAt = (minutes: number, spanMinutes = 20): number => Math.round((220 + (minutes / spanMinutes) * 900) * 10) / 10;

describe('board SVG export: the picture', () => {
  const done = row('MX-1', [
    { type: 'STARTED', at: BOARD_T0 + 2 * MINUTE },
    { type: 'MACHINE_CREATED', at: BOARD_T0 + 12 * MINUTE, assetId: '5d1c7e0a-2b7f-4c1e-9e0d-8a4f6b2c3d10' },
  ]);
  const failed = row('MX-2', [
    { type: 'STARTED', at: BOARD_T0 + 4 * MINUTE },
    { type: 'ONBOARDING_FAILED', at: BOARD_T0 + 6 * MINUTE },
  ]);
  const empty = row('MX-3', []);

  it('is as large as its lanes, with the page background', () => {
    const svg = timelineSvg([done, failed, empty], options());
    assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="1140" height="116" viewBox="0 0 1140 116" /);
    assert.ok(svg.includes('<rect width="100%" height="100%" fill="#101010"/>'));
    assert.ok(svg.endsWith('</svg>\n'));
  });

  it('labels each lane with its serial number and state word, at its height', () => {
    const svg = timelineSvg([done, failed, empty], options());
    assert.ok(svg.includes(`<text x="4" y="${laneY(0) + 4}" fill="#eeeeee">MX-1 · onboarded</text>`));
    assert.ok(svg.includes(`<text x="4" y="${laneY(1) + 4}" fill="#eeeeee">MX-2 · failed</text>`));
    assert.ok(svg.includes(`<text x="4" y="${laneY(2) + 4}" fill="#eeeeee">MX-3 · no events</text>`));
  });

  it('draws a bar from the first event to the end in the state colour, and none without events', () => {
    const svg = timelineSvg([done, failed, empty], options());
    const bars = svg.match(/<rect x=[^>]*rx="3"[^>]*>/g) ?? [];
    assert.deepEqual(bars, [
      `<rect x="${xAt(2)}" y="${laneY(0) - 3}" width="${Math.round((xAt(12) - xAt(2)) * 10) / 10}" height="6" rx="3" fill="#00aa00" fill-opacity="0.35"/>`,
      `<rect x="${xAt(4)}" y="${laneY(1) - 3}" width="${Math.round((xAt(6) - xAt(4)) * 10) / 10}" height="6" rx="3" fill="#cc0000" fill-opacity="0.35"/>`,
    ]);
    const instant = timelineSvg([row('MX-4', [{ type: 'STARTED', at: BOARD_T0 + MINUTE }])], options());
    assert.match(instant, /<rect x="[\d.]+" y="\d+" width="1" height="6" rx="3"/, 'a single event is a bar of 1 px');
  });

  it('draws the lane of a machine in progress on to now, dashed after its newest event; a finished one ends at its outcome', () => {
    const stalled = row('MX-7', [
      { type: 'STARTED', at: BOARD_T0 + 2 * MINUTE },
      { type: 'STEP', at: BOARD_T0 + 5 * MINUTE },
    ]);
    const svg = timelineSvg([done, stalled], options({ nowMs: BOARD_T0 + 15 * MINUTE }));
    const open = svg.match(/<line class="open"[^>]*>/g) ?? [];
    assert.deepEqual(open, [
      `<line class="open" x1="${xAt(5)}" y1="${laneY(1)}" x2="${xAt(15)}" y2="${laneY(1)}" stroke="#0000cc" stroke-width="2" stroke-dasharray="4 3"/>`,
    ]);
    const later = timelineSvg([stalled], options({ nowMs: BOARD_T0 + 60 * MINUTE })).match(/<line class="open"[^>]*>/g) ?? [];
    assert.deepEqual(
      later,
      [
        `<line class="open" x1="${xAt(5)}" y1="${laneY(0)}" x2="${xAt(20)}" y2="${laneY(0)}" stroke="#0000cc" stroke-width="2" stroke-dasharray="4 3"/>`,
      ],
      'cut at the range',
    );
  });

  it('draws a diamond for onboarded, a cross for failed (ringed when it is the failing step), a dot for any other', () => {
    const svg = timelineSvg([done, failed], options());
    const [y0, y1] = [laneY(0), laneY(1)];
    const [a, b, c, d] = [xAt(2), xAt(12), xAt(4), xAt(6)];
    assert.ok(svg.includes(`<circle cx="${a}" cy="${y0}" r="4" fill="#0000cc"/>`), 'the in-progress step: a dot');
    assert.ok(svg.includes(`<path d="M${b} ${y0 - 5}L${b + 5} ${y0}L${b} ${y0 + 5}L${b - 5} ${y0}Z" fill="#00aa00"/>`), 'the diamond');
    assert.ok(svg.includes(`<circle cx="${c}" cy="${y1}" r="4" fill="#0000cc"/>`));
    assert.ok(
      svg.includes(
        `<path d="M${d - 5} ${y1 - 5}L${d + 5} ${y1 + 5}M${d + 5} ${y1 - 5}L${d - 5} ${y1 + 5}" stroke="#cc0000" stroke-width="2.5"/>` +
          `<circle cx="${d}" cy="${y1}" r="8" fill="none" stroke="#cc0000" stroke-width="1.5"/>`,
      ),
      'the cross, ringed',
    );
    const retried = row('MX-5', [
      { type: 'ONBOARDING_FAILED', at: BOARD_T0 + 2 * MINUTE },
      { type: 'ONBOARDING_FAILED', at: BOARD_T0 + 8 * MINUTE },
    ]);
    assert.equal((timelineSvg([retried], options()).match(/<circle [^>]*r="8"/g) ?? []).length, 1, 'only the newest failure is ringed');
  });

  it('leaves out points outside the range, on either side', () => {
    const wide = row('MX-6', [
      { type: 'STARTED', at: BOARD_T0 - MINUTE },
      { type: 'STEP', at: BOARD_T0 },
      { type: 'STEP', at: BOARD_T0 + 20 * MINUTE },
      { type: 'STEP', at: BOARD_T0 + 21 * MINUTE },
    ]);
    const dots = timelineSvg([wide], options()).match(/<circle cx="([\d.]+)"/g) ?? [];
    assert.deepEqual(dots, [`<circle cx="${xAt(0)}"`, `<circle cx="${xAt(20)}"`]);
  });

  it('draws a grid line and a label at each tick, with the step it was chosen for', () => {
    const svg = timelineSvg([done], options());
    const height = 40 + 22 + 10;
    for (const minute of [0, 5, 10, 15, 20]) {
      const x = xAt(minute);
      assert.ok(svg.includes(`<line x1="${x}" y1="32" x2="${x}" y2="${height - 10}" stroke="#444444" stroke-width="0.5"/>`), `${minute}`);
      assert.ok(svg.includes(`<text x="${x}" y="26" fill="#eeeeee" text-anchor="middle">${minute}m/5</text>`), `${minute}`);
    }
    assert.equal((svg.match(/<line /g) ?? []).length, 5);
  });

  it('aligns each lane at its first event when asked', () => {
    const svg = timelineSvg([done, failed], options({ from: 0, to: 20 * MINUTE, aligned: true, formatTick: (at) => `+${at / MINUTE}` }));
    assert.ok(svg.includes(`<rect x="${xAt(0)}" y="${laneY(0) - 3}"`), 'MX-1 starts at 0');
    assert.ok(svg.includes(`<rect x="${xAt(0)}" y="${laneY(1) - 3}"`), 'MX-2 starts at 0 as well');
    assert.ok(svg.includes(`<circle cx="${xAt(2)}" cy="${laneY(1)}" r="8"`), 'its failure 2 minutes in');
  });

  it('falls back to plain colours for anything but colour syntax from the page', () => {
    const svg = timelineSvg(
      [done],
      options({ look: { background: 'url(x)', foreground: 'x;y', grid: '"', states: { ...COLORS, onboarded: 'javascript:1' } } }),
    );
    assert.ok(svg.includes('<rect width="100%" height="100%" fill="#ffffff"/>'));
    assert.ok(svg.includes('fill="#000000">MX-1 · onboarded</text>'));
    assert.ok(svg.includes('stroke="#888888" stroke-width="0.5"'));
    assert.ok(svg.includes('Z" fill="#000000"/>'), 'the onboarded colour falls back to the foreground');
    assert.equal(safeColor('  #abc  ', '#fff'), '#abc');
    assert.equal(safeColor('rgb(1,2,3)', '#fff'), 'rgb(1,2,3)');
    assert.equal(safeColor('teal', '#fff'), 'teal');
    assert.equal(safeColor('x#abc', '#fff'), '#fff');
    assert.equal(safeColor('#abc;', '#fff'), '#fff');
    assert.equal(safeColor('rgb(1,2,3)x', '#fff'), '#fff');
    assert.equal(safeColor('ab', '#fff'), '#fff');
    assert.equal(safeColor('1abc', '#fff'), '#fff');
  });

  it(`draws at most ${MAX_SVG_LANES} lanes`, () => {
    const rows = Array.from({ length: MAX_SVG_LANES + 1 }, (_, i) => row(`M-${i}`, []));
    const svg = timelineSvg(rows, options());
    assert.equal((svg.match(/<text x="4"/g) ?? []).length, MAX_SVG_LANES);
    assert.match(svg, new RegExp(`height="${40 + MAX_SVG_LANES * 22 + 10}"`));
  });
});

describe('board CSV and Markdown export: empty values', () => {
  const words = {
    states: STATE_WORDS,
    headings: { serialNumber: 'S', state: 'St', newest: 'N', newestTime: 'T', duration: 'D', events: 'E', error: 'Err' },
    t: plainLocalize,
  };
  const rows = [boardRow('MX-7', { errorKind: 'server', errorMessage: 'down' }, DEFAULT_EVENT_STATE_RULES)];

  it('leaves the newest event, its time and the duration empty for a machine without events', () => {
    assert.equal(boardToCsv(rows, words).split('\r\n')[1], 'MX-7,unavailable,,,,0,down');
    assert.equal(boardToMarkdown(rows, words).split('\n')[2], '| MX-7 | unavailable |  |  |  | 0 | down |');
  });

  it('writes durations in the host’s units in Markdown, and English ones without', () => {
    const timed = [
      row('MX-8', [
        { type: 'A', at: BOARD_T0 },
        { type: 'B', at: BOARD_T0 + 90 * MINUTE },
      ]),
    ];
    assert.match(boardToMarkdown(timed, words).split('\n')[2] ?? '', /\| 1 h 30 min \|/);
    const german: Readonly<Record<string, string>> = { '{0} h {1} min': '{0} Std. {1} Min.' };
    const t: Localize = (message, ...args) => plainLocalize(german[message] ?? message, ...args);
    assert.match(boardToMarkdown(timed, { ...words, t }).split('\n')[2] ?? '', /\| 1 Std\. 30 Min\. \|/);
  });
});
