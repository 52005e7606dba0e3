// The one place that hands a URL to the operating system. The URL was already
// judged http(s) by the caller; this shows it in full in a modal and opens it
// only when the user agrees.
import * as vscode from 'vscode';
import type { LinkOpener } from '../workbench/contracts/detailsApi';

export function defaultLinkOpener(): LinkOpener {
  return {
    async confirm(url: string): Promise<boolean> {
      const open = vscode.l10n.t('Open');
      const choice = await vscode.window.showWarningMessage(
        vscode.l10n.t('Open this link from the server in your browser?'),
        { modal: true, detail: url },
        open,
      );
      return choice === open;
    },
    async open(url: string): Promise<boolean> {
      // strict parsing: the URL is passed on exactly as shown.
      return vscode.env.openExternal(vscode.Uri.parse(url, true));
    },
  };
}
