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

import { readdirSync } from 'node:fs';

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
// against their own unit files only. Each module names the unit files that test it; a module
// missing here fails the run at start rather than being measured against nothing. The modules run
// in a few groups, one Stryker run each (stryker.domain.config.mjs with OE_MUTATION_GROUP).
// Static mutants (in code that runs when the module loads: a table, a constant, the collator)
// are left out unless `-- --static` is given: Stryker cannot tell which tests cover one, so it
// restarts the test process and runs every file of the run for each; on 2 shared cores those ~500
// took most of an hour. The table counts them per module, so a score never hides them.
/** Unit test files (compiled, under out/test/unit/) that test each domain module. */
export const DOMAIN_SPECS = {
  'agentTools/toolDefinitions': ['agentTools/toolDefinitions', 'agentTools/manifest', 'mcp/mcpServer'],
  'agentTools/toolInput': ['agentTools/toolInput'],
  'agentTools/toolResults': ['agentTools/toolResults', 'agentTools/toolResultEdges'],
  'agentTools/untrustedText': ['agentTools/untrustedText'],
  'board/boardExport': ['board/boardExport', 'board/boardSvg'],
  'board/boardRows': ['board/boardModel', 'board/boardProtocol', 'board/boardRows'],
  'board/boardTable': ['board/boardModel', 'board/boardTable'],
  'events/eventFilter': ['domain/eventFilter'],
  'events/eventState': ['domain/eventState'],
  'events/eventView': ['domain/eventView'],
  'events/exportEvents': ['domain/exportEvents', 'domain/exportEvents.properties', 'common/mutationGaps'],
  'links/machineLink': ['links/machineLink'],
  'serialNumbers/serialMatcher': [
    'domain/serialMatcher',
    'domain/serialMatcher.properties',
    'domain/serialMatcher.refusals',
    'hostile/patterns',
  ],
  'serialNumbers/serialNumberInput': ['domain/serialNumberInput'],
  'serialNumbers/visibleSerials': ['domain/visibleSerials', 'domain/serialIndex', 'hostile/documentIndex'],
  'progress/lineHistory': ['domain/progress/lineHistory', 'domain/progress/lineHistory.properties', 'domain/progress/machineProgress'],
  'progress/machineProgress': ['domain/progress/machineProgress'],
  'session/argumentSignIn': ['hostile/commandArguments'],
  'session/environmentRules': ['domain/environmentRules', 'hostile/loopbackNames'],
  'session/sessionMachine': ['domain/sessionMachine'],
  'settings/clientSettings': ['domain/clientSettings'],
  'settings/settingsRules': ['domain/settingsRules'],
  'watch/watchRules': ['watch/watchRules', 'watch/watchRules.boundaries'],
  'workspaceScan/workspaceSerials': ['machines/refreshAndScan'],
};

/** The runs, by folder under src/core/domain/: few enough that each run's start (copy, build, checker) stays a small part. */
export const DOMAIN_GROUPS = [
  ['agentTools'],
  ['board', 'events', 'watch'],
  ['serialNumbers', 'workspaceScan', 'links'],
  ['session', 'settings', 'progress'],
];

/** Modules under src/core/domain/ that are types only (nothing to mutate). */
const DOMAIN_TYPE_ONLY = ['session/sessionState'];

function domainModules(dir = 'src/core/domain', prefix = '') {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? domainModules(`${dir}/${entry.name}`, `${prefix}${entry.name}/`)
      : entry.name.endsWith('.ts')
        ? [`${prefix}${entry.name.slice(0, -3)}`]
        : [],
  );
}

/** The Stryker options of one group (an index into DOMAIN_GROUPS): its modules, measured by their own unit files. */
export function domainConfig(group) {
  const modules = domainModules().filter((name) => !DOMAIN_TYPE_ONLY.includes(name));
  const unmapped = modules.filter((name) => !(name in DOMAIN_SPECS));
  if (unmapped.length > 0)
    throw new Error(`stryker.config.mjs: no unit files named in DOMAIN_SPECS for src/core/domain/${unmapped.join(', src/core/domain/')}`);
  const ungrouped = modules.filter((name) => !DOMAIN_GROUPS.flat().includes(name.split('/')[0]));
  if (ungrouped.length > 0)
    throw new Error(`stryker.config.mjs: no group in DOMAIN_GROUPS runs src/core/domain/${ungrouped.join(', src/core/domain/')}`);
  const folders = DOMAIN_GROUPS[group];
  if (folders === undefined) throw new Error(`stryker.config.mjs: no domain group ${group}`);
  const mine = modules.filter((name) => folders.includes(name.split('/')[0]));
  const specs = [...new Set(mine.flatMap((name) => DOMAIN_SPECS[name]))].sort().map((file) => `out/test/unit/${file}.test.js`);
  const name = folders.join('-');
  return {
    ...config,
    mutate: mine.map((module) => `src/core/domain/${module}.ts`),
    mochaOptions: { config: '.mocharc.json', spec: specs },
    ignoreStatic: process.env.OE_MUTATION_STATIC !== '1',
    // No TypeScript checker: on 2 shared cores it checked 4 mutants at a time while the test runner waited (20 minutes for
    // agentTools alone). A mutant that would not compile runs as JavaScript instead; a survivor is read by hand either way.
    checkers: [],
    // Its own cache and reports per group, so a domain run and a full run never read each other's results.
    incrementalFile: `reports/mutation/domain/${name}-incremental.json`,
    htmlReporter: { fileName: `reports/mutation/domain/${name}.html` },
    jsonReporter: { fileName: `reports/mutation/domain/${name}.json` },
    tempDirName: `.stryker-tmp/domain-${name}`,
  };
}
