// The commands of the Machines view. Each accepts what its menu passes (a
// tree element) and, for tests and other features, a plain argument (a serial
// number, `{ serialNumber }`, an event), so none of them needs a dialog when
// told what to do.
import * as vscode from 'vscode';
import { isApiError } from '../core/errors';
import type { OnboardingEvent } from '../core/model';
import { normalizeSerialNumber } from '../core/serialNumber';
import type { Log } from '../workbench/log';
import type { ApiSession } from '../workbench/contracts/apiSession';
import type { SerialMatcher } from '../domain/serialNumbers/serialMatcher';
import { formatShort } from '../common/time';
import { checkSerialNumber } from '../domain/serialNumbers/serialNumberInput';
import { updateFilter, type EventFilter } from '../domain/events/eventFilter';
import { defaultExportName, eventsToCsv, eventsToJson, formatOf, type ExportFormat } from '../domain/events/exportEvents';
import type { MachineLists } from './machineLists';
import type { MachinesApi } from '../workbench/contracts/machinesApi';
import type { MachinesModel } from './machinesModel';
import type { MachinesTreeProvider } from './machinesTreeProvider';
import { describeFilter } from './filterDescription';
import { eventOf, serialOf, type MachinesNode } from './treeNodes';

export interface MachineCommandDeps {
  readonly model: MachinesModel;
  readonly lists: MachineLists;
  readonly provider: MachinesTreeProvider;
  readonly treeView: vscode.TreeView<MachinesNode>;
  readonly session: ApiSession;
  readonly log: Log;
  readonly api: MachinesApi;
  readonly refreshMachines: (serials?: readonly string[]) => Thenable<{ done: number; failed: number }>;
  readonly runScan: () => Promise<void>;
  readonly matcher: () => SerialMatcher;
}

/** Argument of onboardingEvents.filterEvents that skips the quick pick; `null`, `''` and `[]` clear a part. */
export interface FilterArgument {
  readonly types?: readonly string[] | null;
  readonly text?: string | null;
  /** Epoch milliseconds or an ISO 8601 date/time. */
  readonly since?: number | string | null;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

function parseSince(value: number | string | null | undefined): number | null | undefined {
  if (value === undefined || value === null) return value;
  const ms = typeof value === 'number' ? value : Date.parse(value);
  if (!Number.isFinite(ms)) throw new Error(vscode.l10n.t('"{0}" is not a date. Use a form like 2025-01-31 or 2025-01-31T08:00.', String(value)));
  return ms;
}

async function copy(text: string, what: string): Promise<string> {
  await vscode.env.clipboard.writeText(text);
  vscode.window.setStatusBarMessage(vscode.l10n.t('Copied {0}', what), 2500);
  return text;
}

export function registerMachineCommands(deps: MachineCommandDeps): vscode.Disposable[] {
  const { model, lists, log } = deps;
  const register = (id: string, handler: (...args: unknown[]) => unknown): vscode.Disposable => vscode.commands.registerCommand(`onboardingEvents.${id}`, handler);

  const requireSerial = (argument: unknown): string | undefined => {
    const serial = serialOf(argument) ?? serialOf(deps.treeView.selection[0]);
    if (serial === undefined) void vscode.window.showInformationMessage(vscode.l10n.t('Select a machine in the Machines view first.'));
    return serial;
  };
  const requireEvent = (argument: unknown): OnboardingEvent | undefined => {
    const event = eventOf(argument) ?? eventOf(deps.treeView.selection[0]);
    if (event === undefined) void vscode.window.showInformationMessage(vscode.l10n.t('Select an event in the Machines view first.'));
    return event;
  };

  const refreshOne = async (argument: unknown): Promise<{ done: number; failed: number } | undefined> => {
    const serial = requireSerial(argument);
    return serial === undefined ? undefined : deps.refreshMachines([serial]);
  };

  const validateSerial = (value: string): vscode.InputBoxValidationMessage | string | undefined => {
    const checked = checkSerialNumber(value, vscode.l10n.t);
    if (!checked.ok) return checked.message;
    if (deps.matcher().isSerialNumber(checked.serialNumber)) return undefined;
    return {
      message: vscode.l10n.t('This does not match the serial-number pattern setting; it can be added anyway.'),
      severity: vscode.InputBoxValidationSeverity.Warning,
    };
  };

  const addMachine = async (argument?: unknown): Promise<string | undefined> => {
    let input = serialOf(argument);
    if (input === undefined) {
      input = await vscode.window.showInputBox({
        title: vscode.l10n.t('Add Machine'),
        prompt: vscode.l10n.t('The serial number of the machine to pin to the Machines view'),
        placeHolder: vscode.l10n.t('e.g. MX-4711-A0023'),
        ignoreFocusOut: true,
        validateInput: validateSerial,
      });
      if (input === undefined) return undefined;
    }
    const checked = checkSerialNumber(input, vscode.l10n.t);
    if (!checked.ok) {
      void vscode.window.showErrorMessage(checked.message);
      return undefined;
    }
    const serial = checked.serialNumber;
    if (!(await lists.pin(serial))) {
      void vscode.window.showInformationMessage(vscode.l10n.t('{0} is already pinned.', serial));
    }
    log.info(`Pinned ${serial}.`);
    if (deps.session.state.kind === 'signed-in') {
      void deps.api.reveal(serial).catch((error: unknown) => { log.warn(`Could not reveal ${serial}: ${String(error)}`); });
    }
    return serial;
  };

  const removeMachine = async (argument?: unknown): Promise<boolean> => {
    const serial = requireSerial(argument);
    if (serial === undefined) return false;
    const removed = (await lists.unpin(serial)) || (await lists.removeRecent(serial));
    if (removed) {
      if (!model.allListed().includes(serial)) model.forget(serial);
      log.info(`Removed ${serial} from the Machines view.`);
    }
    return removed;
  };

  const pickFilter = async (): Promise<FilterArgument | undefined> => {
    const current = model.filter;
    type Step = vscode.QuickPickItem & { readonly step: 'types' | 'text' | 'since' | 'clear' };
    const items: Step[] = [
      { step: 'types', label: `$(symbol-enum) ${vscode.l10n.t('Event Type…')}`, description: current.types?.join(', ') ?? vscode.l10n.t('any') },
      { step: 'text', label: `$(search) ${vscode.l10n.t('Text…')}`, description: current.text ?? vscode.l10n.t('any') },
      {
        step: 'since',
        label: `$(history) ${vscode.l10n.t('Since…')}`,
        description: current.sinceMs === undefined ? vscode.l10n.t('any time') : formatShort(current.sinceMs, Date.now(), vscode.env.language) ?? String(current.sinceMs),
      },
    ];
    if (model.filtered) items.push({ step: 'clear', label: `$(clear-all) ${vscode.l10n.t('Clear Filter')}` });
    const choice = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Filter Events'), placeHolder: vscode.l10n.t('Filter the events of every machine by…') });
    if (!choice) return undefined;
    switch (choice.step) {
      case 'clear':
        return { types: null, text: null, since: null };
      case 'types': {
        const known = new Set<string>();
        for (const serial of model.allListed()) for (const event of model.view(serial).all) known.add(event.type);
        for (const type of current.types ?? []) known.add(type);
        if (known.size === 0) {
          void vscode.window.showInformationMessage(vscode.l10n.t('No events are loaded yet, so there are no event types to pick from.'));
          return undefined;
        }
        const picked = await vscode.window.showQuickPick(
          [...known].sort().map((type) => ({ label: type, picked: current.types?.includes(type) ?? false })),
          { title: vscode.l10n.t('Show Events of These Types'), canPickMany: true },
        );
        return picked ? { types: picked.map((item) => item.label) } : undefined;
      }
      case 'text': {
        const text = await vscode.window.showInputBox({
          title: vscode.l10n.t('Show Events Containing'),
          prompt: vscode.l10n.t('Matches the type, message or asset ID, ignoring case. Leave empty for any.'),
          value: current.text ?? '',
        });
        return text === undefined ? undefined : { text };
      }
      case 'since': {
        const now = Date.now();
        type Window = vscode.QuickPickItem & { readonly since: number | null | 'custom' };
        const windows: Window[] = [
          { label: vscode.l10n.t('Last hour'), since: now - HOUR },
          { label: vscode.l10n.t('Last 24 hours'), since: now - DAY },
          { label: vscode.l10n.t('Last 7 days'), since: now - 7 * DAY },
          { label: vscode.l10n.t('Last 30 days'), since: now - 30 * DAY },
          { label: vscode.l10n.t('Since a date…'), since: 'custom' },
          { label: vscode.l10n.t('Any time'), since: null },
        ];
        const window = await vscode.window.showQuickPick(windows, { title: vscode.l10n.t('Show Events Since') });
        if (!window) return undefined;
        if (window.since !== 'custom') return { since: window.since };
        const date = await vscode.window.showInputBox({
          title: vscode.l10n.t('Show Events Since'),
          prompt: vscode.l10n.t('A date, or a date and time, in your local time zone (e.g. 2025-01-31 or 2025-01-31T08:00)'),
          validateInput: (value) => (Number.isFinite(Date.parse(value)) ? undefined : vscode.l10n.t('Enter a date like 2025-01-31 or 2025-01-31T08:00.')),
        });
        return date === undefined ? undefined : { since: date };
      }
    }
  };

  const filterEvents = async (argument?: unknown): Promise<EventFilter | undefined> => {
    const change = typeof argument === 'object' && argument !== null && !('kind' in argument) ? (argument as FilterArgument) : await pickFilter();
    if (!change) return undefined;
    let sinceMs: number | null | undefined;
    try {
      sinceMs = parseSince(change.since);
    } catch (error) {
      void vscode.window.showErrorMessage(error instanceof Error ? error.message : String(error));
      return undefined;
    }
    const before = model.filter;
    const next = updateFilter(before, {
      ...(change.types !== undefined ? { types: change.types } : {}),
      ...(change.text !== undefined ? { text: change.text } : {}),
      ...(sinceMs !== undefined ? { sinceMs } : {}),
    });
    model.setFilter(next);
    deps.provider.flush();
    log.info(model.filtered ? describeFilter(next) : 'Filter cleared.');
    // A new time window is asked of the API (spec §4.1 `timestamp`) for every listed machine.
    if (next.sinceMs !== undefined && next.sinceMs !== before.sinceMs && deps.session.state.kind === 'signed-in') await deps.refreshMachines();
    return next;
  };

  const exportEvents = async (argument?: unknown): Promise<string | undefined> => {
    const serial = requireSerial(argument);
    if (serial === undefined) return undefined;
    if (!model.summary(serial).loaded) await model.load(serial, false);
    const view = model.view(serial);
    if (view.total === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('{0} has no onboarding events to export.', serial));
      return undefined;
    }
    const events = model.filtered ? view.events : view.all;
    const options = typeof argument === 'object' && argument !== null ? (argument as { uri?: unknown; format?: unknown }) : {};
    let target: vscode.Uri | undefined =
      options.uri instanceof vscode.Uri ? options.uri : typeof options.uri === 'string' ? vscode.Uri.file(options.uri) : undefined;
    if (!target) {
      const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
      const name = defaultExportName(serial, 'json');
      target = await vscode.window.showSaveDialog({
        title: vscode.l10n.t('Export the Onboarding Events of {0}', serial),
        saveLabel: vscode.l10n.t('Export'),
        ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, name) } : {}),
        filters: { [vscode.l10n.t('JSON')]: ['json'], [vscode.l10n.t('CSV (spreadsheets)')]: ['csv'] },
      });
      if (!target) return undefined;
    }
    const format: ExportFormat = options.format === 'csv' || options.format === 'json' ? options.format : formatOf(target.path);
    const entry = model.summary(serial);
    const content =
      format === 'csv'
        ? eventsToCsv(serial, events)
        : eventsToJson(serial, events, { exportedAt: Date.now(), fetchedAt: entry.fetchedAt, ...(model.filtered ? { filter: describeFilter(model.filter) } : {}) });
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(content));
    log.info(`Exported ${events.length} events of ${serial} as ${format.toUpperCase()} to ${target.toString(true)}.`);
    const open = vscode.l10n.t('Open');
    const written = target;
    void vscode.window
      .showInformationMessage(
        model.filtered
          ? vscode.l10n.t('Exported {0} events of {1} (filtered) to {2}.', events.length, serial, vscode.workspace.asRelativePath(written))
          : vscode.l10n.t('Exported {0} events of {1} to {2}.', events.length, serial, vscode.workspace.asRelativePath(written)),
        open,
      )
      .then((answer) => (answer === open ? vscode.commands.executeCommand('vscode.open', written) : undefined));
    return target.toString();
  };

  return [
    register('refresh', () => deps.refreshMachines()),
    register('refreshMachine', refreshOne),
    register('retryMachine', refreshOne),
    register('addMachine', addMachine),
    register('removeMachine', removeMachine),
    register('pinMachine', async (argument) => {
      const serial = requireSerial(argument);
      if (serial === undefined) return false;
      const pinned = await lists.pin(normalizeSerialNumber(serial));
      if (pinned) log.info(`Pinned ${serial}.`);
      return pinned;
    }),
    register('scanWorkspace', async () => {
      if ((vscode.workspace.workspaceFolders?.length ?? 0) === 0) {
        void vscode.window.showInformationMessage(vscode.l10n.t('Open a folder to scan it for serial numbers.'));
        return undefined;
      }
      await deps.runScan();
      const scan = model.workspaceScan;
      if (scan.kind !== 'scanned') return undefined;
      if (scan.found.length === 0) void vscode.window.showInformationMessage(vscode.l10n.t('No serial numbers were found in {0} files.', scan.filesScanned));
      else await deps.treeView.reveal(deps.provider.groupNode('workspace'), { expand: true, select: false, focus: false }).then(undefined, () => undefined);
      return { found: scan.found.map((found) => found.serialNumber), filesScanned: scan.filesScanned, capped: scan.capped };
    }),
    register('filterEvents', filterEvents),
    register('clearFilter', () => filterEvents({ types: null, text: null, since: null })),
    register('loadMore', (argument) => {
      const serial = requireSerial(argument);
      if (serial !== undefined) model.loadMore(serial);
      return serial === undefined ? undefined : model.limitOf(serial);
    }),
    register('copySerialNumber', (argument) => {
      const serial = requireSerial(argument);
      return serial === undefined ? undefined : copy(serial, vscode.l10n.t('serial number {0}', serial));
    }),
    register('copyAssetId', (argument) => {
      const event = requireEvent(argument);
      if (event?.assetId === undefined) return undefined;
      return copy(event.assetId, vscode.l10n.t('asset ID {0}', event.assetId));
    }),
    register('copyMessage', (argument) => {
      const event = requireEvent(argument);
      return event === undefined ? undefined : copy(event.message, vscode.l10n.t('the event message'));
    }),
    register('copyEventJson', (argument) => {
      const event = requireEvent(argument);
      // The event exactly as the server sent it.
      return event === undefined ? undefined : copy(JSON.stringify(event.raw, null, 2), vscode.l10n.t('the event as JSON'));
    }),
    register('exportEvents', async (argument) => {
      try {
        return await exportEvents(argument);
      } catch (error) {
        log.error('Export failed', error);
        void vscode.window.showErrorMessage(vscode.l10n.t('The events could not be exported: {0}', isApiError(error) || error instanceof Error ? error.message : String(error)));
        return undefined;
      }
    }),
    register('revealMachine', async (argument) => {
      const serial = requireSerial(argument);
      if (serial === undefined) return;
      try {
        await deps.api.reveal(serial);
      } catch (error) {
        void vscode.window.showErrorMessage(error instanceof Error ? error.message : String(error));
      }
    }),
  ];
}
