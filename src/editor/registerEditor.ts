// Serial numbers in code: hovers, Ctrl/Cmd-click links, and the editor
// context-menu entry (which hands over to the look-up by command id). Only
// registration here; each concern lives in its own file.
import * as vscode from 'vscode';
import { registerCommands } from '../workbench/commands';
import { EDITOR_COMMANDS } from './editorCommands';
import { SerialAtCursorContext } from './serialAtCursor';
import { SerialHoverProvider } from './serialHoverProvider';
import { SerialLinkProvider } from './serialLinkProvider';
import { SerialProviders } from './serialProviders';
import type { SerialFeatureDeps } from '../workbench/contracts/serialFeatureDeps';
import type { SettingsReader } from '../workbench/settings';
import { GlanceStates } from './glanceStates';
import { InlineStatus } from './inlineStatus';
import { SerialCodeActions } from './serialCodeActions';
import { SerialCompletion } from './serialCompletion';
import { SerialDiagnostics } from './serialDiagnostics';

export type EditorDeps = SerialFeatureDeps & { readonly settings: SettingsReader };

/** What the editor features are made of: the hover provider and the at-a-glance views (inline status, Problems) over one GlanceStates. */
export interface Editor {
  readonly hover: SerialHoverProvider;
  readonly inline: InlineStatus;
  readonly diagnostics: SerialDiagnostics;
  readonly states: GlanceStates;
}

export function registerEditor(context: vscode.ExtensionContext, deps: EditorDeps): Editor {
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
  return { hover: hoverProvider, inline, diagnostics, states };
}
