import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { OnboardingEventsExtensionApi } from '../../src/extension';

export const EXTENSION_ID = 'onboarding-events.onboarding-events';

interface Manifest {
  contributes: {
    commands: { command: string }[];
    viewsContainers: { activitybar: { id: string }[] };
    views: Record<string, { id: string }[]>;
  };
}

describe('Activation in the real extension host', () => {
  let api: OnboardingEventsExtensionApi;
  let extension: vscode.Extension<OnboardingEventsExtensionApi>;

  before(async () => {
    const found = vscode.extensions.getExtension<OnboardingEventsExtensionApi>(EXTENSION_ID);
    assert.ok(found, `extension ${EXTENSION_ID} is installed`);
    extension = found;
    api = await extension.activate();
  });

  it('activates without error and reports how long activate() took', () => {
    assert.equal(extension.isActive, true);
    assert.equal(typeof api.activationMs, 'number');
    console.log(`    activate() took ${api.activationMs.toFixed(2)} ms in the extension host`);
  });

  it('registers every command that package.json contributes', async () => {
    const manifest = JSON.parse(readFileSync(join(extension.extensionPath, 'package.json'), 'utf8')) as Manifest;
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = manifest.contributes.commands.map((c) => c.command).filter((c) => !registered.has(c));
    assert.deepEqual(missing, []);
  });

  it('contributes the Onboarding Events container with the Machines view', async () => {
    const manifest = JSON.parse(readFileSync(join(extension.extensionPath, 'package.json'), 'utf8')) as Manifest;
    assert.deepEqual(manifest.contributes.viewsContainers.activitybar.map((c) => c.id), ['onboardingEvents']);
    assert.deepEqual(manifest.contributes.views['onboardingEvents']?.map((v) => v.id), ['onboardingEvents.machines']);
    // Focusing the view through its generated command proves the workbench knows it.
    await vscode.commands.executeCommand('onboardingEvents.machines.focus');
  });
});
