// Which documents get the inline status and Problems-panel entries: real
// files and untitled buffers in the configured languages (hover.languages),
// not output channels or diff views of git, and not huge generated files.
import * as vscode from 'vscode';
import { selectorFor } from '../workbench/serialSettings';
import { MAX_LINKED_DOCUMENT_CHARS } from './serialLinkProvider';

const SCHEMES = new Set(['file', 'untitled', 'vscode-remote', 'vscode-userdata']);

export function glanceDocument(document: vscode.TextDocument, languages: readonly string[]): boolean {
  if (!SCHEMES.has(document.uri.scheme)) return false;
  if (vscode.languages.match(selectorFor(languages), document) === 0) return false;
  const length = document.offsetAt(document.lineAt(document.lineCount - 1).range.end);
  return length <= MAX_LINKED_DOCUMENT_CHARS;
}
