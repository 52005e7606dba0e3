// One casing for a kind of word (ARCHITECTURE.md, "Glossary"): a discriminant — a string-literal
// type that is a union member or a property's type, such as a state, a kind or a message type — is
// kebab-case ('in-progress', 'load-more'). camelCase stands only where the value is not ours to
// spell: it names a property, or it leaves the program (a setting, a stored key, a Node event).
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as ts from 'typescript';

const root = join(__dirname, '..', '..', '..', '..');

/** The camelCase values that stay, each with why. */
export const NOT_OURS: Readonly<Record<string, string>> = {
  activeEditor: "an agent tool's input (package.json languageModelTools schema)",
  currentLine: 'a value of the onboardingEvents.inlineStatus.mode setting',
  claudeCode: 'an agent kind: the key its agent key is stored under in globalState, and connectAgent’s argument',
  geminiCli: 'an agent kind: the key its agent key is stored under in globalState, and connectAgent’s argument',
  secureConnect: "Node's TLS socket event",
  apiBaseUrl: 'names a property (a sign-in field)',
  authUrl: 'names a property (a sign-in field)',
  clientId: 'names a property (a sign-in field)',
  clientSecret: 'names a property (a sign-in field)',
  assetId: "names an event's field (what the details page copies)",
  serialNumber: "names an event's field (what the details page copies)",
};

const CAMEL = /^[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+$/;

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** A union member or a property's type; not a key named in Pick/Omit, an indexed access or a type argument. */
function isDiscriminant(node: ts.LiteralTypeNode): boolean {
  let parent: ts.Node = node.parent;
  while (ts.isUnionTypeNode(parent) || ts.isParenthesizedTypeNode(parent)) parent = parent.parent;
  return !(
    ts.isTypeReferenceNode(parent) ||
    ts.isIndexedAccessTypeNode(parent) ||
    ts.isExpressionWithTypeArguments(parent) ||
    ts.isCallExpression(parent) ||
    ts.isNewExpression(parent) ||
    ts.isTypeOperatorNode(parent) ||
    ts.isImportTypeNode(parent) ||
    ts.isMappedTypeNode(parent) ||
    ts.isTypeParameterDeclaration(parent)
  );
}

export function camelDiscriminants(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isLiteralTypeNode(node) && ts.isStringLiteral(node.literal) && isDiscriminant(node)) {
      const value = node.literal.text;
      if (CAMEL.test(value) && NOT_OURS[value] === undefined) {
        const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
        found.push(
          `${file}:${line}: '${value}' is camelCase; a discriminant is kebab-case ('${value.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}')`,
        );
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the glossary: discriminants are kebab-case', () => {
  it('no src/**/*.ts file declares a camelCase discriminant of its own', function () {
    this.timeout(30_000);
    const found = tsFiles(join(root, 'src')).flatMap((path) =>
      camelDiscriminants(relative(root, path).split('\\').join('/'), readFileSync(path, 'utf8')),
    );
    assert.deepEqual(found, []);
  });

  it('finds a camelCase member of a union or a property type, and leaves keys, settings and kebab-case alone', () => {
    const text = [
      "type State = 'in-progress' | 'noEvents';",
      "type Message = { readonly type: 'loadMore' } | { readonly type: 'ready' };",
      "type Key = Pick<Row, 'serialNumber' | 'firstAt'>;",
      "type Mode = 'all' | 'currentLine' | 'off';",
    ].join('\n');
    assert.deepEqual(camelDiscriminants('src/x.ts', text), [
      "src/x.ts:1: 'noEvents' is camelCase; a discriminant is kebab-case ('no-events')",
      "src/x.ts:2: 'loadMore' is camelCase; a discriminant is kebab-case ('load-more')",
    ]);
  });
});
