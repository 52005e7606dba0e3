// Ready for translation: every string the user sees comes from package.nls.json
// (the manifest) or goes through vscode.l10n (the code), and the English source
// bundle translators start from, l10n/bundle.l10n.json, is complete and current.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as ts from 'typescript';
import { bundleText, extractMessages, sourceFiles } from '../../support/l10n/extract';

const root = join(__dirname, '..', '..', '..', '..');
const UPDATE = 'npx tsc -p tsconfig.tests.json && node out/test/support/l10n/export.js';

/**
 * Files whose owner has yet to route a message through vscode.l10n; remove an
 * entry once done. src/extension.ts: the activation-failure message.
 */
const NOT_YET_LOCALIZED = new Set<string>();

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { [key: string]: Json };
const nls = JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;

/** Manifest fields VS Code shows to the user, by name, wherever they sit under `contributes`. */
const SHOWN_FIELDS = new Set(['title', 'category', 'name', 'contextualTitle', 'contents', 'label', 'description', 'markdownDescription', 'enumDescriptions', 'markdownEnumDescriptions', 'deprecationMessage', 'markdownDeprecationMessage', 'displayName', 'altText', 'userDescription']);

/** Every [path, text] of a user-visible manifest string. */
function shownStrings(value: Json, path: string, shown: boolean, out: [string, string][]): [string, string][] {
  if (typeof value === 'string') {
    if (shown) out.push([path, value]);
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => shownStrings(item, `${path}[${index}]`, shown, out));
  } else if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      // A setting's `default` and `enum` values are data, and `properties` holds setting ids, not labels.
      // A language model tool's `name` is its id, and its modelDescription and inputSchema are read by the model, not shown: English, like its results.
      const modelFacing = `${path}.`.includes('.inputSchema.') || (key === 'name' && /^\.contributes\.languageModelTools\[\d+\]$/.test(path));
      shownStrings(child, `${path}.${key}`, SHOWN_FIELDS.has(key) && path !== '.contributes.configuration.properties' && !modelFacing, out);
    }
  }
  return out;
}

function manifestShownStrings(): [string, string][] {
  const out: [string, string][] = [];
  for (const key of ['displayName', 'description'] as const) {
    const value = manifest[key];
    if (typeof value === 'string') out.push([`.${key}`, value]);
  }
  const contributes = manifest['contributes'];
  assert.ok(contributes !== undefined);
  // Restricted Mode and virtual-workspace descriptions show in VS Code's trust editor and extension page.
  const capabilities = manifest['capabilities'];
  if (capabilities !== undefined) shownStrings(capabilities, '.capabilities', false, out);
  return shownStrings(contributes, '.contributes', false, out);
}

describe('localization', () => {
  describe('package.json', () => {
    it('takes every user-visible string from package.nls.json by %key%', () => {
      const literal = manifestShownStrings().filter(([, text]) => !/^%[^%]+%$/.test(text));
      assert.deepEqual(literal, [], 'user-visible manifest strings that are not %key% references');
    });

    it('defines every %key% it uses in package.nls.json, and package.nls.json holds no unused key', () => {
      const used = new Set(manifestShownStrings().map(([, text]) => text.slice(1, -1)));
      assert.deepEqual([...used].filter((key) => nls[key] === undefined), [], 'keys missing from package.nls.json');
      assert.deepEqual(Object.keys(nls).filter((key) => !used.has(key)), [], 'keys in package.nls.json that package.json does not use');
      for (const [key, text] of Object.entries(nls)) assert.ok(text.trim() !== '', `${key} has English text`);
    });

    it('names the l10n folder that holds the run-time bundles', () => {
      assert.equal(manifest['l10n'], './l10n');
    });
  });

  describe('code', () => {
    const extracted = extractMessages(root);

    it('passes vscode.l10n.t (or the t a pure module is given) a literal message, so the message can be extracted', () => {
      assert.deepEqual(extracted.problems, []);
      assert.ok(extracted.messages.length > 200, `found ${extracted.messages.length} messages`);
      // Spot checks from each area: sign-in, tree, hover (pure, via ctx.t), details page strings, look-up.
      for (const message of ['Sign-in failed: {0} Nothing was stored.', 'Load More…', 'Not up to date: last loaded {0}.', 'Open in browser, link {0}', 'Look up this serial number']) {
        assert.ok(extracted.messages.includes(message), `extracted "${message}"`);
      }
    });

    it('keeps l10n/bundle.l10n.json equal to the messages in the code', () => {
      const bundle = readFileSync(join(root, 'l10n', 'bundle.l10n.json'), 'utf8');
      assert.equal(bundle, bundleText(extracted.messages), `l10n/bundle.l10n.json is out of date: run ${UPDATE}`);
    });

    it('uses only numbered placeholders, each of which a translation can move', () => {
      for (const message of extracted.messages) {
        const named = /\{(?!\d+\})[^}]*\}/.exec(message);
        assert.equal(named, null, `"${message}" uses {0}, {1}… only`);
      }
    });

    it('shows no hard-coded English in messages, quick picks, input boxes or tree items', () => {
      // Properties and calls that put text in front of the user; literals there must come from l10n.
      const shownProperties = new Set(['title', 'placeHolder', 'prompt', 'tooltip', 'description', 'detail', 'label', 'message', 'validationMessage', 'text', 'name']);
      const shownCalls = /^vscode\.window\.show(Information|Warning|Error)Message$|^vscode\.window\.setStatusBarMessage$/;
      const looksLikeWords = (text: string): boolean => /[A-Za-z]{2,}[ ,.:!?]+[A-Za-z]{2,}/.test(text) && !/^https?:\/\//.test(text);
      const found: string[] = [];
      for (const file of sourceFiles(join(root, 'src'))) {
        const path = relative(root, file).replace(/\\/g, '/');
        // What a language model reads is English, like the tools' results and the manifest's modelDescription and
        // inputSchema (exempt above): the tools' one definition, and the MCP server (dist/mcp.js, no vscode.l10n there).
        const modelFacing = path === 'src/core/domain/agentTools/toolDefinitions.ts' || (path.startsWith('src/mcp/') || path === 'src/core/agents/mcpServer.ts');
        if (path.startsWith('src/core/client/') || modelFacing || NOT_YET_LOCALIZED.has(path)) continue;
        const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
        const isText = (node: ts.Node | undefined): node is ts.StringLiteral | ts.NoSubstitutionTemplateLiteral | ts.TemplateExpression =>
          node !== undefined && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node));
        const report = (node: ts.Node): void => {
          found.push(`${path}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}: ${node.getText(source).slice(0, 100)}`);
        };
        const visit = (node: ts.Node): void => {
          if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && shownProperties.has(node.name.text) && isText(node.initializer)) {
            const text = ts.isTemplateExpression(node.initializer) ? node.initializer.head.text : node.initializer.text;
            if (looksLikeWords(text)) report(node);
          }
          if (ts.isCallExpression(node) && shownCalls.test(node.expression.getText(source)) && isText(node.arguments[0])) report(node);
          ts.forEachChild(node, visit);
        };
        visit(source);
      }
      assert.deepEqual(found, []);
    });
  });
});
