// The ids in src/extension/workbench/constants.ts and in package.json are the same ids.
// (constants.ts imports nothing of vscode, so it is read under plain mocha.)
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMMANDS, CONTEXT_KEYS, VIEWS, WEBVIEWS } from '../../../src/extension/workbench/constants';

const root = join(__dirname, '..', '..', '..', '..');
const manifestText = readFileSync(join(root, 'package.json'), 'utf8');
const manifest = JSON.parse(manifestText) as {
  contributes: {
    commands: { command: string }[];
    views: Record<string, { id: string }[]>;
    viewsContainers: { activitybar: { id: string }[] };
  };
};

describe('ids shared with package.json', () => {
  it('every contributed command is in COMMANDS, and every palette command in COMMANDS is contributed', () => {
    const contributed = manifest.contributes.commands.map((c) => c.command).sort();
    const ours = Object.values(COMMANDS) as string[];
    for (const id of contributed) assert.ok(ours.includes(id), `${id} is contributed but not in COMMANDS`);
    const internal = ours.filter((id) => !contributed.includes(id)).sort();
    // Internal commands are targets of our own links and buttons, not for the palette.
    assert.deepEqual(internal, [COMMANDS.notASerialNumber, COMMANDS.sessionMenu, COMMANDS.signInAgain].sort());
  });

  it('views and the container are the ones contributed', () => {
    assert.deepEqual(
      manifest.contributes.viewsContainers.activitybar.map((c) => c.id),
      [VIEWS.container],
    );
    assert.deepEqual(
      manifest.contributes.views[VIEWS.container]?.map((v) => v.id),
      [VIEWS.machines],
    );
  });

  it('every context key a when clause reads is in CONTEXT_KEYS', () => {
    const whenClauses = [...manifestText.matchAll(/"(?:when|enablement)":\s*"([^"]*)"/g)].map((m) => m[1] ?? '');
    // `config.onboardingEvents.…` reads a setting (VS Code's own context key for it), not one of ours.
    const keys = new Set(
      whenClauses.flatMap((clause) => [...clause.matchAll(/(?<!config\.)onboardingEvents\.[A-Za-z.]+/g)].map((m) => m[0])),
    );
    const commandIds = new Set<string>(Object.values(COMMANDS));
    const viewIds = new Set<string>([...Object.values(VIEWS), ...Object.values(WEBVIEWS)]);
    const unknown = [...keys].filter(
      (key) => !(Object.values(CONTEXT_KEYS) as string[]).includes(key) && !commandIds.has(key) && !viewIds.has(key),
    );
    assert.deepEqual(unknown, []);
    const settings = Object.keys(
      (JSON.parse(manifestText) as { contributes: { configuration: { properties: Record<string, unknown> } } }).contributes.configuration
        .properties,
    );
    const readSettings = whenClauses.flatMap((clause) =>
      [...clause.matchAll(/config\.(onboardingEvents\.[A-Za-z.]+)/g)].map((m) => m[1] ?? ''),
    );
    assert.deepEqual(
      readSettings.filter((id) => !settings.includes(id)),
      [],
      'when clauses read only contributed settings',
    );
  });
});
