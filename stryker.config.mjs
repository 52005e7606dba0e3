// Mutation testing (`npm run mutation`): StrykerJS changes the vscode-free code
// one small bug at a time and runs the unit tier against each; a mutant the
// tests do not notice ("survived") is a behaviour nothing checks. Too slow for
// CI on 2 cores, so it is run by hand; see README "Testing".
//
// How it runs: Stryker copies the project to .stryker-tmp/, writes every mutant
// into the TypeScript sources at once (switched on one at a time at run time),
// compiles with the same tsc as `npm test`, and runs the compiled unit tests
// under mocha, only those that cover the mutant (coverageAnalysis perTest).
// The TypeScript checker first drops mutants that would not compile.
//
// Iterate on one file:  npm run mutation -- --mutate src/core/common/redact.ts
// Incremental: results are kept in reports/mutation/stryker-incremental.json
// (git-ignored: a per-checkout cache that any merge makes stale; a rerun only
// tests mutants whose code or covering tests changed).

import { compiled, DOMAIN, DOMAIN_TESTS, domainModules, testsOf } from './test/support/mutation/domainTests.mjs';

/** The vscode-free code issue 18 holds to a mutation score: core, common, domain rules, link policy, protocol guards. */
const MUTATE = [
  'src/core/common/**/*.ts',
  'src/core/client/**/*.ts',
  'src/core/domain/**/*.ts',
  'src/extension/details/linkPolicy.ts',
  'src/extension/details/protocol.ts',
  // Type-only modules.
  '!src/core/client/model.ts',
  '!src/core/domain/session/sessionState.ts',
];

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
const config = {
  mutate: MUTATE,
  testRunner: 'mocha',
  mochaOptions: {
    config: '.mocharc.json',
    spec: ['out/test/unit/**/*.test.js'],
    // It reads the sources to check that every l10n message is a literal; in the sandbox they are instrumented.
    ignore: ['out/test/unit/l10n/localization.test.js'],
  },
  buildCommand: 'npx tsc -p tsconfig.tests.json',
  checkers: ['typescript'],
  tsconfigFile: 'tsconfig.json',
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  coverageAnalysis: 'perTest',
  // Two cores shared with other engineers: one test process and one checker at a time each.
  concurrency: 2,
  // The unit tier talks to a real HTTP server and waits out short delays; leave room for a loaded machine.
  timeoutMS: 10_000,
  timeoutFactor: 2,
  dryRunTimeoutMinutes: 10,
  incremental: true,
  incrementalFile: 'reports/mutation/stryker-incremental.json',
  reporters: ['html', 'clear-text', 'progress', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
  thresholds: { high: 90, low: 80, break: null },
  ignorePatterns: ['out', 'dist', '.vscode-test', 'reports', 'screenshots', '*.vsix', 'media/codicons'],
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
};
export default config;

// `npm run mutation:domain` (test/support/mutation/domainMutation.mjs): the rules in src/core/domain/
// against their own unit files only, found by path (test/support/mutation/domainTests.mjs); a module
// without one fails the run at start rather than being measured against nothing. Whole folders run
// together, a few runs of one Stryker start each (stryker.domain.config.mjs with OE_MUTATION_FOLDERS).
// Static mutants (in code that runs when the module loads: a table, a constant, the collator)
// are left out unless `-- --static` is given: Stryker cannot tell which tests cover one, so it
// restarts the test process and runs every file of the run for each; on 2 shared cores those ~500
// took most of an hour. The table counts them per module, so a score never hides them.

/** The Stryker options of one run: the modules of `folders` (src/core/domain/<folder>), measured by their own unit files. */
export function domainConfig(folders) {
  const modules = domainModules().filter((module) => !module.typesOnly);
  const untested = modules.filter((module) => testsOf(module.name).length === 0);
  if (untested.length > 0)
    throw new Error(
      `mutation:domain: no unit test for ${untested.map((module) => module.path).join(', ')}: write ${DOMAIN_TESTS}/<folder>/<module>.test.ts`,
    );
  const unknown = folders.filter((folder) => !modules.some((module) => module.folder === folder));
  if (folders.length === 0 || unknown.length > 0)
    throw new Error(`mutation:domain: no folder ${DOMAIN}/${unknown.join(', ') || '(none given)'}`);
  const mine = modules.filter((module) => folders.includes(module.folder));
  const specs = [...new Set(mine.flatMap((module) => testsOf(module.name)))].sort().map(compiled);
  const name = [...folders].sort().join('-');
  return {
    ...config,
    mutate: mine.map((module) => module.path),
    mochaOptions: { config: '.mocharc.json', spec: specs },
    ignoreStatic: process.env.OE_MUTATION_STATIC !== '1',
    // No TypeScript checker: on 2 shared cores it checked 4 mutants at a time while the test runner waited (20 minutes for
    // agentTools alone). A mutant that would not compile runs as JavaScript instead; a survivor is read by hand either way.
    checkers: [],
    // Its own cache and reports per run, so a domain run and a full run never read each other's results.
    incrementalFile: `reports/mutation/domain/${name}-incremental.json`,
    htmlReporter: { fileName: `reports/mutation/domain/${name}.html` },
    jsonReporter: { fileName: `reports/mutation/domain/${name}.json` },
    tempDirName: `.stryker-tmp/domain-${name}`,
  };
}
