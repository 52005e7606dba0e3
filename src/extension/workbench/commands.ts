// VS Code's command service as the features use it: command tables and
// context keys.
//
// One way to register commands, after rust-analyzer's editors/code/src/commands.ts:
// a feature exports a table of named factories, each `(deps) => handler`, and
// the table is registered in one loop. Arguments arrive as `unknown`: a
// command can be run by any extension, a keybinding or a command link.
//
// The one place context keys are set (the setContext command). VS Code keeps
// them per window; each setContext call is a round trip to the workbench, so
// an unchanged value is not sent again.
import * as vscode from 'vscode';
import { BUILTIN_COMMANDS, COMMAND_ALIASES, type CommandId, type ContextKey } from './constants';

export type CommandHandler = (...args: unknown[]) => unknown;
export type CommandFactory<Deps> = (deps: Deps) => CommandHandler;
export type CommandTable<Deps> = Partial<Record<CommandId, CommandFactory<Deps>>>;

/** Registers a table's commands, and each retired id of one of them (COMMAND_ALIASES) as a command that runs it: a user's keybinding to the old id keeps working. */
export function registerCommands<Deps>(table: CommandTable<Deps>, deps: Deps): vscode.Disposable[] {
  const commands = Object.entries(table).map(([id, factory]) => vscode.commands.registerCommand(id, factory(deps)));
  const aliases = Object.entries(COMMAND_ALIASES)
    .filter(([, id]) => id in table)
    .map(([retired, id]) => vscode.commands.registerCommand(retired, (...args: unknown[]) => vscode.commands.executeCommand(id, ...args)));
  return [...commands, ...aliases];
}

const lastSet = new Map<ContextKey, unknown>();

export function setContext(key: ContextKey, value: boolean | string | undefined): void {
  if (lastSet.has(key) && lastSet.get(key) === value) return;
  lastSet.set(key, value);
  void vscode.commands.executeCommand(BUILTIN_COMMANDS.setContext, key, value);
}
