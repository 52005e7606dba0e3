// Entry point for `npm run screenshots`: runs every *.shots.js scenario in the
// extension host. Each scenario drives the real extension and calls snap().
// The test's user (integration/support/user.ts) agrees to the questions an
// argument's sign-in or sign-out asks, as in the integration tier.
// The pages' watcher (test/integration/support/pages.ts) tells when a page has rendered.
import { installPages } from '../integration/support/pages';
import { runMochaSuite } from '../support/runMochaSuite';
import { installEditors } from '../integration/support/editors';
import { installUser } from '../integration/support/user';
import { installMachinesView } from '../integration/support/machinesView';

export function run(): Promise<void> {
  installUser();
  installMachinesView();
  installEditors();
  installPages();
  return runMochaSuite(__dirname, 'screenshots', '.shots.js', 120_000);
}
