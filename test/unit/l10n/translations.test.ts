// Every translation is complete and safe to show: the same keys as the English
// source, no empty value, and every placeholder, code span, link target,
// setting id and number carried over (a lost {0} shows the user a hole, a
// changed `command:` link a dead button). l10n/glossary.md says how to translate.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { invariants, translatableText } from '../../support/l10n/invariants';
import { PSEUDO_LOCALE, pseudoBundle } from '../../support/l10n/pseudoLocale';

const root = join(__dirname, '..', '..', '..', '..');

type Bundle = Record<string, string>;

function read(path: string): Bundle {
  return JSON.parse(readFileSync(path, 'utf8')) as Bundle;
}

/** The translations of one English bundle, by locale: `<stem>.<locale>.json` beside `<stem>.json`. */
function translationsOf(dir: string, stem: string): Map<string, Bundle> {
  const found = new Map<string, Bundle>();
  for (const name of readdirSync(dir).sort()) {
    const locale = new RegExp(`^${stem.replace(/\./g, '\\.')}\\.([\\w-]+)\\.json$`).exec(name)?.[1];
    // The pseudo-locale is generated, not translated; its own test checks it.
    if (locale !== undefined && locale !== PSEUDO_LOCALE) found.set(locale, read(join(dir, name)));
  }
  return found;
}

/**
 * Translations that may equal their English source: names and forms that read
 * the same in the language. Anything else identical to the English is a
 * string copied in and not yet translated.
 */
const SAME_AS_ENGLISH: Readonly<Record<string, ReadonlySet<string>>> = {
  // 'Board: {0}': the onboarding board's title (issue 27); German says Board too (l10n/glossary.md).
  // 'OK': a Test Connection stage's status; German UIs say OK too. '{0} ms': a unit symbol.
  de: new Set(['Links ({0})', 'Text…', 'Host: {0}\n\n{1}', 'Board: {0}', 'OK', '{0} ms']),
  'zh-cn': new Set([]),
};

/** Product names and abbreviations that stay English in every language. */
const NAMES = /\b(?:Onboarding Events|VS Code|API|JSON|CSV|UTC|HTTPS?|URL|HAL|RE2|PEM|CA|ID)\b/g;

function reads(text: string): boolean {
  return /\p{L}{2,}/u.test(translatableText(text).replace(NAMES, ' '));
}

const sources: readonly { readonly name: string; readonly dir: string; readonly stem: string }[] = [
  { name: 'l10n/bundle.l10n.json', dir: join(root, 'l10n'), stem: 'bundle.l10n' },
  { name: 'package.nls.json', dir: root, stem: 'package.nls' },
];

describe('translations', () => {
  for (const source of sources) {
    const english = read(join(source.dir, `${source.stem}.json`));
    const translations = translationsOf(source.dir, source.stem);

    describe(source.name, () => {
      it('is translated into German and Chinese (Simplified)', () => {
        assert.deepEqual([...translations.keys()], ['de', 'zh-cn']);
      });

      for (const [locale, bundle] of translations) {
        describe(locale, () => {
          it('has exactly the keys of the English source', () => {
            assert.deepEqual(
              Object.keys(english).filter((key) => !(key in bundle)),
              [],
              `keys missing from ${source.stem}.${locale}.json`,
            );
            assert.deepEqual(
              Object.keys(bundle).filter((key) => !(key in english)),
              [],
              `keys in ${source.stem}.${locale}.json that the English source no longer has`,
            );
          });

          it('translates every message: no empty value, none copied in English', () => {
            const allowed = SAME_AS_ENGLISH[locale] ?? new Set<string>();
            const empty = Object.entries(bundle).filter(([, text]) => typeof text !== 'string' || text.trim() === '');
            assert.deepEqual(empty, [], `${source.stem}.${locale}.json: messages without a translation`);
            const untranslated = Object.entries(bundle).filter(([key, text]) => text === english[key] && reads(text) && !allowed.has(text));
            assert.deepEqual(untranslated, [], `${source.stem}.${locale}.json: messages still in English (or add them to SAME_AS_ENGLISH)`);
          });

          it('keeps every placeholder, code span, link target, setting id, number and line break', () => {
            const broken: string[] = [];
            for (const [key, source] of Object.entries(english)) {
              const text = bundle[key];
              if (text === undefined) continue;
              const [want, got] = [invariants(source), invariants(text)];
              const lost = want.filter((x) => !got.includes(x));
              const added = got.filter((x) => !want.includes(x));
              if (lost.length + added.length > 0 || want.length !== got.length)
                broken.push(`${JSON.stringify(key)} → ${JSON.stringify(text)}: lost [${lost.join(', ')}], added [${added.join(', ')}]`);
            }
            assert.deepEqual(broken, [], `${source.stem}.${locale}.json`);
          });
        });
      }
    });
  }

  it('ships the English sources and every translation, and neither the glossary nor the pseudo-locale', function () {
    // `npx vsce ls` starts Node twice; on a busy 2-core machine that alone can pass mocha's 10 s.
    this.timeout(60_000);
    // The pseudo-locale bundles exist after any run in qps-ploc; make sure they do, so their absence from the package is tested.
    for (const source of sources) {
      const pseudo = join(source.dir, `${source.stem}.${PSEUDO_LOCALE}.json`);
      if (!existsSync(pseudo)) writeFileSync(pseudo, `${JSON.stringify(pseudoBundle(read(join(source.dir, `${source.stem}.json`))), null, 2)}\n`);
    }
    // `vsce ls` applies .vscodeignore exactly as `vsce package` does (npx is a .cmd on Windows: a shell runs it).
    const shipped = execFileSync('npx', ['vsce', 'ls', '--no-dependencies'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      shell: process.platform === 'win32',
    })
      .split(/\r?\n/)
      .filter((file) => file.startsWith('package.nls') || file.startsWith('l10n/'));
    const expected = sources.flatMap((source) => {
      const prefix = source.dir === root ? '' : 'l10n/';
      return [`${prefix}${source.stem}.json`, ...[...translationsOf(source.dir, source.stem).keys()].map((locale) => `${prefix}${source.stem}.${locale}.json`)];
    });
    assert.deepEqual(shipped.sort(), expected.sort());
  });

  it('finds what must stay fixed in a message', () => {
    assert.deepEqual(
      invariants('Run `npm run demo` for {0} of {name}: $(check) [Sign In](command:a.b) in onboardingEvents.cacheSeconds, e.g. MX-4711-A0023 at https://api.example.com, \\b or \\k<name>.'),
      [
        'code span: `npm run demo`',
        'codicon: $(check)',
        'dotted name: onboardingEvents.cacheSeconds',
        'escape: \\b',
        'escape: \\k<name>',
        'line breaks: 0',
        'link target: ](command:a.b)',
        'number: MX-4711-A0023',
        'placeholder: {0}',
        'placeholder: {name}',
        'url: https://api.example.com',
      ],
    );
  });
});
