import assert from 'node:assert/strict';
import { buildView, EventViewCache, knownTypes, machineChildren, mergeEvents } from '../../../../../src/core/domain/events/eventView';
import { event, manyEvents, MINUTE, result, T0 } from '../../../machines/fixtures';

describe('Event view of one machine', () => {
  const a = event({ minute: 0, type: 'A' });
  const b = event({ minute: 1, type: 'B' });
  const c = event({ minute: 2, type: 'C', assetId: '3f2b8c1e-7a4d-4e4b-9a6f-1c2d3e4f5a6b' });

  it('merges lists by event key, newest first', () => {
    assert.deepEqual(
      mergeEvents([
        [b, a],
        [c, b],
      ]).map((e) => e.type),
      ['C', 'B', 'A'],
    );
  });

  it('returns a single sorted list as is, and sorts one that is not', () => {
    const sorted = [c, b, a];
    assert.equal(mergeEvents([sorted]), sorted);
    assert.deepEqual(
      mergeEvents([[a, c, b]]).map((e) => e.type),
      ['C', 'B', 'A'],
    );
  });

  it('returns one newest-first answer as it is, also beside empty lists and with equal times', () => {
    const x = event({ minute: 5, type: 'X' });
    const y = event({ minute: 5, type: 'Y' });
    const sorted = [y, x, a];
    assert.equal(mergeEvents([sorted]), sorted);
    assert.equal(mergeEvents([sorted, []]), sorted);
    assert.equal(mergeEvents([[], sorted]), sorted);
    assert.deepEqual(mergeEvents([[], []]), []);
    assert.deepEqual(mergeEvents([]), []);
  });

  it('merges two lists even when the first is newest first on its own', () => {
    assert.deepEqual(
      mergeEvents([[c, a], [b]]).map((e) => e.type),
      ['C', 'B', 'A'],
    );
  });

  it('keeps server order among equal times', () => {
    const x = event({ minute: 5, type: 'X' });
    const y = event({ minute: 5, type: 'Y' });
    assert.deepEqual(
      mergeEvents([[a, y, x]]).map((e) => e.type),
      ['Y', 'X', 'A'],
    );
  });

  it('builds the filtered view with total, latest, newest and the machine-created event', () => {
    const view = buildView(result([c, b, a]), undefined, { types: ['A', 'B'] });
    assert.deepEqual(
      view.events.map((e) => e.type),
      ['B', 'A'],
    );
    assert.equal(view.total, 3);
    assert.equal(view.latest?.type, 'B');
    assert.equal(view.newest?.type, 'C');
    assert.equal(view.created?.type, 'C');
  });

  it('unites the full result with a since answer and re-checks the since answer', () => {
    const newer = event({ minute: 3, type: 'D' });
    const view = buildView(result([c, b, a]), result([newer, c, a]), { sinceMs: T0 + 2 * MINUTE });
    assert.deepEqual(
      view.events.map((e) => e.type),
      ['D', 'C'],
    );
    assert.equal(view.total, 4);
  });

  it('memoises per machine on the identity of result, window and filter', () => {
    const cache = new EventViewCache();
    const full = result([c, b, a]);
    const filter = {};
    const first = cache.view('S', full, undefined, filter);
    assert.equal(cache.view('S', full, undefined, filter), first);
    assert.equal(cache.view('S', full, result([event({ minute: 3, type: 'D' })]), filter).total, 4, 'a new window answer alone');
    assert.notEqual(cache.view('S', result([c, b, a]), undefined, filter), first);
    assert.equal(cache.view('S', undefined, undefined, filter).total, 0);
  });

  it('builds a new view when the window answer or the filter changes, and from a window answer alone', () => {
    const cache = new EventViewCache();
    const full = result([c, b, a]);
    const filter = {};
    cache.view('S', full, undefined, filter);
    const filtered = cache.view('S', full, undefined, { types: ['A'] });
    assert.deepEqual(
      filtered.events.map((e) => e.type),
      ['A'],
    );
    const since = cache.view('S', full, result([event({ minute: 3, type: 'D' })]), filter);
    assert.equal(since.total, 4);
    assert.deepEqual(
      cache.view('T', undefined, result([b]), filter).events.map((e) => e.type),
      ['B'],
    );
  });

  it('forgets one machine, or every machine', () => {
    const cache = new EventViewCache();
    const full = result([c, b, a]);
    const filter = {};
    const s = cache.view('S', full, undefined, filter);
    const t = cache.view('T', full, undefined, filter);
    cache.forget('S');
    const s2 = cache.view('S', full, undefined, filter);
    assert.notEqual(s2, s);
    assert.deepEqual(s2, s);
    assert.equal(cache.view('T', full, undefined, filter), t, 'the other machine is still remembered');
    cache.forget();
    assert.notEqual(cache.view('S', full, undefined, filter), s2);
    assert.notEqual(cache.view('T', full, undefined, filter), t);
  });

  it('children: newest N, then "Load more" with the remaining count', () => {
    const view = buildView(result(manyEvents(120)), undefined, {});
    const children = machineChildren({ view, limit: 50, loaded: true, loading: false });
    assert.equal(children.length, 51);
    assert.deepEqual(children[50], { kind: 'load-more', shown: 50, remaining: 70 });
    assert.equal(children[0]?.kind === 'event' && children[0].event.time.epochMs, T0 + 119 * MINUTE);
  });

  it('children: the error first, above the last good events', () => {
    const view = buildView(result([b, a]), undefined, {});
    const children = machineChildren({ view, limit: 50, loaded: true, loading: false, error: { message: 'HTTP 500', kind: 'server' } });
    assert.deepEqual(
      children.map((child) => child.kind),
      ['error', 'event', 'event'],
    );
  });

  it('children: placeholders say loading, not loaded, no events, or none match', () => {
    const empty = buildView(undefined, undefined, {});
    assert.deepEqual(machineChildren({ view: empty, limit: 5, loaded: false, loading: true }), [
      { kind: 'placeholder', reason: 'loading' },
    ]);
    assert.deepEqual(machineChildren({ view: empty, limit: 5, loaded: false, loading: false }), [
      { kind: 'placeholder', reason: 'not-loaded' },
    ]);
    assert.deepEqual(machineChildren({ view: buildView(result([]), undefined, {}), limit: 5, loaded: true, loading: false }), [
      { kind: 'placeholder', reason: 'no-events' },
    ]);
    assert.deepEqual(
      machineChildren({ view: buildView(result([a]), undefined, { types: ['Z'] }), limit: 5, loaded: true, loading: false }),
      [{ kind: 'placeholder', reason: 'none-match' }],
    );
    assert.deepEqual(machineChildren({ view: empty, limit: 5, loaded: false, loading: false, error: { message: 'm' } }), [
      { kind: 'error', message: 'm', errorKind: undefined },
    ]);
  });

  it('lists the known event types once, sorted', () => {
    assert.deepEqual(knownTypes([result([c, b]), result([b, a])]), ['A', 'B', 'C']);
  });
});
