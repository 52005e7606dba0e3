// The board's model: a machine's row (state by the one eventState mapping,
// newest event, duration to completion, points, the failing step), sorting by
// every column, filtering by state and text, and the summary line.
import * as assert from 'node:assert/strict';
import { boardRow, MAX_POINTS } from '../../../../../src/core/domain/board/boardRows';
import {
  axisLabel,
  countStates,
  filterRows,
  laneTime,
  prefersAligned,
  RowSorter,
  BOARD_COLUMNS,
  sortRows,
  summaryText,
  timeRange,
  timeTicks,
  type SummaryWords,
} from '../../../../../src/core/domain/board/boardTable';
import { DEFAULT_EVENT_STATE_RULES } from '../../../../../src/core/domain/events/eventState';
import { BOARD_T0, fixtureResult, lineRows, onboarding } from '../../../../support/board/boardFixtures';

const rules = DEFAULT_EVENT_STATE_RULES;
const MINUTE = 60_000;
const WORDS: SummaryWords = {
  states: {
    onboarded: 'onboarded',
    failed: 'failed',
    'in-progress': 'in progress',
    'no-events': 'no events',
    unknown: 'unknown',
    unavailable: 'unavailable',
    'not-loaded': 'not loaded',
  },
  none: 'No machines',
  one: '1 machine: {0}',
  many: '{0} machines: {1}',
  count: '{0} {1}',
  separator: ', ',
  abandoned: 'abandoned',
};

describe('board rows', () => {
  it('reads an onboarded machine: newest event, duration from the first event to completion, every event a point, oldest first', () => {
    const row = boardRow('MX-4711-A0023', { result: fixtureResult('MX-4711-A0023', onboarding(BOARD_T0, 4, 'onboarded')) }, rules);
    assert.equal(row.state, 'onboarded');
    assert.equal(row.newestType, 'MACHINE_CREATED');
    assert.equal(row.firstAt, BOARD_T0);
    assert.equal(row.endAt, BOARD_T0 + 28 * MINUTE);
    assert.equal(row.durationMs, 28 * MINUTE);
    assert.equal(row.completed, true);
    assert.equal(row.eventCount, 5);
    assert.deepEqual(
      row.points.map((m) => m.state),
      ['in-progress', 'in-progress', 'in-progress', 'in-progress', 'onboarded'],
    );
    assert.equal(row.failingPoint, -1);
  });

  it('measures to completion, not to a later event', () => {
    const events = [...onboarding(BOARD_T0, 2, 'onboarded'), { type: 'FIRMWARE_UPDATED', at: BOARD_T0 + 60 * MINUTE }];
    const row = boardRow('MX-4711-A0023', { result: fixtureResult('MX-4711-A0023', events) }, rules);
    assert.equal(row.state, 'in-progress', 'the newest event decides the state, as everywhere');
    assert.equal(row.durationMs, 14 * MINUTE);
    assert.equal(row.newestAt, BOARD_T0 + 60 * MINUTE);
  });

  it('takes the newest failed event as the failing step, and measures an unfinished one to its newest event', () => {
    const row = boardRow('PRS-0900-A0314', { result: fixtureResult('PRS-0900-A0314', onboarding(BOARD_T0, 2, 'failed')) }, rules);
    assert.equal(row.state, 'failed');
    assert.equal(row.failingPoint, 2);
    assert.equal(row.points[2]?.type, 'ONBOARDING_FAILED');
    assert.equal(row.completed, false);
    assert.equal(row.durationMs, 14 * MINUTE);
  });

  it('follows the user’s eventStates rules', () => {
    const events = [{ type: 'STAGE_GREEN', at: BOARD_T0 }];
    assert.equal(boardRow('A', { result: fixtureResult('A', events) }, rules).state, 'in-progress');
    assert.equal(boardRow('A', { result: fixtureResult('A', events) }, { failed: [], onboarded: ['GREEN'] }).state, 'onboarded');
  });

  it('says why a machine could not be loaded, and nothing known is "not loaded"', () => {
    assert.deepEqual(
      lineRows().map((row) => [row.serialNumber, row.state, row.error]),
      [
        ['MX-4711-A0023', 'onboarded', null],
        ['PRS-0900-A0314', 'failed', null],
        ['LSR-6060-F0042', 'in-progress', null],
        ['WELD-3100-D0007', 'no-events', null],
        ['MX-9999-Z0001', 'unknown', 'The platform does not know this serial number.'],
        ['KRP-0815-B0042', 'unavailable', 'The API answered 503 Service Unavailable.'],
        ['TBL-2200-C0666', 'failed', null],
        ['CNC-5200-E0101', 'not-loaded', null],
      ],
    );
  });

  it('keeps at most MAX_POINTS points (the newest) but counts every event, and bounds the error', () => {
    const events = Array.from({ length: MAX_POINTS + 50 }, (_, i) => ({ type: 'HEARTBEAT', at: BOARD_T0 + i * MINUTE }));
    const row = boardRow('A', { result: fixtureResult('A', events) }, rules);
    assert.equal(row.points.length, MAX_POINTS);
    assert.equal(row.eventCount, MAX_POINTS + 50);
    assert.equal(row.points[0]?.at, BOARD_T0 + 50 * MINUTE);
    assert.equal(row.firstAt, BOARD_T0, 'the duration still starts at the first event');
    const long = boardRow('B', { errorKind: 'network', errorMessage: 'x'.repeat(10_000) }, rules);
    assert.equal(long.error?.length, 300);
  });
});

describe('board sorting, filtering and summary', () => {
  const rows = lineRows();
  const order = (column: Parameters<typeof sortRows>[1]['column'], descending = false): string[] =>
    sortRows(rows, { column, descending }).map((r) => r.serialNumber);

  it('sorts by serial number (numeric-aware) both ways', () => {
    assert.deepEqual(order('serialNumber').slice(0, 3), ['CNC-5200-E0101', 'KRP-0815-B0042', 'LSR-6060-F0042']);
    assert.deepEqual(order('serialNumber', true).slice(0, 2), ['WELD-3100-D0007', 'TBL-2200-C0666']);
    // The line's serial numbers differ before their digits; these only in a number (9 < 10 < 100, not "10" < "100" < "9").
    const numbered = ['MX-100-A', 'MX-9-A', 'MX-10-A'].map((serial) => boardRow(serial, {}, rules));
    assert.deepEqual(
      sortRows(numbered, { column: 'serialNumber', descending: false }).map((r) => r.serialNumber),
      ['MX-9-A', 'MX-10-A', 'MX-100-A'],
    );
  });

  it('sorts by state with what needs attention first', () => {
    assert.deepEqual(
      sortRows(rows, { column: 'state', descending: false }).map((r) => r.state),
      ['failed', 'failed', 'unavailable', 'unknown', 'in-progress', 'no-events', 'not-loaded', 'onboarded'],
    );
  });

  it('sorts by duration, age and events, machines without events last in either direction', () => {
    assert.deepEqual(order('duration').slice(0, 4), ['TBL-2200-C0666', 'PRS-0900-A0314', 'LSR-6060-F0042', 'MX-4711-A0023']);
    assert.deepEqual(order('duration', true).slice(0, 4), ['MX-4711-A0023', 'LSR-6060-F0042', 'PRS-0900-A0314', 'TBL-2200-C0666']);
    assert.equal(order('duration', true).at(-1), 'WELD-3100-D0007');
    assert.equal(order('age')[0], 'TBL-2200-C0666', 'the most recent newest event first');
    assert.deepEqual(order('events', true).slice(0, 2), ['MX-4711-A0023', 'LSR-6060-F0042']);
    assert.deepEqual(order('error').slice(0, 2), ['KRP-0815-B0042', 'MX-9999-Z0001'], 'alphabetical by error text');
    assert.deepEqual(order('newest').slice(0, 2), ['LSR-6060-F0042', 'MX-4711-A0023'], 'alphabetical by the newest event type');
  });

  it('sorts one board again and again by every column, each sort the order of a sort on its own', () => {
    // Serial numbers equal but for case collate alike: their order is the board's, both times.
    const many = [...rows, ...rows.map((r) => ({ ...r, serialNumber: r.serialNumber.toLowerCase(), error: null }))];
    const sorter = new RowSorter(many);
    const sorts = BOARD_COLUMNS.flatMap((column) => [false, true].map((descending) => ({ column, descending })));
    for (const sort of [...sorts, ...sorts.reverse()])
      assert.deepEqual(
        sorter.sort(sort).map((r) => `${r.serialNumber} ${String(r.error)}`),
        sortRows(many, sort).map((r) => `${r.serialNumber} ${String(r.error)}`),
        JSON.stringify(sort),
      );
  });

  it('filters by state and by text in the serial number, state word, newest event and error', () => {
    const serials = (filter: Parameters<typeof filterRows>[1]): string[] =>
      filterRows(rows, filter, WORDS.states).map((r) => r.serialNumber);
    assert.deepEqual(serials({ states: ['failed'], text: '' }), ['PRS-0900-A0314', 'TBL-2200-C0666']);
    assert.deepEqual(serials({ states: ['unknown', 'unavailable'], text: '' }), ['MX-9999-Z0001', 'KRP-0815-B0042']);
    assert.deepEqual(serials({ states: [], text: 'mx-' }), ['MX-4711-A0023', 'MX-9999-Z0001']);
    assert.deepEqual(serials({ states: [], text: ' 503 ' }), ['KRP-0815-B0042']);
    assert.deepEqual(serials({ states: [], text: 'IN PROGRESS' }), ['LSR-6060-F0042']);
    assert.deepEqual(serials({ states: ['failed'], text: 'onboarding_failed' }), ['PRS-0900-A0314']);
    assert.deepEqual(serials({ states: ['onboarded'], text: 'nothing like this' }), []);
  });

  it('says the summary line with the states that have machines, in a fixed order', () => {
    assert.equal(
      summaryText(countStates(rows), WORDS),
      '8 machines: 1 onboarded, 2 failed, 1 in progress, 1 no events, 1 unknown, 1 unavailable, 1 not loaded',
    );
    const line = [
      ...Array<{ state: 'onboarded' }>(31).fill({ state: 'onboarded' }),
      ...Array<{ state: 'failed' }>(3).fill({ state: 'failed' }),
      ...Array<{ state: 'in-progress' }>(5).fill({ state: 'in-progress' }),
      { state: 'unknown' as const },
    ];
    assert.equal(summaryText(countStates(line), WORDS), '40 machines: 31 onboarded, 3 failed, 5 in progress, 1 unknown');
    assert.equal(summaryText(countStates([{ state: 'failed' }]), WORDS), '1 machine: 1 failed');
    assert.equal(summaryText(countStates([]), WORDS), 'No machines');
    assert.equal(
      summaryText(countStates(Array<{ state: 'onboarded' }>(1234).fill({ state: 'onboarded' })), WORDS, 'de'),
      '1.234 machines: 1.234 onboarded',
    );
  });

  it('spans every point, a little wider, and ticks at round steps', () => {
    const range = timeRange(rows);
    assert.ok(range);
    assert.ok(range.from < BOARD_T0 && range.to > BOARD_T0 + 100 * MINUTE);
    assert.equal(timeRange([]), undefined);
    const { step, ticks } = timeTicks(BOARD_T0, BOARD_T0 + 2 * 60 * MINUTE, 8);
    assert.equal(step, 15 * MINUTE);
    assert.equal(ticks[0], BOARD_T0);
    assert.equal(ticks.length, 9);
  });

  it('aligns lanes at each first event, and prefers that when onboardings lie far apart for how long they took', () => {
    const [first] = rows;
    assert.ok(first);
    assert.equal(laneTime(first, BOARD_T0 + 7 * MINUTE, true), 7 * MINUTE);
    assert.equal(laneTime(first, BOARD_T0 + 7 * MINUTE, false), BOARD_T0 + 7 * MINUTE);
    const aligned = timeRange(rows, true);
    assert.ok(aligned && aligned.from < 0 && aligned.to > 28 * MINUTE && aligned.to < 40 * MINUTE);
    assert.equal(prefersAligned(rows), false, 'a line onboarded in one morning reads best on the clock');
    const months = [0, 40, 80].map((day, i) =>
      boardRow(`M-${i}`, { result: fixtureResult(`M-${i}`, onboarding(BOARD_T0 + day * 24 * 60 * MINUTE, 3, 'onboarded')) }, rules),
    );
    assert.equal(prefersAligned(months), true, 'onboardings months apart would be dots on one axis');
  });

  it('writes durations short', () => {
    assert.deepEqual(
      [45_000, 12 * MINUTE, 200 * MINUTE, 180 * MINUTE, 50 * 60 * MINUTE, 72 * 60 * MINUTE].map((ms) =>
        axisLabel(ms, MINUTE, { aligned: true, locale: 'en', t: undefined }),
      ),
      ['+45 s', '+12 min', '+3 h 20 min', '+3 h', '+2 days 2 h', '+3 days'],
    );
  });

  it('labels the timeline axis once for the canvas and the SVG: time since the start when aligned, else time or date by step', () => {
    const axis = { aligned: true, locale: 'en', t: undefined };
    assert.deepEqual(
      [0, 12 * MINUTE, -45_000].map((tick) => axisLabel(tick, MINUTE, axis)),
      ['0', '+12 min', '−45 s'],
    );
    const at = Date.UTC(2026, 10, 24, 9, 5, 30);
    const plain = { aligned: false, locale: 'en', t: undefined };
    assert.match(axisLabel(at, 10_000, plain), /\d{2}:\d{2}:\d{2}/, 'seconds for steps under a minute');
    assert.doesNotMatch(axisLabel(at, 10 * MINUTE, plain), /\d{2}:\d{2}:\d{2}/);
    assert.match(axisLabel(at, 10 * MINUTE, plain), /Nov/);
    assert.match(axisLabel(at, 2 * 24 * 60 * MINUTE, plain), /2026/, 'the date for steps of a day or more');
    assert.equal(
      axisLabel(at, MINUTE, { ...plain, locale: 'not a locale!' }),
      axisLabel(at, MINUTE, plain),
      'an unknown locale falls back',
    );
  });
});
