// A board row at its edges, beside boardModel.test.ts: the error text's bounds and when a row
// has one, a kept (stale) copy with and without events, and a failing step that is the first point.
import * as assert from 'node:assert/strict';
import { boardRow, MAX_ERROR_LENGTH } from '../../../../../src/core/domain/board/boardRows';
import { DEFAULT_EVENT_STATE_RULES } from '../../../../../src/core/domain/events/eventState';
import { BOARD_T0, fixtureResult } from '../../../../support/board/boardFixtures';

const rules = DEFAULT_EVENT_STATE_RULES;
const MINUTE = 60_000;

describe('board rows at their edges', () => {
  it('keeps an error of exactly the limit whole, cuts a longer one to the limit, and an empty one is none', () => {
    const exact = 'e'.repeat(MAX_ERROR_LENGTH);
    assert.equal(boardRow('A', { errorKind: 'network', errorMessage: exact }, rules).error, exact);
    assert.equal(boardRow('A', { errorKind: 'network', errorMessage: `${exact}x` }, rules).error, `${'e'.repeat(MAX_ERROR_LENGTH - 1)}…`);
    assert.equal(boardRow('A', { errorKind: 'network', errorMessage: '' }, rules).error, null);
    assert.equal(boardRow('A', { errorKind: 'network' }, rules).error, null);
  });

  it('shows no error for a machine with a result, even when its last refresh failed', () => {
    const withEvents = fixtureResult('A', [{ type: 'STEP', at: BOARD_T0 }]);
    assert.equal(boardRow('A', { result: withEvents, stale: true, errorMessage: 'The API answered 503.' }, rules).error, null);
    assert.equal(boardRow('A', { result: fixtureResult('A', []), stale: true, errorMessage: 'The API answered 503.' }, rules).error, null);
  });

  it('says whether a row is a kept copy, with events or without', () => {
    const withEvents = fixtureResult('A', [{ type: 'STEP', at: BOARD_T0 }]);
    const empty = fixtureResult('A', []);
    assert.equal(boardRow('A', { result: withEvents, stale: true }, rules).stale, true);
    assert.equal(boardRow('A', { result: withEvents, stale: false }, rules).stale, false);
    assert.equal(boardRow('A', { result: withEvents }, rules).stale, false);
    assert.equal(boardRow('A', { result: empty, stale: true }, rules).stale, true);
    assert.equal(boardRow('A', { result: empty }, rules).stale, false);
    assert.equal(boardRow('A', { result: empty }, rules).completed, false);
    // No result at all, only a failure: the kept copy is what the source says.
    assert.equal(boardRow('A', { errorKind: 'network', stale: true }, rules).stale, true);
    assert.equal(boardRow('A', { errorKind: 'network', stale: false }, rules).stale, false);
    assert.equal(boardRow('A', { errorKind: 'network' }, rules).stale, false);
    assert.equal(boardRow('A', { errorKind: 'network' }, rules).completed, false);
  });

  it('reads a result without events as a known machine with nothing to show yet', () => {
    assert.deepEqual(boardRow('A', { result: fixtureResult('A', []) }, rules), {
      serialNumber: 'A',
      state: 'no-events',
      newestType: null,
      newestAt: null,
      firstAt: null,
      endAt: null,
      completed: false,
      durationMs: null,
      eventCount: 0,
      error: null,
      stale: false,
      points: [],
      failingPoint: -1,
      progress: null,
    });
  });

  it('finds the failing step when it is the first point', () => {
    const row = boardRow(
      'A',
      {
        result: fixtureResult('A', [
          { type: 'ONBOARDING_FAILED', at: BOARD_T0 },
          { type: 'RETRY_SCHEDULED', at: BOARD_T0 + MINUTE },
        ]),
      },
      rules,
    );
    assert.equal(row.failingPoint, 0);
  });
});
