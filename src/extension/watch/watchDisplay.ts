// Where the watches show: the status bar item ("Watching 3 · 1 failed"), and
// the rows and badge they lend the Machines view (through the MachinesApi's
// decorations, so no feature imports another). Both follow the watch list and
// the session; the words are watchText.ts's.
import * as vscode from 'vscode';
import { definedOnly } from '../../core/common/definedOnly';
import { Emitter } from '../../core/common/emitter';
import { Disposable } from '../../core/common/lifecycle';
import { COMMANDS } from '../workbench/constants';
import type { ApiSession } from '../workbench/contracts/apiSession';
import type { MachineRowDecoration, MachinesApi } from '../workbench/contracts/features';
import type { WatchInfo, WatchList } from './watchList';
import { age, rowDescription, stepText, type WatchTextContext } from './watchText';

const t = (message: string, ...args: (string | number | boolean)[]): string => vscode.l10n.t(message, ...args);

/** The words of a watch in this window's language, now. */
export function textContext(): WatchTextContext {
  return { t, locale: vscode.env.language, now: Date.now() };
}

function rowDecoration(watch: WatchInfo): MachineRowDecoration {
  const icon = watch.status === 'watching' ? 'eye-watch' : watch.status === 'paused' ? 'eye-closed' : undefined;
  const context = textContext();
  const description = rowDescription(watch, context);
  return {
    watched: watch.outcome === undefined,
    ...definedOnly({ icon, description }),
    tooltip:
      watch.outcome === undefined
        ? t('Watching its onboarding since {0}; newest event: {1}', age(watch.startedAt, context), stepText(watch, context))
        : watch.outcome.state === 'onboarded'
          ? t('Watched until it was onboarded ({0})', age(watch.outcome.at, context))
          : t('Watched until it failed ({0})', age(watch.outcome.at, context)),
  };
}

export class WatchDisplay extends Disposable {
  private readonly rowsChanged = this.register(new Emitter<readonly string[] | undefined>());
  private readonly item = this.register(
    vscode.window.createStatusBarItem('onboardingEvents.watches', vscode.StatusBarAlignment.Left, -101),
  );

  constructor(
    private readonly list: WatchList,
    private readonly session: ApiSession,
    machines: MachinesApi,
  ) {
    super();
    this.register(
      list.onDidChange((serials) => {
        this.rowsChanged.fire(serials);
      }),
    );
    if (machines.decorate !== undefined)
      this.register(
        machines.decorate({
          decoration: (serial) => {
            const watch = list.get(serial);
            return watch === undefined ? undefined : rowDecoration(watch);
          },
          unseen: () => list.unseenOutcomes(),
          lookedAt: (serial) => {
            list.lookedAt(serial);
          },
          onDidChange: this.rowsChanged.event,
        }),
      );
    this.item.name = t('Onboarding Events Watches');
    this.item.command = COMMANDS.showWatches;
    const update = (): void => {
      this.updateStatusBar();
    };
    this.register(list.onDidChange(update));
    this.register(session.onDidChangeState(update));
    update();
  }

  /** Time passed: "2 min ago" in every row ages. */
  rowsAged(): void {
    this.rowsChanged.fire(undefined);
  }

  private updateStatusBar(): void {
    const { list, item } = this;
    const active = this.session.state.kind === 'signed-in' ? this.session.state.environment.id : undefined;
    const mine = list.list().filter((watch) => watch.environmentId === active);
    const watching = mine.filter((watch) => watch.status === 'watching').length;
    const failed = mine.filter((watch) => watch.status === 'failed' && watch.seen !== true).length;
    const onboarded = mine.filter((watch) => watch.status === 'onboarded' && watch.seen !== true).length;
    const paused = list.list().filter((watch) => watch.status === 'paused').length;
    if (watching + failed + onboarded + paused === 0) {
      item.hide();
      return;
    }
    const parts: string[] = [];
    if (active === undefined) parts.push(t('Watching {0} (paused)', paused));
    else if (watching > 0) parts.push(t('Watching {0}', watching));
    if (failed > 0) parts.push(t('{0} failed', failed));
    if (onboarded > 0) parts.push(t('{0} onboarded', onboarded));
    const text = parts.join(' · ');
    item.text = `$(${failed > 0 ? 'error' : 'eye-watch'}) ${text}`;
    item.tooltip = t('Onboarding Events: machines being watched. Click to see them, stop a watch or open an outcome.');
    item.backgroundColor = failed > 0 ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    item.accessibilityInformation = { label: t('Onboarding Events: {0}', text) };
    item.show();
  }
}
