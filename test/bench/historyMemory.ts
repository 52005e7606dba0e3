// The heap a LineHistory holds, measured in a process of its own (a bench's
// long-lived process keeps garbage of its earlier figures reachable, which
// made the same history read 3 MB there and 25 MB here). Run by
// lineHistory.bench.ts as `node --expose-gc historyMemory.js <shape>`; prints
// the megabytes as JSON.
import type { OnboardingEvent } from '../../src/core/client/model';
import { serverText } from '../../src/core/common/serverText';
import { DEFAULT_EVENT_STATE_RULES } from '../../src/core/domain/events/eventState';
import { LineHistory } from '../../src/core/domain/progress/lineHistory';

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

const shape = SHAPES[process.argv[2] ?? ''];
if (shape === undefined) throw new Error(`no shape ${process.argv[2] ?? ''}`);
const results = shape();
// Learning once first leaves the input as learning leaves it (V8 flattens its strings on first use).
learn(results);
const before = heapMb();
const history = learn(results);
const after = heapMb();
process.stdout.write(JSON.stringify({ mb: after - before, machines: history.machines }));
