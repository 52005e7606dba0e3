// The one place context keys are set. VS Code keeps them per window; each
// setContext call is a round trip to the workbench, so an unchanged value is
// not sent again.
import * as vscode from 'vscode';
import { BUILTIN_COMMANDS, type ContextKey } from './constants';

const lastSet = new Map<ContextKey, unknown>();

export function setContext(key: ContextKey, value: boolean | string | undefined): void {
  if (lastSet.has(key) && lastSet.get(key) === value) return;
  lastSet.set(key, value);
  void vscode.commands.executeCommand(BUILTIN_COMMANDS.setContext, key, value);
}

/** What was last set, for the test hooks. */
export function contextValue(key: ContextKey): unknown {
  return lastSet.get(key);
}
