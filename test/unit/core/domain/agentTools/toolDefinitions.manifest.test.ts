// The tools package.json contributes are the ones the code registers, each
// gated by the setting, and the README lists them.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AGENT_TOOLS, type AgentToolName } from '../../../../../src/core/domain/agentTools/toolDefinitions';
import { LANGUAGE_MODEL_TOOLS } from '../../../../../src/extension/workbench/constants';

interface ContributedTool {
  readonly name: string;
  readonly displayName: string;
  readonly toolReferenceName?: string;
  readonly canBeReferencedInPrompt?: boolean;
  readonly icon?: string;
  readonly userDescription?: string;
  readonly modelDescription: string;
  readonly tags?: readonly string[];
  readonly inputSchema?: { readonly type: string; readonly required?: readonly string[]; readonly properties?: object };
  readonly when?: string;
}

const root = join(__dirname, '..', '..', '..', '..', '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  activationEvents: string[];
  contributes: { languageModelTools: ContributedTool[]; configuration: { properties: Record<string, { default?: unknown }> } };
};
const nls = JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const tools = manifest.contributes.languageModelTools;

describe('agent tools in package.json and the README', () => {
  it('contributes exactly the tools the code registers', () => {
    assert.deepEqual(tools.map((tool) => tool.name).sort(), Object.values(LANGUAGE_MODEL_TOOLS).sort());
  });

  it('gives each tool a when clause on the setting, an icon, a user and a model description, and an object input schema', () => {
    assert.equal(manifest.contributes.configuration.properties['onboardingEvents.agentTools.enabled']?.default, true);
    for (const tool of tools) {
      assert.equal(tool.when, 'config.onboardingEvents.agentTools.enabled', tool.name);
      assert.match(tool.icon ?? '', /^\$\([a-z-]+\)$/, tool.name);
      assert.ok(tool.canBeReferencedInPrompt === true && (tool.toolReferenceName ?? '') !== '', tool.name);
      assert.ok(nls[/^%(.+)%$/.exec(tool.displayName)?.[1] ?? ''], `${tool.name}: displayName from package.nls.json`);
      assert.ok(nls[/^%(.+)%$/.exec(tool.userDescription ?? '')?.[1] ?? ''], `${tool.name}: userDescription from package.nls.json`);
      assert.ok(tool.modelDescription.length > 300, `${tool.name}: a model description that says what, when and what not`);
      assert.match(tool.modelDescription, /never|not/i);
      assert.equal(tool.inputSchema?.type, 'object');
      // The watch tool's one input is optional (none lists the watches); every other tool requires one.
      const required = tool.inputSchema.required ?? [];
      assert.ok(required.length > 0 || tool.name === LANGUAGE_MODEL_TOOLS.watch, tool.name);
      for (const name of required) assert.ok(Object.hasOwn(tool.inputSchema.properties ?? {}, name), `${tool.name}: ${name} is declared`);
      // Only the tools that change nothing say so; the watch tool changes this window's watch list.
      assert.equal(tool.tags?.includes('read-only'), AGENT_TOOLS[tool.name as AgentToolName].readOnly, `${tool.name}: read-only tag`);
      assert.ok(
        manifest.activationEvents.includes(`onLanguageModelTool:${tool.name}`),
        `${tool.name}: activates the extension when called first`,
      );
    }
  });

  it('lists each tool in the README table with its reference name and display name', () => {
    const section = readme.slice(readme.indexOf('\n## Language Model Tools\n')).split('\n## ')[1] ?? '';
    const rows = section
      .split('\n')
      .filter((line) => line.startsWith('|'))
      .slice(2)
      .map((line) =>
        line
          .slice(1, -1)
          .split('|')
          .map((cell) => cell.trim()),
      );
    assert.deepEqual(
      rows.map((row) => [row[0], row[1], row[2]]),
      tools.map((tool) => [`\`${tool.name}\``, `\`#${tool.toolReferenceName ?? ''}\``, nls[tool.displayName.slice(1, -1)]]),
    );
  });
});
