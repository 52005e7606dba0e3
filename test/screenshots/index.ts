// Entry point for `npm run screenshots`: runs every *.shots.js scenario in the
// extension host. Each scenario drives the real extension and calls snap().
// The test's user (integration/support/user.ts) agrees to the questions an
// argument's sign-in or sign-out asks, as in the integration tier.
import { runMochaSuite } from '../support/runMochaSuite';
import { installUser } from '../integration/support/user';

export function run(): Promise<void> {
  installUser();
  return runMochaSuite(__dirname, 'screenshots', '.shots.js', 120_000);
}
