import * as assert from 'node:assert/strict';
import { Emitter } from '../../../src/core/common/emitter';
import { Disposable, DisposableStore, disposeAll, toDisposable, type IDisposable } from '../../../src/core/common/lifecycle';

class Owner extends Disposable {
  own(item: { dispose(): unknown }): void {
    this.register(item);
  }
}

describe('lifecycle: Disposable, DisposableStore, Emitter', () => {
  it('disposes what an object registered, newest first, exactly once', () => {
    const order: string[] = [];
    const owner = new Owner();
    owner.own({ dispose: () => order.push('first') });
    owner.own({ dispose: () => order.push('second') });
    owner.dispose();
    owner.dispose();
    assert.deepEqual(order, ['second', 'first']);
  });

  it('disposes at once what is registered after disposal', () => {
    const store = new DisposableStore();
    store.dispose();
    let disposed = false;
    store.add({ dispose: () => (disposed = true) });
    assert.equal(disposed, true);
  });

  it('keeps disposing the rest when one throws, then rethrows the first error', () => {
    const order: string[] = [];
    assert.throws(() => {
      disposeAll([
        { dispose: () => order.push('a') },
        {
          dispose: () => {
            throw new Error('b failed');
          },
        },
        { dispose: () => order.push('c') },
      ]);
    }, /b failed/);
    assert.deepEqual(order, ['c', 'a']);
  });

  it('when several throw, the error rethrown is the first one thrown, from the newest item', () => {
    const thrower = (message: string): IDisposable => ({
      dispose: () => {
        throw new Error(message);
      },
    });
    assert.throws(() => {
      disposeAll([thrower('older'), thrower('newer')]);
    }, /^Error: newer$/);
  });

  it('toDisposable runs its function once', () => {
    let calls = 0;
    const d = toDisposable(() => calls++);
    d.dispose();
    d.dispose();
    assert.equal(calls, 1);
  });

  it('an Emitter delivers to every listener until each unsubscribes, and nothing after dispose', () => {
    const emitter = new Emitter<number>();
    const a: number[] = [];
    const b: number[] = [];
    const subA = emitter.event((v) => a.push(v));
    emitter.event((v) => b.push(v));
    emitter.fire(1);
    subA.dispose();
    emitter.fire(2);
    emitter.dispose();
    emitter.fire(3);
    assert.deepEqual(a, [1]);
    assert.deepEqual(b, [1, 2]);
    assert.equal(emitter.hasListeners, false);
  });

  it('an Emitter says whether anyone listens', () => {
    const emitter = new Emitter<number>();
    assert.equal(emitter.hasListeners, false);
    const subscription = emitter.event(() => undefined);
    assert.equal(emitter.hasListeners, true);
    subscription.dispose();
    assert.equal(emitter.hasListeners, false);
  });

  it('a disposed Emitter takes no new listener: it is never called and not counted', () => {
    const emitter = new Emitter<number>();
    emitter.dispose();
    const heard: number[] = [];
    emitter.event((v) => heard.push(v)).dispose();
    emitter.event((v) => heard.push(v));
    emitter.fire(1);
    assert.deepEqual(heard, []);
    assert.equal(emitter.hasListeners, false);
  });

  it('the same function subscribed twice is heard twice, and each subscription ends on its own', () => {
    const emitter = new Emitter<number>();
    const heard: number[] = [];
    const listener = (v: number): number => heard.push(v);
    const first = emitter.event(listener);
    emitter.event(listener);
    emitter.fire(1);
    first.dispose();
    emitter.fire(2);
    assert.deepEqual(heard, [1, 1, 2]);
  });

  it("an Emitter's event is vscode.Event's shape: the listener is called with thisArgs, the subscription is added to disposables", () => {
    const emitter = new Emitter<number>();
    const owner = { heard: [] as number[] };
    const disposables: { dispose(): unknown }[] = [];
    emitter.event(
      function (this: typeof owner, v: number) {
        this.heard.push(v);
      },
      owner,
      disposables,
    );
    emitter.fire(1);
    assert.equal(disposables.length, 1, 'the subscription is added to the list VS Code passes');
    for (const disposable of disposables) disposable.dispose();
    emitter.fire(2);
    assert.deepEqual(owner.heard, [1]);
    assert.equal(emitter.hasListeners, false);
  });

  it('a listener that throws does not keep the others or the caller from going on', async () => {
    const emitter = new Emitter<string>();
    const heard: string[] = [];
    const uncaught: unknown[] = [];
    const listeners = process.listeners('uncaughtException');
    process.removeAllListeners('uncaughtException');
    process.on('uncaughtException', (error) => uncaught.push(error));
    try {
      emitter.event(() => {
        throw new Error('listener failed');
      });
      emitter.event((v) => heard.push(v));
      emitter.fire('x');
      assert.deepEqual(heard, ['x']);
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.removeAllListeners('uncaughtException');
      for (const listener of listeners) process.on('uncaughtException', listener);
    }
    assert.equal(uncaught.length, 1);
  });
});
