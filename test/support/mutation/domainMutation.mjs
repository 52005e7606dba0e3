// `npm run mutation:domain`: StrykerJS over src/core/domain/, each module against its own unit files
// (found by path: domainTests.mjs), whole folders in a few runs of one Stryker start each, then one
// table of every module's score. Fails when a module scores under 90%, or a run fails.
// `--runs N` splits the folders into N runs (default 4); `--folders a,b` runs only those folders, as
// one run. `--static` runs the static mutants too (slow: see stryker.config.mjs); other arguments go
// to each Stryker run, e.g. `--force` to ignore the incremental caches (a full measurement).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { DOMAIN, domainRuns } from './domainTests.mjs';

const MINIMUM = 90;
const started = Date.now();
const { withStatic, runs, args } = parse(process.argv.slice(2));
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

/** Per file: killed (and timed out) of the mutants that count (Stryker's own score: compile and runtime errors and ignored ones left out). */
const scores = new Map();
let failed = false;
for (const [index, folders] of runs.entries()) {
  const name = folders.join('-');
  const groupStarted = Date.now();
  console.log(`\n== mutation:domain ${index + 1}/${runs.length}: ${DOMAIN}/{${folders.join(',')}} ==`);
  const run = spawnSync(npx, ['stryker', 'run', 'stryker.domain.config.mjs', ...args], {
    stdio: 'inherit',
    env: { ...process.env, OE_MUTATION_FOLDERS: folders.join(','), OE_MUTATION_STATIC: withStatic ? '1' : '0' },
    shell: process.platform === 'win32',
  });
  console.log(`== ${name}: ${minutes(Date.now() - groupStarted)} ==`);
  if (run.signal !== null) process.exit(1);
  if (run.status !== 0) {
    console.error(`mutation:domain: the Stryker run of ${name} failed (exit ${run.status ?? run.signal})`);
    failed = true;
    continue;
  }
  const report = JSON.parse(readFileSync(`reports/mutation/domain/${name}.json`, 'utf8'));
  for (const [file, { mutants }] of Object.entries(report.files)) {
    const count = (statuses) => mutants.filter((mutant) => statuses.includes(mutant.status)).length;
    scores.set(file, {
      detected: count(['Killed', 'Timeout']),
      valid: count(['Killed', 'Timeout', 'Survived', 'NoCoverage']),
      survived: count(['Survived', 'NoCoverage']),
      statics: mutants.filter((mutant) => mutant.static === true).length,
    });
  }
}

const rows = [...scores].sort(([a], [b]) => a.localeCompare(b));
const percent = ({ detected, valid }) => (valid === 0 ? 100 : (100 * detected) / valid);
console.log(`\nmodule | score | killed / valid | survived | static mutants (${withStatic ? 'run' : 'left out: --static runs them'})`);
for (const [file, score] of rows)
  console.log(`${file} | ${percent(score).toFixed(2)}% | ${score.detected} / ${score.valid} | ${score.survived} | ${score.statics}`);
const total = rows.reduce((sum, [, s]) => ({ detected: sum.detected + s.detected, valid: sum.valid + s.valid }), { detected: 0, valid: 0 });
console.log(`all of ${DOMAIN}/ | ${percent(total).toFixed(2)}% | ${total.detected} / ${total.valid} | in ${minutes(Date.now() - started)}`);
const low = rows.filter(([, score]) => percent(score) < MINIMUM);
for (const [file, score] of low) console.error(`mutation:domain: ${file} scores ${percent(score).toFixed(2)}%, under ${MINIMUM}%`);
process.exitCode = failed || low.length > 0 ? 1 : 0;

function minutes(ms) {
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/** `--static`, `--runs N` and `--folders a,b` are ours; everything else goes to Stryker. */
function parse(argv) {
  const args = [];
  let withStatic = false;
  let count = 4;
  let folders;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--static') withStatic = true;
    else if (arg === '--runs') count = Number(argv[++i]);
    else if (arg === '--folders') folders = (argv[++i] ?? '').split(',').filter((folder) => folder !== '');
    else args.push(arg);
  }
  if (!Number.isInteger(count) || count < 1) throw new Error('mutation:domain: --runs takes a whole number of 1 or more');
  return { withStatic, runs: folders === undefined ? domainRuns(count) : [folders.sort()], args };
}
