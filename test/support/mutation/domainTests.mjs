// Which unit tests measure which src/core/domain module under `npm run mutation:domain`: found by
// path, so a new module or test needs no table. src/core/domain/<folder>/<module>.ts is tested by
// test/unit/core/domain/<folder>/<module>.test.ts and <module>.<aspect>.test.ts. The unit test
// test/unit/repo/mutationMap.test.ts fails on a module without one, and on a test file no module uses.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

export const DOMAIN = 'src/core/domain';
export const DOMAIN_TESTS = 'test/unit/core/domain';

/**
 * Only where one file truly tests a domain module together with a module outside the domain, so
 * it cannot sit at the domain module's path: module → test files (under test/unit/, no `.test.ts`).
 */
export const ALSO_TESTED_BY = {
  // Also the extension's argument trust.
  'session/argumentSignIn': ['hostile/commandArguments'],
  // Also the client's proxy selection.
  'session/environmentRules': ['hostile/loopbackNames'],
};

/** True when the module holds only types, imports and type exports: nothing runs, nothing to mutate. */
function typesOnly(path) {
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest);
  return source.statements.every(
    (statement) =>
      ts.isInterfaceDeclaration(statement) ||
      ts.isTypeAliasDeclaration(statement) ||
      ts.isImportDeclaration(statement) ||
      (ts.isExportDeclaration(statement) && statement.isTypeOnly),
  );
}

function tsFiles(root, dir) {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? tsFiles(root, `${dir}/${entry.name}`) : entry.name.endsWith('.ts') ? [`${dir}/${entry.name}`] : [],
  );
}

/** Every module under src/core/domain/ as `<folder>/<module>`, with its folder and whether it is types only. */
export function domainModules(root = '.') {
  return tsFiles(root, DOMAIN)
    .sort()
    .map((path) => {
      const name = path.slice(DOMAIN.length + 1, -'.ts'.length);
      return { name, folder: name.split('/')[0], path, typesOnly: typesOnly(join(root, path)) };
    });
}

/** The unit test files (source paths) that measure one module: its tests by path, then ALSO_TESTED_BY. */
export function testsOf(module, root = '.') {
  const slash = module.lastIndexOf('/');
  const dir = `${DOMAIN_TESTS}/${module.slice(0, slash)}`;
  const base = module.slice(slash + 1);
  let byPath = [];
  try {
    byPath = readdirSync(join(root, dir))
      .filter((file) => file === `${base}.test.ts` || (file.startsWith(`${base}.`) && file.endsWith('.test.ts')))
      .map((file) => `${dir}/${file}`);
  } catch {
    // No test folder for this module's folder: no tests by path.
  }
  const extra = (ALSO_TESTED_BY[module] ?? []).map((file) => `test/unit/${file}.test.ts`);
  return [...byPath.sort(), ...extra];
}

/** Every test file under test/unit/core/domain/ (source paths). */
export function domainTestFiles(root = '.') {
  return tsFiles(root, DOMAIN_TESTS)
    .filter((path) => path.endsWith('.test.ts'))
    .sort();
}

/** Where `tsc -p tsconfig.tests.json` puts a test file. */
export function compiled(testFile) {
  return `out/${testFile.slice(0, -'.ts'.length)}.js`;
}

/**
 * The domain's folders split into at most `count` runs (one Stryker start each), whole folders
 * only, balanced by lines of source: the largest folder first into the lightest run.
 */
export function domainRuns(count = 4, root = '.') {
  const lines = new Map();
  for (const { folder, path } of domainModules(root))
    lines.set(folder, (lines.get(folder) ?? 0) + readFileSync(join(root, path), 'utf8').split('\n').length);
  const runs = Array.from({ length: Math.min(count, lines.size) }, () => ({ folders: [], lines: 0 }));
  for (const [folder, size] of [...lines].sort(([a, x], [b, y]) => y - x || a.localeCompare(b))) {
    const lightest = runs.reduce((min, run) => (run.lines < min.lines ? run : min));
    lightest.folders.push(folder);
    lightest.lines += size;
  }
  return runs.map((run) => run.folders.sort());
}
