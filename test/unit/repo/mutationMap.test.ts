// `npm run mutation:domain` measures each src/core/domain module against the unit tests found at its
// path (test/support/mutation/domainTests.mjs). A module without one would stop the slow run at its
// start, or a misnamed test would be measured nowhere; this test says so in the unit tier instead.
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = join(__dirname, '..', '..', '..', '..');

interface DomainModule {
  readonly name: string;
  readonly folder: string;
  readonly path: string;
  readonly typesOnly: boolean;
}

interface DomainTests {
  readonly DOMAIN_TESTS: string;
  readonly ALSO_TESTED_BY: Readonly<Record<string, readonly string[]>>;
  readonly domainModules: (root: string) => DomainModule[];
  readonly testsOf: (module: string, root: string) => string[];
  readonly domainTestFiles: (root: string) => string[];
  readonly domainRuns: (count: number, root: string) => string[][];
}

interface StrykerConfig {
  readonly domainConfig: (folders: readonly string[]) => { mutate: string[]; mochaOptions: { spec: string[] } };
}

async function load<T>(file: string): Promise<T> {
  return (await import(pathToFileURL(join(root, file)).href)) as T;
}

describe('the mutation run finds every domain module its tests by path', () => {
  let tests: DomainTests;
  before(async () => {
    tests = await load<DomainTests>('test/support/mutation/domainTests.mjs');
  });

  it('every src/core/domain module that holds code has a unit test the mutation run uses', () => {
    const untested = tests
      .domainModules(root)
      .filter((module) => !module.typesOnly && tests.testsOf(module.name, root).length === 0)
      .map((module) => `${module.path} has no test: write ${tests.DOMAIN_TESTS}/${module.name}.test.ts`);
    assert.deepEqual(untested, []);
  });

  it('every test file under test/unit/core/domain/ measures a module (its name starts with the module name)', () => {
    const used = new Set(tests.domainModules(root).flatMap((module) => tests.testsOf(module.name, root)));
    const unused = tests
      .domainTestFiles(root)
      .filter((file) => !used.has(file))
      .map((file) => `${file} tests no module of src/core/domain/: name it <module>.test.ts or <module>.<aspect>.test.ts`);
    assert.deepEqual(unused, []);
  });

  it('the short list of tests kept elsewhere names modules and files that exist', () => {
    const names = new Set(tests.domainModules(root).map((module) => module.name));
    const broken = Object.entries(tests.ALSO_TESTED_BY).flatMap(([module, files]) => [
      ...(names.has(module) ? [] : [`${module}: no src/core/domain/${module}.ts`]),
      ...files
        .filter((file) => !existsSync(join(root, 'test', 'unit', `${file}.test.ts`)))
        .map((file) => `${module}: no test/unit/${file}.test.ts`),
    ]);
    assert.deepEqual(broken, []);
  });

  it("the runs' Stryker options mutate every module with code once, against compiled tests that exist", async () => {
    const { domainConfig } = await load<StrykerConfig>('stryker.config.mjs');
    const runs = tests.domainRuns(4, root).map((folders) => domainConfig(folders));
    const mutated = runs.flatMap((run) => run.mutate).sort();
    const withCode = tests
      .domainModules(root)
      .filter((module) => !module.typesOnly)
      .map((module) => module.path)
      .sort();
    assert.deepEqual(mutated, withCode);
    const missing = runs.flatMap((run) => run.mochaOptions.spec).filter((spec) => !existsSync(join(root, spec)));
    assert.deepEqual(missing, []);
  });
});
