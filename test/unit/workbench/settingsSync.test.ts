// Settings Sync carries what the user curates to their other machines, and
// nothing secret or tied to one environment: the keys registerSettingsSync
// hands to VS Code, checked against every state key the sources declare.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { registerSettingsSync, STATE_KEYS, SYNCED_STATE_KEYS } from '../../../src/extension/workbench/constants';
import { PINNED_KEY, RECENT_KEY } from '../../../src/extension/machines/machineLists';
import { SEEN_KEY } from '../../../src/extension/machines/seenTracker';
import { CONFIRMED_ENDPOINTS_KEY, ENVIRONMENTS_KEY, LAST_ENVIRONMENT_KEY, secretKey } from '../../../src/extension/session/credentialStore';
import { WATCHES_KEY } from '../../../src/extension/watch/watchList';
import { AGENT_KEYS_KEY } from '../../../src/core/agents/pairings';

const srcDir = join(__dirname, '..', '..', '..', '..', 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

/** Every `const …KEY = 'onboardingEvents.…'` (and key prefix) declared in src/, outside constants.ts. */
function declaredStateKeys(): string[] {
  return sourceFiles(srcDir)
    .filter((file) => !file.endsWith(join('workbench', 'constants.ts')))
    .flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/const \w*(?:KEY|PREFIX)\w* = '(onboardingEvents\.[^']*)'/g)].map((m) => m[1] ?? ''),
    );
}

function syncedByRegister(): string[] {
  let synced: readonly string[] | undefined;
  registerSettingsSync({ globalState: { setKeysForSync: (keys) => (synced = keys) } });
  assert.ok(synced, 'registerSettingsSync calls setKeysForSync');
  return [...synced];
}

describe('Settings Sync of global state', () => {
  it('syncs the pinned machines (kept globally) and the look-up history, and nothing else', () => {
    assert.deepEqual(syncedByRegister().sort(), [PINNED_KEY, RECENT_KEY].sort());
  });

  it('syncs no secret, no environment and nothing derived from one environment’s results', () => {
    const synced = syncedByRegister();
    const secretPrefix = secretKey('');
    for (const key of synced) assert.ok(!key.startsWith(secretPrefix), `${key} would sync a secret`);
    for (const key of [ENVIRONMENTS_KEY, LAST_ENVIRONMENT_KEY, SEEN_KEY]) assert.ok(!synced.includes(key), `${key} is per environment`);
  });

  it('STATE_KEYS names the same strings the features use', () => {
    assert.deepEqual(
      { ...STATE_KEYS },
      {
        pinnedMachines: PINNED_KEY,
        recentMachines: RECENT_KEY,
        seenEvents: SEEN_KEY,
        environments: ENVIRONMENTS_KEY,
        lastEnvironment: LAST_ENVIRONMENT_KEY,
        confirmedEndpoints: CONFIRMED_ENDPOINTS_KEY,
        watches: WATCHES_KEY,
        agentKeys: AGENT_KEYS_KEY,
      },
    );
  });

  it('every state key declared in src/ is in STATE_KEYS (so a new one decides whether it syncs) or is the secret prefix', () => {
    const known = new Set<string>([...Object.values(STATE_KEYS), secretKey('')]);
    const declared = declaredStateKeys();
    assert.ok(declared.length >= 5, `found the declared keys (${declared.join(', ')})`);
    assert.deepEqual(
      declared.filter((key) => !known.has(key)),
      [],
    );
    for (const key of SYNCED_STATE_KEYS) assert.ok(declared.includes(key), `${key} is declared by a feature`);
  });
});
