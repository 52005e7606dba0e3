// Entry point of the Restricted Mode suite: `node scripts/run-integration.mjs
// restricted` starts VS Code with workspace trust on and opens
// test/fixtures/untrusted-workspace, which the user never trusted. Runs the
// *.restricted.js files here (the main suite runs *.test.js, so it skips them).
import { runMochaSuite } from '../../support/runMochaSuite';
import { installEditors } from '../support/editors';
import { installUser } from '../support/user';
import { installMachinesView } from '../support/machinesView';

export function run(): Promise<void> {
  installUser();
  installMachinesView();
  installEditors();
  return runMochaSuite(__dirname, 'restricted', '.restricted.js');
}
