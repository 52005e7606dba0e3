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
// Iterate on one file:  npm run mutation -- --mutate src/common/redact.ts
// Incremental: results are kept in reports/mutation/stryker-incremental.json
// (git-ignored: a per-checkout cache that any merge makes stale; a rerun only
// tests mutants whose code or covering tests changed).

/** The vscode-free code issue 18 holds to a mutation score: core, common, domain rules, link policy, protocol guards. */
const MUTATE = [
  'src/common/**/*.ts',
  'src/core/**/*.ts',
  'src/domain/**/*.ts',
  'src/details/linkPolicy.ts',
  'src/details/protocol.ts',
  // Type-only modules.
  '!src/core/model.ts',
  '!src/domain/session/sessionState.ts',
];

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
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
