// Serial numbers in code: hovers, Ctrl/Cmd-click links, and the editor
// context-menu entry (which hands over to the look-up by command id). Only
// registration here; each concern lives in its own file.
import type * as vscode from 'vscode';
import type { EventsService } from '../eventsCache/eventsService';
import { registerCommands } from '../workbench/commands';
import type { ApiSession } from '../workbench/contracts/apiSession';
import type { DetailsApi } from '../workbench/contracts/detailsApi';
import type { MachinesApi } from '../workbench/contracts/machinesApi';
import type { Log } from '../workbench/log';
import type { SerialSettings } from '../workbench/serialSettings';
import { EDITOR_COMMANDS } from './editorCommands';
import { SerialAtCursorContext } from './serialAtCursor';
import { SerialHoverProvider, type HoverTiming } from './serialHoverProvider';
import { SerialLinkProvider } from './serialLinkProvider';
import { SerialProviders } from './serialProviders';

export interface EditorDeps {
  readonly session: ApiSession;
  readonly events: EventsService;
  readonly machines: MachinesApi;
  readonly details: DetailsApi;
  /** The one serial-number matcher (extension.ts builds it; the tree and the look-up share it). */
  readonly serialSettings: SerialSettings;
  readonly log: Log;
}

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
