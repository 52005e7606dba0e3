// VS Code shows an extension's bundle.l10n.<locale>.json and
// package.nls.<locale>.json only when it runs in that display language, and it
// runs in a language only when a language pack for it is installed: with
// `--locale de` alone, vscode.env.language stays "en". Offline there is no
// Marketplace pack, so a run in German, Chinese or the pseudo-locale installs a
// minimal one of its own: a `localizations` contribution with no translations
// of VS Code itself (the workbench stays English), which is enough for VS Code
// to switch the language our extension reads.
//
// Used by startCodeServer({ locale }) for the integration tier and the
// screenshots (OE_LOCALE=de|zh-cn|qps-ploc).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const PUBLISHER = 'onboarding-events-tests';
const VERSION = '0.0.1';

function packName(locale) {
  return `vscode-language-pack-${locale.toLowerCase()}`;
}

/** Builds the pack as a .vsix in the scratch folder (vsce, offline) and returns its path. */
export function languagePackVsix(scratch, locale) {
  if (locale === 'qps-ploc') {
    // The pseudo-locale's bundles are generated from the English ones, never committed.
    const writer = join(root, 'out', 'test', 'support', 'l10n', 'writePseudoLocale.js');
    if (!existsSync(writer)) throw new Error('qps-ploc needs the compiled tests: run npx tsc -p tsconfig.tests.json first');
    execFileSync(process.execPath, [writer], { cwd: root, stdio: 'ignore' });
  }
  const dir = join(scratch, 'language-pack', locale);
  mkdirSync(join(dir, 'translations'), { recursive: true });
  const manifest = {
    name: packName(locale),
    displayName: `Language pack ${locale} (tests only)`,
    description: 'Switches the display language for tests; translates nothing of VS Code itself.',
    publisher: PUBLISHER,
    version: VERSION,
    license: 'MIT',
    engines: { vscode: '^1.101.0' },
    categories: ['Language Packs'],
    contributes: {
      localizations: [
        {
          languageId: locale,
          languageName: locale,
          localizedLanguageName: locale,
          translations: [{ id: 'vscode', path: './translations/main.i18n.json' }],
        },
      ],
    },
  };
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  writeFileSync(join(dir, 'translations', 'main.i18n.json'), JSON.stringify({ version: '1.0.0', contents: {} }));
  writeFileSync(join(dir, 'README.md'), `Language pack ${locale} for tests.\n`);
  writeFileSync(join(dir, 'LICENSE'), 'MIT\n');
  const vsix = join(scratch, 'language-pack', `${packName(locale)}.vsix`);
  execFileSync(join(root, 'node_modules', '.bin', 'vsce'), ['package', '--allow-missing-repository', '--skip-license', '--out', vsix], {
    cwd: dir,
    stdio: 'ignore',
  });
  return vsix;
}

/**
 * Registers the installed pack in the user-data folder's languagepacks.json,
 * which VS Code reads to resolve `--locale`. code-server's CLI install does
 * not write it, and the server would only catch up after the first page has
 * already chosen English.
 */
export function registerLanguagePack(scratch, locale) {
  const id = `${PUBLISHER}.${packName(locale)}`;
  const translations = join(scratch, 'extensions', `${id}-${VERSION}`, 'translations', 'main.i18n.json');
  if (!existsSync(translations)) throw new Error(`the language pack for ${locale} is not installed at ${translations}`);
  const packs = {
    [locale.toLowerCase()]: {
      hash: `${id}@${VERSION}`,
      extensions: [{ extensionIdentifier: { id }, version: VERSION }],
      translations: { vscode: translations },
      label: locale,
    },
  };
  mkdirSync(join(scratch, 'user-data'), { recursive: true });
  writeFileSync(join(scratch, 'user-data', 'languagepacks.json'), JSON.stringify(packs));
}
