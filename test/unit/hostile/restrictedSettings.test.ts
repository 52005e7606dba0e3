// Hostile corpus: a cloned repository's .vscode/settings.json, opened in
// Restricted Mode. VS Code ignores a workspace's value of a setting only when
// package.json lists it in capabilities.untrustedWorkspaces.
// restrictedConfigurations; every other window-scoped setting is the
// repository's to choose. So every `onboardingEvents.*` setting must be either
// restricted or on the allow-list below, with the reason it is harmless from a
// stranger's repository. Add a row to one of the two, never to neither.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

interface Property {
  readonly scope?: string;
}

interface Manifest {
  readonly capabilities: {
    readonly untrustedWorkspaces: { readonly supported: string; readonly restrictedConfigurations: readonly string[] };
  };
  readonly contributes: { readonly configuration: { properties: Record<string, Property> } | { properties: Record<string, Property> }[] };
}

const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'package.json'), 'utf8')) as Manifest;
const sections = Array.isArray(manifest.contributes.configuration)
  ? manifest.contributes.configuration
  : [manifest.contributes.configuration];
const properties = Object.assign({}, ...sections.map((section) => section.properties)) as Record<string, Property>;
const restricted = new Set(manifest.capabilities.untrustedWorkspaces.restrictedConfigurations);

/**
 * Settings a workspace may set in Restricted Mode. Each one only chooses
 * whether or where something is shown, on the user's own gesture: it sends no
 * request the user's pointer did not ask for, reads nothing else, and changes
 * no word, state or severity of what is shown.
 */
const SAFE_FROM_A_WORKSPACE: Readonly<Record<string, string>> = {
  // Hovers load a machine only when the user points at its serial number; on or off, what a hover says is the same.
  'onboardingEvents.hover.enabled': 'a hover appears only under the pointer, and says the same either way',
  'onboardingEvents.hover.languages': 'which file types get that hover; the default is every one',
  // A document link opens the Machines view for the serial the user clicks; detecting one sends nothing.
  'onboardingEvents.links.enabled': 'links send nothing until clicked, and then show the clicked serial',
  // Where event details open (one preview tab or a tab per event): layout only.
  'onboardingEvents.details.panelMode': 'layout of the details tabs',
  // Which of the user's own pin lists the Machines view shows; both are written only by the user.
  'onboardingEvents.tree.pinnedScope': "chooses between two of the user's own pin lists",
};

/** Settings VS Code never reads from a workspace at all, whatever Restricted Mode says. */
function machineScoped(id: string): boolean {
  const scope = properties[id]?.scope;
  return scope === 'machine' || scope === 'application';
}

describe('hostile input: the settings a cloned repository may change in Restricted Mode', () => {
  it('the extension runs in Restricted Mode (limited), so the list is what protects the user', () => {
    assert.equal(manifest.capabilities.untrustedWorkspaces.supported, 'limited');
  });

  for (const id of Object.keys(properties)) {
    it(`${id} is restricted, machine-scoped or on the commented allow-list`, () => {
      assert.ok(
        restricted.has(id) || machineScoped(id) || id in SAFE_FROM_A_WORKSPACE,
        `${id} changes what is sent, read or told: add it to capabilities.untrustedWorkspaces.restrictedConfigurations (or, if a stranger's repository cannot mislead the user with it, to SAFE_FROM_A_WORKSPACE with the reason)`,
      );
    });
  }

  // The rows the audit found: each turns failures into something else, or turns a switch the user chose.
  for (const id of [
    'onboardingEvents.eventStates',
    'onboardingEvents.agentTools.enabled',
    'onboardingEvents.diagnostics.severity',
    'onboardingEvents.inlineStatus.mode',
  ]) {
    it(`${id} is restricted`, () => {
      assert.ok(restricted.has(id), `${id} is not in restrictedConfigurations`);
    });
  }

  it('the allow-list and the restricted list name only contributed settings, and never the same one', () => {
    for (const id of [...restricted, ...Object.keys(SAFE_FROM_A_WORKSPACE)]) assert.ok(id in properties, `${id} is not contributed`);
    for (const id of Object.keys(SAFE_FROM_A_WORKSPACE)) {
      assert.equal(restricted.has(id), false, `${id} is both restricted and allowed`);
      assert.equal(machineScoped(id), false, `${id} is machine-scoped: a workspace cannot set it, so it needs no entry`);
    }
  });
});
