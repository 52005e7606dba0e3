// The board table with progress: the progress and time-to-go sorts (the stalled first, the abandoned
// and the unknown last either way), the stalled and abandoned filters and their counts, the summary's
// abandoned machines counted apart, and the usual-step bands behind a lane.
import * as assert from 'node:assert/strict';
import { boardRow, type BoardRow, type RowProgress } from '../../../../../src/core/domain/board/boardRows';
import {
  axisLabel,
  countAbandoned,
  countStalled,
  countStates,
  filterRows,
  sortRows,
  summaryText,
  timeRange,
  usualBands,
  type SummaryWords,
} from '../../../../../src/core/domain/board/boardTable';
import { DEFAULT_EVENT_STATE_RULES } from '../../../../../src/core/domain/events/eventState';
import { BOARD_T0, fixtureResult, onboarding } from '../../../../support/board/boardFixtures';

const rules = DEFAULT_EVENT_STATE_RULES;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

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

function progress(step: number, of: number, more: Partial<RowProgress> = {}): RowProgress {
  return {
    known: true,
    step,
    of,
    stalled: false,
    abandoned: false,
    toGoMs: null,
    toGoLowMs: null,
    toGoHighMs: null,
    stepText: `step ${step} of ${of}`,
    toGoText: null,
    stalledText: null,
    abandonedText: null,
    stallRule: null,
    why: null,
    restsOn: '6 machines',
    how: 'learned',
    oddities: null,
    ...more,
  };
}

/** A machine in progress, started at `start`, with the progress the host computed for it. */
function machine(serialNumber: string, p: RowProgress | undefined, start = BOARD_T0): BoardRow {
  return boardRow(serialNumber, { result: fixtureResult(serialNumber, onboarding(start, 2, 'in-progress')), progress: p }, rules);
}

const serials = (rows: readonly BoardRow[]): string[] => rows.map((r) => r.serialNumber);

describe('board table with progress', () => {
  const rows = [
    machine('A-none', undefined),
    machine('B-abandoned', progress(2, 5, { abandoned: true })),
    machine('C-late', progress(4, 5)),
    machine('D-early', progress(1, 5)),
    machine('E-stalled', progress(3, 5, { stalled: true })),
    machine('F-unknown', { ...progress(0, 0), known: false }),
    machine('G-middle', progress(1, 2)),
  ];

  it('sorts by progress: the stalled first, then the least far along; the abandoned, then the unknown, last', () => {
    assert.deepEqual(serials(sortRows(rows, { column: 'progress', descending: false })), [
      'E-stalled',
      'D-early',
      'G-middle',
      'C-late',
      'B-abandoned',
      'A-none',
      'F-unknown',
    ]);
  });

  it('reverses the known progress when descending, but keeps the abandoned and the unknown last', () => {
    assert.deepEqual(serials(sortRows(rows, { column: 'progress', descending: true })), [
      'C-late',
      'G-middle',
      'D-early',
      'E-stalled',
      'B-abandoned',
      'A-none',
      'F-unknown',
    ]);
  });

  it('keeps the abandoned in serial-number order among themselves, however far each got', () => {
    const far = machine('A-far', progress(4, 5, { abandoned: true }));
    const near = machine('B-near', progress(1, 5, { abandoned: true, stalled: true }));
    for (const descending of [false, true])
      assert.deepEqual(serials(sortRows([near, far], { column: 'progress', descending })), ['A-far', 'B-near']);
  });

  it('compares steps as a share of the steps, so a line of few steps compares with one of many', () => {
    const short = machine('A-half', progress(2, 4));
    const long = machine('B-tenth', progress(1, 10));
    assert.deepEqual(serials(sortRows([short, long], { column: 'progress', descending: false })), ['B-tenth', 'A-half']);
    const none = machine('A-zero', progress(0, 0));
    assert.deepEqual(serials(sortRows([long, none], { column: 'progress', descending: false })), ['A-zero', 'B-tenth']);
  });

  it('sorts by time to go, shortest first, machines without one last either way', () => {
    const soon = machine('C-soon', progress(3, 5, { toGoMs: 5 * MINUTE }));
    const later = machine('B-later', progress(2, 5, { toGoMs: 2 * HOUR }));
    const unknown = machine('A-unknown', progress(2, 5));
    const noProgress = machine('A-0', undefined);
    assert.deepEqual(serials(sortRows([unknown, later, noProgress, soon], { column: 'toGo', descending: false })), [
      'C-soon',
      'B-later',
      'A-0',
      'A-unknown',
    ]);
    assert.deepEqual(serials(sortRows([unknown, later, noProgress, soon], { column: 'toGo', descending: true })), [
      'B-later',
      'C-soon',
      'A-0',
      'A-unknown',
    ]);
  });

  it('filters the stalled and the abandoned, each alone or with text, and counts them', () => {
    const only = (filter: Parameters<typeof filterRows>[1]): string[] => serials(filterRows(rows, filter, WORDS.states));
    assert.deepEqual(only({ states: [], text: '', stalled: true }), ['E-stalled']);
    assert.deepEqual(only({ states: [], text: '', abandoned: true }), ['B-abandoned']);
    assert.deepEqual(only({ states: [], text: '', stalled: false, abandoned: false }).length, rows.length);
    assert.deepEqual(only({ states: [], text: 'step 1 of' }), ['D-early', 'G-middle']);
    assert.deepEqual(only({ states: [], text: 'step 1 of', stalled: true }), []);
    assert.equal(countStalled(rows), 1);
    assert.equal(countAbandoned(rows), 1);
    assert.equal(countStalled([...rows, machine('H', progress(1, 5, { stalled: true }))]), 2);
    assert.equal(countAbandoned([machine('H', undefined)]), 0);
  });

  it('counts the abandoned apart, right after those in progress, and never more than are in progress', () => {
    const line = [
      ...Array<{ state: 'onboarded' }>(3).fill({ state: 'onboarded' }),
      ...Array<{ state: 'in-progress' }>(4).fill({ state: 'in-progress' }),
      { state: 'unknown' as const },
    ];
    assert.equal(summaryText(countStates(line), WORDS, 'en', 1), '8 machines: 3 onboarded, 3 in progress, 1 abandoned, 1 unknown');
    assert.equal(summaryText(countStates(line), WORDS, 'en', 4), '8 machines: 3 onboarded, 4 abandoned, 1 unknown');
    assert.equal(summaryText(countStates(line), WORDS, 'en', 9), '8 machines: 3 onboarded, 4 abandoned, 1 unknown');
    assert.equal(summaryText(countStates([{ state: 'failed' }]), WORDS, 'en', 2), '1 machine: 1 failed');
  });

  it('lays the usual steps end to end from the first event, skipping the first step and steps never measured', () => {
    const lane = { firstAt: BOARD_T0 };
    const steps = [
      { type: 'A', medianMs: 99 * MINUTE, p90Ms: null },
      { type: 'B', medianMs: 7 * MINUTE, p90Ms: null },
      { type: 'C', medianMs: null, p90Ms: null },
      { type: 'D', medianMs: 3 * MINUTE, p90Ms: null },
    ];
    assert.deepEqual(usualBands(lane, steps, false), [
      { index: 1, from: BOARD_T0, to: BOARD_T0 + 7 * MINUTE },
      { index: 3, from: BOARD_T0 + 7 * MINUTE, to: BOARD_T0 + 10 * MINUTE },
    ]);
    assert.deepEqual(usualBands(lane, steps, true), [
      { index: 1, from: 0, to: 7 * MINUTE },
      { index: 3, from: 7 * MINUTE, to: 10 * MINUTE },
    ]);
    assert.deepEqual(usualBands({ firstAt: null }, steps, false), []);
  });

  it('lets an abandoned machine’s open lane run off the edge rather than squeeze the others', () => {
    const now = BOARD_T0 + 30 * 24 * HOUR;
    const recent = machine('A', progress(2, 5), now - HOUR);
    const abandoned = machine('B', progress(2, 5, { abandoned: true }), BOARD_T0);
    const range = timeRange([recent, abandoned], false, now);
    assert.ok(range !== undefined);
    // Both lanes' points, and the recent machine's lane open to now; the pad is 3 % of the span.
    const from = BOARD_T0;
    const to = now;
    const pad = (to - from) * 0.03;
    assert.deepEqual(range, { from: from - pad, to: to + pad });
    // Alone, the abandoned lane ends at its newest event (the span is minutes: a minute's pad each side).
    const newest = Math.max(...abandoned.points.map((point) => point.at));
    assert.deepEqual(timeRange([abandoned], false, now), { from: BOARD_T0 - MINUTE, to: newest + MINUTE });
  });

  it('labels times before the aligned start with a minus sign, and the start itself as 0', () => {
    const axis = { aligned: true, locale: 'en', t: undefined };
    assert.equal(axisLabel(-5 * MINUTE, MINUTE, axis), '−5 min');
    assert.equal(axisLabel(5 * MINUTE, MINUTE, axis), '+5 min');
    assert.equal(axisLabel(0, MINUTE, axis), '0');
  });
});
