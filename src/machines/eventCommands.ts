// The Machines view's commands about the events shown: filter them, copy an
// event's fields, export a machine's events to JSON or CSV. Each is a named
// factory `(deps) => handler`; the table is registered with the machine
// commands (machineCommands.ts) in registerMachines.ts.
import * as vscode from 'vscode';
import { errorMessage } from '../common/errors';
import { isRecord } from '../common/guards';
import { updateFilter, type EventFilter } from '../domain/events/eventFilter';
import { defaultExportName, eventsToCsv, eventsToJson, formatOf, type ExportFormat } from '../domain/events/exportEvents';
import type { CommandHandler, CommandTable } from '../workbench/commands';
import { COMMANDS } from '../workbench/constants';
import { copy, requireEvent, requireSerial, type MachineCommandDeps } from './commandSupport';
import { describeFilter } from './filterDescription';
import { CLEAR_FILTER, parseSince, pickFilter, type FilterArgument } from './filterPicker';
import { inertNotificationText } from '../common/notificationText';

/** Changes the filter by the argument (a FilterArgument), or as picked when there is none. */
async function applyFilter(deps: MachineCommandDeps, argument: unknown): Promise<EventFilter | undefined> {
  const { model, log } = deps;
  // A tree element (it has a `kind`) is what a menu passes: it says nothing about the filter.
  const change = isRecord(argument) && !('kind' in argument) ? (argument as FilterArgument) : await pickFilter(model);
  if (!change) return undefined;
  let sinceMs: number | null | undefined;
  try {
    sinceMs = parseSince(change.since);
  } catch (error) {
    void vscode.window.showErrorMessage(inertNotificationText(errorMessage(error)));
    return undefined;
  }
  const before = model.filter;
  const next = updateFilter(before, {
    ...(change.types !== undefined ? { types: change.types } : {}),
    ...(change.text !== undefined ? { text: change.text } : {}),
    ...(sinceMs !== undefined ? { sinceMs } : {}),
  });
  model.setFilter(next);
  deps.view.provider.flush();
  log.info(model.filtered ? describeFilter(next) : 'Filter cleared.');
  // A new time window is asked of the API (spec §4.1 `timestamp`) for every listed machine.
  if (next.sinceMs !== undefined && next.sinceMs !== before.sinceMs && deps.session.state.kind === 'signed-in') await deps.refresh();
  return next;
}

function filterEvents(deps: MachineCommandDeps): CommandHandler {
  return (argument) => applyFilter(deps, argument);
}

function clearFilter(deps: MachineCommandDeps): CommandHandler {
  return () => applyFilter(deps, CLEAR_FILTER);
}

function copyAssetId(deps: MachineCommandDeps): CommandHandler {
  return (argument) => {
    const event = requireEvent(deps, argument);
    if (event?.assetId === undefined) return undefined;
    return copy(event.assetId, vscode.l10n.t('asset ID {0}', event.assetId));
  };
}

function copyMessage(deps: MachineCommandDeps): CommandHandler {
  return (argument) => {
    const event = requireEvent(deps, argument);
    return event === undefined ? undefined : copy(event.message, vscode.l10n.t('the event message'));
  };
}

function copyEventJson(deps: MachineCommandDeps): CommandHandler {
  return (argument) => {
    const event = requireEvent(deps, argument);
    // The event exactly as the server sent it.
    return event === undefined ? undefined : copy(JSON.stringify(event.raw, null, 2), vscode.l10n.t('the event as JSON'));
  };
}

/** Writes the machine's events (the filtered ones while a filter is on) where the argument or a save dialog says. */
async function writeExport(deps: MachineCommandDeps, argument: unknown): Promise<string | undefined> {
  const { model, log } = deps;
  const serial = requireSerial(deps, argument);
  if (serial === undefined) return undefined;
  if (!model.summary(serial).loaded) await model.load(serial, false);
  const view = model.view(serial);
  if (view.total === 0) {
    void vscode.window.showInformationMessage(inertNotificationText(vscode.l10n.t('{0} has no onboarding events to export.', serial)));
    return undefined;
  }
  const events = model.filtered ? view.events : view.all;
  const options = isRecord(argument) ? argument : {};
  const given: vscode.Uri | undefined =
    options['uri'] instanceof vscode.Uri
      ? options['uri']
      : typeof options['uri'] === 'string'
        ? vscode.Uri.file(options['uri'])
        : undefined;
  // A uri from an argument (another extension, a command link) only prefills the save dialog, except under our own tests.
  let target = deps.trust.silent ? given : undefined;
  if (!target) {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const name = defaultExportName(serial, 'json');
    target = await vscode.window.showSaveDialog({
      title: vscode.l10n.t('Export the Onboarding Events of {0}', serial),
      saveLabel: vscode.l10n.t('Export'),
      ...(given ? { defaultUri: given } : folder ? { defaultUri: vscode.Uri.joinPath(folder, name) } : {}),
      filters: { [vscode.l10n.t('JSON')]: ['json'], [vscode.l10n.t('CSV (spreadsheets)')]: ['csv'] },
    });
    if (!target) return undefined;
  }
  const format: ExportFormat = options['format'] === 'csv' || options['format'] === 'json' ? options['format'] : formatOf(target.path);
  const entry = model.summary(serial);
  const content =
    format === 'csv'
      ? eventsToCsv(serial, events)
      : eventsToJson(serial, events, {
          exportedAt: Date.now(),
          fetchedAt: entry.fetchedAt,
          ...(model.filtered ? { filter: describeFilter(model.filter) } : {}),
        });
  await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(content));
  log.info(`Exported ${events.length} events of ${serial} as ${format.toUpperCase()} to ${target.toString(true)}.`);
  const open = vscode.l10n.t('Open');
  const written = target;
  void vscode.window
    .showInformationMessage(
      inertNotificationText(
        model.filtered
          ? vscode.l10n.t('Exported {0} events of {1} (filtered) to {2}.', events.length, serial, vscode.workspace.asRelativePath(written))
          : vscode.l10n.t('Exported {0} events of {1} to {2}.', events.length, serial, vscode.workspace.asRelativePath(written)),
      ),
      open,
    )
    .then((answer) => (answer === open ? vscode.commands.executeCommand('vscode.open', written) : undefined));
  return target.toString();
}

function exportEvents(deps: MachineCommandDeps): CommandHandler {
  return async (argument) => {
    try {
      return await writeExport(deps, argument);
    } catch (error) {
      deps.log.error('Export failed', error);
      void vscode.window.showErrorMessage(
        inertNotificationText(vscode.l10n.t('The events could not be exported: {0}', errorMessage(error))),
      );
      return undefined;
    }
  };
}

export const EVENT_COMMANDS: CommandTable<MachineCommandDeps> = {
  [COMMANDS.filterEvents]: filterEvents,
  [COMMANDS.clearFilter]: clearFilter,
  [COMMANDS.copyAssetId]: copyAssetId,
  [COMMANDS.copyMessage]: copyMessage,
  [COMMANDS.copyEventJson]: copyEventJson,
  [COMMANDS.exportEvents]: exportEvents,
};
