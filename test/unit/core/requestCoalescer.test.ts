// Request coalescing alone: identical concurrent operations share one
// execution, which is aborted only when every waiter has cancelled.

import * as assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { RequestCoalescer } from '../../../src/core/http/requestCoalescer';
import { isApiError } from '../../../src/core/errors';
import { rejectionOf } from './testClient';

/** An execution the test finishes by hand, with the signal it was given. */
interface Execution {
  readonly signal: AbortSignal;
  readonly resolve: (value: string) => void;
  readonly reject: (reason: unknown) => void;
}

function starter(): { start: (signal: AbortSignal) => Promise<string>; executions: Execution[] } {
  const executions: Execution[] = [];
  return {
    executions,
    start: (signal) =>
      new Promise<string>((resolve, reject) => {
        executions.push({ signal, resolve, reject });
      }),
  };
}

function only<T>(items: readonly T[], index = 0): T {
  const item = items[index];
  assert.ok(item !== undefined, `no item ${index}`);
  return item;
}

const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function assertCancelled(error: unknown): void {
  assert.ok(isApiError(error), `expected an ApiError, got ${String(error)}`);
  assert.equal(error.kind, 'cancelled');
}

describe('Request coalescer', () => {
  it('identical concurrent operations share one execution and its result; other keys run their own', async () => {
    const coalescer = new RequestCoalescer<string>();
    const { start, executions } = starter();
    const results = [coalescer.run('a', undefined, start), coalescer.run('a', new AbortController().signal, start)];
    const other = coalescer.run('b', undefined, start);
    assert.equal(executions.length, 2);
    assert.equal(coalescer.size, 2);
    only(executions, 0).resolve('result a');
    only(executions, 1).resolve('result b');
    assert.deepEqual(await Promise.all(results), ['result a', 'result a']);
    assert.equal(await other, 'result b');
    assert.equal(coalescer.size, 0, 'settled executions are forgotten');
  });

  it('an operation after the shared one settled starts a new execution', async () => {
    const coalescer = new RequestCoalescer<string>();
    const { start, executions } = starter();
    const first = coalescer.run('a', undefined, start);
    only(executions).resolve('first');
    await first;
    const second = coalescer.run('a', undefined, start);
    assert.equal(executions.length, 2);
    only(executions, 1).resolve('second');
    assert.equal(await second, 'second');
  });

  it('every waiter gets the failure, as an Error, and the failed execution is forgotten', async () => {
    const coalescer = new RequestCoalescer<string>();
    const { start, executions } = starter();
    const controller = new AbortController();
    const waiters = [coalescer.run('a', undefined, start), coalescer.run('a', controller.signal, start)];
    only(executions).reject('not an Error');
    const [plain, withSignal] = await Promise.all(waiters.map((waiter) => rejectionOf(waiter)));
    assert.equal(plain, 'not an Error', 'a waiter without a signal gets the shared promise as it is');
    assert.ok(withSignal instanceof Error);
    assert.equal(withSignal.message, 'not an Error');
    assert.equal(coalescer.size, 0);
    assert.equal(getEventListeners(controller.signal, 'abort').length, 0, 'the waiter stopped listening');
  });

  it('an aborted signal is refused without starting anything', async () => {
    const coalescer = new RequestCoalescer<string>();
    const { start, executions } = starter();
    assertCancelled(await rejectionOf(coalescer.run('a', AbortSignal.abort(), start)));
    assert.equal(executions.length, 0);
    assert.equal(coalescer.size, 0);
  });

  it('a waiter listens for its abort only while it waits', async () => {
    const coalescer = new RequestCoalescer<string>();
    const { start, executions } = starter();
    const controller = new AbortController();
    const waiter = coalescer.run('a', controller.signal, start);
    assert.equal(getEventListeners(controller.signal, 'abort').length, 1);
    only(executions).resolve('done');
    assert.equal(await waiter, 'done');
    assert.equal(getEventListeners(controller.signal, 'abort').length, 0);
  });

  it('one waiter cancelling rejects it alone; the execution goes on for the others', async () => {
    const coalescer = new RequestCoalescer<string>();
    const { start, executions } = starter();
    const controller = new AbortController();
    const cancelled = coalescer.run('a', controller.signal, start);
    const kept = coalescer.run('a', new AbortController().signal, start);
    controller.abort();
    assertCancelled(await rejectionOf(cancelled));
    assert.equal(getEventListeners(controller.signal, 'abort').length, 0, 'the cancelled waiter stopped listening');
    const execution = only(executions);
    assert.equal(execution.signal.aborted, false);
    assert.equal(coalescer.size, 1);
    execution.resolve('done');
    assert.equal(await kept, 'done');
  });

  it('a waiter without a signal keeps the execution going when the others cancel', async () => {
    const coalescer = new RequestCoalescer<string>();
    const { start, executions } = starter();
    const controller = new AbortController();
    const cancelled = coalescer.run('a', controller.signal, start);
    const kept = coalescer.run('a', undefined, start);
    controller.abort();
    assertCancelled(await rejectionOf(cancelled));
    assert.equal(only(executions).signal.aborted, false);
    only(executions).resolve('done');
    assert.equal(await kept, 'done');
  });

  it('the execution is aborted and forgotten once every waiter has cancelled; a newer one keeps the key', async () => {
    const coalescer = new RequestCoalescer<string>();
    const { start, executions } = starter();
    const controllers = [new AbortController(), new AbortController()];
    const waiters = controllers.map((controller) => coalescer.run('a', controller.signal, start));
    for (const controller of controllers) controller.abort();
    for (const waiter of waiters) assertCancelled(await rejectionOf(waiter));
    const abandoned = only(executions);
    assert.equal(abandoned.signal.aborted, true);
    assert.equal(coalescer.size, 0);

    const newer = coalescer.run('a', undefined, start);
    assert.equal(executions.length, 2, 'a new operation does not join the aborted execution');
    // The aborted execution settles late: it must not forget the newer one.
    abandoned.reject(new Error('aborted'));
    await flush();
    assert.equal(coalescer.size, 1);
    const joined = coalescer.run('a', undefined, start);
    assert.equal(executions.length, 2, 'a later operation joins the newer execution');
    only(executions, 1).resolve('newer');
    assert.deepEqual(await Promise.all([newer, joined]), ['newer', 'newer']);
  });
});
