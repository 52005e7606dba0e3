// Entry point that VS Code's extension host loads (extensionTestsPath): runs
// every out/test/integration/**/*.test.js under mocha and reports the totals
// in a line scripts/test.mjs reads.
import { runMochaSuite } from '../support/runMochaSuite';

export function run(): Promise<void> {
  return runMochaSuite(__dirname, 'integration');
}
