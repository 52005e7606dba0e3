// One details panel: its event, its title and the message that shows it.
import * as vscode from 'vscode';
import { definedOnly } from '../../core/common/definedOnly';
import type { OnboardingEvent } from '../../core/client/model';
import { Disposable } from '../../core/common/lifecycle';
import type { Event } from '../../core/common/emitter';
import { stateFor } from './eventArgument';
import { apiBaseUrlOf, PageRequests, type PageRequestServices } from './pageRequests';
import { isPageMessage, type HostMessage, type PageMessage, type PageStrings } from './protocol';
import { buildEventView } from './viewModel';
import { WebviewHost } from '../workbench/webviewHost';
import { lineText } from '../../core/common/serverText';

export interface PanelContext extends PageRequestServices {
  readonly extensionUri: vscode.Uri;
}

const MAX_TITLE = 60;

export function panelTitle(event: OnboardingEvent): string {
  const type = lineText(event.type, MAX_TITLE);
  return vscode.l10n.t('{0} · {1}', type, event.serialNumber);
}

export function eventId(event: OnboardingEvent): string {
  return `${event.serialNumber}\n${event.key}`;
}

export class DetailsPanel extends Disposable {
  private readonly host: WebviewHost<HostMessage, PageMessage>;
  readonly onDidDispose: Event<void>;

  constructor(
    readonly panel: vscode.WebviewPanel,
    private current: OnboardingEvent,
    private readonly context: PanelContext,
  ) {
    super();
    const requests = new PageRequests(
      context,
      () => this.current,
      (message) => {
        this.host.post(message);
      },
    );
    this.host = this.register(
      new WebviewHost(panel, {
        extensionUri: context.extensionUri,
        log: context.log,
        page: 'details',
        logName: 'Event details',
        loading: vscode.l10n.t('Loading event…'),
        isPageMessage,
        content: () => this.showMessage(),
        request: (message) => requests.handle(message),
      }),
    );
    this.onDidDispose = this.host.onDidDispose;
    // Closed by the user, the host goes first; the panel follows.
    this.register(
      this.host.onDidDispose(() => {
        this.dispose();
      }),
    );
    this.load();
  }

  get event(): OnboardingEvent {
    return this.current;
  }

  /**
   * A page that is up re-renders in place with the title changed in the same turn; a fresh shell would
   * show the new title over the old page until it said "ready".
   */
  setEvent(event: OnboardingEvent): void {
    if (this.host.isReady) this.refresh(event);
    else {
      this.current = event;
      this.load();
    }
  }

  refresh(event: OnboardingEvent = this.current): void {
    this.current = event;
    this.panel.title = panelTitle(event);
    this.host.update();
  }

  private load(): void {
    this.panel.title = panelTitle(this.current);
    this.host.load();
  }

  private showMessage(): HostMessage {
    const event = buildEventView(this.current, {
      title: panelTitle(this.current),
      locale: vscode.env.language,
      nowMs: Date.now(),
      outOfRange: vscode.l10n.t('outside the range of dates'),
      ...definedOnly({ apiBaseUrl: apiBaseUrlOf(this.context.session) }),
    });
    return { type: 'show', event, state: stateFor(this.current), strings: pageStrings() };
  }
}

// The page cannot call vscode.l10n; it fills `{0}` itself, so translations can move them.
function pageStrings(): PageStrings {
  const t = vscode.l10n.t;
  return {
    eventHeading: t('Event'),
    type: t('Type'),
    message: t('Message'),
    serialNumber: t('Serial number'),
    assetId: t('Asset ID'),
    assetIdAbsent: t('None (not a machine-created event)'),
    time: t('Time'),
    timeLocal: t('Local'),
    timeUtc: t('UTC'),
    timeRelative: t('Relative'),
    timeRaw: t('Raw value'),
    unitSeconds: t('seconds since 1970'),
    unitMilliseconds: t('milliseconds since 1970'),
    unitDetected: t('unit detected from the magnitude'),
    unitFromSetting: t('unit from the onboardingEvents.timestampUnit setting'),
    linksHeading: t('Links ({0})'),
    noLinks: t('This event has no links.'),
    deprecated: t('Deprecated'),
    deprecatedBecause: t('This link is deprecated:'),
    openDeprecationInfo: t('Open deprecation info'),
    templated: t('Templated'),
    templateVariables: t('Template variables'),
    variablesHint: t('Empty variables are left out of the URL, as RFC 6570 does for undefined variables.'),
    expandedUrl: t('Expanded URL'),
    target: t('Target'),
    notSent: t('not sent'),
    open: t('Open in Browser'),
    openAria: t('Open in browser, link {0}'),
    fetch: t('Fetch Linked Resource'),
    fetchAria: t('Fetch linked resource, link {0}'),
    copyUrl: t('Copy URL'),
    copy: t('Copy'),
    copyAssetIdAria: t('Copy asset ID'),
    copySerialNumberAria: t('Copy serial number'),
    copyJson: t('Copy as JSON'),
    showRawJson: t('Show Raw JSON'),
    exportEvents: t('Export Events of This Machine…'),
    exportEventsAria: t('Export the events of machine {0}…'),
    otherFields: t('Other fields'),
    otherLinkFields: t('Other link fields'),
    blockedNoHref: t('This link has no href, so there is nothing to open.'),
    blockedMalformed: t('Not a valid URL: shown as text, never opened.'),
    blockedScheme: t('Only http and https links can be opened: shown as text, never opened.'),
    loading: t('Loading event…'),
    fetching: t('Fetching linked resource…'),
    actions: t('Actions'),
    linkFields: t('HAL link fields'),
  };
}
