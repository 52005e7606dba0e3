// Writes the pseudo-locale bundles next to the real ones, where VS Code looks
// for them when it runs in `qps-ploc` (`--locale qps-ploc`):
//   npx tsc -p tsconfig.tests.json && node out/test/support/l10n/writePseudoLocale.js
// Generated at test time from the English bundles, never committed (.gitignore)
// and never packaged (.vscodeignore).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PSEUDO_LOCALE, pseudoBundle } from './pseudoLocale';

const root = join(__dirname, '..', '..', '..', '..');
const pairs: readonly [string, string][] = [
  [join(root, 'l10n', 'bundle.l10n.json'), join(root, 'l10n', `bundle.l10n.${PSEUDO_LOCALE}.json`)],
  [join(root, 'package.nls.json'), join(root, `package.nls.${PSEUDO_LOCALE}.json`)],
];
for (const [from, to] of pairs) {
  const english = JSON.parse(readFileSync(from, 'utf8')) as Record<string, string>;
  writeFileSync(to, `${JSON.stringify(pseudoBundle(english), null, 2)}\n`);
  console.log(`${to.slice(root.length + 1)}: ${Object.keys(english).length} messages`);
}
