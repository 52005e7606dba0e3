// Finds every string the extension localizes at run time, the way
// `@vscode/l10n-dev export` does, so l10n/bundle.l10n.json (the English
// source bundle translators start from) can be written and checked without
// that tool. A message is the first argument of `vscode.l10n.t(…)` or of a
// `t(…)` / `ctx.t(…)` that pure modules receive in its place.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as ts from 'typescript';

export interface Extracted {
  /** Every message, sorted, once. */
  readonly messages: readonly string[];
  /** Calls whose message is not a literal, so no tool can extract it ("file:line: text"). */
  readonly problems: readonly string[];
}

/** Parameter names through which a Localize forwards its message (`(message, ...args) => vscode.l10n.t(message, ...args)`). */
const FORWARDED = new Set(['message']);

export function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files.push(...sourceFiles(path));
    else if (path.endsWith('.ts') && !path.endsWith('.d.ts')) files.push(path);
  }
  return files.sort();
}

function isLocalizeCall(node: ts.CallExpression): boolean {
  const callee = node.expression;
  if (ts.isIdentifier(callee)) return callee.text === 't';
  return ts.isPropertyAccessExpression(callee) && callee.name.text === 't';
}

export function extractMessages(root: string): Extracted {
  const messages = new Set<string>();
  const problems: string[] = [];
  for (const file of sourceFiles(join(root, 'src'))) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const where = (node: ts.Node): string => `${relative(root, file)}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && isLocalizeCall(node)) {
        const first = node.arguments[0];
        if (first !== undefined && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first))) messages.add(first.text);
        else if (!(first !== undefined && ts.isIdentifier(first) && FORWARDED.has(first.text))) problems.push(`${where(node)}: ${node.getText(source).slice(0, 120)}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { messages: [...messages].sort(), problems };
}

/** The English source bundle: each message maps to itself. */
export function bundleText(messages: readonly string[]): string {
  return `${JSON.stringify(Object.fromEntries(messages.map((message) => [message, message])), null, 2)}\n`;
}
