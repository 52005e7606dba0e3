// The one settings reader: every feature reads `settings.value` (validated
// and clamped once by domain/settings/settingsRules.ts) and listens to
// `onDidChange`, instead of calling workspace.getConfiguration itself. The
// snapshot is rebuilt only when a setting of ours (or http.*) changes.
import * as vscode from 'vscode';
import { Emitter, type Event } from '../../core/common/emitter';
import { Disposable } from '../../core/common/lifecycle';
import { BUILTIN_COMMANDS } from './constants';
import { readSettings, SECTION, settingId, type SettingName, type Settings } from '../../core/domain/settings/settingsRules';

/** The prefix of a dotted setting name ('serialNumber' of 'serialNumber.pattern'), so a group's name comes from its settings. */
type GroupOf<Name> = Name extends `${infer Group}.${string}` ? Group : never;

export interface SettingsChange {
  /** Whether the change touches this setting (or, for a group such as 'serialNumber', any in it). */
  affects(name: SettingName | GroupOf<SettingName> | 'http'): boolean;
  /** VS Code's event, for settings that are not ours (e.g. files.exclude). */
  readonly event: vscode.ConfigurationChangeEvent;
}

export class SettingsReader extends Disposable {
  private snapshot: Settings | undefined;
  private readonly changed = this.register(new Emitter<SettingsChange>());
  readonly onDidChange: Event<SettingsChange> = this.changed.event;

  constructor() {
    super();
    this.register(
      vscode.workspace.onDidChangeConfiguration((event) => {
        const affects: SettingsChange['affects'] = (name) => event.affectsConfiguration(name === 'http' ? 'http' : `${SECTION}.${name}`);
        if (!event.affectsConfiguration(SECTION) && !event.affectsConfiguration('http')) return;
        this.snapshot = undefined;
        this.changed.fire({ affects, event });
      }),
    );
  }

  get value(): Settings {
    this.snapshot ??= readSettings((section, name) => vscode.workspace.getConfiguration(section).get<unknown>(name));
    return this.snapshot;
  }

  /** Opens the Settings editor at one of our settings. */
  static open(name: SettingName): Thenable<unknown> {
    return vscode.commands.executeCommand(BUILTIN_COMMANDS.openSettings, settingId(name));
  }
}
