// The request queue alone, on a clock the test moves: who is granted a slot,
// in which order, what a cancelled or expedited waiter does, and how a
// Retry-After holds the queue.

import * as assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import {
  ConcurrencyLimiter,
  interactiveReserve,
  RequestLane,
  type AcquireOptions,
  type ConcurrencyLimiterOptions,
  type Permit,
} from '../../../src/core/client/http/concurrencyLimiter';
import { isApiError } from '../../../src/core/client/errors';
import { rejectionOf } from './testClient';

interface Clock {
  now: number;
}

interface Request {
  readonly name: string;
  permit: Permit | undefined;
  error: unknown;
}

/** A limiter on a clock the test moves, and a log of the order slots were granted in. */
function setUp(options: Omit<ConcurrencyLimiterOptions, 'now'>): {
  limiter: ConcurrencyLimiter;
  clock: Clock;
  granted: string[];
  request: (name: string, acquire?: AcquireOptions) => Request;
} {
  const clock: Clock = { now: 1_000 };
  const limiter = new ConcurrencyLimiter({ ...options, now: () => clock.now });
  const granted: string[] = [];
  const request = (name: string, acquire: AcquireOptions = {}): Request => {
    const entry: Request = { name, permit: undefined, error: undefined };
    limiter.acquire(acquire).then(
      (permit) => {
        entry.permit = permit;
        granted.push(name);
      },
      (error: unknown) => {
        entry.error = error;
      },
    );
    return entry;
  };
  return { limiter, clock, granted, request };
}

/** Lets every settled promise run its callbacks. */
const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const bulk: AcquireOptions = { priority: 'bulk' };

function release(request: Request, outcome: 'ok' | 'overload' | 'ignore' = 'ignore'): void {
  assert.ok(request.permit, `${request.name} holds no slot`);
  request.permit.release(outcome);
}

function assertCancelled(error: unknown): void {
  assert.ok(isApiError(error), `expected an ApiError, got ${String(error)}`);
  assert.equal(error.kind, 'cancelled');
}

/** Resolves when `granted` has `count` entries; rejects (instead of hanging) after `ms` of real time. */
async function grantedWithin(granted: readonly string[], count: number, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (granted.length < count) {
    if (Date.now() > deadline) throw new Error(`only ${granted.join(', ')} were granted`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('Concurrency limiter (the request queue)', () => {
  describe('interactiveReserve: slots bulk requests never take', () => {
    const rows: readonly [ceiling: number, reserve: number][] = [
      [1, 0],
      [2, 1],
      [3, 1],
      [63, 1],
      [64, 2],
      [95, 2],
      [96, 3],
      [128, 4],
    ];
    for (const [ceiling, reserve] of rows)
      it(`a ceiling of ${ceiling} keeps ${reserve}`, () => {
        assert.equal(interactiveReserve(ceiling), reserve);
      });
  });

  it('reports its ceiling, its learnt limit and what the limit learnt', () => {
    const { limiter } = setUp({ ceiling: 8, initial: 3 });
    assert.equal(limiter.ceiling, 8);
    assert.equal(limiter.limit, 3);
    assert.deepEqual(limiter.snapshot(), { limit: 3, minLatencyMs: undefined, slowStart: true, increases: 0, decreases: 0 });
  });

  it('grants at once while there is room, and counts who runs', async () => {
    const { limiter, granted, request } = setUp({ ceiling: 4 });
    const first = request('first');
    request('second');
    await flush();
    assert.deepEqual(granted, ['first', 'second']);
    assert.equal(limiter.active, 2);
    assert.equal(limiter.queued, 0);
    release(first);
    assert.equal(limiter.active, 1);
    assert.equal(limiter.maxActive, 2, 'the most that ever ran at once');
  });

  it('bulk requests stop at the learnt limit less the reserve; interactive ones may use the reserve', async () => {
    // Ceiling 8, limit 4, reserve 1: bulk up to min(4, 8 − 1) = 4, interactive up to min(8, 4 + 1) = 5.
    const { limiter, granted, request } = setUp({ ceiling: 8, initial: 4 });
    for (const name of ['b1', 'b2', 'b3', 'b4', 'b5', 'b6']) request(name, bulk);
    request('i1');
    request('i2');
    await flush();
    assert.deepEqual(granted, ['b1', 'b2', 'b3', 'b4', 'i1']);
    assert.equal(limiter.active, 5);
    assert.equal(limiter.queued, 3);
    assert.equal(limiter.maxActive, 5);
  });

  it('at the ceiling, bulk requests leave the reserve free and interactive ones stop at the ceiling', async () => {
    // Ceiling 4, limit 4, reserve 1: bulk up to min(4, 4 − 1) = 3, interactive up to min(4, 4 + 1) = 4.
    const { limiter, granted, request } = setUp({ ceiling: 4 });
    for (const name of ['b1', 'b2', 'b3', 'b4']) request(name, bulk);
    await flush();
    assert.deepEqual(granted, ['b1', 'b2', 'b3']);
    request('i1');
    request('i2');
    await flush();
    assert.deepEqual(granted, ['b1', 'b2', 'b3', 'i1']);
    assert.equal(limiter.active, 4);
    assert.equal(limiter.queued, 2);
  });

  it('a ceiling of one lets one request of either kind run', async () => {
    const { limiter, granted, request } = setUp({ ceiling: 1 });
    const first = request('b1', bulk);
    request('b2', bulk);
    await flush();
    assert.deepEqual(granted, ['b1']);
    release(first);
    await flush();
    assert.deepEqual(granted, ['b1', 'b2']);
    assert.equal(limiter.maxActive, 1);
  });

  it('grants the queue in order: interactive first, each queue first come first served', async () => {
    const { granted, request } = setUp({ ceiling: 1 });
    const all: Request[] = [request('running')];
    await flush();
    all.push(request('b1', bulk), request('b2', bulk), request('i1'), request('i2'));
    for (let step = 0; step < 4; step++) {
      const holder = all.find((entry) => entry.name === granted.at(-1));
      assert.ok(holder);
      release(holder);
      await flush();
    }
    assert.deepEqual(granted, ['running', 'i1', 'i2', 'b1', 'b2']);
  });

  it('a bulk request queues behind a waiting interactive one even when a bulk slot is free', async () => {
    // Ceiling 1: the interactive request waits for the running one; a new bulk request must not overtake it.
    const { granted, request } = setUp({ ceiling: 1 });
    const running = request('running');
    await flush();
    request('i1');
    request('b1', bulk);
    await flush();
    release(running);
    await flush();
    assert.deepEqual(granted, ['running', 'i1']);
  });

  it('an interactive request does not queue behind waiting bulk ones', async () => {
    const { granted, request } = setUp({ ceiling: 4 });
    for (const name of ['b1', 'b2', 'b3', 'b4', 'b5']) request(name, bulk);
    request('i1');
    await flush();
    assert.deepEqual(granted, ['b1', 'b2', 'b3', 'i1']);
  });

  it('a retry goes to the front of its queue', async () => {
    const { granted, request } = setUp({ ceiling: 1 });
    const running = request('running');
    await flush();
    request('first');
    request('retry', { retry: true });
    request('b1', bulk);
    request('bulk retry', { priority: 'bulk', retry: true });
    await flush();
    release(running);
    await flush();
    assert.deepEqual(granted, ['running', 'retry']);
  });

  it('a bulk retry goes to the front of the bulk queue, behind interactive ones', async () => {
    const { granted, request } = setUp({ ceiling: 1 });
    const entries = [request('running')];
    await flush();
    entries.push(request('b1', bulk), request('bulk retry', { priority: 'bulk', retry: true }), request('i1'));
    for (let step = 0; step < 3; step++) {
      const holder = entries.find((entry) => entry.name === granted.at(-1));
      assert.ok(holder);
      release(holder);
      await flush();
    }
    assert.deepEqual(granted, ['running', 'i1', 'bulk retry', 'b1']);
  });

  it('releasing a slot twice frees it once', async () => {
    const { limiter, request } = setUp({ ceiling: 4 });
    const first = request('first');
    request('second');
    await flush();
    release(first);
    release(first);
    assert.equal(limiter.active, 1);
  });

  describe('cancellation', () => {
    it('an aborted signal is refused without taking a slot', async () => {
      const { limiter } = setUp({ ceiling: 4 });
      assertCancelled(await rejectionOf(limiter.acquire({ signal: AbortSignal.abort() })));
      assert.equal(limiter.active, 0);
      assert.equal(limiter.maxActive, 0);
    });

    it('a waiter cancelled while queued rejects with cancelled, leaves the queue and stops listening', async () => {
      const { limiter, granted, request } = setUp({ ceiling: 1 });
      const running = request('running');
      const controller = new AbortController();
      const cancelled = request('cancelled', { signal: controller.signal });
      request('next');
      await flush();
      assert.equal(limiter.queued, 2);
      assert.equal(getEventListeners(controller.signal, 'abort').length, 1, 'the waiter listens for the abort');
      controller.abort();
      await flush();
      assertCancelled(cancelled.error);
      assert.equal(limiter.queued, 1);
      assert.equal(getEventListeners(controller.signal, 'abort').length, 0);
      release(running);
      await flush();
      assert.deepEqual(granted, ['running', 'next']);
    });

    it('a cancelled bulk waiter leaves the bulk queue, the others keep their places', async () => {
      const { limiter, granted, request } = setUp({ ceiling: 1 });
      const running = request('running');
      const controller = new AbortController();
      request('b1', bulk);
      request('b2', { priority: 'bulk', signal: controller.signal });
      request('b3', bulk);
      await flush();
      controller.abort();
      await flush();
      assert.equal(limiter.queued, 2);
      release(running);
      await flush();
      assert.deepEqual(granted, ['running', 'b1']);
    });

    it('a waiter that was granted stops listening to its signal: a later abort changes nothing', async () => {
      const { limiter, granted, request } = setUp({ ceiling: 1 });
      const running = request('running');
      const controller = new AbortController();
      const waiter = request('waiter', { signal: controller.signal });
      request('last');
      await flush();
      release(running);
      await flush();
      assert.deepEqual(granted, ['running', 'waiter']);
      assert.equal(getEventListeners(controller.signal, 'abort').length, 0);
      controller.abort();
      await flush();
      assert.equal(waiter.error, undefined);
      assert.equal(limiter.queued, 1, 'the last waiter is still queued');
    });

    it('run() passes its signal: an aborted one runs nothing', async () => {
      const { limiter } = setUp({ ceiling: 4 });
      let ran = false;
      const error = await rejectionOf(
        limiter.run(() => {
          ran = true;
          return Promise.resolve();
        }, AbortSignal.abort()),
      );
      assertCancelled(error);
      assert.equal(ran, false);
    });
  });

  describe('run()', () => {
    it('returns what the task returns and frees the slot, teaching the limit nothing', async () => {
      const { limiter, clock } = setUp({ ceiling: 4 });
      const result = await limiter.run(() => {
        clock.now += 40;
        return Promise.resolve('done');
      });
      assert.equal(result, 'done');
      assert.equal(limiter.active, 0);
      assert.equal(limiter.snapshot().minLatencyMs, undefined);
    });

    it('frees the slot when the task fails', async () => {
      const { limiter } = setUp({ ceiling: 4 });
      const error = await rejectionOf(limiter.run(() => Promise.reject(new Error('task failed'))));
      assert.match(String(error), /task failed/);
      assert.equal(limiter.active, 0);
    });
  });

  it('a released slot teaches the limit the latency from acquire to release', async () => {
    const { limiter, clock, request } = setUp({ ceiling: 4 });
    const first = request('first');
    await flush();
    clock.now += 40;
    release(first, 'ok');
    assert.equal(limiter.snapshot().minLatencyMs, 40);
  });

  describe('expedite: a queued bulk request someone now waits for (its lane is expedited)', () => {
    it('moves to the interactive queue and may take the reserve at once', async () => {
      // Ceiling 4: three bulk requests run, the fourth waits for a bulk slot; the reserve is free.
      const { limiter, granted, request } = setUp({ ceiling: 4 });
      const lanes = new Map(['b1', 'b2', 'b3', 'b4', 'b5'].map((name) => [name, new RequestLane('bulk')]));
      const lane = (name: string): RequestLane => lanes.get(name) ?? new RequestLane('bulk');
      for (const name of ['b1', 'b2', 'b3']) request(name, { priority: lane(name) });
      request('b4', { priority: lane('b4') });
      request('b5', { priority: lane('b5') });
      await flush();
      assert.equal(lane('b5').expedite(), true);
      await flush();
      assert.deepEqual(granted, ['b1', 'b2', 'b3', 'b5']);
      assert.equal(limiter.queued, 1);
    });

    it('is false, and changes nothing, when no bulk request of that lane waits', async () => {
      const { limiter, granted, request } = setUp({ ceiling: 4 });
      const lanes = new Map(['b1', 'b2', 'b3', 'b4'].map((name) => [name, new RequestLane('bulk')]));
      for (const [name, lane] of lanes) request(name, { priority: lane });
      await flush();
      assert.equal(lanes.get('b1')?.expedite(), false, 'b1 runs already');
      assert.equal(new RequestLane('bulk').expedite(), false);
      await flush();
      assert.deepEqual(granted, ['b1', 'b2', 'b3']);
      assert.equal(limiter.queued, 1);
    });

    it('an expedited waiter that is cancelled leaves the interactive queue', async () => {
      const { limiter, granted, request } = setUp({ ceiling: 1 });
      const running = request('running');
      const controller = new AbortController();
      const lane = new RequestLane('bulk');
      request('b1', { priority: new RequestLane('bulk') });
      const expedited = request('b2', { priority: lane, signal: controller.signal });
      await flush();
      assert.equal(lane.expedite(), true);
      controller.abort();
      await flush();
      assertCancelled(expedited.error);
      assert.equal(limiter.queued, 1);
      release(running);
      await flush();
      assert.deepEqual(granted, ['running', 'b1']);
    });

    it("a lane's later requests queue as interactive once it was expedited", async () => {
      const { granted, request } = setUp({ ceiling: 1 });
      const running = request('running');
      const lane = new RequestLane('bulk');
      request('b1', { priority: 'bulk' });
      lane.expedite();
      request('page 2', { priority: lane });
      await flush();
      release(running);
      await flush();
      assert.deepEqual(granted, ['running', 'page 2']);
    });
  });

  describe('Retry-After: pauseUntil holds every queued and new request', () => {
    it('grants nothing before the pause ends, then the queue in order', async () => {
      const { limiter, clock, granted, request } = setUp({ ceiling: 4 });
      limiter.pauseUntil(clock.now + 20);
      assert.equal(limiter.pausedUntil(), clock.now + 20);
      request('i1');
      request('b1', bulk);
      await flush();
      assert.deepEqual(granted, []);
      clock.now += 20;
      assert.equal(limiter.pausedUntil(), undefined, 'the pause is over at its end');
      await grantedWithin(granted, 2, 2_000);
      assert.deepEqual(granted, ['i1', 'b1']);
    });

    it('a request made at the very end of a pause goes at once', async () => {
      const { limiter, clock, granted, request } = setUp({ ceiling: 4 });
      limiter.pauseUntil(clock.now + 10);
      clock.now += 10;
      request('i1');
      await flush();
      assert.deepEqual(granted, ['i1']);
    });

    it('a timer that fires before the clock reaches the end waits again', async () => {
      const { limiter, clock, granted, request } = setUp({ ceiling: 4 });
      limiter.pauseUntil(clock.now + 5);
      request('i1');
      // The clock stands still: the timers fire, find the pause not over, and re-arm.
      await new Promise((resolve) => setTimeout(resolve, 40));
      assert.deepEqual(granted, []);
      clock.now += 5;
      await grantedWithin(granted, 1, 2_000);
    });

    // Between the end of a pause on the clock and its timer, the queue has not moved yet: a new request
    // must still queue behind those of equal or higher rank that waited through the pause.
    const afterThePause: ReadonlyArray<{
      queued: ReadonlyArray<[string, AcquireOptions]>;
      late: [string, AcquireOptions];
      order: string[];
    }> = [
      { queued: [['b1', bulk]], late: ['b2', bulk], order: ['running', 'b1', 'b2'] },
      {
        queued: [
          ['i1', {}],
          ['b1', bulk],
        ],
        late: ['b2', bulk],
        order: ['running', 'i1', 'b1', 'b2'],
      },
      { queued: [['i1', {}]], late: ['i2', {}], order: ['running', 'i1', 'i2'] },
    ];
    for (const { queued, late, order } of afterThePause) {
      it(`a ${late[0]} request made once the pause is over queues behind ${queued.map(([name]) => name).join(' and ')}`, async () => {
        const { limiter, clock, granted, request } = setUp({ ceiling: 4 });
        const running = request('running');
        await flush();
        limiter.pauseUntil(clock.now + 1_000);
        for (const [name, options] of queued) request(name, options);
        await flush();
        clock.now += 1_000;
        request(...late);
        await flush();
        assert.deepEqual(granted, ['running']);
        release(running);
        await flush();
        assert.deepEqual(granted, order);
      });
    }

    // Every read of this clock is a millisecond later than the one before: a timer's check may find the
    // pause not quite over and the next read find it over. Whatever the parity of the reads, the queue moves.
    for (const end of [5, 6, 7]) {
      it(`a clock that moves on while a timer re-arms still ends a pause at ${end}`, async () => {
        let reads = 0;
        const limiter = new ConcurrencyLimiter({ ceiling: 4, now: () => reads++ });
        limiter.pauseUntil(end);
        const permit = await limiter.acquire();
        assert.ok(reads > end, `granted after ${reads} reads of the clock, before the pause ended`);
        permit.release('ignore');
      });
    }

    it('a later pause extends an earlier one, a shorter one does not shorten it', () => {
      const { limiter, clock } = setUp({ ceiling: 4 });
      limiter.pauseUntil(clock.now + 100);
      limiter.pauseUntil(clock.now + 50);
      assert.equal(limiter.pausedUntil(), clock.now + 100);
      limiter.pauseUntil(clock.now + 200);
      assert.equal(limiter.pausedUntil(), clock.now + 200);
      clock.now += 199;
      assert.equal(limiter.pausedUntil(), clock.now + 1);
      // Ends the pause, so its timer stops re-arming.
      clock.now += 1;
    });

    it('no pause: pausedUntil is undefined', () => {
      const { limiter, clock } = setUp({ ceiling: 4 });
      assert.equal(limiter.pausedUntil(), undefined);
      limiter.pauseUntil(clock.now - 10);
      assert.equal(limiter.pausedUntil(), undefined);
    });
  });
});
