// Many calls under one caller signal (oe check's Ctrl-C, a refresh's cancel): the client hangs one listener on
// it while they run and none after, and aborting it ends every call.
import * as assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { isApiError } from '../../../src/core/client/errors';
import { useFakeApi } from './testClient';

const CALLS = 40;

describe('OnboardingClient: many calls under one caller signal', () => {
  const context = useFakeApi({ latencyMs: 200 });

  it(`${CALLS} calls in flight hang one abort listener on the caller's signal, none once they are over`, async () => {
    const { client } = context();
    const controller = new AbortController();
    const calls = Array.from({ length: CALLS }, (_, index) =>
      client.getEvents(`SIG-1000-A${String(index).padStart(4, '0')}`, { signal: controller.signal }),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(getEventListeners(controller.signal, 'abort').length, 1, 'listeners while the calls run');
    await Promise.all(calls);
    assert.equal(getEventListeners(controller.signal, 'abort').length, 0, 'listeners after');
  });

  it('aborting the shared signal cancels every call in flight', async () => {
    const { client } = context();
    const controller = new AbortController();
    const calls = Array.from({ length: CALLS }, (_, index) =>
      client.getEvents(`SIG-1000-B${String(index).padStart(4, '0')}`, { signal: controller.signal }).then(
        () => 'answered',
        (error: unknown) => (isApiError(error) ? error.kind : 'other'),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
    assert.deepEqual(new Set(await Promise.all(calls)), new Set(['cancelled']));
    assert.equal(getEventListeners(controller.signal, 'abort').length, 0, 'listeners after');
  });
});
