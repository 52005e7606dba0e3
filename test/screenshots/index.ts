// Entry point for `npm run screenshots`: runs every *.shots.js scenario in the
// extension host. Each scenario drives the real extension and calls snap().
import { runMochaSuite } from '../support/runMochaSuite';

export function run(): Promise<void> {
  return runMochaSuite(__dirname, 'screenshots', '.shots.js', 120_000);
}
