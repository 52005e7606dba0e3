// The inline status after each serial number in view, in the state's colour. Only visible lines (plus
// a margin) are matched and loaded after scrolling settles; past the automatic bounds the user is asked once.
import * as vscode from 'vscode';
import { Debouncer } from '../../core/common/delays';
import { Disposable } from '../../core/common/lifecycle';
import { inertNotificationText } from '../../core/common/notificationText';
import { STATE_LOOKS } from '../../core/domain/events/eventState';
import {
  distinctSerials,
  LineMatchCache,
  linesToScan,
  type LineMatch,
  type LineRange,
} from '../../core/domain/serialNumbers/visibleSerials';
import type { SerialSettings } from '../workbench/serialSettings';
import type { SettingsReader } from '../workbench/settings';
import { planStatuses, type StatusTextContext } from './statusText';
import type { SerialStatuses } from './serialStatuses';
import { showsSerialStatuses } from './statusDocuments';
import { AUTOMATIC_BUDGET_PERIOD_MS } from '../../core/eventsCache/loadBudget';
import { MAX_AUTOMATIC_PER_VIEW } from '../../core/eventsCache/visibleLoads';

/** Lines above and below the visible ones that are matched too, so a short scroll shows a status at once. */
const MARGIN_LINES = 20;
/** Scrolling must settle this long before loads start: a fling past 3,000 lines asks for none of them. */
const LOAD_DELAY_MS = 150;

export class InlineStatus extends Disposable {
  private readonly decoration = this.register(
    vscode.window.createTextEditorDecorationType({
      after: { margin: '0 0 0 1.5em', fontStyle: 'normal' },
      rangeBehavior: vscode.DecorationRangeBehavior.ClosedClosed,
    }),
  );
  private readonly caches = new Map<string, LineMatchCache>();
  private readonly loads = this.register(
    new Debouncer(() => {
      this.loadVisible();
    }, LOAD_DELAY_MS),
  );
  private asking = false;
  /** Not asked again within the budget period. */
  private declinedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly states: SerialStatuses,
    private readonly serialSettings: SerialSettings,
    private readonly settings: SettingsReader,
  ) {
    super();
    this.register(
      vscode.window.onDidChangeTextEditorVisibleRanges((e) => {
        this.update([e.textEditor], true);
      }),
    );
    this.register(
      vscode.window.onDidChangeVisibleTextEditors((editors) => {
        this.update(editors, true);
      }),
    );
    this.register(
      vscode.window.onDidChangeTextEditorSelection((e) => {
        if (this.mode() === 'currentLine') this.update([e.textEditor], true);
      }),
    );
    this.register(
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length === 0) return;
        this.caches.get(e.document.uri.toString())?.reset();
        this.update(
          vscode.window.visibleTextEditors.filter((editor) => editor.document === e.document),
          true,
        );
      }),
    );
    this.register(
      vscode.workspace.onDidCloseTextDocument((document) => {
        this.caches.delete(document.uri.toString());
      }),
    );
    this.register(
      serialSettings.onDidChange((value) => {
        for (const cache of this.caches.values()) cache.reset(value.matcher);
        this.updateAll(true);
      }),
    );
    this.register(
      settings.onDidChange((change) => {
        if (change.affects('inlineStatus.mode') || change.affects('diagnostics.severity')) this.updateAll(true);
      }),
    );
    this.register(
      states.onDidChange((changed) => {
        // A change of everything (a sign-in, another environment, the rules) may leave serial
        // numbers on screen unknown: ask for them too, as a scroll would, not only repaint.
        this.updateAll(changed === undefined);
      }),
    );
    this.register(
      states.onDidChangeHeld((held) => {
        if (held > 0) void this.askToLoadHeld(held);
      }),
    );
    this.updateAll(true);
  }

  private mode(): 'all' | 'currentLine' | 'off' {
    return this.settings.value['inlineStatus.mode'];
  }

  private updateAll(load: boolean): void {
    this.update(vscode.window.visibleTextEditors, load);
  }

  private update(editors: readonly vscode.TextEditor[], load: boolean): void {
    const mode = this.mode();
    const signedIn = this.states.signedIn;
    const ctx: StatusTextContext = {
      now: Date.now(),
      locale: vscode.env.language,
      t: (message, ...args) => vscode.l10n.t(message, ...args),
    };
    for (const editor of editors) {
      if (mode === 'off' || !signedIn || !showsSerialStatuses(editor.document, this.serialSettings.value.languages)) {
        editor.setDecorations(this.decoration, []);
        continue;
      }
      const planned = planStatuses(this.visibleMatches(editor, mode), (serial) => this.states.stateOf(serial), ctx);
      const options: vscode.DecorationOptions[] = [];
      for (const { match, state, text } of planned) {
        options.push({
          range: new vscode.Range(match.line, match.end, match.line, match.end),
          renderOptions: { after: { contentText: text, color: new vscode.ThemeColor(STATE_LOOKS[state].color) } },
        });
      }
      editor.setDecorations(this.decoration, options);
    }
    if (load) this.loads.trigger();
  }

  private visibleMatches(editor: vscode.TextEditor, mode: 'all' | 'currentLine', margin = MARGIN_LINES): LineMatch[] {
    const document = editor.document;
    let cache = this.caches.get(document.uri.toString());
    if (cache === undefined) {
      cache = new LineMatchCache(this.serialSettings.value.matcher);
      this.caches.set(document.uri.toString(), cache);
    }
    const ranges: LineRange[] =
      mode === 'currentLine'
        ? [{ start: editor.selection.active.line, end: editor.selection.active.line }]
        : linesToScan(
            editor.visibleRanges.map((range) => ({ start: range.start.line, end: range.end.line })),
            document.lineCount,
            margin,
          );
    return cache.matchesIn((line) => document.lineAt(line).text, ranges);
  }

  private loadVisible(): void {
    // The Problems panel needs the states too, so loads stop only when both are off.
    if (!this.states.signedIn || (this.mode() === 'off' && this.settings.value['diagnostics.severity'] === 'off')) return;
    const serials: string[] = [];
    for (const editor of vscode.window.visibleTextEditors) {
      if (!showsSerialStatuses(editor.document, this.serialSettings.value.languages)) continue;
      // Only lines on screen (no margin: a line never shown costs no request); the active editor's first.
      const found = distinctSerials(this.visibleMatches(editor, 'all', 0));
      if (editor === vscode.window.activeTextEditor) serials.unshift(...found);
      else serials.push(...found);
    }
    this.states.show(serials);
  }

  private async askToLoadHeld(held: number): Promise<void> {
    if (this.asking || Date.now() - this.declinedAt < AUTOMATIC_BUDGET_PERIOD_MS) return;
    this.asking = true;
    try {
      const load = vscode.l10n.t('Load Them');
      const choice = await vscode.window.showInformationMessage(
        inertNotificationText(
          vscode.l10n.t(
            'Onboarding Events loads the status of at most {1} serial numbers in view without asking. Load the other {0}?',
            held.toLocaleString(vscode.env.language),
            MAX_AUTOMATIC_PER_VIEW,
          ),
        ),
        load,
      );
      if (choice === load) this.states.loadHeld();
      else this.declinedAt = Date.now();
    } finally {
      this.asking = false;
    }
  }
}
