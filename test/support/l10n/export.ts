// Writes l10n/bundle.l10n.json from the sources: `npx tsc -p tsconfig.tests.json && node out/test/support/l10n/export.js`.
// A translation is a copy named bundle.l10n.<locale>.json (e.g. bundle.l10n.de.json) with the values translated.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleText, extractMessages } from './extract';

const root = join(__dirname, '..', '..', '..', '..');
const { messages, problems } = extractMessages(root);
for (const problem of problems) console.error(`not extractable (use a literal message): ${problem}`);
mkdirSync(join(root, 'l10n'), { recursive: true });
writeFileSync(join(root, 'l10n', 'bundle.l10n.json'), bundleText(messages));
console.log(`l10n/bundle.l10n.json: ${messages.length} messages`);
process.exitCode = problems.length > 0 ? 1 : 0;
