// The one event emitter of the product. vscode-free, so the core and pure
// modules offer events too, and it has vscode.Event's shape (a function that
// takes a listener, an optional `this` for it and an optional list to add the
// subscription to, and returns a disposable), so it also serves where VS Code
// itself listens: a tree's onDidChangeTreeData, an authentication provider's
// onDidChangeSessions, a content provider's onDidChange.
import type { IDisposable } from './lifecycle';

export type Event<T> = (listener: (value: T) => unknown, thisArgs?: unknown, disposables?: IDisposable[]) => IDisposable;

export class Emitter<T> implements IDisposable {
  private readonly listeners = new Set<(value: T) => unknown>();
  private disposed = false;

  readonly event: Event<T> = (listener, thisArgs, disposables) => {
    if (this.disposed) return { dispose: () => undefined };
    // A wrapper per subscription, so the same function subscribed twice is two subscriptions.
    const entry = (value: T): unknown => listener.call(thisArgs, value);
    this.listeners.add(entry);
    const subscription = { dispose: () => this.listeners.delete(entry) };
    disposables?.push(subscription);
    return subscription;
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
