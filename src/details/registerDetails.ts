// Event details: the webview panels, the read-only JSON documents, the two
// commands, the serializer that brings panels back after a reload, and (only
// under test) the hook integration tests observe.
import * as vscode from 'vscode';
import type { EventsCache } from '../eventsCache/eventsCache';
import type { ApiSession } from '../workbench/contracts/apiSession';
import type { DetailsApi } from '../workbench/contracts/detailsApi';
import { registerCommands } from '../workbench/commands';
import { WEBVIEWS } from '../workbench/constants';
import type { Log } from '../workbench/log';
import type { SettingsReader } from '../workbench/settings';
import { DETAILS_COMMANDS } from './detailsCommands';
import type { PanelContext } from './detailsPanel';
import { DetailsPanels } from './detailsPanels';
import { ReadOnlyDocuments } from './jsonDocuments';
import { LinkOpenerSlot } from './linkOpener';
import { DetailsObservations, detailsTestHook, NO_OBSERVER, type DetailsTestHook } from './testHook';

export interface DetailsDeps {
  readonly session: ApiSession;
  readonly events: EventsCache;
  readonly settings: SettingsReader;
  readonly log: Log;
  /** The extension runs its own tests: keep observations for the test hook. */
  readonly testMode: boolean;
}

export interface DetailsFeature {
  readonly api: DetailsApi;
  /** Present only in test mode. */
  readonly testHook: DetailsTestHook | undefined;
}

export function registerDetails(context: vscode.ExtensionContext, deps: DetailsDeps): DetailsFeature {
  const { session, settings, log } = deps;
  const documents = new ReadOnlyDocuments();
  const observed = deps.testMode ? new DetailsObservations() : undefined;
  const links = new LinkOpenerSlot();
  const panelContext: PanelContext = {
    extensionUri: context.extensionUri,
    session,
    events: deps.events,
    log,
    documents,
    links,
    observer: observed ?? NO_OBSERVER,
  };
  const panels = new DetailsPanels(panelContext, settings);
  /** The environment whose data the panels show (undefined before the first sign-in of this window). */
  let shownFor: string | undefined = session.state.kind === 'signed-out' ? undefined : session.state.environment.id;

  context.subscriptions.push(
    documents,
    panels,
    ...registerCommands(DETAILS_COMMANDS, { panels, documents, settings, log }),
    vscode.window.registerWebviewPanelSerializer(WEBVIEWS.details, {
      deserializeWebviewPanel: (panel: vscode.WebviewPanel, state: unknown) => {
        panels.revive(panel, state);
        return Promise.resolve();
      },
    }),
    settings.onDidChange((change) => {
      if (change.affects('timestampUnit')) panels.refreshAll();
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

  const testHook =
    observed &&
    detailsTestHook(observed, {
      titles: () => panels.all.map((p) => p.panel.title),
      receive: async (message) => {
        const target = panels.current;
        if (!target) throw new Error('no details panel is open');
        await target.receive(message);
      },
      useLinkOpener: (opener) => links.use(opener),
    });

  return {
    api: {
      show: (event) => {
        panels.show(event);
        return Promise.resolve();
      },
    },
    testHook,
  };
}
