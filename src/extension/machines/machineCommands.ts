// The Machines view's commands, one table after rust-analyzer's commands.ts:
// which machines it lists and loads (refresh, add, pin, remove, reveal, load
// more, scan the workspace, copy the serial number) and the events it shows
// (filter, copy an event's fields, export to JSON or CSV). Each is a named
// factory `(deps) => handler`; registerMachines registers the table in one
// loop. Each command accepts what its menu passes (a tree element) and, for
// tests, other features and the hover's links, a plain argument (a serial
// number, `{ serialNumber }`, an event), so none of them needs a dialog when
// told what to do; without one they act on the view's selection. Reveal, Pin
// and Copy are also the actions of the serial-number hover and quick fixes.
import * as vscode from 'vscode';
import { definedOnly } from '../../core/common/definedOnly';
import { errorMessage } from '../../core/common/errors';
import { extensionErrorText } from '../workbench/remedies';
import { isRecord } from '../../core/common/guards';
import { inertNotificationText } from '../../core/common/notificationText';
import type { OnboardingEvent } from '../../core/client/model';
import { normalizeSerialNumber } from '../../core/client/serialNumber';
import { parseSince, updateFilter, type EventFilter } from '../../core/domain/events/eventFilter';
import { defaultExportName, eventsToCsv, eventsToJson, formatOf, type ExportFormat } from '../../core/domain/events/exportEvents';
import type { SerialMatcher } from '../../core/domain/serialNumbers/serialMatcher';
import { checkSerialNumber, serialNumberArgument } from '../../core/domain/serialNumbers/serialNumberInput';
import { plainArgument, type ArgumentTrust } from '../workbench/argumentTrust';
import type { CommandHandler, CommandTable } from '../workbench/commands';
import { COMMANDS } from '../workbench/constants';
import type { ApiSession } from '../workbench/contracts/apiSession';
import type { Log } from '../workbench/log';
import { writeSavedFile } from '../workbench/workspaceFiles';
import { NamedFileError } from '../../core/common/namedFiles';
import { CLEAR_FILTER, pickFilter, type FilterArgument } from './filterPicker';
import type { MachineLists } from './machineLists';
import type { MachinesModel } from './machinesModel';
import { describeFilter, type MachinesView } from './machinesView';
import { clipboardText } from '../../core/common/serverText';

/** What a refresh of listed machines came to. */
export interface RefreshCount {
  readonly done: number;
  /** Machines of the refresh whose last load failed. */
  readonly failed: number;
}

export interface MachineCommandDeps {
  readonly model: MachinesModel;
  readonly lists: MachineLists;
  readonly view: MachinesView;
  readonly session: ApiSession;
  readonly log: Log;
  /** Refreshes the given machines (default: every listed one), with progress in the view. */
  readonly refresh: (serials?: readonly string[]) => Thenable<RefreshCount>;
  /** Scans the workspace with progress in a notification. */
  readonly scanWorkspace: () => Promise<void>;
  readonly matcher: () => SerialMatcher;
  readonly trust: ArgumentTrust;
}

/** The machine the argument names, else the selected one; asks the user to select one when there is none. */
function requireSerial(deps: MachineCommandDeps, argument: unknown): string | undefined {
  const serial = serialNumberArgument(argument) ?? serialNumberArgument(deps.view.treeView.selection[0]);
  if (serial === undefined)
    void vscode.window.showInformationMessage(vscode.l10n.t('Select a machine in the Onboarding Events view first.'));
  return serial;
}

type MachineArgument = NonNullable<ReturnType<typeof plainArgument>>;

/** A command argument, read once: a serial number, `{ serialNumber, via }`, a tree node or `{ event }`. */
function machineArgument(argument: unknown): MachineArgument | undefined {
  return typeof argument === 'string'
    ? { serialNumber: argument }
    : plainArgument(argument, ['serialNumber', 'via'], { event: ['serialNumber'] });
}

/**
 * The machine an add, pin or reveal is for, once it is certain the user asked
 * for it (the one rule, workbench/argumentTrust.ts). The argument is read
 * once into a plain copy. No argument means the view's selection; a machine
 * the view already lists, the tree's own element (a menu) or an argument
 * carrying our hover's mark is the user's own doing. Anything else names a machine another extension or a
 * link chose: it must be a valid serial number, and the user agrees in a
 * modal first. Undefined when there is none or the user declined.
 */
async function askedFor(
  deps: MachineCommandDeps,
  argument: unknown,
  copy: MachineArgument | undefined,
  what: 'add' | 'pin' | 'reveal' | 'load',
): Promise<string | undefined> {
  const named = serialNumberArgument(copy);
  if (named === undefined) return what === 'add' ? undefined : requireSerial(deps, undefined);
  // A menu passes the tree's own element; a hover link or quick fix carries our mark.
  if (deps.view.provider.ownsMachineNode(argument) || deps.trust.fromOwnUi(copy)) return named;
  const checked = checkSerialNumber(named, vscode.l10n.t);
  if (!checked.ok) {
    void vscode.window.showErrorMessage(inertNotificationText(checked.message));
    return undefined;
  }
  const serial = checked.serialNumber;
  // Pinning changes the stored list and starts polling, so only a machine already pinned is no change; revealing a listed one loads nothing new.
  if ((what === 'add' || what === 'pin' ? deps.lists.pinned() : deps.model.allListed()).includes(serial)) return serial;
  const asked = await deps.trust.confirm({
    title:
      what === 'reveal'
        ? vscode.l10n.t('Another extension or a link asks to show {0} in the Machines view.', serial)
        : what === 'load'
          ? vscode.l10n.t('Another extension or a link asks to load the onboarding events of {0}.', serial)
          : vscode.l10n.t('Another extension or a link asks to pin {0} in the Machines view.', serial),
    detail: vscode.l10n.t(
      'The Machines view then loads its onboarding events with your sign-in, and other extensions can read what it loaded.',
    ),
    action: what === 'reveal' ? vscode.l10n.t('Show') : what === 'load' ? vscode.l10n.t('Load') : vscode.l10n.t('Pin'),
  });
  return asked ? serial : undefined;
}

/** An event from a command argument: an event node, `{ event }`, or the event itself. */
function eventOf(argument: unknown): OnboardingEvent | undefined {
  if (typeof argument !== 'object' || argument === null) return undefined;
  const candidate = 'event' in argument ? argument.event : argument;
  if (typeof candidate !== 'object' || candidate === null) return undefined;
  const event = candidate as Partial<OnboardingEvent>;
  return typeof event.type === 'string' &&
    typeof event.message === 'string' &&
    typeof event.serialNumber === 'string' &&
    typeof event.key === 'string'
    ? (candidate as OnboardingEvent)
    : undefined;
}

/** The event the argument names, else the selected one; asks the user to select one when there is none. */
function requireEvent(deps: MachineCommandDeps, argument: unknown): OnboardingEvent | undefined {
  const event = eventOf(argument) ?? eventOf(deps.view.treeView.selection[0]);
  if (event === undefined) void vscode.window.showInformationMessage(vscode.l10n.t('Select an event in the Onboarding Events view first.'));
  return event;
}

/** Copies to the clipboard and says so in the status bar; returns the text copied. */
async function copy(text: string, what: string): Promise<string> {
  await vscode.env.clipboard.writeText(text);
  vscode.window.setStatusBarMessage(inertNotificationText(vscode.l10n.t('Copied {0}', what)), 2500);
  return text;
}

// ---- Which machines the view lists and loads ---------------------------------

function refreshAll(deps: MachineCommandDeps): CommandHandler {
  return () => deps.refresh();
}

/** Refresh Machine and Retry (on a machine's error entry). */
function refreshOne(deps: MachineCommandDeps): CommandHandler {
  return async (argument) => {
    const serial = await askedFor(deps, argument, machineArgument(argument), 'load');
    return serial === undefined ? undefined : deps.refresh([serial]);
  };
}

function addMachine(deps: MachineCommandDeps): CommandHandler {
  const { lists, log } = deps;
  const validateSerial = (value: string): vscode.InputBoxValidationMessage | string | undefined => {
    const checked = checkSerialNumber(value, vscode.l10n.t);
    if (!checked.ok) return checked.message;
    if (deps.matcher().isSerialNumber(checked.serialNumber)) return undefined;
    return {
      message: vscode.l10n.t('This does not match the serial-number pattern setting; it can be added anyway.'),
      severity: vscode.InputBoxValidationSeverity.Warning,
    };
  };
  return async (argument?: unknown): Promise<string | undefined> => {
    let input: string | undefined;
    const copy = machineArgument(argument);
    if (serialNumberArgument(copy) !== undefined) {
      input = await askedFor(deps, argument, copy, 'add');
      if (input === undefined) return undefined;
    } else {
      input = await vscode.window.showInputBox({
        title: vscode.l10n.t('Add Machine'),
        prompt: vscode.l10n.t('The serial number of the machine to pin to the Onboarding Events view'),
        placeHolder: vscode.l10n.t('e.g. MX-4711-A0023'),
        ignoreFocusOut: true,
        validateInput: validateSerial,
      });
      if (input === undefined) return undefined;
    }
    const checked = checkSerialNumber(input, vscode.l10n.t);
    if (!checked.ok) {
      void vscode.window.showErrorMessage(inertNotificationText(checked.message));
      return undefined;
    }
    const serial = checked.serialNumber;
    if (!(await lists.pin(serial))) {
      void vscode.window.showInformationMessage(inertNotificationText(vscode.l10n.t('{0} is already pinned.', serial)));
    }
    log.info(`Pinned ${serial}.`);
    if (deps.session.state.kind === 'signed-in') {
      void deps.view.reveal(serial).catch((error: unknown) => {
        log.warn(`Could not reveal ${serial}: ${String(error)}`);
      });
    }
    return serial;
  };
}

function removeMachine(deps: MachineCommandDeps): CommandHandler {
  const { model, lists, log } = deps;
  return async (argument?: unknown): Promise<boolean> => {
    const serial = requireSerial(deps, argument);
    if (serial === undefined) return false;
    const removed = (await lists.unpin(serial)) || (await lists.removeRecent(serial));
    if (removed) {
      if (!model.allListed().includes(serial)) model.forget(serial);
      log.info(`Removed ${serial} from the Machines view.`);
    }
    return removed;
  };
}

function pinMachine(deps: MachineCommandDeps): CommandHandler {
  return async (argument) => {
    const serial = await askedFor(deps, argument, machineArgument(argument), 'pin');
    if (serial === undefined) return false;
    // A failure is logged and shown (the look-up's pin button runs this command too), not thrown at a hover link.
    try {
      const pinned = await deps.lists.pin(normalizeSerialNumber(serial));
      if (pinned) deps.log.info(`Pinned ${serial}.`);
      // Said also when it was pinned already: from a hover or a quick fix the tree may be out of sight.
      vscode.window.setStatusBarMessage(inertNotificationText(vscode.l10n.t('Pinned {0}.', serial)), 3000);
      return pinned;
    } catch (error) {
      deps.log.error(`Pin ${serial}`, error);
      void vscode.window.showErrorMessage(
        inertNotificationText(vscode.l10n.t('Could not pin {0}: {1}', serial, extensionErrorText(error, vscode.l10n.t))),
      );
      return false;
    }
  };
}

function scanWorkspace(deps: MachineCommandDeps): CommandHandler {
  const { model, view } = deps;
  return async () => {
    if ((vscode.workspace.workspaceFolders?.length ?? 0) === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Open a folder to scan it for serial numbers.'));
      return undefined;
    }
    await deps.scanWorkspace();
    const scan = model.workspaceScan;
    if (scan.kind !== 'scanned') return undefined;
    if (scan.found.length === 0)
      void vscode.window.showInformationMessage(
        inertNotificationText(
          scan.filesScanned === 1
            ? vscode.l10n.t('No serial numbers were found in the one file scanned.')
            : vscode.l10n.t('No serial numbers were found in {0} files.', scan.filesScanned),
        ),
      );
    else
      await view.treeView
        .reveal(view.provider.groupNode('workspace'), { expand: true, select: false, focus: false })
        .then(undefined, () => undefined);
    return {
      found: scan.found.map((found) => found.serialNumber),
      filesScanned: scan.filesScanned,
      capped: scan.capped,
      tooLarge: scan.tooLarge ?? 0,
    };
  };
}

function loadMore(deps: MachineCommandDeps): CommandHandler {
  return async (argument) => {
    const serial = await askedFor(deps, argument, machineArgument(argument), 'load');
    if (serial !== undefined) deps.model.loadMore(serial);
    return serial === undefined ? undefined : deps.model.limitOf(serial);
  };
}

function copySerialNumber(deps: MachineCommandDeps): CommandHandler {
  return (argument) => {
    const serial = requireSerial(deps, argument);
    return serial === undefined ? undefined : copy(serial, vscode.l10n.t('serial number {0}', serial));
  };
}

function revealMachine(deps: MachineCommandDeps): CommandHandler {
  return async (argument) => {
    const serial = await askedFor(deps, argument, machineArgument(argument), 'reveal');
    if (serial === undefined) return;
    // A failure is logged and shown, not thrown at a hover link (the look-up and the links run this command too).
    try {
      await deps.view.reveal(serial);
    } catch (error) {
      deps.log.error(`Reveal ${serial}`, error);
      void vscode.window.showErrorMessage(
        inertNotificationText(vscode.l10n.t('Could not show {0} in the sidebar: {1}', serial, extensionErrorText(error, vscode.l10n.t))),
      );
    }
  };
}

// ---- The events shown -------------------------------------------------------

/** Changes the filter by the argument (a FilterArgument), or as picked when there is none. */
async function applyFilter(deps: MachineCommandDeps, argument: unknown): Promise<EventFilter | undefined> {
  const { model, log } = deps;
  // A tree element (it has a `kind`) is what a menu passes: it says nothing about the filter.
  const change = isRecord(argument) && !('kind' in argument) ? (argument as FilterArgument) : await pickFilter(model);
  if (!change) return undefined;
  let sinceMs: number | null | undefined;
  try {
    sinceMs = parseSince(change.since, vscode.l10n.t);
  } catch (error) {
    void vscode.window.showErrorMessage(inertNotificationText(extensionErrorText(error, vscode.l10n.t)));
    return undefined;
  }
  const before = model.filter;
  const next = updateFilter(before, definedOnly({ types: change.types, text: change.text, sinceMs }));
  model.setFilter(next);
  deps.view.provider.flush();
  log.info(model.filtered ? describeFilter(next) : 'Filter cleared.');
  // A new since filter is asked of the API (spec §4.1 `timestamp`) for every listed machine.
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
    return event === undefined ? undefined : copy(clipboardText(event.message), vscode.l10n.t('the event message'));
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
  const copy = machineArgument(argument);
  const serial = await askedFor(deps, argument, copy, 'load');
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
  // A uri from an argument (another extension, a command link) only prefills the save dialog: where a file is written is the user's choice.
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const name = defaultExportName(serial, 'json');
  const target = await vscode.window.showSaveDialog({
    title: vscode.l10n.t('Export the Onboarding Events of {0}', serial),
    saveLabel: vscode.l10n.t('Export'),
    ...(given ? { defaultUri: given } : folder ? { defaultUri: vscode.Uri.joinPath(folder, name) } : {}),
    filters: { [vscode.l10n.t('JSON')]: ['json'], [vscode.l10n.t('CSV (spreadsheets)')]: ['csv'] },
  });
  if (!target) return undefined;
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
  try {
    await writeSavedFile(target, new TextEncoder().encode(content));
  } catch (error) {
    // A planted link or another user's file is refused, not a fault: said, logged as a warning; a failed write is an error.
    if (!(error instanceof NamedFileError) || error.refusal === 'failed') throw error;
    log.warn(`Export refused: ${errorMessage(error)}`);
    void vscode.window.showErrorMessage(
      inertNotificationText(vscode.l10n.t('The events could not be exported: {0}', extensionErrorText(error, vscode.l10n.t))),
    );
    return undefined;
  }
  log.info(`Exported ${events.length} events of ${serial} as ${format.toUpperCase()} to ${target.toString(true)}.`);
  const open = vscode.l10n.t('Open');
  const written = target;
  void vscode.window
    .showInformationMessage(
      inertNotificationText(exportedText(events.length, serial, vscode.workspace.asRelativePath(written), model.filtered)),
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
        inertNotificationText(vscode.l10n.t('The events could not be exported: {0}', extensionErrorText(error, vscode.l10n.t))),
      );
      return undefined;
    }
  };
}

export const MACHINE_COMMANDS: CommandTable<MachineCommandDeps> = {
  [COMMANDS.refresh]: refreshAll,
  [COMMANDS.refreshMachine]: refreshOne,
  [COMMANDS.retryMachine]: refreshOne,
  [COMMANDS.addMachine]: addMachine,
  [COMMANDS.removeMachine]: removeMachine,
  [COMMANDS.pinMachine]: pinMachine,
  [COMMANDS.revealMachine]: revealMachine,
  [COMMANDS.scanWorkspace]: scanWorkspace,
  [COMMANDS.loadMore]: loadMore,
  [COMMANDS.copySerialNumber]: copySerialNumber,
  [COMMANDS.filterEvents]: filterEvents,
  [COMMANDS.clearFilter]: clearFilter,
  [COMMANDS.copyAssetId]: copyAssetId,
  [COMMANDS.copyMessage]: copyMessage,
  [COMMANDS.copyEventJson]: copyEventJson,
  [COMMANDS.exportEvents]: exportEvents,
};

/** What an export wrote, one whole message per case (one event or many, filtered or not). */
function exportedText(count: number, serial: string, file: string, filtered: boolean): string {
  if (count === 1)
    return filtered
      ? vscode.l10n.t('Exported 1 event of {0} (filtered) to {1}.', serial, file)
      : vscode.l10n.t('Exported 1 event of {0} to {1}.', serial, file);
  return filtered
    ? vscode.l10n.t('Exported {0} events of {1} (filtered) to {2}.', count, serial, file)
    : vscode.l10n.t('Exported {0} events of {1} to {2}.', count, serial, file);
}
