// Entry point for `npm run screenshots`: runs every *.shots.js scenario in the
// extension host. Each scenario drives the real extension and calls snap();
// the pages' watcher (test/integration/support/pages.ts) tells when a page has rendered.
import { installPages } from '../integration/support/pages';
import { runMochaSuite } from '../support/runMochaSuite';

export function run(): Promise<void> {
  installPages();
  return runMochaSuite(__dirname, 'screenshots', '.shots.js', 120_000);
}
