// What the details page may ask, checked against the event the host holds: links by id through the
// link policy, copies and commands from the host's own event, never the page's.
import * as vscode from 'vscode';
import { isApiError } from '../../core/client/errors';
import type { OnboardingEvent } from '../../core/client/model';
import { abortSignalFor } from '../../core/common/cancellation';
import { extensionErrorText } from '../workbench/remedies';
import { inertNotificationText } from '../../core/common/notificationText';
import { COMMANDS } from '../workbench/constants';
import type { EventsCache } from '../../core/eventsCache/eventsCache';
import type { ApiSession } from '../workbench/contracts/apiSession';
import type { Log } from '../workbench/log';
import type { ReadOnlyDocuments } from './jsonDocuments';
import { confirmAndOpen } from './linkOpener';
import {
  copyableUrl,
  deprecationDecision,
  fetchDecision,
  linkTarget,
  openDecision,
  type LinkDecision,
  type LinkRequest,
} from './linkPolicy';
import type { HostMessage, PageMessage, VariableValues } from './protocol';

export type PageRequest = Exclude<PageMessage, { type: 'ready' }>;

export interface PageRequestServices {
  readonly session: ApiSession;
  /** Fetches go through the events cache, which reports refused credentials to the session. */
  readonly events: Pick<EventsCache, 'fetchLink'>;
  readonly log: Log;
  readonly documents: ReadOnlyDocuments;
}

/** The API base relative links resolve against: the signed-in environment's, none while signed out. */
export function apiBaseUrlOf(session: ApiSession): string | undefined {
  const state = session.state;
  return state.kind === 'signed-in' ? state.environment.apiBaseUrl : undefined;
}

export class PageRequests {
  constructor(
    private readonly services: PageRequestServices,
    private readonly event: () => OnboardingEvent,
    private readonly post: (message: HostMessage) => void,
  ) {}

  private linkRequest(): LinkRequest {
    return { event: this.event(), apiBaseUrl: apiBaseUrlOf(this.services.session) };
  }

  async handle(message: PageRequest): Promise<void> {
    switch (message.type) {
      case 'expand': {
        const target = linkTarget(this.linkRequest(), message.linkId, message.variables);
        if (target) this.post({ type: 'expanded', seq: message.seq, linkId: message.linkId, target });
        return;
      }
      case 'open': {
        const decision = openDecision(this.linkRequest(), message.linkId, message.variables);
        if (decision) await this.openExternal(decision);
        return;
      }
      case 'open-deprecation': {
        const decision = deprecationDecision(this.linkRequest(), message.linkId);
        if (decision) await this.openExternal(decision);
        return;
      }
      case 'fetch':
        await this.fetch(message.seq, message.linkId, message.variables);
        return;
      case 'copy':
        await this.copy(message);
        return;
      case 'show-raw-json':
        await vscode.commands.executeCommand(COMMANDS.showRawJson, this.event());
        return;
      case 'export-events':
        await vscode.commands.executeCommand(COMMANDS.exportEvents, { serialNumber: this.event().serialNumber });
        return;
    }
  }

  /** Refused links are shown as text and never reach the opener; allowed ones are confirmed in a modal first. */
  private async openExternal(decision: LinkDecision): Promise<void> {
    const { log } = this.services;
    if (decision.kind === 'refuse') {
      log.warn(`Event details: refused to open a link (${decision.reason}).`);
      const why =
        decision.reason === 'userinfo'
          ? vscode.l10n.t(
              'This link was not opened: it contains a user name or password before its host, which can make one site look like another.',
            )
          : decision.reason === 'disguised'
            ? vscode.l10n.t(
                'This link was not opened: it contains invisible, right-to-left, space or backslash characters, which can make it read as a different address.',
              )
            : vscode.l10n.t('This link was not opened: only http and https links can be opened.');
      // The refused URL is server text: shown in the detail only, and inert there too.
      void vscode.window.showWarningMessage(inertNotificationText(why), {
        modal: false,
        detail: inertNotificationText(decision.shown ?? ''),
      });
      return;
    }
    await confirmAndOpen(decision.url, decision.host);
  }

  private async fetch(seq: number, linkId: number, variables: VariableValues): Promise<void> {
    const { log, documents } = this.services;
    const reply = (ok: boolean, text: string): void => {
      this.post({ type: 'fetched', seq, linkId, ok, message: text });
    };
    const decision = fetchDecision(this.linkRequest(), linkId, variables);
    if (decision.kind === 'refuse') {
      reply(false, vscode.l10n.t('Only http and https links can be fetched.'));
      return;
    }
    const url = decision.url;
    if (this.services.session.state.kind !== 'signed-in') {
      reply(false, vscode.l10n.t('Sign in to fetch linked resources.'));
      const signIn = vscode.l10n.t('Sign In');
      void vscode.window.showInformationMessage(vscode.l10n.t('Sign in to fetch linked resources.'), signIn).then((choice) => {
        if (choice === signIn) void vscode.commands.executeCommand(COMMANDS.signIn);
      });
      return;
    }
    // The URL is the server's: in a notification it must not become a command link.
    const title = inertNotificationText(vscode.l10n.t('Fetching {0}', url));
    try {
      const resource = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title, cancellable: true },
        (_progress, token) => {
          const abort = abortSignalFor(token);
          return this.services.events.fetchLink(url, abort.signal).finally(() => {
            abort.dispose();
          });
        },
      );
      const where = new URL(resource.url);
      const segments = ['linked', where.host, ...where.pathname.split('/').filter((s) => s !== '')];
      if (resource.json !== undefined) await documents.show(segments, JSON.stringify(resource.json, null, 2));
      else await documents.show(segments, resource.text ?? '', 'plaintext');
      reply(true, vscode.l10n.t('Fetched {0} (HTTP {1}).', resource.url, resource.status));
    } catch (error) {
      if (isApiError(error) && error.kind === 'cancelled') {
        reply(false, vscode.l10n.t('Fetch cancelled.'));
        return;
      }
      const text = extensionErrorText(error, vscode.l10n.t);
      log.error('Event details: fetching a linked resource failed', error);
      reply(false, text);
      const shown = inertNotificationText(vscode.l10n.t('Could not fetch the linked resource: {0}', text));
      void vscode.window.showErrorMessage(inertNotificationText(shown));
    }
  }

  private async copy(message: Extract<PageMessage, { type: 'copy' }>): Promise<void> {
    const event = this.event();
    let text: string | undefined;
    switch (message.what) {
      case 'json':
        text = JSON.stringify(event.raw, null, 2);
        break;
      case 'assetId':
        text = event.assetId;
        break;
      case 'serialNumber':
        text = event.serialNumber;
        break;
      case 'url':
        text = copyableUrl(this.linkRequest(), message.linkId, message.variables ?? {});
        break;
    }
    if (text === undefined) return;
    await vscode.env.clipboard.writeText(text);
    this.post({ type: 'status', message: vscode.l10n.t('Copied to the clipboard.') });
    vscode.window.setStatusBarMessage(vscode.l10n.t('$(check) Copied to the clipboard'), 2000);
  }
}
