// The one place that decides whether the extension runs under its own tests.
// Test hooks (read-only observations for the integration tests) are built by
// src/testHooks.ts and exported only then; nothing else checks the mode.
import * as vscode from 'vscode';

export function isTestMode(context: Pick<vscode.ExtensionContext, 'extensionMode'>): boolean {
  return context.extensionMode === vscode.ExtensionMode.Test;
}
