// One details webview: it owns its panel, generates the HTML shell, posts the
// event once the page says "ready", and carries out what the page asks for
// after checking it against the event it holds (links are looked up by id and
// their targets recomputed here; a URL from the page is never trusted).
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { isApiError } from '../core/errors';
import { isOpenable } from '../core/hal';
import type { OnboardingEvent } from '../core/model';
import type { Log } from '../workbench/log';
import type { ApiSession } from '../workbench/contracts/apiSession';
import { inertNotificationText } from '../common/notificationText';
import type { LinkOpener, RenderedReport } from '../workbench/contracts/detailsApi';
import { stateFor } from './eventArgument';
import { renderShell } from './html';
import type { ReadOnlyDocuments } from './jsonDocuments';
import { pageStrings } from './pageStrings';
import { isPageMessage, type HostMessage, type PageMessage, type VariableValues } from './protocol';
import { buildEventView, linkById, resolveLinkTarget } from './viewModel';

export const DETAILS_VIEW_TYPE = 'onboardingEvents.details';

/** What every panel shares: the session, the read-only documents, the opener, and what tests observe. */
export interface PanelContext {
  readonly extensionUri: vscode.Uri;
  readonly session: ApiSession;
  readonly log: Log;
  readonly documents: ReadOnlyDocuments;
  opener(): LinkOpener;
  /** Test observations; no-ops in normal use. */
  didSetHtml(html: string): void;
  didPost(message: HostMessage): void;
  didRender(report: RenderedReport): void;
  didOpen(): void;
  didRefuse(): void;
  /** A notification or progress title this panel showed, as shown. */
  didNotify(message: string): void;
}

const MAX_TITLE = 60;

export function panelTitle(event: OnboardingEvent): string {
  const type = event.type.length > MAX_TITLE ? `${event.type.slice(0, MAX_TITLE - 1)}…` : event.type;
  return vscode.l10n.t('{0} · {1}', type, event.serialNumber);
}

export function eventId(event: OnboardingEvent): string {
  return `${event.serialNumber}\n${event.key}`;
}

export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions & vscode.WebviewPanelOptions {
  return {
    enableScripts: true,
    enableFindWidget: true,
    // Only our own media folder: no workspace files, no node_modules.
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'media')],
  };
}

export class DetailsPanel implements vscode.Disposable {
  private ready = false;
  private isDisposed = false;
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly disposed = new vscode.EventEmitter<void>();
  readonly onDidDispose = this.disposed.event;

  constructor(
    readonly panel: vscode.WebviewPanel,
    private current: OnboardingEvent,
    private readonly context: PanelContext,
  ) {
    panel.webview.options = webviewOptions(context.extensionUri);
    this.subscriptions.push(
      panel.webview.onDidReceiveMessage((message: unknown) => void this.receive(message)),
      panel.onDidDispose(() => { this.dispose(); }),
    );
    this.load();
  }

  get event(): OnboardingEvent {
    return this.current;
  }

  /** Shows another event in this panel (the preview follows the selection). */
  setEvent(event: OnboardingEvent): void {
    this.current = event;
    this.panel.title = panelTitle(event);
    this.load();
  }

  /** Re-posts the event, e.g. after the API base or the timestamp setting changed. */
  refresh(event: OnboardingEvent = this.current): void {
    this.current = event;
    this.panel.title = panelTitle(event);
    if (this.ready) this.post(this.showMessage());
  }

  /** A fresh shell (and nonce) for each event: the page announces "ready" again and gets the event. */
  private load(): void {
    this.ready = false;
    this.panel.title = panelTitle(this.current);
    const webview = this.panel.webview;
    const media = (...path: string[]): string => webview.asWebviewUri(vscode.Uri.joinPath(this.context.extensionUri, 'media', ...path)).toString();
    const html = renderShell({
      cspSource: webview.cspSource,
      nonce: randomBytes(18).toString('base64'),
      scriptUri: media('details', 'details.js'),
      styleUri: media('details', 'details.css'),
      codiconsUri: media('codicons', 'codicon.css'),
      title: this.panel.title,
      loading: vscode.l10n.t('Loading event…'),
      lang: vscode.env.language,
    });
    webview.html = html;
    this.context.didSetHtml(html);
  }

  private showMessage(): HostMessage {
    const state = this.context.session.state;
    const apiBaseUrl = state.kind === 'signed-in' ? state.environment.apiBaseUrl : undefined;
    const event = buildEventView(this.current, {
      title: panelTitle(this.current),
      locale: vscode.env.language,
      nowMs: Date.now(),
      outOfRange: vscode.l10n.t('outside the range of dates'),
      ...(apiBaseUrl !== undefined ? { apiBaseUrl } : {}),
    });
    return { type: 'show', event, state: stateFor(this.current), strings: pageStrings() };
  }

  private post(message: HostMessage): void {
    this.context.didPost(message);
    void this.panel.webview.postMessage(message);
  }

  /** Entry point for every message from the page (and the test hook): validated, then handled. */
  async receive(message: unknown): Promise<void> {
    if (!isPageMessage(message)) {
      this.context.log.warn('Event details: ignored a message from the page that is not part of the protocol.');
      return;
    }
    try {
      await this.handle(message);
    } catch (error) {
      this.context.log.error('Event details: handling a page request failed', error);
    }
  }

  private apiBaseUrl(): string | undefined {
    const state = this.context.session.state;
    return state.kind === 'signed-in' ? state.environment.apiBaseUrl : undefined;
  }

  private target(linkId: number, variables: VariableValues): ReturnType<typeof resolveLinkTarget> | undefined {
    const flat = linkById(this.current, linkId);
    return flat ? resolveLinkTarget(flat.link, variables, this.apiBaseUrl()) : undefined;
  }

  private async handle(message: PageMessage): Promise<void> {
    switch (message.type) {
      case 'ready':
        this.ready = true;
        this.post(this.showMessage());
        return;
      case 'rendered':
        this.context.didRender(message);
        return;
      case 'expand': {
        const target = this.target(message.linkId, message.variables);
        if (target) this.post({ type: 'expanded', seq: message.seq, linkId: message.linkId, target });
        return;
      }
      case 'open': {
        const target = this.target(message.linkId, message.variables);
        if (target) await this.openExternal(target.openable ? target.url : null, target.url);
        return;
      }
      case 'openDeprecation': {
        const flat = linkById(this.current, message.linkId);
        const url = flat?.link.deprecation;
        if (url !== undefined) await this.openExternal(isOpenable(url) ? url : null, url);
        return;
      }
      case 'fetch':
        await this.fetch(message.seq, message.linkId, message.variables);
        return;
      case 'copy':
        await this.copy(message);
        return;
      case 'showRawJson':
        await vscode.commands.executeCommand('onboardingEvents.showRawJson', this.current);
        return;
      case 'exportEvents':
        await vscode.commands.executeCommand('onboardingEvents.exportEvents', { serialNumber: this.current.serialNumber });
        return;
    }
  }

  /** `openable` is the URL when it is http(s), else null: then it is shown as text and refused. */
  private async openExternal(openable: string | null, shown: string | null): Promise<void> {
    if (openable === null) {
      this.context.didRefuse();
      this.context.log.warn('Event details: refused to open a link that is not http or https.');
      void vscode.window.showWarningMessage(vscode.l10n.t('This link was not opened: only http and https links can be opened.'), {
        modal: false,
        detail: shown ?? '',
      });
      return;
    }
    const opener = this.context.opener();
    if (!(await opener.confirm(openable))) return;
    this.context.didOpen();
    await opener.open(openable);
  }

  private async fetch(seq: number, linkId: number, variables: VariableValues): Promise<void> {
    const reply = (ok: boolean, text: string): void => { this.post({ type: 'fetched', seq, linkId, ok, message: text }); };
    const target = this.target(linkId, variables);
    if (!target?.openable || target.url === null) {
      this.context.didRefuse();
      reply(false, vscode.l10n.t('Only http and https links can be fetched.'));
      return;
    }
    const client = this.context.session.client();
    if (!client) {
      reply(false, vscode.l10n.t('Sign in to fetch linked resources.'));
      const signIn = vscode.l10n.t('Sign In');
      void vscode.window.showInformationMessage(vscode.l10n.t('Sign in to fetch linked resources.'), signIn).then((choice) => {
        if (choice === signIn) void vscode.commands.executeCommand('onboardingEvents.signIn');
      });
      return;
    }
    const url = target.url;
    // The URL is the server's: in a notification it must not become a command link.
    const title = inertNotificationText(vscode.l10n.t('Fetching {0}', url));
    this.context.didNotify(title);
    try {
      const resource = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title, cancellable: true },
        (_progress, token) => {
          const abort = new AbortController();
          const subscription = token.onCancellationRequested(() => {
            abort.abort();
          });
          return client.fetchLink(url, abort.signal).finally(() => {
            subscription.dispose();
          });
        },
      );
      const where = new URL(resource.url);
      const segments = ['linked', where.host, ...where.pathname.split('/').filter((s) => s !== '')];
      if (resource.json !== undefined) await this.context.documents.show(segments, JSON.stringify(resource.json, null, 2));
      else await this.context.documents.show(segments, resource.text ?? '', 'plaintext');
      reply(true, vscode.l10n.t('Fetched {0} (HTTP {1}).', resource.url, resource.status));
    } catch (error) {
      if (isApiError(error) && error.kind === 'cancelled') {
        reply(false, vscode.l10n.t('Fetch cancelled.'));
        return;
      }
      if (isApiError(error) && error.kind === 'invalid-credentials') this.context.session.reportCredentialsRejected();
      const text = error instanceof Error ? error.message : String(error);
      this.context.log.error('Event details: fetching a linked resource failed', error);
      reply(false, text);
      const shown = inertNotificationText(vscode.l10n.t('Could not fetch the linked resource: {0}', text));
      this.context.didNotify(shown);
      void vscode.window.showErrorMessage(shown);
    }
  }

  private async copy(message: Extract<PageMessage, { type: 'copy' }>): Promise<void> {
    let text: string | undefined;
    switch (message.what) {
      case 'json':
        text = JSON.stringify(this.current.raw, null, 2);
        break;
      case 'assetId':
        text = this.current.assetId;
        break;
      case 'serialNumber':
        text = this.current.serialNumber;
        break;
      case 'url':
        text = message.linkId === undefined ? undefined : (this.target(message.linkId, message.variables ?? {})?.url ?? undefined);
        break;
    }
    if (text === undefined) return;
    await vscode.env.clipboard.writeText(text);
    this.post({ type: 'status', message: vscode.l10n.t('Copied to the clipboard.') });
    vscode.window.setStatusBarMessage(vscode.l10n.t('$(check) Copied to the clipboard'), 2000);
  }

  dispose(): void {
    if (this.isDisposed) return;
    this.isDisposed = true;
    for (const d of this.subscriptions.splice(0)) d.dispose();
    this.panel.dispose();
    this.disposed.fire();
    this.disposed.dispose();
  }
}
