// Messages name the sign-in and Test Connection commands ("Run 'Onboarding
// Events: Sign In' again."): the name in a translated message must be the one
// the user finds in the Command Palette, which VS Code builds from the
// command's category and title in package.nls.<locale>.json. A bundle that
// translates the name its own way sends the user looking for a command that
// does not exist.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Localize } from '../../../src/core/common/localize';
import { signInCommand, testConnectionCommand } from '../../../src/extension/workbench/remedies';

const root = join(__dirname, '..', '..', '..', '..');

type Strings = Record<string, string>;

function read(...path: string[]): Strings {
  return JSON.parse(readFileSync(join(root, ...path), 'utf8')) as Strings;
}

interface Command {
  readonly command: string;
  readonly title: string;
  readonly category?: string;
}

const commands = (read('package.json') as unknown as { contributes: { commands: Command[] } }).contributes.commands;

/** The package.nls key behind a manifest string such as "%command.signIn.title%". */
function nlsKey(value: string | undefined): string {
  const key = /^%(.+)%$/.exec(value ?? '')?.[1];
  assert.ok(key !== undefined, `not a %key% reference: ${String(value)}`);
  return key;
}

/** The command's palette label in one language: category, ": ", title, as VS Code joins them. */
function paletteLabel(id: string, nls: Strings): string {
  const command = commands.find((c) => c.command === id);
  assert.ok(command !== undefined, `package.json contributes no command ${id}`);
  const [category, title] = [nls[nlsKey(command.category)], nls[nlsKey(command.title)]];
  assert.ok(category !== undefined && title !== undefined, `package.nls lacks the category or title of ${id}`);
  return `${category}: ${title}`;
}

/** t as vscode.l10n.t behaves with `bundle` loaded, but failing on a message the bundle lacks instead of falling back to English. */
function localizeFrom(bundle: Strings): Localize {
  return (message) => {
    const text = bundle[message];
    assert.ok(text !== undefined, `the bundle lacks ${JSON.stringify(message)}`);
    return text;
  };
}

const languages: readonly { readonly locale: string; readonly nls: Strings; readonly bundle: Strings }[] = [
  // English: the source bundle maps each message to itself, so this checks the message literal in the code.
  { locale: 'en', nls: read('package.nls.json'), bundle: read('l10n', 'bundle.l10n.json') },
  { locale: 'de', nls: read('package.nls.de.json'), bundle: read('l10n', 'bundle.l10n.de.json') },
  { locale: 'zh-cn', nls: read('package.nls.zh-cn.json'), bundle: read('l10n', 'bundle.l10n.zh-cn.json') },
];

describe('command names in messages', () => {
  for (const { locale, nls, bundle } of languages) {
    describe(locale, () => {
      const t = localizeFrom(bundle);

      it("names the sign-in command as the Command Palette shows it, in ''", () => {
        assert.equal(signInCommand(t), `'${paletteLabel('onboardingEvents.signIn', nls)}'`);
      });

      it("names the Test Connection command as the Command Palette shows it, in ''", () => {
        assert.equal(testConnectionCommand(t), `'${paletteLabel('onboardingEvents.testConnection', nls)}'`);
      });
    });
  }
});
