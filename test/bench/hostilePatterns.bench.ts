// Issue 12 item 1: no pattern a setting can hold blocks the extension host.
// Each row is a hostile serial-number pattern (a workspace's
// .vscode/settings.json can set one) and the 10 kB line that makes a
// backtracking engine explode. Our matcher (RE2 via re2js) must scan each of
// the hostile lines in ≤ 50 ms; the naive RegExp of the same pattern is timed
// on the row's line in a child process that is stopped after a second, so a
// catastrophic case cannot hang the bench. The rows are shared with the unit
// tier: add one in test/unit/hostile/patternRows.ts.
import { spawnSync } from 'node:child_process';
import { createSerialMatcher } from '../../src/core/domain/serialNumbers/serialMatcher';
import type { Benchmark } from './index';

const LIMIT_MS = 50;
const NAIVE_BUDGET_MS = 1000;

import { HOSTILE_LINES as LINES, HOSTILE_PATTERN_ROWS, type HostileLine as LineName } from '../unit/hostile/patternRows';

function timeOurs(pattern: string): { worstMs: number; worstLine: LineName } {
  const matcher = createSerialMatcher({ pattern });
  if (matcher.problem !== undefined) throw new Error(`the bench pattern ${pattern} was refused: ${matcher.problem}`);
  let worstMs = 0;
  let worstLine: LineName = 'letters';
  for (const [name, text] of Object.entries(LINES) as [LineName, string][]) {
    matcher.findAll(text); // warm up: the figure is the steady state, the median of five scans
    const runs: number[] = [];
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      matcher.findAll(text);
      runs.push(performance.now() - started);
    }
    const ms = runs.sort((a, b) => a - b)[2] ?? Number.POSITIVE_INFINITY;
    if (ms > worstMs) {
      worstMs = ms;
      worstLine = name;
    }
  }
  return { worstMs, worstLine };
}

/** The naive RegExp in a child process, stopped after NAIVE_BUDGET_MS. */
function timeNaive(pattern: string, line: LineName): string {
  const script = `const re = new RegExp(${JSON.stringify(pattern)}, 'g'); const text = ${JSON.stringify(LINES[line])}; const t = performance.now(); text.match(re); process.stdout.write(String(performance.now() - t));`;
  const child = spawnSync(process.execPath, ['-e', script], { timeout: NAIVE_BUDGET_MS + 500, encoding: 'utf8' });
  const ms = Number(child.stdout);
  return child.status === 0 && Number.isFinite(ms) ? `${ms.toFixed(1)} ms` : `> ${NAIVE_BUDGET_MS} ms (stopped)`;
}

export const hostilePatternsBench: Benchmark = {
  name: `hostile serial-number patterns × 10 kB lines (ours ≤ ${LIMIT_MS} ms per line)`,
  run() {
    let met = true;
    for (const row of HOSTILE_PATTERN_ROWS) {
      const ours = timeOurs(row.pattern);
      const ok = ours.worstMs <= LIMIT_MS;
      met &&= ok;
      console.log(
        `${ok ? 'ok  ' : 'MISS'} ${row.pattern.padEnd(34)} ours ${ours.worstMs.toFixed(1).padStart(5)} ms (worst: ${ours.worstLine}) — naive RegExp on ${row.line}: ${timeNaive(row.pattern, row.line)}`,
      );
    }
    return Promise.resolve(met);
  },
};
