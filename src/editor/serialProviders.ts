// Language providers that follow the serial settings (hover.enabled,
// links.enabled, hover.languages): registered again, for the new languages,
// whenever those settings change. One class for the hover and links and for
// the quick fixes and completion, each caller saying what to register.
import * as vscode from 'vscode';
import { Disposable, toDisposable } from '../common/lifecycle';
import { selectorFor, type SerialSettings, type SerialSettingsSnapshot } from '../workbench/serialSettings';

export type ProviderRegistrations = (selector: vscode.DocumentSelector, value: SerialSettingsSnapshot) => vscode.Disposable[];

export class SerialProviders extends Disposable {
  private registrations: vscode.Disposable | undefined;

  constructor(
    settings: SerialSettings,
    private readonly registerAll: ProviderRegistrations,
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
    this.registrations = vscode.Disposable.from(...this.registerAll(selectorFor(value.languages), value));
  }
}
