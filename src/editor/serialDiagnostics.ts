// Problems-panel entries for serial numbers the platform has no events for
// (or does not know), and for those whose latest event is a failure. Made
// from what is already known — a serial number scrolled past never costs a
// request here — for every occurrence in open documents of the configured
// languages; rebuilt when a document changes (debounced) and when answers
// arrive (coalesced); cleared on sign-out and on an environment switch.
import * as vscode from 'vscode';
import { Debouncer } from '../common/delays';
import { Disposable } from '../common/lifecycle';
import { LineMatchCache } from '../domain/serialNumbers/visibleSerials';
import type { SerialSettings } from '../workbench/serialSettings';
import type { SettingsReader } from '../workbench/settings';
import { glanceDocument } from './glanceDocuments';
import type { GlanceStates } from './glanceStates';
import { planProblems, type GlanceTextContext } from './glanceText';

export const DIAGNOSTIC_SOURCE = 'Onboarding Events';
/** A document's serial numbers beyond this many get no entry (a dump of 100,000 serials is not a to-do list). */
export const MAX_DIAGNOSTICS_PER_DOCUMENT = 5_000;
const EDIT_DELAY_MS = 300;

export interface DiagnosticsTiming {
  /** Extension-host time of the last rebuild of every document's entries, in ms. */
  readonly lastUpdateMs: number;
  readonly diagnostics: number;
}

function severityOf(setting: string): vscode.DiagnosticSeverity | undefined {
  switch (setting) {
    case 'hint':
      return vscode.DiagnosticSeverity.Hint;
    case 'information':
      return vscode.DiagnosticSeverity.Information;
    case 'warning':
      return vscode.DiagnosticSeverity.Warning;
    case 'error':
      return vscode.DiagnosticSeverity.Error;
    default:
      return undefined;
  }
}

export class SerialDiagnostics extends Disposable {
  private readonly collection = this.register(vscode.languages.createDiagnosticCollection('onboardingEvents'));
  private readonly caches = new Map<string, LineMatchCache>();
  private readonly edits = this.register(
    new Debouncer(() => {
      this.updateEdited();
    }, EDIT_DELAY_MS),
  );
  private readonly edited = new Set<vscode.TextDocument>();
  private timing: DiagnosticsTiming = { lastUpdateMs: 0, diagnostics: 0 };

  constructor(
    private readonly states: GlanceStates,
    private readonly serialSettings: SerialSettings,
    private readonly settings: SettingsReader,
  ) {
    super();
    this.register(
      states.onDidChange(() => {
        this.updateAll();
      }),
    );
    this.register(
      vscode.workspace.onDidOpenTextDocument((document) => {
        this.updateDocuments([document]);
      }),
    );
    this.register(
      vscode.workspace.onDidCloseTextDocument((document) => {
        this.caches.delete(document.uri.toString());
        this.collection.delete(document.uri);
      }),
    );
    this.register(
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length === 0) return;
        this.caches.get(e.document.uri.toString())?.reset();
        this.edited.add(e.document);
        this.edits.trigger();
      }),
    );
    this.register(
      serialSettings.onDidChange((value) => {
        for (const cache of this.caches.values()) cache.reset(value.matcher);
        this.updateAll();
      }),
    );
    this.register(
      settings.onDidChange((change) => {
        if (change.affects('diagnostics.severity') || change.affects('eventStates')) this.updateAll();
      }),
    );
    this.updateAll();
  }

  get lastTiming(): DiagnosticsTiming {
    return this.timing;
  }

  private updateAll(): void {
    this.updateDocuments(vscode.workspace.textDocuments);
  }

  private updateEdited(): void {
    const documents = [...this.edited];
    this.edited.clear();
    this.updateDocuments(documents);
  }

  private updateDocuments(documents: readonly vscode.TextDocument[]): void {
    const started = performance.now();
    const severity = severityOf(this.settings.value['diagnostics.severity']);
    let count = 0;
    const ctx: GlanceTextContext = {
      now: Date.now(),
      locale: vscode.env.language,
      t: (message, ...args) => vscode.l10n.t(message, ...args),
    };
    for (const document of documents) {
      if (document.isClosed) continue;
      if (severity === undefined || !this.states.signedIn || !glanceDocument(document, this.serialSettings.value.languages)) {
        this.collection.delete(document.uri);
        continue;
      }
      const diagnostics = this.diagnosticsFor(document, severity, ctx);
      count += diagnostics.length;
      if (diagnostics.length === 0) this.collection.delete(document.uri);
      else this.collection.set(document.uri, diagnostics);
    }
    this.timing = { lastUpdateMs: performance.now() - started, diagnostics: count };
  }

  private diagnosticsFor(document: vscode.TextDocument, severity: vscode.DiagnosticSeverity, ctx: GlanceTextContext): vscode.Diagnostic[] {
    const key = document.uri.toString();
    let cache = this.caches.get(key);
    if (cache === undefined) {
      cache = new LineMatchCache(this.serialSettings.value.matcher);
      this.caches.set(key, cache);
    }
    const matches = cache.matchesIn(
      (line) => document.lineAt(line).text,
      [{ start: 0, end: document.lineCount - 1 }],
      MAX_DIAGNOSTICS_PER_DOCUMENT,
    );
    const diagnostics: vscode.Diagnostic[] = [];
    for (const { match, state, message } of planProblems(matches, (serial) => this.states.stateOf(serial), ctx)) {
      const diagnostic = new vscode.Diagnostic(new vscode.Range(match.line, match.start, match.line, match.end), message, severity);
      diagnostic.source = DIAGNOSTIC_SOURCE;
      // The code names the state, so quick fixes (and users filtering the panel) can tell the kinds apart.
      diagnostic.code = state;
      diagnostics.push(diagnostic);
    }
    return diagnostics;
  }
}
