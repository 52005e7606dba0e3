// "Look Up Machine…" and its history: the quick pick and its two commands.
// The editor's "look up the serial number at the cursor" reaches it through
// COMMANDS.lookUpMachine with `{ serialNumber }`, not through an import.
import type * as vscode from 'vscode';
import { registerCommands, type CommandFactory, type CommandTable } from '../workbench/commands';
import { COMMANDS } from '../workbench/constants';
import { MachineLookUp, type MachineLookUpDeps } from './machineLookUp';

export type LookUpDeps = MachineLookUpDeps;

interface LookUpCommandDeps {
  readonly lookUp: MachineLookUp;
}

const lookUpMachine: CommandFactory<LookUpCommandDeps> =
  ({ lookUp }) =>
  (arg) =>
    lookUp.run(arg);

const clearLookupHistory: CommandFactory<LookUpCommandDeps> =
  ({ lookUp }) =>
  () => {
    lookUp.clearHistory();
  };

export const LOOK_UP_COMMANDS: CommandTable<LookUpCommandDeps> = {
  [COMMANDS.lookUpMachine]: lookUpMachine,
  [COMMANDS.clearLookupHistory]: clearLookupHistory,
};

export function registerLookUp(context: vscode.ExtensionContext, deps: LookUpDeps): void {
  const lookUp = new MachineLookUp(deps);
  context.subscriptions.push(lookUp, ...registerCommands(LOOK_UP_COMMANDS, { lookUp }));
}
