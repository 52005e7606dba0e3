// Runs the workspace scan for "In This Workspace": one scan at a time (a new
// one cancels the running one), with progress in the view when the group is
// expanded or in a cancellable notification when the user asked for it, and
// the outcome recorded in the model.
import * as vscode from 'vscode';
import { extensionErrorText } from '../workbench/remedies';
import { Disposable, toDisposable } from '../../core/common/lifecycle';
import type { SerialMatcher } from '../../core/domain/serialNumbers/serialMatcher';
import { VIEWS } from '../workbench/constants';
import type { Log } from '../workbench/log';
import type { MachinesModel } from './machinesModel';
import { scanWorkspace, type ScanSettings } from './workspaceScan';

export interface ScanRunnerDeps {
  readonly model: MachinesModel;
  readonly log: Log;
  readonly settings: () => ScanSettings;
  readonly matcher: () => SerialMatcher;
}

/** Where the scan shows its progress. */
export type ScanProgress = 'view' | 'notification';

export class ScanRunner extends Disposable {
  private cancellation: vscode.CancellationTokenSource | undefined;

  constructor(private readonly deps: ScanRunnerDeps) {
    super();
    this.register(
      toDisposable(() => {
        this.cancel();
      }),
    );
  }

  /** Starts a scan, cancelling the one running; resolves when it ends (never rejects). */
  run(where: ScanProgress): Promise<void> {
    this.cancellation?.cancel();
    const source = new vscode.CancellationTokenSource();
    this.cancellation = source;
    this.deps.model.setWorkspaceScan({ kind: 'scanning' });
    const run =
      where === 'notification'
        ? vscode.window.withProgress(
            {
              location: vscode.ProgressLocation.Notification,
              title: vscode.l10n.t('Scanning the workspace for serial numbers'),
              cancellable: true,
            },
            (progress, token) =>
              this.scan(source, token, (message) => {
                progress.report({ message });
              }),
          )
        : vscode.window.withProgress({ location: { viewId: VIEWS.machines } }, () => this.scan(source, source.token));
    return Promise.resolve(run);
  }

  cancel(): void {
    this.cancellation?.cancel();
  }

  private async scan(
    source: vscode.CancellationTokenSource,
    token: vscode.CancellationToken,
    report?: (message: string) => void,
  ): Promise<void> {
    const { model, log } = this.deps;
    const linked = token.onCancellationRequested(() => {
      source.cancel();
    });
    try {
      // The matcher is read once the files are found, after this turn: a
      // settings change that started the scan is then seen by every listener.
      const result = await scanWorkspace(this.deps.matcher, this.deps.settings(), source.token, (done, total) =>
        report?.(vscode.l10n.t('{0} of {1} files', done, total)),
      );
      if (this.cancellation === source) model.setWorkspaceScan({ kind: 'scanned', ...result, at: Date.now() });
      log.info(
        `Workspace scan: ${result.found.length} serial numbers in ${result.filesScanned} files${result.capped ? ' (capped by workspaceScan.maxFiles)' : ''}.`,
      );
    } catch (error) {
      if (this.cancellation !== source) return;
      if (error instanceof vscode.CancellationError || source.token.isCancellationRequested) {
        model.setWorkspaceScan({ kind: 'not-scanned' });
      } else {
        log.error('The workspace scan failed', error);
        model.setWorkspaceScan({ kind: 'failed', message: extensionErrorText(error, vscode.l10n.t) });
      }
    } finally {
      linked.dispose();
      source.dispose();
      if (this.cancellation === source) this.cancellation = undefined;
    }
  }
}
