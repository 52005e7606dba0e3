// The plumbing of one of our webviews (the event details, the board): its
// options, a fresh HTML shell (and nonce) per load, the ready handshake,
// posting, validating what the page sends, and disposal. One host for both
// panels, so both keep the same rules. The handshake: after each load the page
// says "ready", and only then does the host post; a message posted earlier
// would be lost with the old page. What the page asks for is handed to `request`.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { Emitter, type Event } from '../../core/common/emitter';
import { Disposable, toDisposable } from '../../core/common/lifecycle';
import type { Log } from './log';
import { renderShell } from './webviewShell';

export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions & vscode.WebviewPanelOptions {
  return {
    enableScripts: true,
    enableFindWidget: true,
    // Only our own media folder: no workspace files, no node_modules.
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'media')],
  };
}

export interface WebviewHostOptions<H, P extends { readonly type: string }> {
  readonly extensionUri: vscode.Uri;
  readonly log: Log;
  /** The page's bundle: media/<page>/<page>.js and .css (esbuild.mjs builds them). */
  readonly page: 'details' | 'board';
  /** How the log names this panel. */
  readonly logName: string;
  /** What the shell shows until the page has rendered. */
  readonly loading: string;
  /** The protocol's guard: anything else the page sends is dropped unread. */
  readonly isPageMessage: (message: unknown) => message is P;
  /** What the page is sent each time it says "ready", and on `update()`. */
  content(): H;
  /** Every other message of the protocol the page sends. */
  request(message: Exclude<P, { readonly type: 'ready' }>): Promise<void>;
}

export class WebviewHost<H, P extends { readonly type: string }> extends Disposable {
  private ready = false;
  private readonly didDispose: Emitter<void>;
  readonly onDidDispose: Event<void>;

  constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly options: WebviewHostOptions<H, P>,
  ) {
    super();
    // Disposed newest first: the listeners, then the panel, then "disposed" is told, then the emitter goes.
    this.didDispose = this.register(new Emitter<void>());
    this.onDidDispose = this.didDispose.event;
    this.register(
      toDisposable(() => {
        this.didDispose.fire();
      }),
    );
    this.register(
      toDisposable(() => {
        panel.dispose();
      }),
    );
    panel.webview.options = webviewOptions(options.extensionUri);
    this.register(panel.webview.onDidReceiveMessage((message: unknown) => void this.receive(message)));
    // Closed by the user: everything else goes with it.
    this.register(
      panel.onDidDispose(() => {
        this.dispose();
      }),
    );
  }

  /** The page has said "ready" since the last load: what is posted now is shown. */
  get isReady(): boolean {
    return this.ready;
  }

  /** A fresh shell (and nonce): the page announces "ready" again and gets `content()`. */
  load(): void {
    this.ready = false;
    const webview = this.panel.webview;
    const { extensionUri, page } = this.options;
    const media = (...path: string[]): string => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', ...path)).toString();
    webview.html = renderShell({
      cspSource: webview.cspSource,
      nonce: randomBytes(18).toString('base64'),
      scriptUri: media(page, `${page}.js`),
      styleUri: media(page, `${page}.css`),
      codiconsUri: media('codicons', 'codicon.css'),
      title: this.panel.title,
      loading: this.options.loading,
      lang: vscode.env.language,
    });
  }

  /** Posts `content()` again when the page is ready; otherwise its "ready" will fetch the new content anyway. */
  update(): void {
    if (this.ready) this.post(this.options.content());
  }

  post(message: H): void {
    void this.panel.webview.postMessage(message);
  }

  /** Entry point for every message from the page: validated, then handled. */
  private async receive(message: unknown): Promise<void> {
    const { isPageMessage, log, logName: name } = this.options;
    if (!isPageMessage(message)) {
      log.warn(`${name}: ignored a message from the page that is not part of the protocol.`);
      return;
    }
    try {
      if (message.type === 'ready') {
        this.ready = true;
        this.post(this.options.content());
        return;
      }
      await this.options.request(message as Exclude<P, { readonly type: 'ready' }>);
    } catch (error) {
      log.error(`${name}: handling a page request failed`, error);
    }
  }
}
