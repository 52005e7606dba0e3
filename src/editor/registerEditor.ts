// Serial numbers in code: hovers, Ctrl/Cmd-click links, the look-up quick pick
// and the editor context-menu entry. Only registration here; each concern
// lives in its own file.
import * as vscode from 'vscode';
import type { OnboardingEvent } from '../core/model';
import type { DetailsApi } from '../workbench/contracts/detailsApi';
import type { EventsService } from '../eventsCache/eventsService';
import type { Log } from '../workbench/log';
import type { MachinesApi } from '../workbench/contracts/machinesApi';
import type { ApiSession } from '../workbench/contracts/apiSession';
import { HOVER_COMMANDS } from './hoverMarkdown';
import { MachineLookUp, serialNumberArgument } from '../lookUp/machineLookUp';
import { SerialAtCursorContext, serialAtCursor } from './serialAtCursor';
import { SerialHoverProvider, type HoverTiming } from './serialHoverProvider';
import { SerialLinkProvider } from './serialLinkProvider';
import { selectorFor, SerialSettings, type SerialSettingsSnapshot } from '../workbench/serialSettings';

export interface SerialNumbersDeps {
  readonly session: ApiSession;
  readonly events: EventsService;
  readonly machines: MachinesApi;
  readonly details: DetailsApi;
  readonly log: Log;
}

/** What integration tests may see of the serial-number features (no data, no credentials). */
export interface SerialNumbersInspector {
  /** How the last hover over a serial number was answered, and how long our provider took in the extension host. */
  lastHover(): HoverTiming | undefined;
}

export function registerSerialNumbers(context: vscode.ExtensionContext, deps: SerialNumbersDeps): SerialNumbersInspector {
  const settings = new SerialSettings(deps.log);
  const hoverProvider = new SerialHoverProvider({ session: deps.session, events: deps.events, settings, log: deps.log });
  const linkProvider = new SerialLinkProvider(settings);
  const lookUp = new MachineLookUp({ ...deps, settings });

  // Providers follow the languages and on/off settings: re-registered on change.
  let providers: vscode.Disposable | undefined;
  const registerProviders = (value: SerialSettingsSnapshot): void => {
    providers?.dispose();
    const selector = selectorFor(value.languages);
    const registrations: vscode.Disposable[] = [];
    if (value.hoverEnabled) registrations.push(vscode.languages.registerHoverProvider(selector, hoverProvider));
    if (value.linksEnabled) registrations.push(vscode.languages.registerDocumentLinkProvider(selector, linkProvider));
    providers = vscode.Disposable.from(...registrations);
  };
  registerProviders(settings.value);

  context.subscriptions.push(
    settings,
    settings.onDidChange(registerProviders),
    {
      dispose: () => {
        providers?.dispose();
      },
    },
    lookUp,
    new SerialAtCursorContext(settings),
    vscode.commands.registerCommand('onboardingEvents.lookUpMachine', (arg?: unknown) => lookUp.run(arg)),
    vscode.commands.registerCommand('onboardingEvents.lookUpSerialAtCursor', () => {
      const editor = vscode.window.activeTextEditor;
      const found = editor === undefined ? undefined : serialAtCursor(editor, settings);
      if (found === undefined) {
        void vscode.window.showInformationMessage(vscode.l10n.t('There is no serial number at the cursor.'));
        return Promise.resolve();
      }
      return lookUp.run({ serialNumber: found.serialNumber });
    }),
    vscode.commands.registerCommand('onboardingEvents.clearLookupHistory', () => {
      lookUp.clearHistory();
    }),
    // Targets of the hover's command links (not in the palette). They take
    // `{ serialNumber }` and, for details, an event key: the event itself is
    // looked up in the cache, so no server data travels through a URI.
    vscode.commands.registerCommand(HOVER_COMMANDS.showDetails, async (arg?: unknown) => {
      const serialNumber = serialNumberArgument(arg);
      if (serialNumber === undefined) return;
      const key = typeof arg === 'object' && arg !== null && 'key' in arg ? arg.key : undefined;
      const event = await eventByKey(deps.events, serialNumber, typeof key === 'string' ? key : undefined);
      if (event === undefined) {
        void vscode.window.showInformationMessage(vscode.l10n.t('The events of {0} are no longer loaded. Hover again to load them.', serialNumber));
        return;
      }
      await deps.details.show(event);
    }),
    vscode.commands.registerCommand(HOVER_COMMANDS.reveal, (arg?: unknown) => {
      const serialNumber = serialNumberArgument(arg);
      return serialNumber === undefined ? undefined : lookUp.reveal(serialNumber);
    }),
    vscode.commands.registerCommand(HOVER_COMMANDS.pin, async (arg?: unknown) => {
      const serialNumber = serialNumberArgument(arg);
      if (serialNumber === undefined) return;
      await deps.machines.pin(serialNumber);
      vscode.window.setStatusBarMessage(vscode.l10n.t('Pinned {0}.', serialNumber), 3000);
    }),
    vscode.commands.registerCommand(HOVER_COMMANDS.copy, async (arg?: unknown) => {
      const serialNumber = serialNumberArgument(arg);
      if (serialNumber === undefined) return;
      await vscode.env.clipboard.writeText(serialNumber);
      vscode.window.setStatusBarMessage(vscode.l10n.t('Copied {0}.', serialNumber), 3000);
    }),
  );
  return { lastHover: () => hoverProvider.lastTiming };
}

/** The event with `key` (the latest when no key): from the cache, or one request when the cache was cleared meanwhile. */
async function eventByKey(events: EventsService, serialNumber: string, key: string | undefined): Promise<OnboardingEvent | undefined> {
  const known = events.peek(serialNumber)?.result.events;
  const find = (list: readonly OnboardingEvent[] | undefined): OnboardingEvent | undefined => (key === undefined ? list?.[0] : list?.find((e) => e.key === key));
  const hit = find(known);
  if (hit !== undefined) return hit;
  try {
    return find((await events.get(serialNumber)).events);
  } catch {
    return undefined;
  }
}
