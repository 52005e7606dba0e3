// `npm run mutation:domain`: StrykerJS over src/core/domain/, each module against its own unit files
// (DOMAIN_SPECS in stryker.config.mjs), one Stryker run per group of DOMAIN_GROUPS, then one table
// of every module's score. Fails when a module scores under 90%, or a run fails. `--static` runs
// the static mutants too (slow: see stryker.config.mjs); other arguments go to each Stryker run,
// e.g. `--force` to ignore the incremental caches (a full measurement).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { DOMAIN_GROUPS } from '../../../stryker.config.mjs';

const MINIMUM = 90;
const started = Date.now();
const withStatic = process.argv.includes('--static');
const args = process.argv.slice(2).filter((arg) => arg !== '--static');
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

/** Per file: killed (and timed out) of the mutants that count (Stryker's own score: compile and runtime errors and ignored ones left out). */
const scores = new Map();
let failed = false;
for (const [index, folders] of DOMAIN_GROUPS.entries()) {
  const name = folders.join('-');
  const groupStarted = Date.now();
  console.log(`\n== mutation:domain ${index + 1}/${DOMAIN_GROUPS.length}: src/core/domain/{${folders.join(',')}} ==`);
  const run = spawnSync(npx, ['stryker', 'run', 'stryker.domain.config.mjs', ...args], {
    stdio: 'inherit',
    env: { ...process.env, OE_MUTATION_GROUP: String(index), OE_MUTATION_STATIC: withStatic ? '1' : '0' },
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
console.log(
  `all of src/core/domain/ | ${percent(total).toFixed(2)}% | ${total.detected} / ${total.valid} | in ${minutes(Date.now() - started)}`,
);
const low = rows.filter(([, score]) => percent(score) < MINIMUM);
for (const [file, score] of low) console.error(`mutation:domain: ${file} scores ${percent(score).toFixed(2)}%, under ${MINIMUM}%`);
process.exitCode = failed || low.length > 0 ? 1 : 0;

function minutes(ms) {
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}
