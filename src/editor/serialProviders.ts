// The hover and link providers follow the hover.enabled, links.enabled and
// hover.languages settings: registered again, for the new languages, whenever
// those settings change.
import * as vscode from 'vscode';
import { Disposable, toDisposable } from '../common/lifecycle';
import { selectorFor, type SerialSettings, type SerialSettingsSnapshot } from '../workbench/serialSettings';

export class SerialProviders extends Disposable {
  private registrations: vscode.Disposable | undefined;

  constructor(
    settings: SerialSettings,
    private readonly hoverProvider: vscode.HoverProvider,
    private readonly linkProvider: vscode.DocumentLinkProvider,
  ) {
    super();
    this.update(settings.value);
    this.register(
      settings.onDidChange((value) => {
        this.update(value);
      }),
    );
    this.register(
      toDisposable(() => {
        this.registrations?.dispose();
      }),
    );
  }

  private update(value: SerialSettingsSnapshot): void {
    this.registrations?.dispose();
    const selector = selectorFor(value.languages);
    const registrations: vscode.Disposable[] = [];
    if (value.hoverEnabled) registrations.push(vscode.languages.registerHoverProvider(selector, this.hoverProvider));
    if (value.linksEnabled) registrations.push(vscode.languages.registerDocumentLinkProvider(selector, this.linkProvider));
    this.registrations = vscode.Disposable.from(...registrations);
  }
}
