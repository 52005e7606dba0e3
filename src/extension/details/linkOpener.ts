// The one place that hands a URL to the operating system. The URL was already
// judged and normalized by the link policy (externalUrl); this shows its host
// on its own and the URL in full in a modal, and opens exactly that URL only
// when the user agrees.
import * as vscode from 'vscode';

/** Shows the host on its own and the full URL, asks, and opens exactly that URL when the user agrees; true when it was opened. */
export async function confirmAndOpen(url: string, host: string): Promise<boolean> {
  const open = vscode.l10n.t('Open');
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t('Open this link from the server in your browser?'),
    { modal: true, detail: vscode.l10n.t('Host: {0}\n\n{1}', host, url) },
    open,
  );
  if (choice !== open) return false;
  // strict parsing: the URL is passed on exactly as shown.
  return vscode.env.openExternal(vscode.Uri.parse(url, true));
}
