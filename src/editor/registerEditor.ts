// Serial numbers in code: hovers, Ctrl/Cmd-click links, and the editor
// context-menu entry (which hands over to the look-up by command id). Only
// registration here; each concern lives in its own file.
import type * as vscode from 'vscode';
import { registerCommands } from '../workbench/commands';
import { EDITOR_COMMANDS } from './editorCommands';
import { SerialAtCursorContext } from './serialAtCursor';
import { SerialHoverProvider, type HoverTiming } from './serialHoverProvider';
import { SerialLinkProvider } from './serialLinkProvider';
import { SerialProviders } from './serialProviders';
import type { SerialFeatureDeps } from '../workbench/contracts/serialFeatureDeps';

export type EditorDeps = SerialFeatureDeps;

/** What integration tests may see of the editor features (no data, no credentials). */
export interface EditorInspector {
  /** How the last hover over a serial number was answered, and how long our provider took in the extension host. */
  lastHover(): HoverTiming | undefined;
}

export function registerEditor(context: vscode.ExtensionContext, deps: EditorDeps): EditorInspector {
  const { serialSettings } = deps;
  const hoverProvider = new SerialHoverProvider({ session: deps.session, events: deps.events, settings: serialSettings, log: deps.log });
  context.subscriptions.push(
    new SerialProviders(serialSettings, hoverProvider, new SerialLinkProvider(serialSettings)),
    new SerialAtCursorContext(serialSettings),
    ...registerCommands(EDITOR_COMMANDS, deps),
  );
  return { lastHover: () => hoverProvider.lastTiming };
}
