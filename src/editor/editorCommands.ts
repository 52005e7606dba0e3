// The editor feature's commands: the context-menu look-up of the serial number
// at the cursor, and the targets of the hover's command links (not in the
// palette). The hover's commands take `{ serialNumber }` and, for details, an
// event key: the event itself is looked up in the cache, so no server data
// travels through a URI. One table of named factories, registered in one loop.
import * as vscode from 'vscode';
import type { OnboardingEvent } from '../core/model';
import { errorMessage } from '../common/errors';
import { isRecord } from '../common/guards';
import { serialNumberArgument } from '../domain/serialNumbers/serialNumberInput';
import type { EventsCache } from '../eventsCache/eventsCache';
import type { CommandFactory, CommandTable } from '../workbench/commands';
import { COMMANDS } from '../workbench/constants';
import type { DetailsApi } from '../workbench/contracts/detailsApi';
import type { MachinesApi } from '../workbench/contracts/machinesApi';
import type { Log } from '../workbench/log';
import type { SerialSettings } from '../workbench/serialSettings';
import { serialAtCursor } from './serialAtCursor';
import { inertNotificationText } from '../common/notificationText';

export interface EditorCommandDeps {
  readonly events: EventsCache;
  readonly machines: MachinesApi;
  readonly details: DetailsApi;
  readonly serialSettings: SerialSettings;
  readonly log: Log;
}

/** Hands the serial number to the look-up through its command id (the look-up is another feature). */
const lookUpSerialAtCursor: CommandFactory<EditorCommandDeps> = (deps) => () => {
  const editor = vscode.window.activeTextEditor;
  const found = editor === undefined ? undefined : serialAtCursor(editor, deps.serialSettings);
  if (found === undefined) {
    void vscode.window.showInformationMessage(vscode.l10n.t('There is no serial number at the cursor.'));
    return Promise.resolve();
  }
  return vscode.commands.executeCommand(COMMANDS.lookUpMachine, { serialNumber: found.serialNumber });
};

const hoverShowDetails: CommandFactory<EditorCommandDeps> = (deps) => async (arg) => {
  const serialNumber = serialNumberArgument(arg);
  if (serialNumber === undefined) return;
  const key = isRecord(arg) ? arg['key'] : undefined;
  const event = await eventByKey(deps.events, serialNumber, typeof key === 'string' ? key : undefined);
  if (event === undefined) {
    void vscode.window.showInformationMessage(
      inertNotificationText(vscode.l10n.t('The events of {0} are no longer loaded. Hover again to load them.', serialNumber)),
    );
    return;
  }
  await deps.details.show(event);
};

/** Reveals in the sidebar; a failure is logged and shown (as the look-up's reveal does), not thrown at the hover. */
const hoverReveal: CommandFactory<EditorCommandDeps> = (deps) => async (arg) => {
  const serialNumber = serialNumberArgument(arg);
  if (serialNumber === undefined) return;
  try {
    await deps.machines.reveal(serialNumber);
  } catch (error) {
    deps.log.error(`Reveal ${serialNumber}`, error);
    void vscode.window.showErrorMessage(
      inertNotificationText(vscode.l10n.t('Could not show {0} in the sidebar: {1}', serialNumber, errorMessage(error))),
    );
  }
};

const hoverPin: CommandFactory<EditorCommandDeps> = (deps) => async (arg) => {
  const serialNumber = serialNumberArgument(arg);
  if (serialNumber === undefined) return;
  await deps.machines.pin(serialNumber);
  vscode.window.setStatusBarMessage(inertNotificationText(vscode.l10n.t('Pinned {0}.', serialNumber)), 3000);
};

const hoverCopy: CommandFactory<EditorCommandDeps> = () => async (arg) => {
  const serialNumber = serialNumberArgument(arg);
  if (serialNumber === undefined) return;
  await vscode.env.clipboard.writeText(serialNumber);
  vscode.window.setStatusBarMessage(inertNotificationText(vscode.l10n.t('Copied {0}.', serialNumber)), 3000);
};

export const EDITOR_COMMANDS: CommandTable<EditorCommandDeps> = {
  [COMMANDS.lookUpSerialAtCursor]: lookUpSerialAtCursor,
  [COMMANDS.hoverShowDetails]: hoverShowDetails,
  [COMMANDS.hoverReveal]: hoverReveal,
  [COMMANDS.hoverPin]: hoverPin,
  [COMMANDS.hoverCopy]: hoverCopy,
};

/** The event with `key` (the latest when no key): from the cache, or one request when the cache was cleared meanwhile. */
async function eventByKey(events: EventsCache, serialNumber: string, key: string | undefined): Promise<OnboardingEvent | undefined> {
  const known = events.peek(serialNumber)?.result.events;
  const find = (list: readonly OnboardingEvent[] | undefined): OnboardingEvent | undefined =>
    key === undefined ? list?.[0] : list?.find((e) => e.key === key);
  const hit = find(known);
  if (hit !== undefined) return hit;
  try {
    return find((await events.get(serialNumber)).events);
  } catch {
    return undefined;
  }
}
