// The board table's rules at their edges: what the line fixture of boardModel.test.ts does not
// reach (serial numbers that differ only in a number, each sort direction, rows without a value,
// the filter's case and spaces, when Align Starts is the first view, how far the timeline reaches
// past its points, every tick step, and where durations and axis labels change unit).
import * as assert from 'node:assert/strict';
import { plainLocalize, type Localize } from '../../../../../src/core/common/localize';
import { boardRow, type BoardRow } from '../../../../../src/core/domain/board/boardRows';
import {
  axisLabel,
  BOARD_COLUMNS,
  countStates,
  filterRows,
  laneTime,
  MAX_FILTER_TEXT,
  prefersAligned,
  sortRows,
  summaryText,
  laneEnd,
  timeRange,
  timeTicks,
  type BoardColumn,
} from '../../../../../src/core/domain/board/boardTable';
import { DEFAULT_EVENT_STATE_RULES } from '../../../../../src/core/domain/events/eventState';
import {
  ABANDONED,
  BOARD_T0,
  fixtureResult,
  lineRows,
  onboarding,
  progressLine,
  type FixtureEvent,
} from '../../../../support/board/boardFixtures';

const rules = DEFAULT_EVENT_STATE_RULES;
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const STATE_WORDS = {
  onboarded: 'onboarded',
  failed: 'failed',
  'in-progress': 'in progress',
  'no-events': 'no events',
  unknown: 'unknown',
  unavailable: 'unavailable',
  'not-loaded': 'not loaded',
} as const;

const row = (serialNumber: string, events: readonly FixtureEvent[] = []): BoardRow =>
  boardRow(serialNumber, { result: fixtureResult(serialNumber, events) }, rules);
const serials = (rows: readonly BoardRow[]): string[] => rows.map((r) => r.serialNumber);

describe('board table: sorting at the edges', () => {
  it('orders serial numbers that differ only in a number by that number, not by its digits', () => {
    const rows = ['MX-100-A', 'MX-9-A', 'MX-10-A', 'MX-1000-A'].map((serial) => row(serial));
    assert.deepEqual(serials(sortRows(rows, { column: 'serialNumber', descending: false })), [
      'MX-9-A',
      'MX-10-A',
      'MX-100-A',
      'MX-1000-A',
    ]);
    assert.deepEqual(serials(sortRows(rows, { column: 'serialNumber', descending: true })), ['MX-1000-A', 'MX-100-A', 'MX-10-A', 'MX-9-A']);
  });

  it('breaks ties by serial number, numeric-aware, whatever order the rows came in', () => {
    const rows = ['MX-20', 'MX-3', 'MX-100'].map((serial) => row(serial));
    assert.deepEqual(serials(sortRows(rows, { column: 'events', descending: false })), ['MX-3', 'MX-20', 'MX-100']);
    assert.deepEqual(serials(sortRows(rows, { column: 'events', descending: true })), ['MX-3', 'MX-20', 'MX-100']);
  });

  it('sorts by state descending with the settled machines first and failed ones last', () => {
    assert.deepEqual(
      sortRows(lineRows(), { column: 'state', descending: true }).map((r) => r.state),
      ['onboarded', 'not-loaded', 'no-events', 'in-progress', 'unknown', 'unavailable', 'failed', 'failed'],
    );
  });

  it('sorts by event count ascending, fewest first', () => {
    const rows = [
      row('A', onboarding(BOARD_T0, 4, 'onboarded')),
      row('B', onboarding(BOARD_T0, 1, 'in-progress')),
      row('C', onboarding(BOARD_T0, 2, 'failed')),
    ];
    assert.deepEqual(serials(sortRows(rows, { column: 'events', descending: false })), ['B', 'C', 'A']);
    assert.deepEqual(serials(sortRows(rows, { column: 'events', descending: true })), ['A', 'C', 'B']);
  });

  it('sorts by age: ascending is the most recent newest event first', () => {
    const rows = [
      row('OLD', [{ type: 'X', at: BOARD_T0 }]),
      row('NEW', [{ type: 'X', at: BOARD_T0 + HOUR }]),
      row('MID', [{ type: 'X', at: BOARD_T0 + MINUTE }]),
    ];
    assert.deepEqual(serials(sortRows(rows, { column: 'age', descending: false })), ['NEW', 'MID', 'OLD']);
    assert.deepEqual(serials(sortRows(rows, { column: 'age', descending: true })), ['OLD', 'MID', 'NEW']);
  });

  it('puts rows without a value last in both directions, for every column that can be empty', () => {
    const rows = lineRows();
    const empty: Record<string, (r: BoardRow) => boolean> = {
      newest: (r) => r.newestType === null,
      age: (r) => r.newestAt === null,
      duration: (r) => r.durationMs === null,
      error: (r) => r.error === null,
    };
    for (const [column, isEmpty] of Object.entries(empty))
      for (const descending of [false, true]) {
        const flags = sortRows(rows, { column: column as BoardColumn, descending }).map(isEmpty);
        const firstEmpty = flags.indexOf(true);
        assert.ok(firstEmpty > 0, `${column}: some rows have a value and some not`);
        assert.ok(
          flags.slice(firstEmpty).every(Boolean),
          `${column} ${descending ? 'descending' : 'ascending'}: a row with a value came after an empty one (${flags.join()})`,
        );
      }
  });

  it('keeps rows without a value in serial-number order among themselves, in both directions', () => {
    const rows = ['MX-30', 'MX-4', 'MX-200'].map((serial) => row(serial));
    for (const column of ['newest', 'error', 'age', 'duration'] as const)
      for (const descending of [false, true])
        assert.deepEqual(serials(sortRows(rows, { column, descending })), ['MX-4', 'MX-30', 'MX-200'], `${column} ${String(descending)}`);
  });

  it('orders the text columns by text, ignoring case, both ways', () => {
    const rows = [
      row('A', [{ type: 'beta', at: BOARD_T0 }]),
      row('B', [{ type: 'Alpha', at: BOARD_T0 }]),
      row('C', [{ type: 'GAMMA', at: BOARD_T0 }]),
    ];
    assert.deepEqual(serials(sortRows(rows, { column: 'newest', descending: false })), ['B', 'A', 'C']);
    assert.deepEqual(serials(sortRows(rows, { column: 'newest', descending: true })), ['C', 'A', 'B']);
  });

  it('sorts by every column without losing or repeating a row', () => {
    const rows = lineRows();
    for (const column of BOARD_COLUMNS)
      for (const descending of [false, true])
        assert.deepEqual(serials(sortRows(rows, { column, descending })).sort(), serials(rows).sort(), `${column} ${String(descending)}`);
  });
});

describe('board table: the filter', () => {
  const rows = lineRows();
  const find = (text: string, states: Parameters<typeof filterRows>[1]['states'] = []): string[] =>
    serials(filterRows(rows, { states, text }, STATE_WORDS));

  it('finds text whatever its case, in the filter and in the row', () => {
    assert.deepEqual(find('Mx-4711'), ['MX-4711-A0023']);
    assert.deepEqual(find('machine_CREATED'), ['MX-4711-A0023']);
    assert.deepEqual(find('SERVICE UNAVAILABLE'), ['KRP-0815-B0042']);
  });

  it('matches text within one field of a row, never across two or in a field the row does not have', () => {
    assert.deepEqual(find('a0023'), ['MX-4711-A0023']);
    assert.deepEqual(find('a0023onboarded'), [], 'the serial number and the state word are separate fields');
    assert.deepEqual(find('a0023 onboarded'), []);
    assert.deepEqual(find('stryker'), [], 'a row without a newest event or an error has no text there');
  });

  it('ignores spaces around the filter text, but not inside it', () => {
    assert.deepEqual(find('  \tmx-9999\n '), ['MX-9999-Z0001']);
    assert.deepEqual(find('in progress'), ['LSR-6060-F0042']);
    assert.deepEqual(find('in  progress'), []);
  });

  it('an empty or blank filter shows every row; states alone filter by state', () => {
    assert.equal(find('').length, rows.length);
    assert.equal(find('   ').length, rows.length);
    assert.deepEqual(find('', ['no-events']), ['WELD-3100-D0007']);
  });

  it('reads at most MAX_FILTER_TEXT characters of the filter text', () => {
    assert.deepEqual(find(`${' '.repeat(MAX_FILTER_TEXT)}MX-4711`), serials(rows), 'past the limit only blanks are read: no filter');
  });

  it('leaves an unknown placeholder of the summary words as it is', () => {
    const words = {
      states: STATE_WORDS,
      none: 'none',
      one: '{0} {9}',
      many: '{1} of {0}',
      count: '{0}×{1}',
      separator: ' / ',
      abandoned: 'abandoned',
    };
    assert.equal(summaryText(countStates([{ state: 'failed' }]), words), '1×failed {9}');
    assert.equal(summaryText(countStates([{ state: 'failed' }, { state: 'unknown' }]), words), '1×failed / 1×unknown of 2');
  });
});

describe('board table: the timeline', () => {
  const lane = (start: number, ...offsets: number[]): BoardRow =>
    row(
      `M-${start}-${offsets.join('-')}`,
      offsets.map((offset, i) => ({ type: `STEP_${i}`, at: start + offset })),
    );

  it('aligns a lane without events at zero', () => {
    assert.equal(laneTime({ firstAt: null }, BOARD_T0, true), 0);
    assert.equal(laneTime({ firstAt: null }, BOARD_T0, false), BOARD_T0);
  });

  it('prefers Align Starts only when the starts lie more than ten onboardings apart', () => {
    // Each takes 10 min; the starts lie exactly 100 min apart (ten times that), then one minute more.
    assert.equal(prefersAligned([lane(BOARD_T0, 0, 10 * MINUTE), lane(BOARD_T0 + 100 * MINUTE, 0, 10 * MINUTE)]), false);
    assert.equal(prefersAligned([lane(BOARD_T0, 0, 10 * MINUTE), lane(BOARD_T0 + 101 * MINUTE, 0, 10 * MINUTE)]), true);
  });

  it('measures each onboarding by its longest lane, and ignores lanes with fewer than two events', () => {
    // The longest is 10 min: starts 101 min apart align; a one-event lane a year away changes nothing.
    const far = lane(BOARD_T0 + 365 * DAY, 0);
    assert.equal(prefersAligned([lane(BOARD_T0, 0, 2 * MINUTE), lane(BOARD_T0 + 50 * MINUTE, 0, 10 * MINUTE), far]), false);
    assert.equal(prefersAligned([lane(BOARD_T0, 0, 10 * MINUTE), lane(BOARD_T0 + 101 * MINUTE, 0, 2 * MINUTE), far]), true);
    assert.equal(prefersAligned([far, lane(BOARD_T0, 0)]), false, 'no lane with a duration: nothing to compare');
    assert.equal(prefersAligned([row('EMPTY'), lane(BOARD_T0, 0, 0), lane(BOARD_T0 + DAY, 0, 0)]), false, 'instants only');
    assert.equal(prefersAligned([]), false);
  });

  it('reaches now on the lane of a machine in progress, so a stall is a long open segment; an outcome ends its lane', () => {
    const now = BOARD_T0 + 180 * MINUTE;
    const stalled = lane(BOARD_T0, 0, 27 * MINUTE);
    assert.equal(stalled.state, 'in-progress');
    assert.equal(laneEnd(stalled, now), now);
    assert.equal(laneEnd(stalled, BOARD_T0), BOARD_T0 + 27 * MINUTE, 'never before its newest event (a clock behind the server)');
    assert.deepEqual(timeRange([stalled], false, now), { from: BOARD_T0 - 5.4 * MINUTE, to: now + 5.4 * MINUTE });
    assert.deepEqual(timeRange([stalled], true, now), { from: -5.4 * MINUTE, to: 185.4 * MINUTE });
    const done = row('DONE', [
      { type: 'STARTED', at: BOARD_T0 },
      { type: 'ONBOARDING_COMPLETE', at: BOARD_T0 + 100 * MINUTE },
    ]);
    assert.equal(laneEnd(done, now), BOARD_T0 + 100 * MINUTE);
    assert.deepEqual(timeRange([done], false, now), { from: BOARD_T0 - 3 * MINUTE, to: BOARD_T0 + 103 * MINUTE });
    assert.equal(laneEnd(row('EMPTY'), now), null);
    // An abandoned machine's lane runs on to now, but the range is fitted without it.
    const line = progressLine();
    const abandoned = line.rows.find((r) => r.serialNumber === ABANDONED);
    assert.ok(abandoned?.progress?.abandoned === true);
    assert.equal(laneEnd(abandoned, line.now), line.now);
    const range = timeRange([abandoned], false, line.now);
    assert.ok(range !== undefined && range.to < line.now - DAY, `fitted to its events, not to now: ${JSON.stringify(range)}`);
  });

  it('widens the range by 3% of its span on each side, and by at least a minute', () => {
    assert.deepEqual(timeRange([lane(BOARD_T0, 0, 100 * MINUTE)]), { from: BOARD_T0 - 3 * MINUTE, to: BOARD_T0 + 103 * MINUTE });
    assert.deepEqual(timeRange([lane(BOARD_T0, 0, 10 * MINUTE)]), { from: BOARD_T0 - MINUTE, to: BOARD_T0 + 11 * MINUTE });
    assert.deepEqual(timeRange([lane(BOARD_T0, 0)]), { from: BOARD_T0 - MINUTE, to: BOARD_T0 + MINUTE });
    // Points in any order, across lanes: the earliest and the latest of all.
    assert.deepEqual(timeRange([lane(BOARD_T0 + 50 * MINUTE, 0), lane(BOARD_T0, 100 * MINUTE, 30 * MINUTE, 0)]), {
      from: BOARD_T0 - 3 * MINUTE,
      to: BOARD_T0 + 103 * MINUTE,
    });
    assert.deepEqual(timeRange([lane(BOARD_T0 + DAY, 0, 100 * MINUTE)], true), { from: -3 * MINUTE, to: 103 * MINUTE });
    assert.equal(timeRange([row('EMPTY')]), undefined);
  });

  it('picks each round step exactly when the span needs it', () => {
    const steps = [
      SECOND,
      5 * SECOND,
      15 * SECOND,
      30 * SECOND,
      MINUTE,
      5 * MINUTE,
      15 * MINUTE,
      30 * MINUTE,
      HOUR,
      3 * HOUR,
      6 * HOUR,
      12 * HOUR,
      DAY,
      2 * DAY,
      7 * DAY,
      30 * DAY,
      90 * DAY,
      365 * DAY,
    ];
    for (const step of steps) {
      assert.equal(timeTicks(0, 8 * step, 8).step, step, `a span of 8 × ${step} ms in 8 ticks`);
      assert.equal(timeTicks(0, 8 * step + 8, 8).step > step, true, `a little more than 8 × ${step} ms needs a longer step`);
    }
  });

  it('steps whole years over spans of several years', () => {
    assert.equal(timeTicks(0, 3 * 365 * DAY, 2).step, 2 * 365 * DAY);
    assert.equal(timeTicks(0, 8 * 365 * DAY, 2).step, 4 * 365 * DAY);
    assert.deepEqual(timeTicks(0, 8 * 365 * DAY, 2).ticks, [0, 4 * 365 * DAY, 8 * 365 * DAY]);
  });

  it('starts at the first round time at or after the range start, and ends at or before its end', () => {
    assert.deepEqual(timeTicks(1_000, 21_000, 4), { step: 5 * SECOND, ticks: [5_000, 10_000, 15_000, 20_000] });
    assert.deepEqual(timeTicks(-21_000, -1_000, 4), { step: 5 * SECOND, ticks: [-20_000, -15_000, -10_000, -5_000] });
  });

  it('never draws more than twice the ticks asked for', () => {
    assert.deepEqual(timeTicks(0, 15 * SECOND, 0), { step: 15 * SECOND, ticks: [0] });
    assert.deepEqual(timeTicks(0, 15 * SECOND, 1), { step: 15 * SECOND, ticks: [0, 15 * SECOND] });
  });
});

describe('board table: durations and axis labels', () => {
  // The board words durations with formatDuration: the aligned axis shows them as the table and exports do.
  const aligned = { aligned: true, locale: 'en', t: undefined };

  it('changes unit exactly at a minute, an hour and a day', () => {
    const cases: [number, string][] = [
      [-5 * SECOND, '−5 s'],
      [0, '0'],
      [59_499, '+59 s'],
      [59_500, '+1 min'],
      [MINUTE, '+1 min'],
      [119 * SECOND, '+2 min'],
      [HOUR - SECOND, '+1 h'],
      [HOUR, '+1 h'],
      [HOUR + MINUTE, '+1 h 1 min'],
      [24 * HOUR - MINUTE, '+23 h 59 min'],
      [24 * HOUR, '+1 day'],
      [48 * HOUR - MINUTE, '+2 days'],
      [48 * HOUR, '+2 days'],
      [49 * HOUR, '+2 days 1 h'],
      [71 * HOUR + 59 * MINUTE, '+3 days'],
    ];
    assert.deepEqual(
      cases.map(([ms]) => axisLabel(ms, MINUTE, aligned)),
      cases.map(([, text]) => text),
    );
  });

  it('writes durations in the host’s units', () => {
    const german: Readonly<Record<string, string>> = {
      '{0} s': '{0} Sek.',
      '{0} min': '{0} Min.',
      '{0} h': '{0} Std.',
      '{0} h {1} min': '{0} Std. {1} Min.',
      '{0} days {1} h': '{0} T. {1} Std.',
    };
    const t: Localize = (message, ...args) => plainLocalize(german[message] ?? message, ...args);
    assert.deepEqual(
      [5 * SECOND, 5 * MINUTE, 5 * HOUR + 5 * MINUTE, 50 * HOUR].map((ms) => axisLabel(ms, MINUTE, { ...aligned, locale: 'de', t })),
      ['+5 Sek.', '+5 Min.', '+5 Std. 5 Min.', '+2 T. 2 Std.'],
    );
    assert.equal(axisLabel(-5 * MINUTE, MINUTE, { aligned: true, locale: 'de', t }), '−5 Min.');
  });

  const at = Date.UTC(2026, 10, 24, 12, 5, 30);
  const plain = { aligned: false, locale: 'en', t: undefined };
  const hasSeconds = /\d{2}:\d{2}:\d{2}/;
  const hasTime = /\d{1,2}:\d{2}/;

  it('labels a 10-minute step with the day and the time, and no year', () => {
    const label = axisLabel(at, 10 * MINUTE, plain);
    assert.match(label, hasTime);
    assert.doesNotMatch(label, hasSeconds);
    assert.match(label, /Nov/);
    assert.doesNotMatch(label, /2026/);
  });

  it('changes the label from seconds to minutes at one minute, and to the date at one day', () => {
    assert.match(axisLabel(at, MINUTE - 1, plain), hasSeconds);
    assert.doesNotMatch(axisLabel(at, MINUTE - 1, plain), /Nov/);
    assert.doesNotMatch(axisLabel(at, MINUTE, plain), hasSeconds);
    assert.match(axisLabel(at, DAY - 1, plain), hasTime);
    assert.doesNotMatch(axisLabel(at, DAY, plain), hasTime);
    assert.match(axisLabel(at, DAY, plain), /Nov.*2026/);
  });

  it('labels in the locale asked for, each call on its own', () => {
    // The same step and time in Japanese, then English, then Japanese again: no label reuses another's format.
    const japanese = axisLabel(at, DAY, { ...plain, locale: 'ja' });
    assert.match(japanese, /2026年11月/);
    assert.match(axisLabel(at, DAY, plain), /Nov/);
    assert.equal(axisLabel(at, DAY, { ...plain, locale: 'ja' }), japanese);
  });
});
