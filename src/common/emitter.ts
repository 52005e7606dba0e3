// Events without vscode: the shape of vscode.Event (a function that takes a
// listener and returns a disposable), so a vscode.EventEmitter's event fits
// wherever ours is expected and pure modules can offer events too.
import type { IDisposable } from './lifecycle';

export type Event<T> = (listener: (value: T) => unknown) => IDisposable;

export class Emitter<T> implements IDisposable {
  private readonly listeners = new Set<(value: T) => unknown>();
  private disposed = false;

  readonly event: Event<T> = (listener) => {
    if (this.disposed) return { dispose: () => undefined };
    // A wrapper per subscription, so the same function subscribed twice is two subscriptions.
    const entry = (value: T): unknown => listener(value);
    this.listeners.add(entry);
    return { dispose: () => this.listeners.delete(entry) };
  };

  /**
   * Calls every listener. One that throws neither stops the others nor the
   * code that fired (as vscode.EventEmitter): its error surfaces as an uncaught
   * exception on its own, which the extension host logs and tests see.
   */
  fire(value: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(value);
      } catch (error) {
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }

  get hasListeners(): boolean {
    return this.listeners.size > 0;
  }

  dispose(): void {
    this.disposed = true;
    this.listeners.clear();
  }
}
