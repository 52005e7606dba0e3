// The board's progress (issue 38): the progress and time-to-go columns sort,
// "stalled" filters, the usual steps are laid behind each lane the same way on
// the canvas and in the SVG, and the protocol carries all of it bounded.
// Rows built as the host builds them, from a line's own history (progressLine).
import * as assert from 'node:assert/strict';
import { boardPageStrings } from '../../../src/extension/board/boardStrings';
import { isHostMessage, isPersistedState } from '../../../src/extension/board/protocol';
import { plainLocalize } from '../../../src/core/common/localize';
import { timelineSvg } from '../../../src/core/domain/board/boardExport';
import { boardRow, usualSteps } from '../../../src/core/domain/board/boardRows';
import {
  countAbandoned,
  countStalled,
  countStates,
  filterRows,
  NO_FILTER,
  searchText,
  sortRows,
  summaryText,
  usualBands,
} from '../../../src/core/domain/board/boardTable';
import { DEFAULT_EVENT_STATE_RULES } from '../../../src/core/domain/events/eventState';
import { ABANDONED, BOARD_T0, fixtureResult, onboarding, progressLine } from '../../support/board/boardFixtures';

const WORDS = {
  onboarded: 'onboarded',
  failed: 'failed',
  'in-progress': 'in progress',
  'no-events': 'no events',
  unknown: 'unknown',
  unavailable: 'unavailable',
  'not-loaded': 'not loaded',
};
const serials = (rows: readonly { serialNumber: string }[]): string[] => rows.map((row) => row.serialNumber);

describe('the board with progress', () => {
  const { rows, learned } = progressLine();

  it('puts the stalled first when sorting by progress, then the least far along; rows without progress last both ways', () => {
    const ascending = serials(sortRows(rows, { column: 'progress', descending: false }));
    assert.deepEqual(ascending.slice(0, 3), ['LSR-7000-G0101', 'LSR-7000-G0102', 'LSR-7000-G0103']);
    const descending = serials(sortRows(rows, { column: 'progress', descending: true }));
    assert.deepEqual(descending.slice(0, 3), ['LSR-7000-G0103', 'LSR-7000-G0102', 'LSR-7000-G0101']);
    assert.equal(descending[3], ABANDONED, 'the abandoned after those in progress, both ways');
    assert.equal(ascending[3], ABANDONED);
    assert.ok(
      descending.slice(4).every((serial) => serial.startsWith('MX-')),
      'onboarded machines (no progress) stay last',
    );
  });

  it('sorts by time to go, shortest first; the stalled machine, whose time to go no machine of the history can tell, last', () => {
    assert.deepEqual(serials(sortRows(rows, { column: 'toGo', descending: false })).slice(0, 3), [
      'LSR-7000-G0103',
      'LSR-7000-G0102',
      'LSR-7000-G0101',
    ]);
  });

  it('filters to the stalled machines, with the states and the text, and counts them', () => {
    assert.deepEqual(serials(filterRows(rows, { ...NO_FILTER, stalled: true }, WORDS)), ['LSR-7000-G0101']);
    assert.deepEqual(serials(filterRows(rows, { states: ['onboarded'], text: '', stalled: true }, WORDS)), []);
    assert.equal(filterRows(rows, { ...NO_FILTER, stalled: false }, WORDS).length, rows.length);
    assert.equal(countStalled(rows), 1);
    const stalled = rows.find((row) => row.serialNumber === 'LSR-7000-G0101');
    assert.ok(stalled?.progress, 'the stalled machine has progress');
    assert.ok(stalled.progress.stalledText?.startsWith('stalled: at it for 2 h'), stalled.progress.stalledText ?? 'no words');
    assert.equal(stalled.progress.restsOn, 'from 6 onboarded machines');
    assert.ok(searchText(stalled, WORDS).includes('step 4 of 6'), 'the step is searched');
  });

  it('filters to the abandoned machines, and counts them apart from those in progress in the summary', () => {
    const abandoned = rows.find((row) => row.serialNumber === ABANDONED);
    assert.ok(abandoned?.progress?.abandoned === true, 'the machine silent for months is abandoned');
    assert.deepEqual(serials(filterRows(rows, { ...NO_FILTER, abandoned: true }, WORDS)), [ABANDONED]);
    assert.deepEqual(serials(filterRows(rows, { ...NO_FILTER, abandoned: true, stalled: true }, WORDS)), []);
    assert.equal(countAbandoned(rows), 1);
    const words = {
      states: WORDS,
      none: 'none',
      one: '{0}',
      many: '{0} machines: {1}',
      count: '{0} {1}',
      separator: ', ',
      abandoned: 'abandoned',
    };
    assert.equal(summaryText(countStates(rows), words, 'en', countAbandoned(rows)), '10 machines: 6 onboarded, 3 in progress, 1 abandoned');
    assert.equal(summaryText(countStates(rows), words, 'en'), '10 machines: 6 onboarded, 4 in progress', 'without abandoned machines');
  });

  it('names a missing step, and gives progress only to a machine in progress', () => {
    assert.equal(rows.find((row) => row.serialNumber === 'LSR-7000-G0103')?.progress?.oddities, 'missing: CERTIFICATE_ISSUED');
    const progress = rows.find((row) => row.serialNumber === 'LSR-7000-G0101')?.progress ?? undefined;
    const onboarded = boardRow(
      'MX-1',
      { result: fixtureResult('MX-1', onboarding(BOARD_T0, 3, 'onboarded')), progress },
      DEFAULT_EVENT_STATE_RULES,
    );
    assert.equal(onboarded.progress, null);
  });

  it('lays the usual steps end to end from each machine’s first event, and the SVG draws the canvas’s bands', () => {
    const steps = usualSteps(learned);
    assert.equal(steps.length, 6);
    const row = rows.find((r) => r.serialNumber === 'LSR-7000-G0102');
    assert.ok(row?.firstAt != null);
    const bands = usualBands(row, steps, false);
    assert.deepEqual(
      bands.map((band) => [band.index, band.from - (row.firstAt ?? 0), band.to - (row.firstAt ?? 0)]),
      [
        [1, 0, 8 * 60_000],
        [2, 8 * 60_000, 16 * 60_000],
        [3, 16 * 60_000, 21 * 60_000],
        [4, 21 * 60_000, 29 * 60_000],
        [5, 29 * 60_000, 35 * 60_000],
      ],
    );
    assert.deepEqual(usualBands(row, steps, true)[0], { index: 1, from: 0, to: 8 * 60_000 });
    const look = { background: '#fff', foreground: '#000', grid: '#888', states: WORDS };
    const svg = timelineSvg([row], {
      from: row.firstAt - 60_000,
      to: row.firstAt + 60 * 60_000,
      look,
      states: WORDS,
      title: 'Board',
      aligned: false,
      formatTick: String,
      usual: { steps, restsOn: 'from 6 onboarded machines', how: 'Learned from <6>' },
    });
    assert.equal(svg.match(/class="usual"/g)?.length, bands.length, 'one faint band per usual step, as on the canvas');
    assert.ok(svg.includes('<desc>Learned from &lt;6&gt; (from 6 onboarded machines)</desc>'), 'the picture says what it rests on');
    assert.equal(usualSteps({ kind: 'not-enough', machines: 3 }).length, 0);
  });

  it('carries progress and the usual steps through the protocol, bounded, and keeps a filter saved before "stalled" existed', () => {
    const board = {
      title: 'Board',
      set: { kind: 'pinned' },
      session: 'signed-in',
      rows,
      held: 0,
      beyond: 0,
      locale: 'en',
      nowMs: 1,
      usual: { steps: usualSteps(learned), restsOn: 'from 6', how: 'learned' },
    };
    const strings = boardPageStrings(plainLocalize);
    assert.ok(isHostMessage({ type: 'show', board, strings }));
    const bad = (row: Record<string, unknown>): unknown => ({ type: 'show', board: { ...board, rows: [{ ...rows[6], ...row }] }, strings });
    const progress = rows[6]?.progress;
    assert.ok(!isHostMessage(bad({ progress: { ...progress, step: 7 } })), 'a step past the steps');
    assert.ok(!isHostMessage(bad({ progress: { ...progress, stalled: 'yes' } })));
    assert.ok(!isHostMessage(bad({ progress: { ...progress, how: 'x'.repeat(5000) } })));
    assert.ok(!isHostMessage({ type: 'show', board: { ...board, usual: { steps: 'all', restsOn: '', how: '' } }, strings }));
    const saved = { version: 1, set: { kind: 'pinned' }, sort: { column: 'progress', descending: false } };
    assert.ok(isPersistedState({ ...saved, filter: { states: [], text: '' } }));
    assert.ok(isPersistedState({ ...saved, filter: { states: [], text: '', stalled: true } }));
    assert.ok(!isPersistedState({ ...saved, filter: { states: [], text: '', stalled: 1 } }));
    assert.ok(isPersistedState({ ...saved, filter: { states: [], text: '', abandoned: true } }));
    assert.ok(!isPersistedState({ ...saved, filter: { states: [], text: '', abandoned: 'yes' } }));
    assert.ok(!isHostMessage(bad({ progress: { ...progress, abandoned: 1 } })));
    assert.ok(!isHostMessage(bad({ progress: { ...progress, abandonedText: 'x'.repeat(5000) } })));
  });
});
