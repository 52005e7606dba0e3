// Refresh of listed machines, with progress in the view. Requests belong to
// the session they were made in: abortAll() (sign-out, environment switch)
// cancels those in flight, so another environment's answers never land.
import * as vscode from 'vscode';
import { Disposable, toDisposable } from '../common/lifecycle';
import { VIEWS } from '../workbench/constants';
import type { MachinesModel } from './machinesModel';

export interface RefreshCount {
  readonly done: number;
  /** Machines of the refresh whose last load failed. */
  readonly failed: number;
}

export class MachineRefresh extends Disposable {
  private lifetime = new AbortController();

  constructor(private readonly model: MachinesModel) {
    super();
    this.register(
      toDisposable(() => {
        this.lifetime.abort();
      }),
    );
  }

  /** Refreshes the given machines (default: every listed one). */
  run(serials?: readonly string[]): Thenable<RefreshCount> {
    const { model } = this;
    return vscode.window.withProgress({ location: { viewId: VIEWS.machines } }, async () => {
      const result = await model.refreshAll(serials ? [...serials] : undefined, { signal: this.lifetime.signal });
      const failed = (serials ?? model.allListed()).filter((serial) => model.failureOf(serial) !== undefined).length;
      return { done: result.done, failed };
    });
  }

  abortAll(): void {
    this.lifetime.abort();
    this.lifetime = new AbortController();
  }
}
