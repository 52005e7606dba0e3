// One definition per tool: what VS Code reads from package.json is what the
// code defines, and what an MCP client lists is the same plus the agreement
// field, so neither entry point can drift from the other.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AGENT_TOOLS, declinedInVsCodeText, pairingNeededText } from '../../../../../src/core/domain/agentTools/toolDefinitions';
import { LANGUAGE_MODEL_TOOLS, MCP_SERVER_PROVIDER } from '../../../../../src/extension/workbench/constants';

const root = join(__dirname, '..', '..', '..', '..', '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  contributes: {
    languageModelTools: { name: string; modelDescription: string; inputSchema: unknown }[];
    mcpServerDefinitionProviders: { id: string; label: string }[];
  };
  activationEvents: string[];
};

const nls = JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;

describe('the one definition of each agent tool', () => {
  it('is what package.json contributes to VS Code: names, model descriptions and input schemas', () => {
    const contributed = manifest.contributes.languageModelTools.map(({ name, modelDescription, inputSchema }) => ({
      name,
      modelDescription,
      inputSchema,
    }));
    const defined = Object.values(AGENT_TOOLS).map(({ name, description, inputSchema }) => ({
      name,
      modelDescription: description,
      inputSchema,
    }));
    assert.deepEqual(contributed, JSON.parse(JSON.stringify(defined)));
  });

  it('names the tools the workbench registers', () => {
    assert.deepEqual(Object.keys(AGENT_TOOLS).sort(), Object.values(LANGUAGE_MODEL_TOOLS).sort());
  });

  it('tells an MCP caller refused for want of a pairing what the user does in VS Code, and a declined one not to insist', () => {
    assert.match(
      pairingNeededText('onboardingEvents_watchOnboarding'),
      /^Nothing was started: .*not an agent paired .*run "Onboarding Events: Connect an Agent" in VS Code and to pair this agent when VS Code asks, then call onboardingEvents_watchOnboarding again\. Never ask the user for a password/,
    );
    assert.doesNotMatch(pairingNeededText('onboardingEvents_summarizeOnboarding'), /userAgreed/);
    assert.equal(
      declinedInVsCodeText('onboardingEvents_summarizeOnboarding'),
      'Nothing was read: the user declined this call when VS Code asked. Do not call onboardingEvents_summarizeOnboarding again unless the user asks for it.',
    );
  });

  it('lists the MCP server in VS Code as "Onboarding Events", activating the extension when VS Code asks for it', () => {
    const label = /^%(.+)%$/.exec(manifest.contributes.mcpServerDefinitionProviders[0]?.label ?? '')?.[1] ?? '';
    assert.deepEqual(
      manifest.contributes.mcpServerDefinitionProviders.map(({ id }) => id),
      [MCP_SERVER_PROVIDER],
    );
    assert.equal(nls[label], 'Onboarding Events');
    assert.ok(manifest.activationEvents.includes(`onMcpCollection:${MCP_SERVER_PROVIDER}`));
  });
});
