// Issue 47 item 4: a monorepo of plant configurations (monorepoFixture.ts: N distinct serial numbers
// across 2N files, N = 1,000 and 10,000), in the extension and in `oe check`.
//   - `oe check FOLDER`, the built dist/oe.js as a process, against the fake API in a worker thread
//     with an injected round trip: the events requests that reach the fake (one per distinct serial
//     number), the wall time beside its floor as cli.bench.ts computes it (Node's start plus
//     ceil(N / c) round trips of c bare requests at once, c the client's ceiling), and the process's
//     peak RSS (VmHWM of /proc/PID/status, polled).
//   Targets: exactly N events requests and one token, wall ≤ 1.1× the floor, peak RSS < 300 MB.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DEFAULT_HTTP_SETTINGS } from '../../src/core/client/onboardingClient';
import { defaultData, makeEvent, TEST_CREDENTIALS } from '../support/fakeApi';
import { bareToken, median, ms, roundTripAt, times } from './benchSupport';
import type { Benchmark } from './index';
import { monorepoSerial, writeMonorepo, type MonorepoFixture } from './monorepoFixture';
import { RemoteFakeApi } from './remoteFakeApi';

const OE = resolve(__dirname, '../../../dist/oe.js');
const SIZES = [1_000, 10_000] as const;
const FILES_PER_SERIAL = 2;
const EVENTS_PER_MACHINE = 5;
/** The fake's round trip, as tree.bench.ts and fleet.bench.ts inject it: the floor is then the network's, not two cores' parsing. */
const INJECTED_RTT_MS = 100;
const CEILING: number = DEFAULT_HTTP_SETTINGS.maxConcurrency;
const T0 = Date.UTC(2025, 0, 15, 8, 0, 0);
const LIMITS = { checkOverFloor: 1.1, checkRssMb: 300 } as const;

interface CheckFigures {
  readonly code: number | null;
  readonly stderr: string;
  readonly wallMs: number;
  readonly floorMs: number;
  readonly roundMs: number;
  readonly peakRssMb: number;
  readonly eventRequests: number;
  readonly tokenRequests: number;
}

/** Peak resident memory of a live process so far (VmHWM), in MB; NaN where /proc is not there. */
function peakRssMb(pid: number): number {
  try {
    const match = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match?.[1] === undefined ? Number.NaN : Number(match[1]) / 1024;
  } catch {
    return Number.NaN;
  }
}

/** Runs a process to its exit: wall time, stderr, and the last VmHWM read before it exited (read every 20 ms). */
function runMeasured(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<{ code: number | null; stderr: string; ms: number; peakRssMb: number }> {
  const started = performance.now();
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, args, { env, cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    let peak = Number.NaN;
    const poll = setInterval(() => {
      if (child.pid !== undefined) {
        const now = peakRssMb(child.pid);
        if (!Number.isNaN(now)) peak = Number.isNaN(peak) ? now : Math.max(peak, now);
      }
    }, 20);
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', (error) => {
      clearInterval(poll);
      reject(error);
    });
    child.once('exit', (code) => {
      clearInterval(poll);
      resolvePromise({ code, stderr, ms: performance.now() - started, peakRssMb: peak });
    });
  });
}

function nodeStartMs(): Promise<number> {
  return (async () => {
    const samples: number[] = [];
    for (let i = 0; i < 5; i++) samples.push((await runMeasured(['-e', '0'], { PATH: process.env['PATH'] }, tmpdir())).ms);
    return median(samples);
  })();
}

async function checkFigures(fixture: MonorepoFixture, home: string, nodeStart: number): Promise<CheckFigures> {
  const machines: Record<string, unknown[]> = { ...defaultData().machines };
  for (let i = 0; i < fixture.distinct; i++)
    machines[monorepoSerial(i)] = Array.from({ length: EVENTS_PER_MACHINE }, (_, e) =>
      makeEvent({
        type: e === EVENTS_PER_MACHINE - 1 ? 'ONBOARDING_COMPLETED' : `STEP_${e}_DONE`,
        message: e === EVENTS_PER_MACHINE - 1 ? 'Onboarding completed' : `Step ${e} of the onboarding done`,
        timestamp: T0 + i * 1000 + e * 60_000,
      }),
    );
  const api = await RemoteFakeApi.start({ data: { ...defaultData(), machines } });
  try {
    await api.setLatency(INJECTED_RTT_MS);
    const token = await bareToken(api);
    const roundMs = await roundTripAt(api, token, CEILING, monorepoSerial);
    const floorMs = nodeStart + Math.ceil(fixture.distinct / CEILING) * roundMs;
    await api.reset();
    const env: NodeJS.ProcessEnv = {
      PATH: process.env['PATH'],
      HOME: home,
      OE_API_URL: api.baseUrl,
      OE_AUTH_URL: api.authUrl,
      OE_CLIENT_ID: TEST_CREDENTIALS.clientId,
      OE_CLIENT_SECRET: TEST_CREDENTIALS.clientSecret,
      OE_USERNAME: TEST_CREDENTIALS.username,
      OE_PASSWORD: TEST_CREDENTIALS.password,
    };
    const run = await runMeasured([OE, 'check', fixture.folder], env, home);
    const counts = await api.counts();
    return {
      code: run.code,
      stderr: run.stderr,
      wallMs: run.ms,
      floorMs,
      roundMs,
      peakRssMb: run.peakRssMb,
      eventRequests: counts.eventRequests,
      tokenRequests: counts.tokenRequests,
    };
  } finally {
    await api.close();
  }
}

export const monorepoBench: Benchmark = {
  name: 'monorepo (workspace scan, tree and oe check at 1,000 and 10,000 serial numbers in 2N files)',
  async run() {
    if (!existsSync(OE)) {
      console.log(`TARGET MISSED: ${OE} is not built; run node esbuild.mjs first`);
      return false;
    }
    const nodeStart = await nodeStartMs();
    let met = true;
    const rows: { fixture: MonorepoFixture; check: CheckFigures }[] = [];
    for (const distinct of SIZES) {
      const home = mkdtempSync(join(tmpdir(), 'oe-monorepo-'));
      try {
        const fixture = writeMonorepo(join(home, 'plants'), distinct, distinct * FILES_PER_SERIAL);
        const check = await checkFigures(fixture, home, nodeStart);
        rows.push({ fixture, check });
        const ok =
          check.code === 0 &&
          check.eventRequests === distinct &&
          check.tokenRequests === 1 &&
          check.wallMs <= LIMITS.checkOverFloor * check.floorMs &&
          check.peakRssMb < LIMITS.checkRssMb;
        met &&= ok;
        console.log(
          `${ok ? 'ok  ' : 'MISS'} oe check over ${fixture.files.toLocaleString('en')} files (${(fixture.bytes / 1024 / 1024).toFixed(1)} MB), ` +
            `${distinct.toLocaleString('en')} distinct serial numbers: exit ${String(check.code)}, ${check.eventRequests.toLocaleString('en')} events requests, ` +
            `${check.tokenRequests} token; ${ms(check.wallMs)} beside the floor ${ms(check.floorMs)} (Node's start ${ms(nodeStart)} + ` +
            `${Math.ceil(distinct / CEILING)} round trips of ${CEILING} at ${ms(check.roundMs)}) = ${times(check.wallMs / check.floorMs)} ` +
            `(limit ${LIMITS.checkOverFloor}×); peak RSS ${check.peakRssMb.toFixed(0)} MB (limit ${LIMITS.checkRssMb} MB)`,
        );
        if (check.code !== 0) console.log(`  oe check's stderr: ${check.stderr.slice(0, 500)}`);
      } finally {
        rmSync(home, { recursive: true, force: true });
      }
    }
    const [small, large] = rows;
    if (small !== undefined && large !== undefined) {
      const ratio = (a: number, b: number): string => times(b / a);
      console.log(
        `10,000 / 1,000: oe check wall ${ratio(small.check.wallMs, large.check.wallMs)} (floor ${ratio(small.check.floorMs, large.check.floorMs)}), ` +
          `wall over floor ${times(small.check.wallMs / small.check.floorMs)} → ${times(large.check.wallMs / large.check.floorMs)}, ` +
          `peak RSS ${ratio(small.check.peakRssMb, large.check.peakRssMb)}`,
      );
    }
    return met;
  },
};
