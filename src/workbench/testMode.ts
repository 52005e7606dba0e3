// The one place that decides whether the extension runs under its own tests.
// extension.ts asks once and hands the answer to the two things that differ
// then: src/testHooks.ts (the test hooks are exported only under test) and
// ArgumentTrust (argument forms of commands act unseen only under test).
import * as vscode from 'vscode';

export function isTestMode(context: Pick<vscode.ExtensionContext, 'extensionMode'>): boolean {
  return context.extensionMode === vscode.ExtensionMode.Test;
}
