// Command tables after rust-analyzer's commands.ts: a feature exports named `(deps) => handler`
// factories, registered in one loop; arguments arrive as `unknown`. setContext is a round trip to the
// workbench, so an unchanged value is not sent again.
import * as vscode from 'vscode';
import { BUILTIN_COMMANDS, COMMAND_ALIASES, type CommandId, type ContextKey } from './constants';

export type CommandHandler = (...args: unknown[]) => unknown;
export type CommandFactory<Deps> = (deps: Deps) => CommandHandler;
export type CommandTable<Deps> = Partial<Record<CommandId, CommandFactory<Deps>>>;

/** Each retired id (COMMAND_ALIASES) is registered too, so a user's keybinding to it keeps working. */
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
