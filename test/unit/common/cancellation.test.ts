// A hover that goes away cancels its request: the token → AbortSignal bridge,
// and the whole path through EventsCache and the real OnboardingClient to
// the fake service with latency.
import assert from 'node:assert/strict';
import { OnboardingClient } from '../../../src/core/client/onboardingClient';
import { EventsCache } from '../../../src/core/eventsCache/eventsCache';
import { abortSignalFor, type CancellationTokenLike } from '../../../src/core/common/cancellation';
import { startFakeApi, TEST_CREDENTIALS, TEST_SERIALS, type FakeApi } from '../../support/fakeApi';

class FakeToken implements CancellationTokenLike {
  isCancellationRequested = false;
  readonly listeners = new Set<() => unknown>();
  onCancellationRequested(listener: () => unknown): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }
  cancel(): void {
    this.isCancellationRequested = true;
    for (const listener of this.listeners) listener();
  }
}

describe('hover cancellation', () => {
  it('aborts the signal when the token is cancelled, and stops listening once disposed', () => {
    const token = new FakeToken();
    const bridge = abortSignalFor(token);
    assert.equal(bridge.signal.aborted, false);
    token.cancel();
    assert.equal(bridge.signal.aborted, true);
    bridge.dispose();
    assert.equal(token.listeners.size, 0);
  });

  it('gives an aborted signal for a token that is already cancelled', () => {
    const token = new FakeToken();
    token.cancel();
    assert.equal(abortSignalFor(token).signal.aborted, true);
  });

  describe('against the fake service', () => {
    let fake: FakeApi;
    let client: OnboardingClient;

    before(async () => {
      fake = await startFakeApi();
      client = new OnboardingClient({
        apiBaseUrl: fake.baseUrl,
        authUrl: fake.authUrl,
        credentials: () => Promise.resolve({ ...TEST_CREDENTIALS }),
        http: { env: {}, maxRetries: 0 },
      });
    });

    after(async () => {
      client.dispose();
      await fake.close();
    });

    it('a cancelled hover cancels its request and caches nothing; the next hover asks again', async () => {
      const events = new EventsCache({ source: () => client, freshForMs: () => 60_000 });
      await client.getEvents(TEST_SERIALS.started); // token warm
      fake.setLatency(400);
      const token = new FakeToken();
      const bridge = abortSignalFor(token);
      const started = performance.now();
      const pending = events.get(TEST_SERIALS.onboarded, { signal: bridge.signal });
      setTimeout(() => {
        token.cancel();
      }, 50);
      await assert.rejects(pending, (error: unknown) => (error as { kind?: string }).kind === 'cancelled');
      bridge.dispose();
      assert.ok(performance.now() - started < 300, 'the caller is released at once, not after the response');
      assert.equal(events.peek(TEST_SERIALS.onboarded), undefined);
      fake.setLatency(0);
      const result = await events.get(TEST_SERIALS.onboarded);
      assert.equal(result.events.length, 3);
    });
  });
});
