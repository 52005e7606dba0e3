// Entry point of the pseudo-locale suite: `node scripts/run-integration.mjs
// pseudo` starts its own VS Code in `qps-ploc` (OE_LOCALE, a language pack the
// local harness builds offline) and runs the *.pseudo.js files here (the main
// suite runs *.test.js, so it skips them). In that locale every message the
// extension localized is accented and bracketed, so English on screen is text
// that bypassed l10n (test/support/l10n/englishLeaks.ts).
import { runMochaSuite } from '../../support/runMochaSuite';
import { installUser } from '../support/user';
import { installMachinesView } from '../support/machinesView';

export function run(): Promise<void> {
  installUser();
  installMachinesView();
  return runMochaSuite(__dirname, 'pseudo', '.pseudo.js');
}
