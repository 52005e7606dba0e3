import assert from 'node:assert/strict';
import { AutoRefresh, backoffDelay, type PollOutcome, type Timers } from '../../../src/extension/machines/autoRefresh';

/** A manual clock and timer queue: time moves only when the test says. */
class FakeTime implements Timers {
  now = 1_000_000;
  private nextId = 1;
  readonly timers = new Map<number, { at: number; callback: () => void }>();
  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.timers.set(id, { at: this.now + ms, callback });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }
  /** When the pending timer fires: the next poll. */
  nextAt(): number | undefined {
    return [...this.timers.values()].map((timer) => timer.at).sort((x, y) => x - y)[0];
  }
  /** Moves time forward, running due timers in order. */
  async advance(ms: number): Promise<void> {
    const end = this.now + ms;
    for (;;) {
      const due = [...this.timers.entries()].filter(([, timer]) => timer.at <= end).sort((x, y) => x[1].at - y[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.now = due[1].at;
      due[1].callback();
      await new Promise((resolve) => setImmediate(resolve));
    }
    this.now = end;
  }
}

const INTERVAL = 300_000;

function setup(outcomes: PollOutcome[] = []) {
  const time = new FakeTime();
  const state = { enabled: true, active: true, polls: [] as number[], now: 'disabled' as string };
  const refresh = new AutoRefresh({
    onStateChange: (next) => {
      state.now = next;
    },
    enabled: () => state.enabled,
    active: () => state.active,
    intervalMs: () => INTERVAL,
    poll: () => {
      state.polls.push(time.now);
      return Promise.resolve(outcomes.shift() ?? { kind: 'ok' });
    },
    timers: time,
    now: () => time.now,
  });
  return { time, state, refresh };
}

describe('Auto-refresh', () => {
  it('does nothing while disabled', async () => {
    const { time, state, refresh } = setup();
    state.enabled = false;
    refresh.update();
    assert.equal(state.now, 'disabled');
    await time.advance(10 * INTERVAL);
    assert.deepEqual(state.polls, []);
  });

  it('polls every interval while active', async () => {
    const { time, state, refresh } = setup();
    refresh.update();
    assert.equal(state.now, 'waiting');
    await time.advance(3 * INTERVAL);
    assert.equal(state.polls.length, 3);
  });

  it('pauses while inactive (view hidden or window unfocused) and catches up at once when overdue', async () => {
    const { time, state, refresh } = setup();
    refresh.update();
    await time.advance(INTERVAL);
    state.active = false;
    refresh.update();
    assert.equal(state.now, 'paused');
    await time.advance(5 * INTERVAL);
    assert.equal(state.polls.length, 1, 'no poll while paused');
    state.active = true;
    refresh.update();
    await time.advance(0);
    assert.equal(state.polls.length, 2, 'overdue: polls on resume');
  });

  it('resuming before the interval is up waits only for the rest of it', async () => {
    const { time, state, refresh } = setup();
    refresh.update();
    await time.advance(INTERVAL);
    state.active = false;
    refresh.update();
    await time.advance(INTERVAL / 2);
    state.active = true;
    refresh.update();
    assert.equal(time.nextAt(), time.now + INTERVAL / 2);
  });

  it('backs off exponentially after failures and honours a longer Retry-After', async () => {
    const { time, state, refresh } = setup([{ kind: 'failed' }, { kind: 'failed', retryAfterMs: 7_200_000 }, { kind: 'ok' }]);
    refresh.update();
    await time.advance(INTERVAL);
    assert.equal(time.nextAt(), time.now + 2 * INTERVAL, 'one failure: twice the interval');
    await time.advance(2 * INTERVAL);
    assert.equal(time.nextAt(), time.now + 7_200_000, 'Retry-After beats the backoff');
    await time.advance(7_200_000);
    assert.equal(time.nextAt(), time.now + INTERVAL, 'a success forgets the failures');
    assert.equal(state.polls.length, 3);
  });

  it('stops when polling cannot work, until reset', async () => {
    const { time, state, refresh } = setup([{ kind: 'stop' }]);
    refresh.update();
    await time.advance(INTERVAL);
    assert.equal(state.now, 'stopped');
    refresh.update();
    await time.advance(10 * INTERVAL);
    assert.equal(state.polls.length, 1);
    refresh.reset();
    assert.equal(state.now, 'waiting');
  });

  it('a timer that comes due while the view is inactive polls nothing and pauses', async () => {
    const { time, state, refresh } = setup();
    refresh.update();
    assert.equal(state.now, 'waiting');
    state.active = false;
    await time.advance(INTERVAL);
    assert.deepEqual(state.polls, []);
    assert.equal(state.now, 'paused');
    assert.equal(time.nextAt(), undefined, 'no timer left while paused');
  });

  it('caps the backoff at an hour (or the interval, if longer)', () => {
    assert.equal(backoffDelay(INTERVAL, 20, undefined), 3_600_000);
    assert.equal(backoffDelay(7_200_000, 3, undefined), 7_200_000);
    assert.equal(backoffDelay(INTERVAL, 1, 10), 2 * INTERVAL);
  });
});
