// `npm run bench`: runs every benchmark module in turn and exits non-zero when
// any of them missed a target. To add one, write a module with a `bench`
// export of type Benchmark and append it to BENCHMARKS.

// First: require('vscode') resolves to the bench's stand-in (the hover provider needs a few of its classes).
import './vscodeStandIn';
import { coreBench } from './core.bench';
import { fleetBench, plantFleetBench } from './fleet.bench';
import { eventsMemoryBench } from './eventsMemory.bench';
import { inlineStatusBench } from './inlineStatus.bench';
import { serialNumbersBench } from './serialNumbers.bench';
import { treeBench } from './tree.bench';
import { hostilePatternsBench } from './hostilePatterns.bench';
import { serverStringsBench } from './serverStrings.bench';
import { problemsBench } from './problems.bench';
import { boardBench } from './board.bench';
import { watchBench } from './watch.bench';
import { cliBench } from './cli.bench';
import { lineHistoryBench } from './lineHistory.bench';
import { timeToGoBench } from './timeToGo.bench';
import { monorepoBench } from './monorepo.bench';

export interface Benchmark {
  readonly name: string;
  /** Prints its figures and resolves to true when every target was met. */
  run(): Promise<boolean>;
}

const ALL: readonly Benchmark[] = [
  coreBench,
  serialNumbersBench,
  treeBench,
  fleetBench,
  plantFleetBench,
  eventsMemoryBench,
  inlineStatusBench,
  hostilePatternsBench,
  serverStringsBench,
  problemsBench,
  boardBench,
  watchBench,
  cliBench,
  lineHistoryBench,
  timeToGoBench,
  monorepoBench,
];
// `npm run bench -- fleet` runs only the benchmarks whose name contains "fleet" (case-insensitive).
const only = process.argv[2]?.toLowerCase();
const BENCHMARKS = only === undefined ? ALL : ALL.filter((benchmark) => benchmark.name.toLowerCase().includes(only));

async function main(): Promise<number> {
  const missed: string[] = [];
  for (const benchmark of BENCHMARKS) {
    console.log(`\n== ${benchmark.name} ==`);
    const started = Date.now();
    const met = await benchmark.run();
    console.log(`(${((Date.now() - started) / 1000).toFixed(1)} s)`);
    if (!met) missed.push(benchmark.name);
  }
  console.log(missed.length === 0 ? '\nAll benchmark targets met.' : `\nTargets missed in: ${missed.join(', ')}`);
  return missed.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(2);
  },
);
