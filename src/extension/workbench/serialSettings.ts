// The serial-number settings and the matcher they define: THE one source of
// "what is a serial number" for hovers, links, the cursor context, the
// look-up and the Machines tree. Read through the SettingsReader and rebuilt
// when a serialNumber.*, hover.* or links.* setting changes. A refused pattern
// is reported once per distinct value (not on every hover), and the default
// pattern is used meanwhile.
import * as vscode from 'vscode';
import { Emitter, type Event } from '../../core/common/emitter';
import { Disposable } from '../../core/common/lifecycle';
import type { SerialMatcher } from '../../core/domain/serialNumbers/serialMatcher';
import { serialMatcherOf } from '../../core/domain/serialNumbers/settingsMatcher';
import type { Log } from './log';
import { SettingsReader } from './settings';
import { inertNotificationText } from '../../core/common/notificationText';

export interface SerialSettingsSnapshot {
  readonly matcher: SerialMatcher;
  readonly hoverEnabled: boolean;
  readonly linksEnabled: boolean;
  /** Language ids; `['*']` means every language. */
  readonly languages: readonly string[];
  readonly maxEvents: number;
}

export class SerialSettings extends Disposable {
  private current: SerialSettingsSnapshot;
  private readonly reported = new Set<string>();
  private readonly changed = this.register(new Emitter<SerialSettingsSnapshot>());
  readonly onDidChange: Event<SerialSettingsSnapshot> = this.changed.event;

  constructor(
    private readonly settings: SettingsReader,
    private readonly log: Log,
  ) {
    super();
    this.current = this.read();
    this.register(
      settings.onDidChange((change) => {
        if (change.affects('serialNumber') || change.affects('hover') || change.affects('links')) {
          this.current = this.read();
          this.changed.fire(this.current);
        }
      }),
    );
  }

  get value(): SerialSettingsSnapshot {
    return this.current;
  }

  private read(): SerialSettingsSnapshot {
    const value = this.settings.value;
    const pattern = value['serialNumber.pattern'];
    const matcher = serialMatcherOf(value, vscode.l10n.t);
    if (matcher.problem !== undefined && !this.reported.has(pattern)) {
      this.reported.add(pattern);
      this.log.warn(matcher.problem);
      void vscode.window
        .showWarningMessage(
          inertNotificationText(
            vscode.l10n.t('The serial-number pattern setting cannot be used, so the default pattern is used instead. {0}', matcher.problem),
          ),
          vscode.l10n.t('Open Setting'),
        )
        .then((choice) => {
          if (choice !== undefined) void SettingsReader.open('serialNumber.pattern');
        });
    }
    const languages = value['hover.languages'];
    return {
      matcher,
      hoverEnabled: value['hover.enabled'],
      linksEnabled: value['links.enabled'],
      // An empty list (set by hand) would select nothing: it means "every language", like the default.
      languages: languages.length === 0 ? ['*'] : languages,
      maxEvents: value['hover.maxEvents'],
    };
  }
}

/** The document selector for the languages setting. */
export function selectorFor(languages: readonly string[]): vscode.DocumentSelector {
  if (languages.includes('*')) return '*';
  return languages.map((language) => ({ language }));
}
