// Entry point that VS Code's extension host loads (extensionTestsPath): runs
// every out/test/integration/**/*.test.js under mocha and reports the totals
// in a line scripts/test.mjs reads. The test's user and the pages' watcher
// stand in parts of VS Code's API from the test side before any test runs.
import { runMochaSuite } from '../support/runMochaSuite';
import { installPages } from './support/pages';
import { installUser } from './support/user';

export function run(): Promise<void> {
  installUser();
  installPages();
  return runMochaSuite(__dirname, 'integration');
}
