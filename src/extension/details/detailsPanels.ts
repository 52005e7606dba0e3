// 'preview' keeps one panel that follows the selection, so clicking through events piles up no tabs;
// 'perEvent' gives each event its own. An event already shown is revealed rather than opened twice.
import * as vscode from 'vscode';
import type { OnboardingEvent } from '../../core/client/model';
import { Disposable } from '../../core/common/lifecycle';
import { WEBVIEWS } from '../workbench/constants';
import type { SettingsReader } from '../workbench/settings';
import { eventFromState, stateFor } from './eventArgument';
import { DetailsPanel, eventId, panelTitle, type PanelContext } from './detailsPanel';
import { webviewOptions } from '../workbench/webviewHost';

export class DetailsPanels extends Disposable {
  private readonly panels = new Set<DetailsPanel>();
  private preview: DetailsPanel | undefined;
  /** The panel most recently shown or focused: the one "Show Raw JSON" without argument acts on. */
  private last: DetailsPanel | undefined;

  constructor(
    private readonly context: PanelContext,
    private readonly settings: SettingsReader,
  ) {
    super();
  }

  get current(): DetailsPanel | undefined {
    return [...this.panels].find((p) => p.panel.active) ?? this.last;
  }

  show(event: OnboardingEvent): void {
    const mode = this.settings.value['details.panelMode'];
    const preserveFocus = mode === 'preview';
    const id = eventId(event);
    const existing = [...this.panels].find((p) => eventId(p.event) === id);
    if (existing) {
      existing.refresh(event);
      existing.panel.reveal(existing.panel.viewColumn, preserveFocus);
      this.last = existing;
      return;
    }
    if (mode === 'preview' && this.preview) {
      this.preview.setEvent(event);
      this.preview.panel.reveal(this.preview.panel.viewColumn, true);
      this.last = this.preview;
      return;
    }
    const panel = vscode.window.createWebviewPanel(
      WEBVIEWS.details,
      panelTitle(event),
      { viewColumn: this.column(), preserveFocus },
      webviewOptions(this.context.extensionUri),
    );
    const details = this.track(new DetailsPanel(panel, event, this.context));
    if (mode === 'preview') this.preview = details;
  }

  /** Serializer: the page kept the raw event with setState; it is validated again before anything shows. */
  revive(panel: vscode.WebviewPanel, state: unknown): void {
    const result = eventFromState(state, this.settings.value.timestampUnit);
    if (!result.ok) {
      // Nothing trustworthy to show: close rather than show an empty or stale page.
      this.context.log.warn(`Event details: a restored panel was closed because ${result.reason}.`);
      panel.dispose();
      return;
    }
    const details = this.track(new DetailsPanel(panel, result.event, this.context));
    if (this.settings.value['details.panelMode'] === 'preview' && !this.preview) this.preview = details;
  }

  refreshAll(): void {
    const unit = this.settings.value.timestampUnit;
    for (const p of this.panels) {
      const result = eventFromState(stateFor(p.event), unit);
      p.refresh(result.ok ? result.event : p.event);
    }
  }

  /** Beside the editor would split the window and squeeze the file being read to half its width. */
  private column(): vscode.ViewColumn {
    const other = [...this.panels].find((p) => p.panel.viewColumn !== undefined)?.panel.viewColumn;
    return other ?? vscode.ViewColumn.Active;
  }

  // The two listeners below are on the panel's own events, which end with it: nothing to keep.
  private track(details: DetailsPanel): DetailsPanel {
    this.panels.add(details);
    this.last = details;
    details.panel.onDidChangeViewState((e) => {
      if (e.webviewPanel.active) this.last = details;
    });
    details.onDidDispose(() => {
      this.panels.delete(details);
      if (this.preview === details) this.preview = undefined;
      if (this.last === details) this.last = [...this.panels].pop();
    });
    return details;
  }

  /** They show one API's data, and that API is no longer the one signed in. */
  closeAll(): void {
    for (const p of [...this.panels]) p.dispose();
    this.panels.clear();
    this.preview = undefined;
    this.last = undefined;
  }

  override dispose(): void {
    this.closeAll();
    super.dispose();
  }
}
