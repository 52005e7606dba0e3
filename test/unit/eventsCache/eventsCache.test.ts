import assert from 'node:assert/strict';
import type { EventsResult, GetEventsOptions } from '../../../src/core/client/model';
import { EventsCache, NotSignedInError } from '../../../src/core/eventsCache/eventsCache';
import { cancelledError } from '../../../src/core/client/errors';
import { isApiError } from '../../../src/core/client/errors';
import { event, result, SERIAL } from '../machines/fixtures';

class Deferred<T> {
  resolve!: (value: T) => void;
  readonly promise = new Promise<T>((resolve) => (this.resolve = resolve));
}

/** A source that behaves as the real client does with a signal: the request ends 'cancelled' when it aborts. */
function abortable(answer: Promise<EventsResult>, signals: (AbortSignal | undefined)[] = []) {
  return {
    getEvents: (_serial: string, options: GetEventsOptions = {}): Promise<EventsResult> => {
      const { signal } = options;
      signals.push(signal);
      if (signal === undefined) return answer;
      return new Promise<EventsResult>((resolve, reject) => {
        signal.addEventListener(
          'abort',
          () => {
            reject(cancelledError());
          },
          { once: true },
        );
        answer.then(resolve, reject);
      });
    },
  };
}

async function kindOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'resolved';
  } catch (error) {
    return isApiError(error) ? error.kind : String(error);
  }
}

describe('Events cache', () => {
  it('a second caller still gets its events after the first caller aborts', async () => {
    const pending = new Deferred<EventsResult>();
    const service = new EventsCache({ source: () => abortable(pending.promise), freshForMs: () => 60_000 });
    const first = new AbortController();
    const hover = service.get(SERIAL, { signal: first.signal });
    const tree = service.get(SERIAL);
    first.abort();
    assert.equal(await kindOf(hover), 'cancelled', 'the caller that gave up stops waiting');
    pending.resolve(result([event({ minute: 0 })]));
    assert.equal((await tree).events.length, 1, 'the caller that still waits gets its events');
  });

  it('shares one request per serial number and serves the cache while fresh', async () => {
    let calls = 0;
    const service = new EventsCache({
      source: () => ({ getEvents: () => (calls++, Promise.resolve(result([event({ minute: 0 })], SERIAL, Date.now()))) }),
      freshForMs: () => 60_000,
    });
    await Promise.all([service.get(SERIAL), service.get(SERIAL)]);
    await service.get(SERIAL);
    assert.equal(calls, 1);
    await service.get(SERIAL, { force: true });
    assert.equal(calls, 2);
  });

  it('throws NotSignedInError without a client', async () => {
    const service = new EventsCache({ source: () => undefined, freshForMs: () => 0 });
    await assert.rejects(service.get(SERIAL), NotSignedInError);
    await assert.rejects(service.getSince(SERIAL, 1), NotSignedInError);
  });

  it('keeps since answers apart from the full result and never persists them', async () => {
    const saved: EventsResult[] = [];
    const asked: (number | undefined)[] = [];
    const service = new EventsCache({
      source: () => ({
        getEvents: (_serial: string, options: GetEventsOptions = {}) => {
          asked.push(options.timestamp);
          return Promise.resolve(result([event({ minute: options.timestamp === undefined ? 0 : 5 })]));
        },
      }),
      freshForMs: () => 60_000,
      store: { load: () => Promise.resolve(undefined), save: (r) => saved.push(r) },
    });
    await service.getSince(SERIAL, 42);
    assert.equal(service.peek(SERIAL), undefined);
    assert.equal(service.peekSince(SERIAL, 42)?.result.events.length, 1);
    assert.equal(service.peekSince(SERIAL, 41), undefined);
    assert.deepEqual(saved, []);
    await service.get(SERIAL);
    assert.equal(saved.length, 1);
    assert.deepEqual(asked, [42, undefined]);
  });

  it('drops answers to requests started before clear(): they belong to the previous sign-in', async () => {
    const pending = new Deferred<EventsResult>();
    const service = new EventsCache({ source: () => ({ getEvents: () => pending.promise }), freshForMs: () => 60_000 });
    const request = service.get(SERIAL);
    service.clear();
    pending.resolve(result([event({ minute: 0 })]));
    await request;
    assert.equal(service.peek(SERIAL), undefined);
  });

  it("tells the unit of the server's timestamps from fetched events, own machine first", async () => {
    const seconds = event({ minute: 0, timestamp: 1_736_928_000 }, 'OTHER');
    const service = new EventsCache({
      source: () => ({
        getEvents: (serial: string) => Promise.resolve(serial === 'OTHER' ? result([seconds], 'OTHER') : result([event({ minute: 0 })])),
      }),
      freshForMs: () => 60_000,
    });
    assert.equal(service.timestampUnitHint(SERIAL), undefined);
    await service.get('OTHER');
    assert.equal(service.timestampUnitHint(SERIAL), 'seconds', 'one server, one unit');
    await service.get(SERIAL);
    assert.equal(service.timestampUnitHint(SERIAL), 'milliseconds');
  });

  it('on failure keeps the last good result, marked stale with the error', async () => {
    let fail = false;
    const service = new EventsCache({
      source: () => ({ getEvents: () => (fail ? Promise.reject(new Error('offline')) : Promise.resolve(result([event({ minute: 0 })]))) }),
      freshForMs: () => 60_000,
    });
    await service.get(SERIAL);
    fail = true;
    await assert.rejects(service.get(SERIAL, { force: true }), /offline/);
    const entry = service.peek(SERIAL);
    assert.equal(entry?.stale, true);
    assert.equal(entry.error?.message, 'offline');
    assert.equal(entry.result.events.length, 1);
  });
});
