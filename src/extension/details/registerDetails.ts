// Event details: the webview panels, the read-only JSON documents, the two
// commands and the serializer that brings panels back after a reload.
import * as vscode from 'vscode';
import type { EventsCache } from '../../core/eventsCache/eventsCache';
import type { ApiSession } from '../workbench/contracts/apiSession';
import type { DetailsApi } from '../workbench/contracts/features';
import { registerCommands } from '../workbench/commands';
import { WEBVIEWS } from '../workbench/constants';
import type { Log } from '../workbench/log';
import type { ArgumentTrust } from '../workbench/argumentTrust';
import type { SettingsReader } from '../workbench/settings';
import { DETAILS_COMMANDS } from './detailsCommands';
import type { PanelContext } from './detailsPanel';
import { DetailsPanels } from './detailsPanels';
import { ReadOnlyDocuments } from './jsonDocuments';

export interface DetailsDeps {
  readonly session: ApiSession;
  readonly events: EventsCache;
  readonly settings: SettingsReader;
  readonly log: Log;
  /** The one gate of outside callers (workbench/argumentTrust.ts). */
  readonly trust: Pick<ArgumentTrust, 'confirm'>;
}

export function registerDetails(context: vscode.ExtensionContext, deps: DetailsDeps): DetailsApi {
  const { session, events, settings, log } = deps;
  const documents = new ReadOnlyDocuments();
  const panelContext: PanelContext = { extensionUri: context.extensionUri, session, events: deps.events, log, documents };
  const panels = new DetailsPanels(panelContext, settings);
  /** The environment whose data the panels show (undefined before the first sign-in of this window). */
  let shownFor: string | undefined = session.state.kind === 'signed-out' ? undefined : session.state.environment.id;

  context.subscriptions.push(
    documents,
    panels,
    ...registerCommands(DETAILS_COMMANDS, { panels, documents, settings, log, events, trust: deps.trust }),
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

  return {
    show: (event) => {
      panels.show(event);
      return Promise.resolve();
    },
  };
}
