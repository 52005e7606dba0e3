// Extension-host entry for the tests of the packaged .vsix (what users get).
import { runMochaSuite } from '../support/runMochaSuite';

export function run(): Promise<void> {
  return runMochaSuite(__dirname, 'package', '.test.js', 60_000);
}
