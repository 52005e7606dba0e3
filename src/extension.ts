import * as vscode from 'vscode';

export function activate(_context: vscode.ExtensionContext): void {
  // Wiring arrives with the foundation commit.
}

export function deactivate(): void {
  // Nothing to tear down yet.
}
