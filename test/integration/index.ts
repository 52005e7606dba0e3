// Entry point that VS Code's extension host loads (extensionTestsPath): runs
// every out/test/integration/**/*.test.js under mocha and reports the totals
// in a line scripts/test.mjs reads. The test's user (support/user.ts) answers
// the product's questions from the first test on.
import { runMochaSuite } from '../support/runMochaSuite';
import { installUser } from './support/user';

export function run(): Promise<void> {
  installUser();
  return runMochaSuite(__dirname, 'integration');
}
