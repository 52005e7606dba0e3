// Entry point of the two-window suite: `node scripts/run-integration.mjs
// windows` starts its own VS Code and runs the *.windows.js files here (the
// main suite runs *.test.js, so it skips them). A second window shares the
// first one's global state (its watches, what was looked at, its sign-in), so
// it runs apart from every other suite: whatever it does must not change what
// they see, and their state must not change what it sees.
import { runMochaSuite } from '../../support/runMochaSuite';
import { installUser } from '../support/user';
import { installMachinesView } from '../support/machinesView';

export function run(): Promise<void> {
  installUser();
  installMachinesView();
  return runMochaSuite(__dirname, 'windows', '.windows.js');
}
