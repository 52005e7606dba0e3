// One definition per tool: what VS Code reads from package.json is what the
// code defines, and what an MCP client lists is the same plus the agreement
// field, so neither door can drift from the other.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { agreementNeededText, AGENT_TOOLS, mcpToolOf, USER_AGREED, userAgreed } from '../../../src/domain/agentTools/toolDefinitions';
import { LANGUAGE_MODEL_TOOLS, MCP_SERVER_PROVIDER } from '../../../src/workbench/constants';

const root = join(__dirname, '..', '..', '..', '..');
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

  it('gives MCP clients the same schema plus a boolean agreement field, and says when to set it', () => {
    for (const definition of Object.values(AGENT_TOOLS)) {
      const tool = mcpToolOf(definition);
      assert.equal(tool.name, definition.name);
      assert.ok(tool.description.startsWith(definition.description));
      assert.match(tool.description, /only if they agree/);
      const { [USER_AGREED]: agreed, ...rest } = tool.inputSchema.properties;
      assert.deepEqual(rest, definition.inputSchema.properties);
      assert.equal(agreed?.['type'], 'boolean');
      assert.deepEqual(tool.inputSchema.required, definition.inputSchema.required);
    }
  });

  it('reads the agreement only as the boolean true', () => {
    assert.equal(userAgreed({ userAgreed: true }), true);
    for (const input of [{ userAgreed: 'true' }, { userAgreed: 1 }, {}, null, 'userAgreed', undefined])
      assert.equal(userAgreed(input), false);
    assert.match(
      agreementNeededText('why.', 'tool_x'),
      /^Nothing was read: why\. .*call tool_x again with the same input and "userAgreed": true\.$/,
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
