import assert from 'node:assert/strict';
import {
  assessWindowAnswer,
  compileFilter,
  isFilterActive,
  judgeWindowAnswer,
  updateFilter,
  windowQueryTimestamp,
} from '../../../../../src/core/domain/events/eventFilter';
import { event, MINUTE, T0 } from '../../../machines/fixtures';

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

  const activeness: readonly [string, Parameters<typeof isFilterActive>[0], boolean][] = [
    ['a type alone', { types: ['A'] }, true],
    ['text alone', { text: 'x' }, true],
    ['a since filter alone (even at the epoch)', { sinceMs: 0 }, true],
    ['an empty type list', { types: [] }, false],
    ['empty text', { text: '' }, false],
  ];
  for (const [what, filter, active] of activeness) {
    it(`with ${what} is ${active ? '' : 'in'}active`, () => {
      assert.equal(isFilterActive(filter), active);
    });
  }

  it('an empty type list passes every type', () => {
    assert.deepEqual(all.filter(compileFilter({ types: [] })), all);
  });

  it('by text ignores surrounding white space', () => {
    assert.deepEqual(all.filter(compileFilter({ text: '  asset  ' })), [created]);
  });

  it('by text matches the type alone, whatever its case', () => {
    const typed = event({ minute: 3, type: 'FIRMWARE_FLASHED', message: 'Step done' });
    assert.deepEqual([typed, ...all].filter(compileFilter({ text: 'Firmware' })), [typed]);
  });

  it('null clears types and text; a part the change leaves out is kept', () => {
    const current = { types: ['A'], text: 'x', sinceMs: 5 };
    assert.deepEqual(updateFilter(current, { types: null }), { text: 'x', sinceMs: 5 });
    assert.deepEqual(updateFilter(current, { text: null }), { types: ['A'], sinceMs: 5 });
    assert.deepEqual(updateFilter(current, { sinceMs: null }), { types: ['A'], text: 'x' });
    assert.deepEqual(updateFilter(current, { sinceMs: 7 }), { types: ['A'], text: 'x', sinceMs: 7 });
    assert.deepEqual(updateFilter(current, {}), current);
  });

  it('blank text and a time that is no finite number set nothing', () => {
    assert.deepEqual(updateFilter({}, { text: '   ' }), {});
    assert.deepEqual(updateFilter({}, { sinceMs: Number.NaN }), {});
    assert.deepEqual(updateFilter({}, { sinceMs: Number.POSITIVE_INFINITY }), {});
    assert.deepEqual(updateFilter({}, { sinceMs: 0 }), { sinceMs: 0 });
  });

  it("sends the window bound one unit early, in the server's unit", () => {
    assert.equal(windowQueryTimestamp(T0, 'milliseconds'), T0 - 1);
    assert.equal(windowQueryTimestamp(T0, 'seconds'), T0 / 1000 - 1);
    assert.equal(windowQueryTimestamp(T0 + 999, 'seconds'), T0 / 1000 - 1, 'floors to whole seconds');
  });

  it('classifies a since answer: within, mixed, outside, empty', () => {
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
    assert.deepEqual(judgeWindowAnswer([completed], undefined, since), { answer: 'within', unreliable: false, needFull: false });
    assert.deepEqual(judgeWindowAnswer(all, undefined, since), { answer: 'mixed', unreliable: false, needFull: false });
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
