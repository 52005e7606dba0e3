// Problems entries for serial numbers without events, unknown, or failed, from what is already known
// (a serial number scrolled past costs no request). Each document is indexed once, so an answer for X
// re-derives only X's entries.
import * as vscode from 'vscode';
import { Debouncer } from '../../core/common/delays';
import { Disposable } from '../../core/common/lifecycle';
import { MAX_INDEXED_LINES, MAX_INDEXED_MATCHES, SerialIndex, type LineMatch } from '../../core/domain/serialNumbers/visibleSerials';
import type { Log } from '../workbench/log';
import type { SerialSettings } from '../workbench/serialSettings';
import type { SettingsReader } from '../workbench/settings';
import { showsSerialStatuses } from './statusDocuments';
import type { SerialStatuses } from './serialStatuses';
import { planProblems, type StatusTextContext } from './statusText';

export const DIAGNOSTIC_SOURCE = 'Onboarding Events';
/** A document's serial numbers beyond this many get no entry (a dump of 100,000 serials is not a to-do list). */
export const MAX_DIAGNOSTICS_PER_DOCUMENT = MAX_INDEXED_MATCHES;
const EDIT_DELAY_MS = 300;

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

interface IndexedDocument {
  index: SerialIndex;
  version: number;
  stale: boolean;
  /** Edited since its entries were derived: their ranges may have moved, so answers wait for the edit's update. */
  edited: boolean;
  readonly entries: Map<string, vscode.Diagnostic[]>;
}

export class SerialDiagnostics extends Disposable {
  private readonly collection = this.register(vscode.languages.createDiagnosticCollection('onboardingEvents'));
  private readonly documents = new Map<string, IndexedDocument>();
  private readonly edits = this.register(
    new Debouncer(() => {
      this.updateEdited();
    }, EDIT_DELAY_MS),
  );
  private readonly edited = new Set<vscode.TextDocument>();
  /** Documents whose cut was logged, so a 1 M-line file is said once, not on every answer. */
  private readonly reportedCut = new Set<string>();

  constructor(
    private readonly states: SerialStatuses,
    private readonly serialSettings: SerialSettings,
    private readonly settings: SettingsReader,
    private readonly log: Log,
  ) {
    super();
    this.register(
      states.onDidChange((serials) => {
        if (serials === undefined) this.updateAll();
        else this.updateSerials(serials);
      }),
    );
    this.register(
      vscode.workspace.onDidOpenTextDocument((document) => {
        this.updateDocuments([document]);
      }),
    );
    this.register(
      vscode.workspace.onDidCloseTextDocument((document) => {
        this.documents.delete(document.uri.toString());
        this.reportedCut.delete(document.uri.toString());
        this.collection.delete(document.uri);
      }),
    );
    this.register(
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length === 0) return;
        this.follow(e);
        this.edited.add(e.document);
        this.edits.trigger();
      }),
    );
    this.register(
      serialSettings.onDidChange(() => {
        for (const indexed of this.documents.values()) indexed.stale = true;
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

  private updateAll(): void {
    this.updateDocuments(vscode.workspace.textDocuments);
  }

  private updateEdited(): void {
    const documents = [...this.edited];
    this.edited.clear();
    this.updateDocuments(documents);
  }

  private follow(e: vscode.TextDocumentChangeEvent): void {
    const indexed = this.documents.get(e.document.uri.toString());
    if (indexed === undefined || indexed.stale || indexed.version !== e.document.version - 1) {
      if (indexed !== undefined) indexed.stale = true;
      return;
    }
    const document = e.document;
    const edits = e.contentChanges.map((change) => ({
      startLine: change.range.start.line,
      endLine: change.range.end.line,
      newLines: lineBreaks(change.text),
    }));
    indexed.stale = !indexed.index.update(edits, (line) => document.lineAt(line).text, document.lineCount);
    indexed.version = document.version;
    indexed.edited = true;
  }

  private updateSerials(serials: ReadonlySet<string>): void {
    const severity = severityOf(this.settings.value['diagnostics.severity']);
    const ctx = this.context();
    for (const document of vscode.workspace.textDocuments) {
      const indexed = this.documents.get(document.uri.toString());
      if (indexed === undefined || indexed.stale || indexed.edited || indexed.version !== document.version || severity === undefined) {
        // Not current: the edit's update (or the open) derives every entry of it anyway.
        continue;
      }
      if (!this.states.signedIn) {
        this.collection.delete(document.uri);
        continue;
      }
      const held = indexed.index.bySerial();
      let touched = false;
      for (const serial of serials) {
        const matches = held.get(serial);
        if (matches === undefined) continue;
        touched = true;
        this.derive(indexed, serial, matches, severity, ctx);
      }
      if (touched) this.publish(document, indexed);
    }
  }

  private updateDocuments(documents: readonly vscode.TextDocument[]): void {
    const severity = severityOf(this.settings.value['diagnostics.severity']);
    const ctx = this.context();
    for (const document of documents) {
      if (document.isClosed) continue;
      if (severity === undefined || !this.states.signedIn || !showsSerialStatuses(document, this.serialSettings.value.languages)) {
        this.collection.delete(document.uri);
        continue;
      }
      const indexed = this.indexOf(document);
      indexed.entries.clear();
      indexed.edited = false;
      for (const [serial, matches] of indexed.index.bySerial()) this.derive(indexed, serial, matches, severity, ctx);
      this.publish(document, indexed);
    }
  }

  private context(): StatusTextContext {
    return {
      now: Date.now(),
      locale: vscode.env.language,
      t: (message, ...args) => vscode.l10n.t(message, ...args),
    };
  }

  private indexOf(document: vscode.TextDocument): IndexedDocument {
    const key = document.uri.toString();
    let indexed = this.documents.get(key);
    if (indexed === undefined || indexed.stale || indexed.version !== document.version) {
      const index = new SerialIndex(this.serialSettings.value.matcher, (line) => document.lineAt(line).text, document.lineCount);
      indexed = { index, version: document.version, stale: false, edited: false, entries: new Map() };
      this.documents.set(key, indexed);
      this.reportCut(document, index);
    }
    return indexed;
  }

  private reportCut(document: vscode.TextDocument, index: SerialIndex): void {
    const key = document.uri.toString();
    if (index.cut === undefined || this.reportedCut.has(key)) return;
    this.reportedCut.add(key);
    // The log is English (its readers are support and bug reports), so are its numbers.
    const why =
      index.cut === 'lines'
        ? `only its first ${MAX_INDEXED_LINES.toLocaleString('en')} lines are read`
        : `only its first ${MAX_INDEXED_MATCHES.toLocaleString('en')} serial numbers get entries`;
    this.log.info(`Problems: ${document.uri.scheme === 'file' ? document.uri.fsPath : document.uri.toString()} is large, so ${why}.`);
  }

  private derive(
    indexed: IndexedDocument,
    serial: string,
    matches: readonly LineMatch[],
    severity: vscode.DiagnosticSeverity,
    ctx: StatusTextContext,
  ): void {
    const diagnostics: vscode.Diagnostic[] = [];
    for (const { match, state, message } of planProblems(matches, (s) => this.states.stateOf(s), ctx)) {
      const diagnostic = new vscode.Diagnostic(new vscode.Range(match.line, match.start, match.line, match.end), message, severity);
      diagnostic.source = DIAGNOSTIC_SOURCE;
      // The code names the state, so quick fixes (and users filtering the panel) can tell the kinds apart.
      diagnostic.code = state;
      diagnostics.push(diagnostic);
    }
    if (diagnostics.length === 0) indexed.entries.delete(serial);
    else indexed.entries.set(serial, diagnostics);
  }

  private publish(document: vscode.TextDocument, indexed: IndexedDocument): void {
    const all = [...indexed.entries.values()].flat();
    all.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
    if (all.length === 0) this.collection.delete(document.uri);
    else this.collection.set(document.uri, all);
  }
}

function lineBreaks(text: string): number {
  let count = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count++;
  return count;
}
