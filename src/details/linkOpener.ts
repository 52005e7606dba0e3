// The one place that hands a URL to the operating system. The URL was already
// judged and normalized by the link policy (externalUrl); this shows its host
// on its own and the URL in full in a modal, and opens exactly that URL only
// when the user agrees.
import * as vscode from 'vscode';

/**
 * The thin wrapper around `vscode.env.openExternal` and its confirmation, so
 * tests can stand in for the browser and the modal dialog.
 */
export interface LinkOpener {
  /** Shows the host on its own and the full URL, and asks; true to go ahead. */
  confirm(url: string, host: string): Promise<boolean>;
  open(url: string): Promise<boolean>;
}

export function defaultLinkOpener(): LinkOpener {
  return {
    async confirm(url: string, host: string): Promise<boolean> {
      const open = vscode.l10n.t('Open');
      const choice = await vscode.window.showWarningMessage(
        vscode.l10n.t('Open this link from the server in your browser?'),
        { modal: true, detail: vscode.l10n.t('Host: {0}\n\n{1}', host, url) },
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

/** The opener every panel uses: the default one, unless a test put a stand-in in its place. */
export class LinkOpenerSlot {
  private opener: LinkOpener = defaultLinkOpener();

  get current(): LinkOpener {
    return this.opener;
  }

  /** Replaces the opener until the result is disposed (then the previous one is back). */
  use(replacement: LinkOpener): { dispose(): void } {
    const previous = this.opener;
    this.opener = replacement;
    return {
      dispose: () => {
        this.opener = previous;
      },
    };
  }
}
