// The serial-number settings, read once and re-read on change, with the
// matcher they define. A refused pattern is reported once per distinct value
// (not on every hover), and the default pattern is used meanwhile.
import * as vscode from 'vscode';
import type { Log } from './log';
import { createSerialMatcher, DEFAULT_SERIAL_MIN_LENGTH, type SerialMatcher } from '../domain/serialNumbers/serialMatcher';

export interface SerialSettingsSnapshot {
  readonly matcher: SerialMatcher;
  /** Cached word pattern for getWordRangeAtPosition (one RegExp, not one per hover). */
  readonly wordPattern: RegExp;
  readonly hoverEnabled: boolean;
  readonly linksEnabled: boolean;
  /** Language ids; `['*']` means every language. */
  readonly languages: readonly string[];
  readonly maxEvents: number;
}

const SECTION = 'onboardingEvents';
const AFFECTS = ['serialNumber', 'hover', 'links'].map((key) => `${SECTION}.${key}`);

export class SerialSettings implements vscode.Disposable {
  private current: SerialSettingsSnapshot;
  private readonly reported = new Set<string>();
  private readonly changed = new vscode.EventEmitter<SerialSettingsSnapshot>();
  private readonly subscription: vscode.Disposable;
  readonly onDidChange = this.changed.event;

  constructor(private readonly log: Log) {
    this.current = this.read();
    this.subscription = vscode.workspace.onDidChangeConfiguration((e) => {
      if (AFFECTS.some((section) => e.affectsConfiguration(section))) {
        this.current = this.read();
        this.changed.fire(this.current);
      }
    });
  }

  get value(): SerialSettingsSnapshot {
    return this.current;
  }

  private read(): SerialSettingsSnapshot {
    const config = vscode.workspace.getConfiguration(SECTION);
    const pattern = config.get<string>('serialNumber.pattern');
    const matcher = createSerialMatcher({
      pattern,
      minLength: config.get<number>('serialNumber.minLength', DEFAULT_SERIAL_MIN_LENGTH),
      denyList: stringArray(config.get<unknown>('serialNumber.denyList')),
      t: vscode.l10n.t,
    });
    if (matcher.problem !== undefined && !this.reported.has(pattern ?? '')) {
      this.reported.add(pattern ?? '');
      this.log.warn(matcher.problem);
      void vscode.window
        .showWarningMessage(
          vscode.l10n.t('The serial-number pattern setting cannot be used, so the default pattern is used instead. {0}', matcher.problem),
          vscode.l10n.t('Open Setting'),
        )
        .then((choice) => {
          if (choice !== undefined) void vscode.commands.executeCommand('workbench.action.openSettings', `${SECTION}.serialNumber.pattern`);
        });
    }
    const languages = stringArray(config.get<unknown>('hover.languages'));
    return {
      matcher,
      wordPattern: matcher.wordPattern(),
      hoverEnabled: config.get<boolean>('hover.enabled', true),
      linksEnabled: config.get<boolean>('links.enabled', true),
      languages: languages.length === 0 ? ['*'] : languages,
      maxEvents: clamp(config.get<number>('hover.maxEvents', 5), 1, 50),
    };
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}

/** The document selector for the languages setting. */
export function selectorFor(languages: readonly string[]): vscode.DocumentSelector {
  if (languages.includes('*')) return '*';
  return languages.map((language) => ({ language }));
}

function stringArray(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function clamp(value: number, min: number, max: number): number {
  return Number.isFinite(value) ? Math.min(max, Math.max(min, Math.floor(value))) : min;
}
