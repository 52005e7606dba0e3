// Serial numbers become Ctrl/Cmd-clickable: each links to a command URI that
// reveals the machine in the sidebar. Finding them is local work only (no
// request), capped per document, and skipped for huge documents.
import * as vscode from 'vscode';
import { commandUri } from '../common/markdownText';
import { COMMANDS } from '../workbench/constants';
import type { SerialSettings } from '../workbench/serialSettings';

/** Beyond this many characters a document gets no links (generated logs, dumps). */
export const MAX_LINKED_DOCUMENT_CHARS = 5 * 1024 * 1024;
/** More links than this help nobody and cost the editor memory. */
export const MAX_LINKS_PER_DOCUMENT = 2000;

/** The target of a serial-number link: the tree's reveal command with `{ serialNumber }`. */
export function revealMachineUri(serialNumber: string): vscode.Uri {
  return vscode.Uri.parse(commandUri(COMMANDS.revealMachine, [{ serialNumber }]));
}

export class SerialLinkProvider implements vscode.DocumentLinkProvider {
  constructor(private readonly settings: SerialSettings) {}

  provideDocumentLinks(document: vscode.TextDocument, token: vscode.CancellationToken): vscode.DocumentLink[] {
    // offsetAt(end) is the document length without copying its text.
    const length = document.offsetAt(document.lineAt(document.lineCount - 1).range.end);
    if (length > MAX_LINKED_DOCUMENT_CHARS || token.isCancellationRequested) return [];
    const matcher = this.settings.value.matcher;
    const matches = matcher.findAll(document.getText(), MAX_LINKS_PER_DOCUMENT);
    return matches.map((match) => {
      const link = new vscode.DocumentLink(
        new vscode.Range(document.positionAt(match.start), document.positionAt(match.end)),
        revealMachineUri(match.serialNumber),
      );
      link.tooltip = vscode.l10n.t('Show {0} in the Onboarding Events sidebar', match.serialNumber);
      return link;
    });
  }
}
