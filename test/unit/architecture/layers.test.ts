// The house plan of src/ (ARCHITECTURE.md), checked from the sources
// themselves: every import, type-only ones included, goes to the importer's
// own folder or a layer below; feature folders never import each other; the
// vscode-free layers never import vscode; and there is no import circle.
// ESLint enforces the same rules while you type (import/no-cycle,
// import/no-restricted-paths); this test also sees type-only imports, which
// import/no-cycle skips.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import * as ts from 'typescript';

const root = join(__dirname, '..', '..', '..', '..');
const src = join(root, 'src');

/** Bottom first. A folder may import its own layer's files only when it is the same folder. */
const LAYERS: readonly (readonly string[])[] = [
  ['core/common'],
  ['core/client'],
  ['core/domain'],
  ['core/eventsCache', 'core/agents'],
  ['cli', 'mcp', 'extension/workbench'],
  [
    'extension/session',
    'extension/machines',
    'extension/details',
    'extension/editor',
    'extension/lookUp',
    'extension/agentTools',
    'extension/links',
    'extension/watch',
    'extension/board',
  ],
];
/** The three programs on the core: none imports another. */
const PROGRAMS = ['cli', 'mcp', 'extension'] as const;
const VSCODE_FREE = ['core/', 'cli', 'mcp'];
const TOP_FILES = new Set(['extension.ts', 'extension/publicApi.ts', 'testHooks.ts']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Every module specifier a file imports or re-exports, type-only ones included. */
function specifiers(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier))
      found.push(node.moduleSpecifier.text);
    if (ts.isCallExpression(node) && node.arguments.length === 1) {
      const [arg] = node.arguments;
      const callee = node.expression.getText(source);
      if (arg && ts.isStringLiteral(arg) && (callee === 'require' || node.expression.kind === ts.SyntaxKind.ImportKeyword))
        found.push(arg.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function resolveLocal(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier);
  return [`${base}.ts`, join(base, 'index.ts')].find((candidate) => existsSync(candidate));
}

/** The layer folder of a file under src/ ('' for the extension's entry and hand-outs, above every folder). */
function folderOf(file: string): string {
  const rel = relative(src, file).replace(/\\/g, '/');
  if (TOP_FILES.has(rel)) return '';
  const parts = rel.split('/');
  return parts[0] === 'core' || parts[0] === 'extension' ? parts.slice(0, 2).join('/') : (parts[0] ?? '');
}

/** The program a file belongs to: the extension's entry and hand-outs are the extension's. */
function programOf(file: string): string {
  const folder = folderOf(file);
  return folder === '' ? 'extension' : (folder.split('/')[0] ?? '');
}

function levelOf(folder: string): number {
  if (folder === '') return LAYERS.length;
  const level = LAYERS.findIndex((layer) => layer.includes(folder));
  assert.notEqual(level, -1, `src/${folder} is in no layer: add it to ARCHITECTURE.md, eslint.config.mjs and this test`);
  return level;
}

const files = sourceFiles(src);
const graph = new Map(files.map((file) => [file, specifiers(file)]));
const rel = (file: string): string => relative(root, file).replace(/\\/g, '/');

describe('the house plan of src/', () => {
  it('puts every folder in a layer and only the wiring at the top', () => {
    for (const file of files) {
      const folder = folderOf(file);
      if (folder === '')
        assert.ok(TOP_FILES.has(relative(src, file).replace(/\\/g, '/')), `${rel(file)}: only ${[...TOP_FILES].join(', ')} sit at the top`);
      else levelOf(folder);
    }
  });

  it('imports only downwards, and feature folders never import each other', () => {
    const wrong: string[] = [];
    for (const [file, imports] of graph) {
      const from = folderOf(file);
      for (const specifier of imports) {
        const target = resolveLocal(file, specifier);
        if (target === undefined) continue;
        const to = folderOf(target);
        if (to === from) continue;
        if (levelOf(to) >= levelOf(from)) wrong.push(`${rel(file)} → ${rel(target)}`);
      }
    }
    assert.deepEqual(wrong, []);
  });

  it('keeps the three programs (src/extension, src/cli, src/mcp) peers: none imports another', () => {
    const wrong = [...graph]
      .flatMap(([file, imports]) => imports.map((specifier) => [file, resolveLocal(file, specifier)] as const))
      .filter(([file, target]) => {
        if (target === undefined) return false;
        const [from, to] = [programOf(file), programOf(target)];
        return from !== to && PROGRAMS.some((p) => p === from) && PROGRAMS.some((p) => p === to);
      })
      .map(([file, target]) => `${rel(file)} → ${rel(target ?? '')}`);
    assert.deepEqual(wrong, []);
  });

  it('keeps vscode out of the vscode-free layers and the webview page', () => {
    const wrong = [...graph]
      .filter(
        ([file]) =>
          VSCODE_FREE.some((free) => folderOf(file).startsWith(free)) ||
          rel(file).startsWith('src/extension/details/page/') ||
          rel(file).startsWith('src/extension/board/page/'),
      )
      .filter(([, imports]) => imports.includes('vscode'))
      .map(([file]) => rel(file));
    assert.deepEqual(wrong, []);
  });

  it('has no import circle, counting type-only imports', () => {
    const edges = new Map(
      [...graph].map(([file, imports]) => [file, imports.map((s) => resolveLocal(file, s)).filter((t): t is string => t !== undefined)]),
    );
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const path: string[] = [];
    const visit = (file: string): void => {
      state.set(file, 'open');
      path.push(file);
      for (const next of edges.get(file) ?? []) {
        if (state.get(next) === 'open') cycles.push([...path.slice(path.indexOf(next)), next].map(rel).join(' → '));
        else if (!state.has(next)) visit(next);
      }
      path.pop();
      state.set(file, 'done');
    };
    for (const file of files) if (!state.has(file)) visit(file);
    assert.deepEqual(cycles, []);
  });
});
