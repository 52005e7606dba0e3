// Entry point that VS Code's extension host loads (extensionTestsPath): runs
// every out/test/integration/**/*.test.js under mocha and reports the totals
// in a line scripts/test.mjs reads. The test's user (support/user.ts) and the
// pages' watcher (support/pages.ts) stand in parts of VS Code's API from the
// test side before any test runs.
import * as vscode from 'vscode';
import { runMochaSuite } from '../support/runMochaSuite';
import { EXTENSION_ID } from './support/extension';
import { installPages } from './support/pages';
import { installEditors } from './support/editors';
import { installUser } from './support/user';
import { installMachinesView } from './support/machinesView';

export function run(): Promise<void> {
  // The test's user stands in vscode.window for what the product subscribes to and creates after this
  // line; the product activates later (onStartupFinished, or the first suite's activate()): say so if not.
  if (vscode.extensions.getExtension(EXTENSION_ID)?.isActive === true)
    console.warn('[integration] the extension was active before the test user was installed: its window listeners are not the user’s');
  installUser();
  installMachinesView();
  installEditors();
  installPages();
  return runMochaSuite(__dirname, 'integration');
}
