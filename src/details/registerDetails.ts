// Event details: the webview panels, the read-only JSON documents, the two
// commands, the serializer that brings panels back after a reload, and (only
// under test) the hook integration tests observe.
import * as vscode from 'vscode';
import type { OnboardingEvent } from '../core/model';
import { inertNotificationText } from '../common/notificationText';
import type { Log } from '../workbench/log';
import type { ApiSession } from '../workbench/contracts/apiSession';
import type { DetailsApi, DetailsTestHook, LinkOpener, RenderedReport } from '../workbench/contracts/detailsApi';
import { DETAILS_VIEW_TYPE, type PanelContext } from './detailsPanel';
import { DetailsPanels, timestampUnitSetting } from './detailsPanels';
import { eventFromArgument } from './eventArgument';
import { ReadOnlyDocuments } from './jsonDocuments';
import { defaultLinkOpener } from './linkOpener';
import type { HostMessage } from './protocol';

export function registerDetails(context: vscode.ExtensionContext, deps: { session: ApiSession; log: Log }): DetailsApi {
  const { session, log } = deps;
  const documents = new ReadOnlyDocuments();
  const testing = context.extensionMode === vscode.ExtensionMode.Test;
  const observed = new Observations();
  let opener: LinkOpener = defaultLinkOpener();

  const panelContext: PanelContext = {
    extensionUri: context.extensionUri,
    session,
    log,
    documents,
    opener: () => opener,
    // Observations are recorded only under test; in normal use these do nothing.
    didSetHtml: (html) => {
      if (testing) observed.lastHtml = html;
    },
    didPost: (message) => {
      if (testing) observed.lastPosted = message;
    },
    didRender: (report) => {
      if (testing) observed.rendered(report);
    },
    didOpen: () => {
      if (testing) observed.openCalls++;
    },
    didRefuse: () => {
      if (testing) observed.refusedLinks++;
    },
    didNotify: (message) => {
      if (testing) observed.notifications.push(message);
    },
  };
  const panels = new DetailsPanels(panelContext);
  /** The environment whose data the panels show (undefined before the first sign-in of this window). */
  let shownFor: string | undefined = session.state.kind === 'signed-out' ? undefined : session.state.environment.id;

  /** Commands can be run by anything, so the argument is validated again from its raw JSON. */
  const eventFrom = (argument: unknown): OnboardingEvent | undefined => {
    if (argument === undefined) return panels.current?.event;
    const result = eventFromArgument(argument, timestampUnitSetting(), vscode.l10n.t);
    if (result.ok) return result.event;
    log.warn(`Event details: cannot show this event: ${result.reason}.`);
    // The reason may quote a relation name from the (tampered) argument: keep it from forming a command link.
    void vscode.window.showErrorMessage(vscode.l10n.t('Cannot show the event: {0}.', inertNotificationText(result.reason)));
    return undefined;
  };

  const showRawJson = async (event: OnboardingEvent): Promise<void> => {
    const name = `${event.type}-${event.time.raw}`;
    await documents.show(['event', event.serialNumber, name], JSON.stringify(event.raw, null, 2));
  };

  context.subscriptions.push(
    documents,
    panels,
    vscode.commands.registerCommand('onboardingEvents.showEventDetails', (argument: unknown) => {
      const event = eventFrom(argument);
      if (event) panels.show(event);
    }),
    vscode.commands.registerCommand('onboardingEvents.showRawJson', async (argument: unknown) => {
      const event = eventFrom(argument);
      if (event) await showRawJson(event);
    }),
    vscode.window.registerWebviewPanelSerializer(DETAILS_VIEW_TYPE, {
      deserializeWebviewPanel: (panel: vscode.WebviewPanel, state: unknown) => {
        panels.revive(panel, state);
        return Promise.resolve();
      },
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('onboardingEvents.timestampUnit')) panels.refreshAll();
    }),
    // Panels show one API's data for one user: signing out or switching to another
    // environment closes them. Otherwise relative links resolve against the signed-in
    // API, so the panels re-render with it.
    session.onDidChangeState((state) => {
      const now = state.kind === 'signed-out' ? undefined : state.environment.id;
      if (shownFor !== undefined && now !== shownFor) panels.closeAll();
      else panels.refreshAll();
      shownFor = now;
    }),
  );

  const testHook: DetailsTestHook | undefined = testing
      ? {
          get lastHtml() {
            return observed.lastHtml;
          },
          get lastPosted() {
            return observed.lastPosted;
          },
          get lastRendered() {
            return observed.lastRendered;
          },
          get openCalls() {
            return observed.openCalls;
          },
          get refusedLinks() {
            return observed.refusedLinks;
          },
          notifications: () => [...observed.notifications],
          waitForRendered: (predicate, timeoutMs) => observed.waitForRendered(predicate, timeoutMs),
          panelTitles: () => panels.all.map((p) => p.panel.title),
          simulatePageMessage: async (message) => {
            const target = panels.current;
            if (!target) throw new Error('no details panel is open');
            await target.receive(message);
          },
          useLinkOpener: (replacement) => {
            const previous = opener;
            opener = replacement;
            return { dispose: () => (opener = previous) };
          },
        }
      : undefined;

  return {
    show: (event) => {
      panels.show(event);
      return Promise.resolve();
    },
    testHook,
  };
}

/** What tests read back: only what the page was given and did, never credentials. */
class Observations {
  lastHtml: string | undefined;
  lastPosted: HostMessage | undefined;
  lastRendered: RenderedReport | undefined;
  openCalls = 0;
  refusedLinks = 0;
  readonly notifications: string[] = [];
  private readonly waiters = new Set<(report: RenderedReport) => void>();

  rendered(report: RenderedReport): void {
    this.lastRendered = report;
    for (const waiter of [...this.waiters]) waiter(report);
  }

  waitForRendered(predicate: (report: RenderedReport) => boolean, timeoutMs = 10_000): Promise<RenderedReport> {
    if (this.lastRendered && predicate(this.lastRendered)) return Promise.resolve(this.lastRendered);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error(`the details page did not render as expected within ${timeoutMs} ms`));
      }, timeoutMs);
      const waiter = (report: RenderedReport): void => {
        if (!predicate(report)) return;
        clearTimeout(timer);
        this.waiters.delete(waiter);
        resolve(report);
      };
      this.waiters.add(waiter);
    });
  }
}
