// The one place that hands a URL to the operating system. The URL was already
// judged http(s) by the link policy; this shows it in full in a modal and
// opens it only when the user agrees.
import * as vscode from 'vscode';

/**
 * The thin wrapper around `vscode.env.openExternal` and its confirmation, so
 * tests can stand in for the browser and the modal dialog.
 */
export interface LinkOpener {
  /** Shows the full URL and asks; true to go ahead. */
  confirm(url: string): Promise<boolean>;
  open(url: string): Promise<boolean>;
}

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
