// One way to register commands, after rust-analyzer's editors/code/src/commands.ts:
// a feature exports a table of named factories, each `(deps) => handler`, and
// the table is registered in one loop. Arguments arrive as `unknown`: a
// command can be run by any extension, a keybinding or a command link.
import * as vscode from 'vscode';
import type { CommandId } from './constants';

export type CommandHandler = (...args: unknown[]) => unknown;
export type CommandFactory<Deps> = (deps: Deps) => CommandHandler;
export type CommandTable<Deps> = Partial<Record<CommandId, CommandFactory<Deps>>>;

export function registerCommands<Deps>(table: CommandTable<Deps>, deps: Deps): vscode.Disposable[] {
  return Object.entries(table).map(([id, factory]) => vscode.commands.registerCommand(id, factory(deps)));
}
