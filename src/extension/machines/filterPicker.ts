// The Filter Events quick pick: which part of the filter to change (event
// types, text, since filter) and its new value. It answers with the same
// argument a test or another extension may pass the command directly.
import * as vscode from 'vscode';
import { formatShort } from '../../core/common/time';
import type { MachinesModel } from './machinesModel';
import { lineText, serverText, serverTextData } from '../../core/common/serverText';

/** Argument of onboardingEvents.filterEvents that skips the quick pick; `null`, `''` and `[]` clear a part. */
export interface FilterArgument {
  readonly types?: readonly string[] | null;
  readonly text?: string | null;
  /** Epoch milliseconds or an ISO 8601 date/time. */
  readonly since?: number | string | null;
}

export const CLEAR_FILTER: FilterArgument = { types: null, text: null, since: null };

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Asks which part of the filter to change, then its value; undefined when the user cancels. */
export async function pickFilter(model: MachinesModel): Promise<FilterArgument | undefined> {
  const current = model.filter;
  type Step = vscode.QuickPickItem & { readonly step: 'types' | 'text' | 'since' | 'clear' };
  const items: Step[] = [
    {
      step: 'types',
      label: `$(symbol-enum) ${vscode.l10n.t('Event Type…')}`,
      description: current.types?.join(', ') ?? vscode.l10n.t('any'),
    },
    { step: 'text', label: `$(search) ${vscode.l10n.t('Text…')}`, description: current.text ?? vscode.l10n.t('any') },
    {
      step: 'since',
      label: `$(history) ${vscode.l10n.t('Since…')}`,
      description:
        current.sinceMs === undefined
          ? vscode.l10n.t('any time')
          : (formatShort(current.sinceMs, Date.now(), vscode.env.language) ?? String(current.sinceMs)),
    },
  ];
  if (model.filtered) items.push({ step: 'clear', label: `$(clear-all) ${vscode.l10n.t('Clear Filter')}` });
  const choice = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Filter Events'),
    placeHolder: vscode.l10n.t('Filter the events of every machine by…'),
  });
  if (!choice) return undefined;
  switch (choice.step) {
    case 'clear':
      return CLEAR_FILTER;
    case 'types':
      return pickTypes(model);
    case 'text':
      return pickText(model);
    case 'since':
      return pickSince();
  }
}

async function pickTypes(model: MachinesModel): Promise<FilterArgument | undefined> {
  const current = model.filter;
  const known = new Set<string>();
  // The filter keeps the types as data (the characters sent); each is shown through the one line renderer.
  for (const serial of model.allListed()) for (const event of model.view(serial).all) known.add(serverTextData(event.type));
  for (const type of current.types ?? []) known.add(type);
  if (known.size === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No events are loaded yet, so there are no event types to pick from.'));
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    [...known].sort().map((type) => ({ label: lineText(serverText(type)), type, picked: current.types?.includes(type) ?? false })),
    { title: vscode.l10n.t('Show Events of These Types'), canPickMany: true },
  );
  return picked ? { types: picked.map((item) => item.type) } : undefined;
}

async function pickText(model: MachinesModel): Promise<FilterArgument | undefined> {
  const text = await vscode.window.showInputBox({
    title: vscode.l10n.t('Show Events Containing'),
    prompt: vscode.l10n.t('Matches the type, message or asset ID, ignoring case. Leave empty for any.'),
    value: model.filter.text ?? '',
  });
  return text === undefined ? undefined : { text };
}

async function pickSince(): Promise<FilterArgument | undefined> {
  const now = Date.now();
  type SinceChoice = vscode.QuickPickItem & { readonly since: number | null | 'custom' };
  const choices: SinceChoice[] = [
    { label: vscode.l10n.t('Last hour'), since: now - HOUR },
    { label: vscode.l10n.t('Last 24 hours'), since: now - DAY },
    { label: vscode.l10n.t('Last 7 days'), since: now - 7 * DAY },
    { label: vscode.l10n.t('Last 30 days'), since: now - 30 * DAY },
    { label: vscode.l10n.t('Since a date…'), since: 'custom' },
    { label: vscode.l10n.t('Any time'), since: null },
  ];
  const choice = await vscode.window.showQuickPick(choices, { title: vscode.l10n.t('Show Events Since') });
  if (!choice) return undefined;
  if (choice.since !== 'custom') return { since: choice.since };
  const date = await vscode.window.showInputBox({
    title: vscode.l10n.t('Show Events Since'),
    prompt: vscode.l10n.t('A date, or a date and time, in your local time zone (e.g. 2025-01-31 or 2025-01-31T08:00)'),
    validateInput: (value) =>
      Number.isFinite(Date.parse(value)) ? undefined : vscode.l10n.t('Enter a date like 2025-01-31 or 2025-01-31T08:00.'),
  });
  return date === undefined ? undefined : { since: date };
}
