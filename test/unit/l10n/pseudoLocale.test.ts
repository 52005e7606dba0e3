// The pseudo-locale marks every localized character and leaves alone what a
// program reads, so a run in `qps-ploc` shows English only where a string
// bypassed l10n, and nothing the extension needs (a {0}, a command link, a
// setting id) is broken by the transform itself.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { invariants, translatableText } from '../../support/l10n/invariants';
import { CLOSE, OPEN, pseudoBundle, pseudoLocalize } from '../../support/l10n/pseudoLocale';

const root = join(__dirname, '..', '..', '..', '..');
const bundles: readonly [string, Record<string, string>][] = [
  ['l10n/bundle.l10n.json', JSON.parse(readFileSync(join(root, 'l10n', 'bundle.l10n.json'), 'utf8')) as Record<string, string>],
  ['package.nls.json', JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8')) as Record<string, string>],
];

/** VS Code's own test for a welcome-view button: a line that is one `[label](target)` (its label may not hold `]`). */
const WELCOME_BUTTON = /^\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)$/;

describe('pseudo-locale (qps-ploc)', () => {
  it('accents every letter, wraps the message in ⟦ ⟧ and pads it by about 30 %', () => {
    assert.equal(pseudoLocalize('Sign In'), '⟦Šîĝñ Îñ ··⟧');
    assert.equal(pseudoLocalize('Refresh All Machines'), '⟦Ŕéƒŕéšĥ Åļļ Ṁåçĥîñéš ·····⟧');
  });

  it('leaves placeholders, code spans, codicons, setting ids, URLs and example values as they are', () => {
    assert.equal(pseudoLocalize('Sign-in needs {0}.'), '⟦Šîĝñ-îñ ñééðš {0}. ···⟧');
    assert.equal(
      pseudoLocalize('$(check) Copied `{base_url}` to onboardingEvents.apiBaseUrl, e.g. https://api.example.com or MX-4711-A0023'),
      '⟦$(check) Çöþîéð `{base_url}` ţö onboardingEvents.apiBaseUrl, é.ĝ. https://api.example.com öŕ MX-4711-A0023 ····⟧',
    );
  });

  it('keeps a welcome view button a button and an inline command link a link', () => {
    const welcome = pseudoLocalize('No machines yet.\n[Add Machine](command:onboardingEvents.addMachine)\nOr [Test Connection](command:x.y) now.');
    const [first, button, inline] = welcome.split('\n');
    assert.equal(first, '⟦Ñö ɱåçĥîñéš ýéţ. ····⟧');
    assert.equal(button, '[⟦Åðð Ṁåçĥîñé ···⟧](command:onboardingEvents.addMachine)');
    assert.equal(WELCOME_BUTTON.exec(button)?.[2], 'command:onboardingEvents.addMachine');
    assert.equal(inline, '⟦Öŕ [Ţéšţ Çöññéçţîöñ](command:x.y) ñöŵ. ······⟧');
  });

  for (const [name, english] of bundles) {
    it(`turns every message of ${name} into one with no English letter outside what must stay fixed`, () => {
      const pseudo = pseudoBundle(english);
      assert.deepEqual(Object.keys(pseudo), Object.keys(english));
      const leaks: string[] = [];
      for (const [key, text] of Object.entries(pseudo)) {
        const source = english[key] ?? '';
        if (JSON.stringify(invariants(text)) !== JSON.stringify(invariants(source))) leaks.push(`${key}: changed a fixed part: ${text}`);
        if (/[A-Za-z]/.test(translatableText(text))) leaks.push(`${key}: English letters left: ${text}`);
        for (const line of text.split('\n')) {
          if (line.trim() === '') continue;
          const marked = line.startsWith(OPEN) ? line : (WELCOME_BUTTON.exec(line)?.[1] ?? '');
          if (!marked.startsWith(OPEN) || !marked.endsWith(CLOSE)) leaks.push(`${key}: a line not wrapped in ${OPEN} ${CLOSE}: ${line}`);
        }
        // About 30 % longer than the English it stands for: the room German needs.
        const letters = (translatableText(source).match(/[A-Za-z]/g) ?? []).length;
        if (letters > 0 && Array.from(text).length < Array.from(source).length + Math.round(letters * 0.3)) leaks.push(`${key}: not padded: ${text}`);
      }
      assert.deepEqual(leaks, []);
    });
  }
});
