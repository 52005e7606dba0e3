import assert from 'node:assert/strict';
import {
  assessWindowAnswer,
  compileFilter,
  isFilterActive,
  judgeWindowAnswer,
  updateFilter,
  windowQueryTimestamp,
} from '../../../src/domain/events/eventFilter';
import { event, MINUTE, T0 } from '../machines/fixtures';

describe('Event filter', () => {
  const started = event({ minute: 0, type: 'ONBOARDING_STARTED', message: 'Onboarding started' });
  const created = event({
    minute: 1,
    type: 'MACHINE_CREATED',
    message: 'Machine asset created',
    assetId: '3f2b8c1e-7a4d-4e4b-9a6f-1c2d3e4f5a6b',
  });
  const completed = event({ minute: 2, type: 'ONBOARDING_COMPLETED', message: 'Onboarding Completed' });
  const all = [completed, created, started];

  it('with nothing set is inactive and passes every event', () => {
    assert.equal(isFilterActive({}), false);
    assert.deepEqual(all.filter(compileFilter({})), all);
  });

  it('by type keeps only the named types (exact)', () => {
    assert.deepEqual(all.filter(compileFilter({ types: ['MACHINE_CREATED'] })), [created]);
    assert.deepEqual(all.filter(compileFilter({ types: ['machine_created'] })), []);
  });

  it('by text matches type, message or asset id, ignoring case', () => {
    assert.deepEqual(all.filter(compileFilter({ text: 'completed' })), [completed]);
    assert.deepEqual(all.filter(compileFilter({ text: 'ASSET' })), [created]);
    assert.deepEqual(all.filter(compileFilter({ text: '3F2B8C1E' })), [created]);
  });

  it('by time keeps events at or after the bound', () => {
    assert.deepEqual(all.filter(compileFilter({ sinceMs: T0 + MINUTE })), [completed, created]);
  });

  it('combines its parts with AND', () => {
    assert.deepEqual(all.filter(compileFilter({ sinceMs: T0 + MINUTE, text: 'onboarding' })), [completed]);
  });

  it('updates part by part; [], empty text and null clear a part', () => {
    let filter = updateFilter({}, { types: ['B', 'A', 'B'] });
    assert.deepEqual(filter, { types: ['A', 'B'] });
    filter = updateFilter(filter, { text: '  x ' });
    assert.deepEqual(filter, { types: ['A', 'B'], text: 'x' });
    filter = updateFilter(filter, { sinceMs: 5 });
    assert.deepEqual(filter, { types: ['A', 'B'], text: 'x', sinceMs: 5 });
    filter = updateFilter(filter, { types: [], text: '', sinceMs: null });
    assert.deepEqual(filter, {});
    assert.equal(isFilterActive(filter), false);
  });

  it("sends the window bound one unit early, in the server's unit", () => {
    assert.equal(windowQueryTimestamp(T0, 'milliseconds'), T0 - 1);
    assert.equal(windowQueryTimestamp(T0, 'seconds'), T0 / 1000 - 1);
    assert.equal(windowQueryTimestamp(T0 + 999, 'seconds'), T0 / 1000 - 1, 'floors to whole seconds');
  });

  it('classifies a windowed answer: within, mixed, outside, empty', () => {
    const since = T0 + MINUTE;
    assert.equal(assessWindowAnswer([completed, created], since), 'within');
    assert.equal(assessWindowAnswer(all, since), 'mixed');
    assert.equal(assessWindowAnswer([started], since), 'outside');
    assert.equal(assessWindowAnswer([], since), 'empty');
  });

  it('judges an answer against the full result: a server that filters the other way needs a full request', () => {
    const since = T0 + MINUTE;
    assert.deepEqual(judgeWindowAnswer([started], undefined, since), { answer: 'outside', unreliable: true, needFull: true });
    assert.deepEqual(judgeWindowAnswer([], undefined, since), { answer: 'empty', unreliable: false, needFull: true });
    assert.deepEqual(judgeWindowAnswer([completed, created], all, since), { answer: 'within', unreliable: false, needFull: false });
    assert.deepEqual(
      judgeWindowAnswer([completed], all, since),
      { answer: 'within', unreliable: true, needFull: false },
      'left out the boundary event',
    );
    assert.deepEqual(
      judgeWindowAnswer(all, all, since),
      { answer: 'mixed', unreliable: false, needFull: false },
      'ignored: the re-check drops the old one',
    );
  });
});
