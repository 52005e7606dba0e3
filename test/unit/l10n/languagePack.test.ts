// The local VS Code runs in German, Chinese or the pseudo-locale (OE_LOCALE)
// only with a language pack installed and registered: these are the pieces
// scripts/vscode/languagePack.mjs makes for it, read without starting VS Code.
// (That VS Code then reports the language and loads our bundles was checked
// by running it: vscode.env.language "de", vscode.l10n.t('Sign In') "Anmelden".)
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

interface LanguagePack {
  languagePackVsix(scratch: string, locale: string): string;
  registerLanguagePack(scratch: string, locale: string): void;
}

interface Workbench {
  codeServerLaunch(options: { scratch: string; port: number; password: string; locale?: string }): { readonly args: readonly string[] };
}

interface PackManifest {
  readonly categories: readonly string[];
  readonly contributes: { readonly localizations: readonly { readonly languageId: string; readonly translations: readonly { readonly id: string }[] }[] };
}

const root = join(__dirname, '..', '..', '..', '..');
const load = async <T>(path: string): Promise<T> => (await import(pathToFileURL(join(root, path)).href)) as T;

describe('language pack for a run in another display language', () => {
  let pack: LanguagePack;
  let workbench: Workbench;
  let scratch: string;

  before(async () => {
    pack = await load<LanguagePack>('scripts/vscode/languagePack.mjs');
    workbench = await load<Workbench>('scripts/vscode/workbench.mjs');
    scratch = mkdtempSync(join(tmpdir(), 'oe-language-pack-'));
  });

  after(() => {
    rmSync(scratch, { recursive: true, force: true });
  });

  it('starts code-server with --locale only when a language is asked for', () => {
    const launch = (locale?: string) =>
      workbench.codeServerLaunch({ scratch: '/scratch', port: 4000, password: 'p', ...(locale === undefined ? {} : { locale })}).args;
    assert.deepEqual(launch('de').slice(launch('de').indexOf('--locale')), ['--locale', 'de']);
    assert.equal(launch().indexOf('--locale'), -1);
  });

  it('packs a language pack that contributes the locale, so VS Code can switch to it', function () {
    this.timeout(60_000);
    const vsix = pack.languagePackVsix(scratch, 'de');
    assert.equal(readFileSync(vsix).subarray(0, 2).toString('latin1'), 'PK', 'a .vsix is a zip');
    const manifest = JSON.parse(readFileSync(join(scratch, 'language-pack', 'de', 'package.json'), 'utf8')) as PackManifest;
    assert.deepEqual(manifest.categories, ['Language Packs']);
    assert.equal(manifest.contributes.localizations[0]?.languageId, 'de');
    assert.equal(manifest.contributes.localizations[0].translations[0]?.id, 'vscode');
  });

  it('registers the installed pack where VS Code resolves --locale, and refuses one that is not installed', () => {
    assert.throws(() => {
      pack.registerLanguagePack(scratch, 'zh-cn');
    }, /not installed/);
    const translations = join(scratch, 'extensions', 'onboarding-events-tests.vscode-language-pack-zh-cn-0.0.1', 'translations');
    mkdirSync(translations, { recursive: true });
    writeFileSync(join(translations, 'main.i18n.json'), '{}');
    pack.registerLanguagePack(scratch, 'zh-cn');
    const packs = JSON.parse(readFileSync(join(scratch, 'user-data', 'languagepacks.json'), 'utf8')) as Record<
      string,
      { translations: { vscode: string } }
    >;
    assert.deepEqual(Object.keys(packs), ['zh-cn']);
    assert.equal(packs['zh-cn']?.translations.vscode, join(translations, 'main.i18n.json'));
  });
});
