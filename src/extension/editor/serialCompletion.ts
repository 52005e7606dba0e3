// Completion of the serial numbers the extension knows (pinned, recent, found
// in the workspace) where one is being typed: the word before the cursor must
// be the start of a known serial number (so it matches the pattern's
// prefix), or the list was asked for with Ctrl+Space. The detail says the
// state from the cache; completion itself never sends a request.
import * as vscode from 'vscode';
import { MAX_SERIAL_NUMBER_LENGTH } from '../../core/client/serialNumber';
import type { MachinesApi } from '../workbench/contracts/features';
import type { SerialStatuses } from './serialStatuses';
import { stateSummary, type StatusTextContext } from './statusText';
import type { SerialSettings } from '../workbench/serialSettings';

/** The characters serial numbers are made of, as far as completion guesses the word being typed. */
const TYPED_WORD = /[A-Za-z0-9][A-Za-z0-9_.-]*$/;
/** More items than this help nobody scrolling a suggest widget. */
const MAX_ITEMS = 200;

export class SerialCompletion implements vscode.CompletionItemProvider {
  constructor(
    private readonly machines: MachinesApi,
    private readonly states: SerialStatuses,
    private readonly settings: SerialSettings,
  ) {}

  provideCompletionItems(
    document: vscode.TextDocument,
    position: vscode.Position,
    _token: vscode.CancellationToken,
    context: vscode.CompletionContext,
  ): vscode.CompletionItem[] {
    const before = document
      .lineAt(position.line)
      .text.slice(Math.max(0, position.character - MAX_SERIAL_NUMBER_LENGTH), position.character);
    const typed = TYPED_WORD.exec(before)?.[0] ?? '';
    if (typed === '' && context.triggerKind !== vscode.CompletionTriggerKind.Invoke) return [];
    const prefix = typed.toUpperCase();
    const groups: [readonly string[], string, string][] = [
      [this.machines.pinned(), '0', vscode.l10n.t('pinned')],
      [this.machines.recent(), '1', vscode.l10n.t('recent')],
      [this.machines.workspace?.() ?? [], '2', vscode.l10n.t('in this workspace')],
    ];
    const range = new vscode.Range(position.line, position.character - typed.length, position.line, position.character);
    const ctx: StatusTextContext = {
      now: Date.now(),
      locale: vscode.env.language,
      t: (message, ...args) => vscode.l10n.t(message, ...args),
    };
    const matcher = this.settings.value.matcher;
    const seen = new Set<string>();
    const items: vscode.CompletionItem[] = [];
    for (const [serials, order, where] of groups) {
      for (const serialNumber of serials) {
        if (items.length >= MAX_ITEMS) return items;
        if (seen.has(serialNumber) || !serialNumber.toUpperCase().startsWith(prefix) || !matcher.isSerialNumber(serialNumber)) continue;
        seen.add(serialNumber);
        const known = this.states.stateOf(serialNumber);
        const item = new vscode.CompletionItem({ label: serialNumber, description: where }, vscode.CompletionItemKind.Value);
        item.range = range;
        item.filterText = serialNumber;
        item.sortText = `${order}${serialNumber}`;
        item.detail =
          known === undefined ? vscode.l10n.t('Onboarding Events: not loaded yet') : stateSummary(known.state, known.latestEpochMs, ctx);
        items.push(item);
      }
    }
    return items;
  }
}
