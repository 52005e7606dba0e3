// The SVG export with the line's usual steps behind each lane (and what they rest on as the picture's
// description), the open lane at the range's edge, the failing step's ring, and a time no date can hold.
import * as assert from 'node:assert/strict';
import { boardRow, type BoardRow } from '../../../../../src/core/domain/board/boardRows';
import { boardToCsv, timelineSvg, type SvgOptions } from '../../../../../src/core/domain/board/boardExport';
import { DEFAULT_EVENT_STATE_RULES } from '../../../../../src/core/domain/events/eventState';
import { plainLocalize } from '../../../../../src/core/common/localize';
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
const bands = (svg: string): string[] => svg.match(/<rect class="usual"[^>]*>.*?<\/rect>/g) ?? [];

const usual = {
  steps: [
    { type: 'REGISTERED', medianMs: null, p90Ms: null },
    { type: 'CERT <&>', medianMs: 4 * MINUTE, p90Ms: null },
    { type: 'FIRMWARE', medianMs: 6 * MINUTE, p90Ms: null },
    { type: 'PLC', medianMs: 30 * MINUTE, p90Ms: null },
  ],
  restsOn: '6 onboarded machines',
  how: 'laid end to end by their medians',
};

describe('board SVG export: usual steps and edges', () => {
  const started = row('MX-1', [
    { type: 'REGISTERED', at: BOARD_T0 + 2 * MINUTE },
    { type: 'CERT', at: BOARD_T0 + 5 * MINUTE },
  ]);

  it('draws the usual steps faint behind a lane, alternating, each titled with its step, cut at the range', () => {
    const svg = timelineSvg([started], options({ usual }));
    const [top, height] = [laneY(0) - 11 + 2, 22 - 4];
    assert.deepEqual(bands(svg), [
      `<rect class="usual" x="${xAt(2)}" y="${top}" width="${xAt(6) - xAt(2)}" height="${height}" fill="#eeeeee" fill-opacity="0.1"><title>CERT &lt;&amp;&gt;</title></rect>`,
      `<rect class="usual" x="${xAt(6)}" y="${top}" width="${xAt(12) - xAt(6)}" height="${height}" fill="#eeeeee" fill-opacity="0.05"><title>FIRMWARE</title></rect>`,
      `<rect class="usual" x="${xAt(12)}" y="${top}" width="${xAt(20) - xAt(12)}" height="${height}" fill="#eeeeee" fill-opacity="0.1"><title>PLC</title></rect>`,
    ]);
    assert.match(svg, /<desc>laid end to end by their medians \(6 onboarded machines\)<\/desc>/);
  });

  it('leaves out a usual step wholly outside the range, and draws none without usual steps', () => {
    const late = row('MX-2', [{ type: 'REGISTERED', at: BOARD_T0 + 19 * MINUTE }]);
    const svg = timelineSvg([late], options({ usual }));
    assert.equal(bands(svg).length, 1, svg);
    assert.match(bands(svg)[0] ?? '', new RegExp(`x="${xAt(19)}" [^>]* width="${xAt(20) - xAt(19)}"`));
    const edge = row('MX-3', [{ type: 'REGISTERED', at: BOARD_T0 + 20 * MINUTE }]);
    assert.deepEqual(bands(timelineSvg([edge], options({ usual }))), [], 'a band starting at the end of the range is empty');
    const before = timelineSvg([started], options({ usual, from: BOARD_T0 + 8 * MINUTE }));
    assert.match(bands(before)[0] ?? '', /<title>FIRMWARE<\/title>/, 'the first band ends before the range starts');
    const plain = timelineSvg([started], options());
    assert.deepEqual(bands(plain), []);
    assert.doesNotMatch(plain, /<desc>/);
    assert.equal(plain.split('\n')[2], '<rect width="100%" height="100%" fill="#101010"/>', 'no description line without usual steps');
    assert.ok(plain.endsWith('</svg>\n'));
  });

  it('draws no open lane for a machine whose newest event is at the end of the range', () => {
    const atEnd = row('MX-4', [
      { type: 'REGISTERED', at: BOARD_T0 + 2 * MINUTE },
      { type: 'CERT', at: BOARD_T0 + 20 * MINUTE },
    ]);
    assert.doesNotMatch(timelineSvg([atEnd], options({ nowMs: BOARD_T0 + 40 * MINUTE })), /class="open"/);
  });

  it('rings only the failing step: an earlier failure is a plain cross', () => {
    const retried = row('MX-5', [
      { type: 'ONBOARDING_FAILED', at: BOARD_T0 + 2 * MINUTE },
      { type: 'ONBOARDING_FAILED', at: BOARD_T0 + 8 * MINUTE },
    ]);
    const lines = timelineSvg([retried], options()).split('\n');
    const x = xAt(2);
    const y = laneY(0);
    assert.ok(
      lines.includes(
        `<path d="M${x - 5} ${y - 5}L${x + 5} ${y + 5}M${x + 5} ${y - 5}L${x - 5} ${y + 5}" stroke="#cc0000" stroke-width="2.5"/>`,
      ),
    );
  });

  it('leaves the newest time empty in CSV when it is beyond any date', () => {
    const words = {
      states: STATE_WORDS,
      t: plainLocalize,
      headings: { serialNumber: 'S', state: 'St', newest: 'N', newestTime: 'T', duration: 'D', events: 'E', error: 'Err' },
    };
    const far = { ...row('MX-6', [{ type: 'STEP', at: BOARD_T0 }]), newestAt: 9e15, durationMs: null };
    assert.equal(boardToCsv([far], words).split('\r\n')[1], 'MX-6,in progress,STEP,,,1,');
  });
});
