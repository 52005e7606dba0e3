// The heap a LineHistory holds, measured in a process of its own (a bench's
// long-lived process keeps garbage of its earlier figures reachable, which
// made the same history read 3 MB there and 25 MB here). Run by
// lineHistory.bench.ts as `node --expose-gc historyMemory.js <shape>`; prints
// the megabytes as JSON. Also, in processes of their own:
//   `write <dir> <machines> [large]` stores copies as the extension does
//   (FileResultStore), `large` eight of 13.7 MB; `stored <dir>` learns from them
//   as a window does (CachedLineHistory) and prints the time to the answer, the
//   longest stall of the event loop meanwhile and the peak heap and RSS.
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { OnboardingEvent } from '../../src/core/client/model';
import { validateEvent } from '../../src/core/client/validateEvents';
import { serverText } from '../../src/core/common/serverText';
import { DEFAULT_EVENT_STATE_RULES } from '../../src/core/domain/events/eventState';
import { LineHistory } from '../../src/core/domain/progress/lineHistory';
import { CachedLineHistory } from '../../src/core/eventsCache/cachedLineHistory';
import { EventsCache } from '../../src/core/eventsCache/eventsCache';
import { FileResultStore } from '../../src/core/eventsCache/fileResultStore';

const MINUTE = 60_000;
const rules = DEFAULT_EVENT_STATE_RULES;

function event(serialNumber: string, type: string, at: number, index: number, assetId?: string): OnboardingEvent {
  return {
    serialNumber,
    type: serverText(type),
    message: serverText(type),
    time: { raw: at, epochMs: at, unit: 'milliseconds', detected: true },
    ...(assetId === undefined ? {} : { assetId }),
    links: {},
    extra: {},
    raw: {},
    key: `${serialNumber}-${index}`,
  };
}

/** `machines` onboarded machines of `steps` steps each; `typeOf` names step i of machine m. */
function line(machines: number, steps: number, typeOf: (m: number, i: number) => string): (readonly [string, OnboardingEvent[]])[] {
  return Array.from({ length: machines }, (_, m) => {
    const serialNumber = `ASM-${1000 + (m % 9000)}-H${String(m).padStart(5, '0')}`;
    let at = Date.UTC(2025, 0, 1) + m * 7 * MINUTE;
    const events = Array.from({ length: steps }, (__, i) =>
      event(serialNumber, typeOf(m, i), (at += (1 + ((m * 31 + i * 17) % 30)) * MINUTE), i),
    );
    events.push(event(serialNumber, 'MACHINE_CREATED', at + 5 * MINUTE, steps, '5d1c7e0a-2b7f-4c1e-9e0d-8a4f6b2c3d10'));
    return [serialNumber, events.reverse()] as const;
  });
}

function heapMb(): number {
  for (let i = 0; i < 4; i++) (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed / (1024 * 1024);
}

function learn(results: readonly (readonly [string, OnboardingEvent[]])[]): LineHistory {
  const history = new LineHistory(rules);
  for (const [serial, events] of results) history.learn(serial, events);
  history.steps();
  return history;
}

const SHAPES: Record<string, () => (readonly [string, OnboardingEvent[]])[]> = {
  usual10k: () => line(10_000, 11, (_, i) => `STEP_${String(i + 1).padStart(2, '0')}_CHECKED`),
  usual50k: () => line(50_000, 11, (_, i) => `STEP_${String(i + 1).padStart(2, '0')}_CHECKED`),
  hostileNew: () => line(2000, 200, (m, i) => `M${m}T${i}_`.padEnd(256, 'X')),
  hostileShared: () => line(2000, 200, (_, i) => `T${i}_`.padEnd(256, 'X')),
};

/** Stored copies of `machines` machines of twelve events each, or (`large`) eight machines of a long history each, 13.7 MB on disk. */
async function write(directory: string, machines: number, large: boolean): Promise<void> {
  const store = new FileResultStore({ directory, scope: () => 'bench' });
  const types = Array.from({ length: 11 }, (_, i) => `STEP_${String(i + 1).padStart(2, '0')}_CHECKED`);
  for (let m = 0; m < machines; m++) {
    const serialNumber = `ASM-${1000 + (m % 9000)}-H${String(m).padStart(5, '0')}`;
    const count = large ? 40_060 : 11;
    let at = Date.UTC(2025, 0, 1) + m * 7 * MINUTE;
    const raw: Record<string, unknown>[] = [];
    for (let i = 0; i < count; i++) {
      at += (1 + ((m * 31 + i * 17) % 30)) * MINUTE;
      const type = types[i % types.length] as string;
      raw.push({ type, message: `${type} on ${serialNumber}: ${'checked and logged; '.repeat(large ? 12 : 2)}`, timestamp: at });
    }
    raw.push({ type: 'MACHINE_CREATED', message: 'created', timestamp: at + 5 * MINUTE, assetId: '5d1c7e0a-2b7f-4c1e-9e0d-8a4f6b2c3d10' });
    const events = raw.reverse().map((each) => validateEvent(each, serialNumber) as OnboardingEvent);
    store.save({ serialNumber, events, invalid: [], fetchedAt: at + 6 * MINUTE, truncated: false });
    if (m % 500 === 499 || large) await store.flush();
  }
  await store.flush();
}

/** The main thread's time on a core, ms (Linux's schedstat); 0 where there is none. */
function threadCpuMs(): number {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return 0;
  }
}

/** What a window goes through: the first ask starts reading every stored copy; the answer is in when the history says it changed. */
async function learnStored(directory: string): Promise<void> {
  const base = { heap: heapMb(), rss: process.memoryUsage().rss / (1024 * 1024) };
  let peak = { heap: base.heap, rss: base.rss };
  const sample = (): void => {
    const { heapUsed, rss } = process.memoryUsage();
    peak = { heap: Math.max(peak.heap, heapUsed / (1024 * 1024)), rss: Math.max(peak.rss, rss / (1024 * 1024)) };
  };
  // Two views of the event loop: the perf_hooks histogram, and a 5 ms timer's lateness.
  const delay = monitorEventLoopDelay({ resolution: 5 });
  let last = performance.now();
  let longest = 0;
  // And the main thread's own time on a core between two ticks (Linux): a stall as a quiet machine would see it, without the waits for a core a busy one adds.
  let lastCpu = threadCpuMs();
  let busiest = 0;
  const probe = setInterval(() => {
    const now = performance.now();
    const cpu = threadCpuMs();
    longest = Math.max(longest, now - last - 5);
    busiest = Math.max(busiest, cpu - lastCpu);
    last = now;
    lastCpu = cpu;
    sample();
  }, 5);
  const history = new CachedLineHistory({
    cache: new EventsCache({ source: () => undefined, freshForMs: () => 60_000 }),
    stored: () => new FileResultStore({ directory, scope: () => 'bench' }).copies(),
    rules: () => rules,
    steps: () => [],
    onFull: (message) => process.stderr.write(`${message}\n`),
  });
  const answered = new Promise<void>((resolve) => history.onDidChange(resolve));
  // The same probe with nothing to do first: on a busy machine the process itself waits for a core.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const idleMs = longest;
  longest = 0;
  busiest = 0;
  delay.enable();
  const cpu = process.cpuUsage();
  const started = performance.now();
  last = started;
  history.steps();
  await answered;
  const steps = history.steps();
  const firstMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  delay.disable();
  clearInterval(probe);
  sample();
  process.stdout.write(
    JSON.stringify({
      idleMs,
      firstMs,
      cpuMs: (used.user + used.system) / 1000,
      stallMs: Math.max(longest, delay.max / 1e6 - 5),
      stallCpuMs: busiest,
      heapMb: peak.heap - base.heap,
      rssMb: peak.rss - base.rss,
      peakRssMb: peak.rss,
      machines: steps.kind === 'steps' ? steps.machines : 0,
    }),
  );
}

async function main(): Promise<void> {
  const [mode, directory, count, large] = process.argv.slice(2);
  if (mode === 'write' && directory !== undefined) return write(directory, Number(count), large === 'large');
  if (mode === 'stored' && directory !== undefined) return learnStored(directory);
  const shape = SHAPES[mode ?? ''];
  if (shape === undefined) throw new Error(`no shape ${mode ?? ''}`);
  const results = shape();
  // Learning once first leaves the input as learning leaves it (V8 flattens its strings on first use).
  learn(results);
  const before = heapMb();
  const history = learn(results);
  const after = heapMb();
  process.stdout.write(JSON.stringify({ mb: after - before, machines: history.machines }));
}

void main();
