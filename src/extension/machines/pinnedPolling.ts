// Auto-refresh of the pinned machines, wired to VS Code: the scheduler
// (autoRefresh.ts) runs while the setting is on, the view visible and the
// window focused; each poll refreshes the pins and lets the poll policy
// (pollPolicy.ts) say whether to carry on, back off or stop.
import * as vscode from 'vscode';
import { Disposable } from '../../core/common/lifecycle';
import type { Log } from '../workbench/log';
import type { SettingsReader } from '../workbench/settings';
import { AutoRefresh, type PollOutcome } from './autoRefresh';
import type { MachineLists } from './machineLists';
import type { MachinesModel } from './machinesModel';
import { beforePoll, judgePoll, pollFailureOf } from './pollPolicy';

export interface PinnedPollingDeps {
  readonly settings: SettingsReader;
  readonly lists: MachineLists;
  readonly model: MachinesModel;
  readonly view: vscode.TreeView<unknown>;
  readonly signedIn: () => boolean;
  readonly refresh: (serials: readonly string[]) => Thenable<unknown>;
  readonly log: Log;
}

export class PinnedPolling extends Disposable {
  private readonly scheduler: AutoRefresh;

  constructor(private readonly deps: PinnedPollingDeps) {
    super();
    const { settings, log } = deps;
    this.scheduler = this.register(
      new AutoRefresh({
        enabled: () => settings.value['autoRefresh.enabled'],
        intervalMs: () => settings.value['autoRefresh.intervalSeconds'] * 1000,
        active: () => this.active(),
        poll: () => this.poll(),
        onStateChange: (state) => {
          log.info(`Auto-refresh: ${state}.`);
        },
      }),
    );
    this.scheduler.update();
    this.register(
      deps.view.onDidChangeVisibility(() => {
        this.scheduler.update();
      }),
    );
    this.register(
      vscode.window.onDidChangeWindowState(() => {
        this.scheduler.update();
      }),
    );
    this.register(
      settings.onDidChange((change) => {
        if (change.affects('autoRefresh')) this.reset();
      }),
    );
  }

  /** Starts over: after 'stopped' (signed in again) and when the settings change; forgets the backoff. */
  reset(): void {
    this.scheduler.reset();
  }

  private active(): boolean {
    return this.deps.view.visible && vscode.window.state.focused && this.deps.signedIn();
  }

  private async poll(): Promise<PollOutcome> {
    const { lists, model, signedIn, log } = this.deps;
    const pinned = lists.pinned();
    const early = beforePoll(signedIn(), pinned);
    if (early) return early;
    const startedAt = Date.now();
    await this.deps.refresh(pinned);
    const verdict = judgePoll({ signedIn: signedIn(), pinned, startedAt, failureOf: (serial) => pollFailureOf(model.failureOf(serial)) });
    if (verdict.kind !== 'failed') return verdict;
    const { failed, retryAfterMs } = verdict;
    log.warn(
      `Auto-refresh: ${failed} of ${pinned.length} machines failed; polling backs off${retryAfterMs === undefined ? '' : ` (the API asked to wait ${Math.ceil(retryAfterMs / 1000)} s)`}.`,
    );
    return retryAfterMs === undefined ? { kind: 'failed' } : { kind: 'failed', retryAfterMs };
  }
}
