import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as vscode from 'vscode';
import { settled } from '../support/settled';

const EXTENSION_ID = 'onboarding-events.onboarding-events';
const repoRoot = resolve(__dirname, '..', '..', '..');

function listFiles(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listFiles(join(dir, entry.name), `${prefix}${entry.name}/`) : [`${prefix}${entry.name}`],
  );
}

describe('The packaged .vsix installed into VS Code', () => {
  it('is installed from the package, not loaded from the repository', () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, 'the extension from the .vsix is installed');
    assert.notEqual(resolve(extension.extensionPath), repoRoot);
    // Installed extensions live in a folder named <publisher>.<name>-<version> inside the extensions dir.
    assert.match(extension.extensionPath, /[/\\]extensions[/\\]onboarding-events\.onboarding-events-\d+\.\d+\.\d+$/);
  });

  it('ships no test hooks: the production bundle leaves src/testHooks.ts out', () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension);
    const bundle = readFileSync(join(extension.extensionPath, 'dist', 'extension.js'), 'utf8');
    // The hooks' own environment variable and their record of each window appear nowhere else in src/.
    assert.doesNotMatch(bundle, /OE_TEST_WINDOW_RECORDS|waitForRendered/);
  });

  it('ships the bundles and assets and nothing else from the source tree', () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension);
    // vsce stores README/CHANGELOG in lower case and LICENSE as LICENSE.txt.
    const files = listFiles(extension.extensionPath);
    const lower = new Set(files.map((f) => f.toLowerCase()));
    const required = [
      'package.json',
      'dist/extension.js',
      'dist/undiciTransport.js',
      'dist/mcp.js',
      'media/icon.png',
      'media/activitybar.svg',
      'media/details/details.js',
      'media/details/details.css',
      'media/codicons/codicon.css',
      'media/codicons/codicon.ttf',
      'media/walkthrough/sign-in.png',
      'media/walkthrough/machines.png',
      'media/walkthrough/hover.png',
      'media/walkthrough/details.png',
      'media/walkthrough/settings.md',
      'readme.md',
      'license.txt',
      'changelog.md',
    ];
    for (const file of required) assert.ok(lower.has(file.toLowerCase()), `${file} is in the package`);
    const leaked = files.filter((f) => /^(src|test|scripts|node_modules|out)\//.test(f) || f.endsWith('.map') || f.endsWith('.ts'));
    assert.deepEqual(leaked, []);
    assert.ok(!existsSync(join(extension.extensionPath, 'node_modules')));
  });

  it('activates and registers its commands', async function () {
    this.timeout(30_000);
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension);
    if (!extension.isActive) await settled();
    const api = (await extension.activate()) as { activationMs?: number };
    assert.equal(extension.isActive, true);
    // A figure for the notes (production bundle), not a timed assertion.
    console.log(`    activate() of the packaged extension took ${api.activationMs?.toFixed(2) ?? '?'} ms`);
    const commands = await vscode.commands.getCommands(true);
    for (const id of ['onboardingEvents.signIn', 'onboardingEvents.lookUpMachine', 'onboardingEvents.refresh']) {
      assert.ok(commands.includes(id), `${id} is registered`);
    }
  });
});
