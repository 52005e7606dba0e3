// What the Machines view's title bar offers, read from package.json the way
// VS Code reads it: each view/title entry's `when` clause evaluated against
// the context keys of a signed-out and a signed-in window. And whether the
// view's title fits the title bar at the default sidebar width.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMMANDS, CONTEXT_KEYS, VIEWS } from '../../../src/extension/workbench/constants';

const root = join(__dirname, '..', '..', '..', '..');

interface MenuEntry {
  command: string;
  when?: string;
  group?: string;
}
interface Manifest {
  contributes: {
    viewsContainers: { activitybar: { id: string; title: string }[] };
    views: Record<string, { id: string; name: string }[]>;
    menus: Record<string, MenuEntry[]>;
  };
}
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Manifest;
const nls = JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
const text = (value: string): string => nls[/^%(.+)%$/.exec(value)?.[1] ?? ''] ?? value;

type Context = Readonly<Record<string, string | number | boolean>>;

/**
 * The part of VS Code's when-clause language our manifest uses: `||`, `&&`,
 * `!key`, `key`, `key == value`, `key != value`, `key > number`. Anything else
 * fails the test, so a new operator is added here on purpose.
 */
function holds(when: string | undefined, context: Context): boolean {
  if (when === undefined) return true;
  return when.split('||').some((alternative) =>
    alternative.split('&&').every((raw) => {
      const term = raw.trim();
      const comparison = /^([\w.]+)\s*(==|!=|>)\s*([\w.]+)$/.exec(term);
      if (comparison) {
        const [, key = '', op, value = ''] = comparison;
        const actual = context[key];
        if (op === '>') return Number(actual ?? 0) > Number(value);
        const equal = String(actual ?? '') === value;
        return op === '==' ? equal : !equal;
      }
      const negated = /^!([\w.]+)$/.exec(term);
      if (negated) return !context[negated[1] ?? ''];
      assert.match(term, /^[\w.]+$/, `unsupported when-clause term: ${term}`);
      return Boolean(context[term]);
    }),
  );
}

function titleBar(context: Context): { buttons: string[]; menu: string[] } {
  const entries = (manifest.contributes.menus['view/title'] ?? []).filter((entry) =>
    holds(entry.when, { view: VIEWS.machines, ...context }),
  );
  const name = (entry: MenuEntry): string => entry.command.replace(/^onboardingEvents\./, '');
  return {
    buttons: entries.filter((entry) => entry.group?.startsWith('navigation')).map(name),
    menu: entries.filter((entry) => !entry.group?.startsWith('navigation')).map(name),
  };
}

const signedOut: Context = {
  [CONTEXT_KEYS.signedIn]: false,
  [CONTEXT_KEYS.hasMachines]: true,
  [CONTEXT_KEYS.hasEnvironments]: true,
  workspaceFolderCount: 1,
};
const signedIn: Context = { ...signedOut, [CONTEXT_KEYS.signedIn]: true };

describe('the Machines view title bar', () => {
  it('signed out (machines kept from before): offers Sign In, and no button that needs the API, such as Filter', () => {
    const { buttons, menu } = titleBar(signedOut);
    assert.deepEqual(buttons, []);
    assert.ok(menu.includes('signIn'));
    assert.ok(!menu.includes('addEnvironment'));
    assert.ok(!menu.includes('signOut'));
  });

  it('signed in: calls the sign-in flow "Add Environment…", since that is what it does then, and shows Filter', () => {
    const { buttons, menu } = titleBar(signedIn);
    assert.deepEqual(buttons, ['refresh', 'addMachine', 'filterEvents']);
    assert.ok(menu.includes('addEnvironment'));
    assert.ok(!menu.includes('signIn'), 'no "Sign In" while signed in');
    assert.ok(menu.includes('signOut'));
    assert.deepEqual(titleBar({ ...signedIn, [CONTEXT_KEYS.filtered]: true }).buttons, ['refresh', 'addMachine', 'clearFilter']);
    assert.equal(text('%command.addEnvironment.title%'), 'Add Environment…');
    assert.equal(COMMANDS.addEnvironment, 'onboardingEvents.addEnvironment');
  });

  it('has a title that fits beside its buttons at the default sidebar width', () => {
    // VS Code titles a container with one view "<container>: <view>", or just the one name when both are the same.
    const container = manifest.contributes.viewsContainers.activitybar.find((c) => c.id === VIEWS.container);
    const view = manifest.contributes.views[VIEWS.container]?.find((v) => v.id === VIEWS.machines);
    assert.ok(container && view);
    const [c, v] = [text(container.title), text(view.name)];
    const title = c === v ? c : `${c}: ${v}`;
    // 152 px are left of a 300 px sidebar beside five buttons. Measured in the workbench's title font:
    // "Onboarding Events" 129 px, "Onboarding: Machines" 152 px (cut off), "Onboarding Events: Machines" 202 px.
    assert.ok(title.length <= 17, `"${title}" is cut off at the default sidebar width`);
  });
});
