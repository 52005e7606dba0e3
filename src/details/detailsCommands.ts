// The details feature's commands: one table of named factories, registered in
// one loop by registerDetails. Commands can be run by anything (a tree node, a
// hover's command link, another extension, the palette), so the event is
// validated again from its raw JSON before anything shows.
import * as vscode from 'vscode';
import type { OnboardingEvent } from '../core/model';
import { inertNotificationText } from '../common/notificationText';
import type { CommandFactory, CommandTable } from '../workbench/commands';
import { COMMANDS } from '../workbench/constants';
import type { Log } from '../workbench/log';
import type { SettingsReader } from '../workbench/settings';
import type { DetailsPanels } from './detailsPanels';
import { eventFromArgument } from './eventArgument';
import type { ReadOnlyDocuments } from './jsonDocuments';

export interface DetailsCommandDeps {
  readonly panels: DetailsPanels;
  readonly documents: ReadOnlyDocuments;
  readonly settings: SettingsReader;
  readonly log: Log;
}

/** The event a command was given, or (without argument) the current panel's; undefined after telling the user why not. */
function eventFrom(deps: DetailsCommandDeps, argument: unknown): OnboardingEvent | undefined {
  if (argument === undefined) return deps.panels.current?.event;
  const result = eventFromArgument(argument, deps.settings.value.timestampUnit, vscode.l10n.t);
  if (result.ok) return result.event;
  deps.log.warn(`Event details: cannot show this event: ${result.reason}.`);
  // The reason may quote a relation name from the (tampered) argument: keep it from forming a command link.
  void vscode.window.showErrorMessage(
    inertNotificationText(vscode.l10n.t('Cannot show the event: {0}.', inertNotificationText(result.reason))),
  );
  return undefined;
}

const showEventDetails: CommandFactory<DetailsCommandDeps> = (deps) => (argument) => {
  const event = eventFrom(deps, argument);
  if (event) deps.panels.show(event);
};

const showRawJson: CommandFactory<DetailsCommandDeps> = (deps) => async (argument) => {
  const event = eventFrom(deps, argument);
  if (!event) return;
  const name = `${event.type}-${event.time.raw}`;
  await deps.documents.show(['event', event.serialNumber, name], JSON.stringify(event.raw, null, 2));
};

export const DETAILS_COMMANDS: CommandTable<DetailsCommandDeps> = {
  [COMMANDS.showEventDetails]: showEventDetails,
  [COMMANDS.showRawJson]: showRawJson,
};
