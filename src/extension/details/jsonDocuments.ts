// Read-only JSON editors for an event's raw JSON and for fetched linked
// resources: a TextDocumentContentProvider on our own scheme, so the text
// cannot be edited or saved back anywhere, and nothing is written to disk.
import * as vscode from 'vscode';
import { Emitter } from '../../core/common/emitter';
import { Disposable, toDisposable } from '../../core/common/lifecycle';

export const JSON_SCHEME = 'onboarding-events';

/** Keeps path segments readable and harmless: server strings become file-name-safe text. */
export function safeSegment(text: string, fallback = 'item'): string {
  const cleaned = text
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[-.]+|-+$/g, '')
    .slice(0, 80);
  return cleaned === '' ? fallback : cleaned;
}

export class ReadOnlyDocuments extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly contents = new Map<string, string>();
  private readonly changed = this.register(new Emitter<vscode.Uri>());
  readonly onDidChange = this.changed.event;

  constructor() {
    super();
    this.register(
      toDisposable(() => {
        this.contents.clear();
      }),
    );
    this.register(vscode.workspace.registerTextDocumentContentProvider(JSON_SCHEME, this));
    // The text lives only while its editor is open.
    this.register(
      vscode.workspace.onDidCloseTextDocument((doc) => {
        if (doc.uri.scheme === JSON_SCHEME) this.contents.delete(doc.uri.toString());
      }),
    );
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return (
      this.contents.get(uri.toString()) ??
      JSON.stringify(vscode.l10n.t('This document is no longer available. Open it again from the event details.'))
    );
  }

  /** Opens (or refreshes) a read-only editor; `.json` paths get the JSON language. */
  async show(segments: readonly string[], text: string, language: 'json' | 'plaintext' = 'json'): Promise<vscode.TextEditor> {
    const extension = language === 'json' ? '.json' : '.txt';
    const uri = vscode.Uri.from({ scheme: JSON_SCHEME, path: `/${segments.map((s) => safeSegment(s)).join('/')}${extension}` });
    const key = uri.toString();
    const known = this.contents.has(key);
    this.contents.set(key, text);
    if (known) this.changed.fire(uri);
    let doc = await vscode.workspace.openTextDocument(uri);
    if (doc.languageId !== language) doc = await vscode.languages.setTextDocumentLanguage(doc, language);
    return vscode.window.showTextDocument(doc, { preview: true, viewColumn: vscode.ViewColumn.Active });
  }
}
