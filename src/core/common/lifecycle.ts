// One lifecycle for every long-lived object, as vscode-pull-request-github's
// src/core/common/lifecycle.ts: extend Disposable and register() what you own; it is
// disposed with you, newest first, exactly once. Nobody writes a dispose loop
// by hand. vscode-free, so pure modules use it too; vscode.Disposable fits
// IDisposable structurally.

export interface IDisposable {
  dispose(): unknown;
}

/** Disposes each item, newest first; one that throws does not stop the rest (the first error is rethrown after). */
export function disposeAll(items: readonly IDisposable[]): void {
  let first: unknown;
  let failed = false;
  for (const item of [...items].reverse()) {
    try {
      item.dispose();
    } catch (error) {
      if (!failed) first = error;
      failed = true;
    }
  }
  if (failed) throw first;
}

export function toDisposable(dispose: () => unknown): IDisposable {
  let done = false;
  return {
    dispose: () => {
      if (done) return;
      done = true;
      dispose();
    },
  };
}

export abstract class Disposable implements IDisposable {
  private readonly owned: IDisposable[] = [];
  private disposed = false;

  protected get isDisposed(): boolean {
    return this.disposed;
  }

  /** Ties `item` to this object's lifetime; registered after disposal, it is disposed at once. */
  protected register<T extends IDisposable>(item: T): T {
    if (this.disposed) item.dispose();
    else this.owned.push(item);
    return item;
  }

  /** Exactly once per item: the first call empties `owned`, and register() never adds to it afterwards. */
  dispose(): void {
    this.disposed = true;
    disposeAll(this.owned.splice(0));
  }
}

/** A Disposable for code that is not a class (a register… function): add() what it creates. */
export class DisposableStore extends Disposable {
  add<T extends IDisposable>(item: T): T {
    return this.register(item);
  }
}
