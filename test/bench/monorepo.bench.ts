// Issue 47 item 4: a monorepo of plant configurations (monorepoFixture.ts: N distinct serial numbers
// across 2N files, N = 1,000 and 10,000), in the extension and in `oe check`.
//   - `oe check FOLDER`, the built dist/oe.js as a process, against the fake API in a worker thread
//     with an injected round trip: the events requests that reach the fake (one per distinct serial
//     number), the wall time beside its floor as cli.bench.ts computes it (Node's start plus
//     ceil(N / c) round trips of c bare requests at once, c the client's ceiling), and the process's
//     peak RSS (VmHWM of /proc/PID/status, polled).
//   Targets: exactly N events requests and one token, wall ≤ 1.1× the floor, peak RSS < 300 MB.
//   - The extension's own code in this process, VS Code's part played by vscodeStandIn.ts: the workspace
//     scan (src/extension/machines/workspaceScan.ts) with the default settings, then "In This Workspace"
//     expanded (the tree provider's children and every row's TreeItem, and each batch of changes drawn
//     again as VS Code would) while the machines load through the real client from the fake, and the
//     Problems feed (serialDiagnostics.ts) of open files, one of them an inventory naming every serial number.
//     The longest event-loop stall (a 1 ms timer's longest wait beyond its time) of the scan and of the loading.
//   Targets: each stall ≤ 50 ms; every serial number found, every machine loaded.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as vscode from 'vscode';
import { DEFAULT_HTTP_SETTINGS, OnboardingClient } from '../../src/core/client/onboardingClient';
import { EventsCache } from '../../src/core/eventsCache/eventsCache';
import { createSerialMatcher } from '../../src/core/domain/serialNumbers/serialMatcher';
import { readSettings } from '../../src/core/domain/settings/settingsRules';
import { SerialDiagnostics } from '../../src/extension/editor/serialDiagnostics';
import { SerialStatuses } from '../../src/extension/editor/serialStatuses';
import { MachineLists, type KeyValueStore } from '../../src/extension/machines/machineLists';
import { MachinesModel } from '../../src/extension/machines/machinesModel';
import { MachinesTreeProvider } from '../../src/extension/machines/machinesTreeProvider';
import { SeenTracker } from '../../src/extension/machines/seenTracker';
import type { MachinesNode } from '../../src/extension/machines/treeNodes';
import { scanWorkspace } from '../../src/extension/machines/workspaceScan';
import type { ApiSession } from '../../src/extension/workbench/contracts/apiSession';
import type { Log } from '../../src/extension/workbench/log';
import type { SerialSettings } from '../../src/extension/workbench/serialSettings';
import type { SettingsReader } from '../../src/extension/workbench/settings';
import * as standIn from './vscodeStandIn';
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
const LIMITS = { checkOverFloor: 1.1, checkRssMb: 300, stallMs: 50 } as const;
/** Files open in the editor beside the inventory: a user's tabs. */
const OPEN_FILES = 30;
/** Rows the user points at after expanding the group. */
const HOVERED = 3;

class MemoryStore implements KeyValueStore {
  private readonly values = new Map<string, unknown>();
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the shape of vscode.Memento.get
  get<T>(key: string): T | undefined {
    return this.values.get(key) as T | undefined;
  }
  update(key: string, value: unknown): Promise<void> {
    this.values.set(key, value);
    return Promise.resolve();
  }
}

/**
 * The longest event-loop stall while `work` runs, in ms: the longest a 1 ms timer waited beyond its time
 * (what the host's other work, a keystroke's hover or another extension, would have waited).
 */
async function longestStall<T>(work: () => Promise<T>): Promise<{ value: T; stallMs: number; ms: number }> {
  let longest = 0;
  let last = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const tick = (): void => {
    const now = performance.now();
    longest = Math.max(longest, now - last - 1);
    last = now;
    timer = setTimeout(tick, 1);
  };
  timer = setTimeout(tick, 1);
  const started = performance.now();
  try {
    const value = await work();
    const ended = performance.now();
    // The last turn of the work, up to its end, counts too.
    longest = Math.max(longest, ended - last - 1);
    return { value, stallMs: longest, ms: ended - started };
  } finally {
    clearTimeout(timer);
  }
}

interface ExtensionFigures {
  readonly scanMs: number;
  readonly scanStallMs: number;
  readonly found: number;
  readonly filesScanned: number;
  readonly capped: boolean;
  readonly firstDrawMs: number;
  /** The slowest of a few rows hovered (resolveTreeItem builds the tooltip then, for that row only). */
  readonly hoverMs: number;
  readonly rows: number;
  readonly loadMs: number;
  readonly loadStallMs: number;
  readonly loaded: number;
  readonly problems: number;
  readonly heapMb: number;
}

const noDispose = { dispose: (): void => undefined };

async function extensionFigures(fixture: MonorepoFixture, api: RemoteFakeApi): Promise<ExtensionFigures> {
  standIn.workspace.root = fixture.folder;
  const settings = readSettings(() => undefined);
  const matcher = createSerialMatcher();
  const token = new standIn.CancellationTokenSource().token as unknown as vscode.CancellationToken;
  const scan = await longestStall(() =>
    scanWorkspace(() => matcher, { include: settings['workspaceScan.include'], maxFiles: settings['workspaceScan.maxFiles'] }, token),
  );

  const client = new OnboardingClient({
    apiBaseUrl: api.baseUrl,
    authUrl: api.authUrl,
    credentials: () => Promise.resolve({ ...TEST_CREDENTIALS }),
    http: { maxConcurrency: CEILING, env: {} },
  });
  await client.getEvents(monorepoSerial(0)); // the token and the first sockets: sign-in, not the tree
  const events = new EventsCache({ source: () => client, freshForMs: () => 600_000 });
  const log = { info: () => undefined, warn: () => undefined, error: () => undefined } as unknown as Log;
  const model = new MachinesModel({
    events,
    lists: new MachineLists({ pinnedStore: () => new MemoryStore(), recentStore: new MemoryStore() }),
    seen: new SeenTracker(new MemoryStore(), () => 'bench'),
    settings: () => ({
      maxEvents: settings['tree.maxEvents'],
      concurrency: CEILING,
      timestampUnit: 'auto',
      eventStates: settings.eventStates,
      workspaceScanEnabled: true,
      hasWorkspace: true,
    }),
    signedIn: () => true,
  });
  const provider = new MachinesTreeProvider(model, () => undefined);
  // VS Code's part: every row of a changed batch is asked for again, and the view's badge is counted.
  let drawn = 0;
  const draw = (nodes: readonly MachinesNode[]): void => {
    for (const node of nodes) {
      provider.getTreeItem(node);
      drawn++;
    }
  };
  const workspaceGroup = provider.groupNode('workspace');
  provider.onDidChangeTreeData((change) => {
    draw(change === undefined ? provider.getChildren(workspaceGroup) : Array.isArray(change) ? change : [change]);
  });
  provider.onDidFlush = () => {
    model.unseenTotal();
  };

  // The Problems feed of the open files: an inventory naming every serial number, and a few stations.
  const session = {
    state: { kind: 'signed-in', environment: { id: 'bench' } },
    onDidChangeState: () => noDispose,
  } as unknown as ApiSession;
  const reader = { value: settings, onDidChange: () => noDispose } as unknown as SettingsReader;
  const statuses = new SerialStatuses({ session, events, settings: reader, log });
  const serialSettings = {
    value: { matcher, languages: ['*'] },
    onDidChange: () => noDispose,
  } as unknown as SerialSettings;
  const inventory = Array.from({ length: fixture.distinct }, (_, i) => `${monorepoSerial(i)},line ${i % 40}`).join('\n');
  standIn.workspace.textDocuments = [
    standIn.textDocument(standIn.Uri.file(join(fixture.folder, 'inventory.csv')), inventory),
    ...Array.from({ length: OPEN_FILES }, (_, i) => {
      const station = join(fixture.folder, 'open', `station-${i}.yaml`);
      const text = `machine: "${monorepoSerial((i * 37) % fixture.distinct)}"\nspare: "${monorepoSerial((i * 91) % fixture.distinct)}"\n`;
      return standIn.textDocument(standIn.Uri.file(station), text);
    }),
  ];
  const problems = new SerialDiagnostics(statuses, serialSettings, reader, log);

  const serials = scan.value.found.map((found) => found.serialNumber);
  let loaded = 0;
  const allLoaded = new Promise<void>((resolvePromise) => {
    const seen = new Set<string>();
    events.onDidUpdate((serial) => {
      if (seen.has(serial)) return;
      seen.add(serial);
      loaded = seen.size;
      if (seen.size >= serials.length) resolvePromise();
    });
  });
  let firstDrawMs = 0;
  let hoverMs = 0;
  let rows = 0;
  const load = await longestStall(async () => {
    const started = performance.now();
    model.setWorkspaceScan({ kind: 'scanned', ...scan.value, at: Date.now() });
    // The user expands "In This Workspace": its children, and a TreeItem for each.
    provider.getChildren();
    const children = provider.getChildren(workspaceGroup);
    draw(children);
    rows = children.length;
    firstDrawMs = performance.now() - started;
    // The user points at a few rows: VS Code resolves the tooltip of each one hovered, never of every row.
    for (const node of children.slice(0, HOVERED)) {
      const hovered = performance.now();
      provider.resolveTreeItem(provider.getTreeItem(node), node);
      hoverMs = Math.max(hoverMs, performance.now() - hovered);
    }
    await allLoaded;
    await new Promise((resolvePromise) => setTimeout(resolvePromise, 100));
  });
  let entries = 0;
  for (const list of standIn.diagnostics.values()) entries += list.length;
  (globalThis as { gc?: () => void }).gc?.();
  const heapMb = process.memoryUsage().heapUsed / 1024 / 1024;
  problems.dispose();
  statuses.dispose();
  provider.dispose();
  model.dispose();
  client.dispose();
  if (drawn < rows) throw new Error('unreachable: every row was drawn');
  return {
    scanMs: scan.ms,
    scanStallMs: scan.stallMs,
    found: serials.length,
    filesScanned: scan.value.filesScanned,
    capped: scan.value.capped,
    firstDrawMs,
    hoverMs,
    rows,
    loadMs: load.ms,
    loadStallMs: load.stallMs,
    loaded,
    problems: entries,
    heapMb,
  };
}

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

/** The fake API with the fixture's machines, each of EVENTS_PER_MACHINE events, the newest "completed". */
function startApi(fixture: MonorepoFixture): Promise<RemoteFakeApi> {
  const machines: Record<string, unknown[]> = { ...defaultData().machines };
  for (let i = 0; i < fixture.distinct; i++)
    machines[monorepoSerial(i)] = Array.from({ length: EVENTS_PER_MACHINE }, (_, e) =>
      makeEvent({
        // Every 10th machine failed: the Problems panel has entries to show.
        type: e < EVENTS_PER_MACHINE - 1 ? `STEP_${e}_DONE` : i % 10 === 0 ? 'ONBOARDING_FAILED' : 'ONBOARDING_COMPLETED',
        message:
          e < EVENTS_PER_MACHINE - 1 ? `Step ${e} of the onboarding done` : i % 10 === 0 ? 'Onboarding failed' : 'Onboarding completed',
        timestamp: T0 + i * 1000 + e * 60_000,
      }),
    );
  return RemoteFakeApi.start({ data: { ...defaultData(), machines } });
}

async function checkFigures(fixture: MonorepoFixture, api: RemoteFakeApi, home: string, nodeStart: number): Promise<CheckFigures> {
  {
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
    const rows: { fixture: MonorepoFixture; check: CheckFigures; ext: ExtensionFigures }[] = [];
    for (const distinct of SIZES) {
      const home = mkdtempSync(join(tmpdir(), 'oe-monorepo-'));
      let api: RemoteFakeApi | undefined;
      try {
        const fixture = writeMonorepo(join(home, 'plants'), distinct, distinct * FILES_PER_SERIAL);
        api = await startApi(fixture);
        await api.setLatency(INJECTED_RTT_MS);
        const ext = await extensionFigures(fixture, api);
        const extOk =
          ext.found === distinct && ext.loaded === distinct && ext.scanStallMs <= LIMITS.stallMs && ext.loadStallMs <= LIMITS.stallMs;
        met &&= extOk;
        console.log(
          `${extOk ? 'ok  ' : 'MISS'} extension, ${distinct.toLocaleString('en')} serial numbers in ${fixture.files.toLocaleString('en')} files: ` +
            `scan ${ms(ext.scanMs)} (${ext.filesScanned.toLocaleString('en')} files${ext.capped ? ', CAPPED' : ''}, ${ext.found.toLocaleString('en')} found), longest stall ${ext.scanStallMs.toFixed(1)} ms; ` +
            `"In This Workspace" expanded: ${ext.rows.toLocaleString('en')} rows drawn in ${ms(ext.firstDrawMs)} (a hovered row's tooltip ${ms(ext.hoverMs)}), ${ext.loaded.toLocaleString('en')} machines loaded in ${ms(ext.loadMs)} ` +
            `with the Problems feed of ${OPEN_FILES + 1} open files (${ext.problems.toLocaleString('en')} entries), longest stall ${ext.loadStallMs.toFixed(1)} ms ` +
            `(limit ${LIMITS.stallMs} ms); heap after ${ext.heapMb.toFixed(0)} MB`,
        );
        await api.reset();
        const check = await checkFigures(fixture, api, home, nodeStart);
        rows.push({ fixture, check, ext });
        const ok =
          check.code === 1 && // every 10th machine failed: the gate says so
          check.stderr.includes(`${distinct / 10} failing`) &&
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
        if (check.code !== 1) console.log(`  oe check's stderr: ${check.stderr.slice(0, 500)}`);
      } finally {
        await api?.close();
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
      console.log(
        `10,000 / 1,000: scan ${ratio(small.ext.scanMs, large.ext.scanMs)}, its longest stall ${ratio(small.ext.scanStallMs, large.ext.scanStallMs)}; ` +
          `rows drawn ${ratio(small.ext.firstDrawMs, large.ext.firstDrawMs)}; loading ${ratio(small.ext.loadMs, large.ext.loadMs)}, its longest stall ${ratio(small.ext.loadStallMs, large.ext.loadStallMs)}; ` +
          `heap ${ratio(small.ext.heapMb, large.ext.heapMb)}`,
      );
    }
    return met;
  },
};
