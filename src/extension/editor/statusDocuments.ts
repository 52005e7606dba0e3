// Which documents the editor's serial-number views read: links in any
// document of the configured languages (hover.languages) that is not huge;
// the inline status and Problems-panel entries only in real files and
// untitled buffers, not output channels or diff views of git.
import * as vscode from 'vscode';
import { selectorFor } from '../workbench/serialSettings';

/** Beyond this many characters a document gets no links, inline status or Problems entries (generated logs, dumps). */
export const MAX_LINKED_DOCUMENT_CHARS = 5 * 1024 * 1024;

const SCHEMES = new Set(['file', 'untitled', 'vscode-remote', 'vscode-userdata']);

/** Too large to read for serial numbers; offsetAt(end) is the document length without copying its text. */
export function tooLargeToRead(document: vscode.TextDocument): boolean {
  return document.offsetAt(document.lineAt(document.lineCount - 1).range.end) > MAX_LINKED_DOCUMENT_CHARS;
}

export function showsSerialStatuses(document: vscode.TextDocument, languages: readonly string[]): boolean {
  if (!SCHEMES.has(document.uri.scheme)) return false;
  if (vscode.languages.match(selectorFor(languages), document) === 0) return false;
  return !tooLargeToRead(document);
}
