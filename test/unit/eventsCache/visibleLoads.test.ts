// VisibleLoads over the real events cache (whose memory of answers and failures
// it reads), on a fake clock, with a source the test answers by hand.
import * as assert from 'node:assert/strict';
import { cancelledError } from '../../../src/core/client/errors';
import { ApiError } from '../../../src/core/client/errors';
import type { EventsResult, GetEventsOptions } from '../../../src/core/client/model';
import { EventsCache } from '../../../src/core/eventsCache/eventsCache';
import { LoadBudget } from '../../../src/core/eventsCache/loadBudget';
import { MIN_RELOAD_MS, VisibleLoads } from '../../../src/core/eventsCache/visibleLoads';
import { result } from '../machines/fixtures';

interface Call {
  readonly serialNumber: string;
  readonly signal: AbortSignal;
  resolve(): void;
  reject(error: Error): void;
}

function harness(options: { periodMs?: number; maxInFlight?: number; maxPerView?: number; budget?: number; budgetPeriodMs?: number } = {}) {
  let now = 0;
  const fresh = new Set<string>();
  const calls: Call[] = [];
  const cache = new EventsCache({
    source: () => ({
      // As the real client does: the request ends 'cancelled' when the cache aborts it (nobody waits any more).
      getEvents: (serialNumber: string, { signal }: GetEventsOptions = {}) =>
        new Promise<EventsResult>((resolve, reject) => {
          if (signal === undefined) throw new Error('the cache always sends a signal');
          signal.addEventListener(
            'abort',
            () => {
              reject(cancelledError());
            },
            { once: true },
          );
          calls.push({
            serialNumber,
            signal,
            resolve: () => {
              resolve(result([], serialNumber, now));
            },
            reject,
          });
        }),
    }),
    freshForMs: () => options.periodMs ?? 60_000,
    now: () => now,
  });
  const loads = new VisibleLoads({
    load: (serialNumber, signal) => cache.get(serialNumber, { signal }),
    cache: {
      isFresh: (serial) => fresh.has(serial) || cache.isFresh(serial),
      peek: (serial) => cache.peek(serial),
      failure: (serial) => cache.failure(serial),
      automaticLoads: new LoadBudget({
        now: () => now,
        ...(options.budget === undefined ? {} : { budget: options.budget }),
        ...(options.budgetPeriodMs === undefined ? {} : { periodMs: options.budgetPeriodMs }),
      }),
    },
    periodMs: () => options.periodMs ?? 60_000,
    now: () => now,
    maxInFlight: options.maxInFlight ?? 4,
    ...(options.maxPerView === undefined ? {} : { maxPerView: options.maxPerView }),
  });
  return {
    loads,
    calls,
    fresh,
    /** Sign-out: the product clears the cache and the loads together. */
    clear: () => {
      cache.clear();
      loads.clear();
    },
    advance: (ms: number) => {
      now += ms;
    },
    sent: () => calls.map((call) => call.serialNumber),
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('VisibleLoads (what the inline status asks for)', () => {
  it('asks for each visible serial number once, top first, a few at a time', async () => {
    const h = harness({ maxInFlight: 2 });
    h.loads.show(['A', 'B', 'C']);
    assert.deepEqual(h.sent(), ['A', 'B']);
    h.calls[0]?.resolve();
    await settle();
    assert.deepEqual(h.sent(), ['A', 'B', 'C']);
  });

  it('asks nothing for a serial number the cache has fresh', () => {
    const h = harness();
    h.fresh.add('A');
    h.loads.show(['A', 'B']);
    assert.deepEqual(h.sent(), ['B']);
  });

  it('asks at most once per serial per cache period, however often it is shown', async () => {
    const h = harness({ periodMs: 60_000 });
    h.loads.show(['A']);
    h.calls[0]?.resolve();
    await settle();
    for (let i = 0; i < 20; i++) h.loads.show(['A']);
    h.advance(59_000);
    h.loads.show(['A']);
    assert.deepEqual(h.sent(), ['A']);
    h.advance(2_000);
    h.loads.show(['A']);
    assert.deepEqual(h.sent(), ['A', 'A']);
  });

  it('waits at least MIN_RELOAD_MS even with caching off', async () => {
    const h = harness({ periodMs: 0 });
    h.loads.show(['A']);
    h.calls[0]?.resolve();
    await settle();
    h.loads.show(['A']);
    assert.equal(h.calls.length, 1);
    h.advance(MIN_RELOAD_MS);
    h.loads.show(['A']);
    assert.equal(h.calls.length, 2);
  });

  it('remembers a failure for the period (a 404 is not asked again on every scroll) and reports its kind', async () => {
    const h = harness();
    h.loads.show(['A']);
    h.calls[0]?.reject(new ApiError('not-found', { kind: 'invalid-input', text: () => 'no such machine' }));
    await settle();
    assert.equal(h.loads.failure('A'), 'not-found');
    h.loads.show(['A']);
    assert.equal(h.calls.length, 1);
    h.advance(61_000);
    assert.equal(h.loads.failure('A'), undefined);
  });

  it('aborts a request whose serial number scrolled away, and drops queued ones never sent', () => {
    const h = harness({ maxInFlight: 1 });
    h.loads.show(['A', 'B']);
    assert.deepEqual(h.sent(), ['A']);
    h.loads.show(['C']);
    assert.equal(h.calls[0]?.signal.aborted, true);
    assert.deepEqual(h.sent(), ['A', 'C'], 'B was queued, never sent');
  });

  it('an aborted request is not an attempt: shown again, it is asked again', async () => {
    const h = harness();
    h.loads.show(['A']);
    h.loads.show([]);
    h.calls[0]?.reject(new ApiError('cancelled', { kind: 'invalid-input', text: () => 'aborted' }));
    await settle();
    h.loads.show(['A']);
    assert.deepEqual(h.sent(), ['A', 'A']);
  });

  it('tells when a load settles, and forgets everything on clear() (sign-out)', async () => {
    const h = harness();
    const settled: string[] = [];
    h.loads.onDidSettle((serial) => {
      settled.push(serial);
    });
    h.loads.show(['A', 'B']);
    h.calls[0]?.reject(new ApiError('server', { kind: 'invalid-input', text: () => 'boom' }));
    await settle();
    assert.deepEqual(settled, ['A']);
    h.clear();
    const second = h.calls[1];
    assert.ok(second);
    assert.equal(second.signal.aborted, true);
    assert.equal(h.loads.failure('A'), undefined);
    h.calls[1]?.resolve();
    await settle();
    assert.deepEqual(settled, ['A'], 'an answer from before clear() is ignored');
  });

  describe('bounds on what loads without asking', () => {
    const answerAll = async (h: ReturnType<typeof harness>): Promise<void> => {
      for (const call of h.calls) call.resolve();
      await settle();
    };

    it('loads the first maxPerView serial numbers of a view and holds the rest, saying how many', async () => {
      const h = harness({ maxPerView: 2, maxInFlight: 10 });
      const held: number[] = [];
      h.loads.onDidChangeHeld((count) => held.push(count));
      h.loads.show(['A', 'B', 'C', 'D']);
      await answerAll(h);
      h.loads.show(['A', 'B', 'C', 'D']);
      assert.deepEqual(h.sent(), ['A', 'B'], 'the same view shown again loads no more of it');
      assert.equal(h.loads.heldCount, 2);
      assert.deepEqual(held, [2]);
      h.loads.show(['C', 'D']);
      assert.deepEqual(h.sent(), ['A', 'B', 'C', 'D'], 'scrolled to the top of the view, they load');
      assert.equal(h.loads.heldCount, 0);
    });

    it('stops at the budget of the period and starts again after it', async () => {
      const h = harness({ maxPerView: 10, budget: 3, budgetPeriodMs: 60_000, maxInFlight: 10 });
      h.loads.show(['A', 'B']);
      await answerAll(h);
      h.loads.show(['C', 'D']);
      assert.deepEqual(h.sent(), ['A', 'B', 'C']);
      assert.equal(h.loads.heldCount, 1);
      h.advance(60_000);
      h.loads.show(['D']);
      assert.deepEqual(h.sent(), ['A', 'B', 'C', 'D']);
    });

    it('loadHeld() loads every held serial number once, past both bounds, then the bounds hold again', async () => {
      const h = harness({ maxPerView: 1, budget: 1, maxInFlight: 10 });
      h.loads.show(['A', 'B', 'C']);
      assert.deepEqual(h.sent(), ['A']);
      h.loads.loadHeld();
      assert.deepEqual(h.sent(), ['A', 'B', 'C']);
      assert.equal(h.loads.heldCount, 0);
      await answerAll(h);
      h.advance(61_000);
      h.loads.show(['A', 'B', 'C']);
      assert.deepEqual(h.sent(), ['A', 'B', 'C', 'A'], 'the grant was for one load each');
    });

    it('clear() (sign-out) forgets what is held and what was granted', () => {
      const h = harness({ maxPerView: 1, maxInFlight: 10 });
      h.loads.show(['A', 'B']);
      assert.equal(h.loads.heldCount, 1);
      h.clear();
      assert.equal(h.loads.heldCount, 0);
      h.loads.loadHeld();
      assert.deepEqual(h.sent(), ['A']);
    });
  });
});
