// The sign-in prefills the API and authorization URLs from settings (ahead of
// the last environment), and the client secret and password then go to that
// authorization server. A workspace's .vscode/settings.json comes with a cloned
// repository, so it must not be able to set them: only the user's own settings.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

interface Manifest {
  contributes: { configuration: { properties: Record<string, { scope?: string }> } | { properties: Record<string, { scope?: string }> }[] };
}

function properties(): Record<string, { scope?: string }> {
  const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'package.json'), 'utf8')) as Manifest;
  const sections = Array.isArray(manifest.contributes.configuration)
    ? manifest.contributes.configuration
    : [manifest.contributes.configuration];
  return Object.assign({}, ...sections.map((section) => section.properties)) as Record<string, { scope?: string }>;
}

describe('URL settings that decide where credentials go', () => {
  for (const key of ['onboardingEvents.apiBaseUrl', 'onboardingEvents.authUrl']) {
    it(`${key} can be set only in user (machine) settings, never by a workspace`, () => {
      const setting = properties()[key];
      assert.ok(setting, `${key} is contributed`);
      assert.ok(
        setting.scope === 'machine' || setting.scope === 'application',
        `scope is ${setting.scope ?? 'window (the default), which a workspace can set'}`,
      );
    });
  }
});
