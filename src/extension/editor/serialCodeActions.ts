// Quick fixes on serial numbers: on our Problems-panel entries and on any
// serial number under the cursor. Look Up, Show Details of the latest event,
// Pin, Copy Link, and "Not a serial number" (deny list). Every action is the
// feature's own command with `{ serialNumber }` (Show Details looks the latest
// event up in the cache): nothing runs until the user picks it.
import * as vscode from 'vscode';
import { MAX_SERIAL_NUMBER_LENGTH } from '../../core/client/serialNumber';
import type { ArgumentTrust } from '../workbench/argumentTrust';
import { COMMANDS } from '../workbench/constants';
import type { SerialSettings } from '../workbench/serialSettings';
import { DIAGNOSTIC_SOURCE } from './serialDiagnostics';
import type { SerialStatuses } from './serialStatuses';

/** The serial number covering `position`, looking only near it on a long line. */
export function serialAt(
  document: vscode.TextDocument,
  position: vscode.Position,
  settings: SerialSettings,
): { serialNumber: string; range: vscode.Range } | undefined {
  const line = document.lineAt(position.line).text;
  const from = Math.max(0, position.character - 2 * MAX_SERIAL_NUMBER_LENGTH);
  const near = line.slice(from, position.character + 2 * MAX_SERIAL_NUMBER_LENGTH);
  const match = settings.value.matcher.matchAt(near, position.character - from);
  if (match === undefined) return undefined;
  return { serialNumber: match.serialNumber, range: new vscode.Range(position.line, match.start + from, position.line, match.end + from) };
}

export class SerialCodeActions implements vscode.CodeActionProvider {
  static readonly metadata: vscode.CodeActionProviderMetadata = { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] };

  constructor(
    private readonly settings: SerialSettings,
    private readonly states: SerialStatuses,
    /** Marks Look Up and Pin as our own UI's (workbench/argumentTrust.ts). */
    private readonly trust: Pick<ArgumentTrust, 'ownArgument'>,
  ) {}

  provideCodeActions(
    document: vscode.TextDocument,
    range: vscode.Range | vscode.Selection,
    context: vscode.CodeActionContext,
  ): vscode.CodeAction[] {
    const found = serialAt(document, range.start, this.settings);
    if (found === undefined) return [];
    const { serialNumber } = found;
    const ours = context.diagnostics.filter(
      (diagnostic) => diagnostic.source === DIAGNOSTIC_SOURCE && diagnostic.range.intersection(found.range) !== undefined,
    );
    const arg = { serialNumber };
    const action = (title: string, command: string, args: unknown[], preferred = false): vscode.CodeAction => {
      const codeAction = new vscode.CodeAction(title, vscode.CodeActionKind.QuickFix);
      codeAction.command = { title, command, arguments: args };
      if (ours.length > 0) codeAction.diagnostics = ours;
      if (preferred) codeAction.isPreferred = true;
      return codeAction;
    };
    const actions = [
      action(vscode.l10n.t('Look Up {0}', serialNumber), COMMANDS.lookUpMachine, [this.trust.ownArgument(arg)], ours.length > 0),
    ];
    const known = this.states.stateOf(serialNumber);
    if (known?.latestEpochMs !== undefined)
      actions.push(action(vscode.l10n.t('Show Details of the Latest Event of {0}', serialNumber), COMMANDS.showEventDetails, [arg]));
    actions.push(action(vscode.l10n.t('Pin {0} in the Machines View', serialNumber), COMMANDS.pinMachine, [this.trust.ownArgument(arg)]));
    // An onboarded machine has nothing left to watch; one not loaded yet, or failed (a retry), has.
    if (known?.state !== 'onboarded')
      actions.push(action(vscode.l10n.t('Watch Onboarding of {0}', serialNumber), COMMANDS.watchMachine, [this.trust.ownArgument(arg)]));
    actions.push(
      action(vscode.l10n.t('Copy Link to {0}', serialNumber), COMMANDS.copyLinkToMachine, [arg]),
      action(vscode.l10n.t('{0} Is Not a Serial Number…', serialNumber), COMMANDS.notASerialNumber, [arg]),
    );
    return actions;
  }
}
