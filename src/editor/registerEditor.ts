// Serial numbers in code: hovers, Ctrl/Cmd-click links, and the editor
// context-menu entry (which hands over to the look-up by command id). Only
// registration here; each concern lives in its own file.
import * as vscode from 'vscode';
import { registerCommands } from '../workbench/commands';
import { EDITOR_COMMANDS } from './editorCommands';
import { SerialAtCursorContext } from './serialAtCursor';
import { SerialHoverProvider, type HoverTiming } from './serialHoverProvider';
import { SerialLinkProvider } from './serialLinkProvider';
import { SerialProviders } from './serialProviders';
import type { SerialFeatureDeps } from '../workbench/contracts/serialFeatureDeps';
import type { SettingsReader } from '../workbench/settings';
import { GlanceStates } from './glanceStates';
import { InlineStatus, type InlineStatusTiming, type RenderedStatus } from './inlineStatus';
import { SerialCodeActions } from './serialCodeActions';
import { SerialCompletion } from './serialCompletion';
import { SerialDiagnostics, type DiagnosticsTiming } from './serialDiagnostics';

export type EditorDeps = SerialFeatureDeps & { readonly settings: SettingsReader };

/** What integration tests may see of the editor features (no data, no credentials). */
export interface EditorInspector {
  /** How the last hover over a serial number was answered, and how long our provider took in the extension host. */
  lastHover(): HoverTiming | undefined;
  /** The inline statuses the editors of `uri` show, and how long the last update took. */
  inlineStatuses(uri: vscode.Uri): readonly RenderedStatus[];
  inlineTiming(): InlineStatusTiming;
  diagnosticsTiming(): DiagnosticsTiming;
  /** Requests the inline status (visible serial numbers) has sent so far. */
  glanceRequests(): number;
}

export function registerEditor(context: vscode.ExtensionContext, deps: EditorDeps): EditorInspector {
  const { serialSettings } = deps;
  const linkProvider = new SerialLinkProvider(serialSettings);
  const hoverProvider = new SerialHoverProvider({
    session: deps.session,
    events: deps.events,
    settings: serialSettings,
    eventStates: () => deps.settings.value.eventStates,
    log: deps.log,
  });
  context.subscriptions.push(
    new SerialProviders(serialSettings, (selector, value) => {
      return [
        ...(value.hoverEnabled ? [vscode.languages.registerHoverProvider(selector, hoverProvider)] : []),
        ...(value.linksEnabled ? [vscode.languages.registerDocumentLinkProvider(selector, linkProvider)] : []),
      ];
    }),
    new SerialAtCursorContext(serialSettings),
    ...registerCommands(EDITOR_COMMANDS, deps),
  );
  // At a glance: inline status, Problems panel, quick fixes, completion (all read one GlanceStates).
  const states = new GlanceStates({ session: deps.session, events: deps.events, settings: deps.settings, log: deps.log });
  const inline = new InlineStatus(states, serialSettings, deps.settings);
  const diagnostics = new SerialDiagnostics(states, serialSettings, deps.settings);
  const codeActions = new SerialCodeActions(serialSettings, states);
  const completion = new SerialCompletion(deps.machines, states, serialSettings);
  context.subscriptions.push(
    states,
    inline,
    diagnostics,
    new SerialProviders(serialSettings, (selector) => [
      vscode.languages.registerCodeActionsProvider(selector, codeActions, SerialCodeActions.metadata),
      vscode.languages.registerCompletionItemProvider(selector, completion),
    ]),
  );
  return {
    lastHover: () => hoverProvider.lastTiming,
    inlineStatuses: (uri) => inline.statuses(uri),
    inlineTiming: () => inline.lastTiming,
    diagnosticsTiming: () => diagnostics.lastTiming,
    glanceRequests: () => states.requestsSent,
  };
}
