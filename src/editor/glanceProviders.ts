// The quick-fix and completion providers follow the hover.languages setting:
// registered again, for the new languages, whenever the serial settings change.
import * as vscode from 'vscode';
import { Disposable, toDisposable } from '../common/lifecycle';
import { selectorFor, type SerialSettings, type SerialSettingsSnapshot } from '../workbench/serialSettings';
import { SerialCodeActions } from './serialCodeActions';

export class GlanceProviders extends Disposable {
  private registrations: vscode.Disposable | undefined;

  constructor(
    settings: SerialSettings,
    private readonly codeActions: vscode.CodeActionProvider,
    private readonly completion: vscode.CompletionItemProvider,
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
    this.registrations = vscode.Disposable.from(
      vscode.languages.registerCodeActionsProvider(selector, this.codeActions, SerialCodeActions.metadata),
      vscode.languages.registerCompletionItemProvider(selector, this.completion),
    );
  }
}
