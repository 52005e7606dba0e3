// One host for both webviews, so both keep the same rules: a fresh shell and nonce per load, and
// nothing posted until the page says "ready" (an earlier post is lost with the old page).
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
  readonly page: 'details' | 'board';
  readonly logName: string;
  readonly loading: string;
  /** The protocol's guard: anything else the page sends is dropped unread. */
  readonly isPageMessage: (message: unknown) => message is P;
  content(): H;
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

  get isReady(): boolean {
    return this.ready;
  }

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
