// Issue 47: the memory of N machines with large histories (75 events of about 400 KB each, 30 MB per
// machine in pages of 8 MB), read at once by one client and kept as `oe check` keeps them. The client's
// events share one budget (eventsBudget.ts: 64 MiB for all, at most 32 MiB for one), so what is held
// stays flat as N grows; what does grow is what is in flight (each machine's first page is read whole).
// Each N in a process of its own (eventsMemory.ts), the fake in another.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { EVENTS_BUDGET_BYTES } from '../../src/core/client/events/eventsBudget';
import type { Benchmark } from './index';

const EVENTS_PER_MACHINE = 75;
const SIZES = [1, 4, 16, 32] as const;
/** What the kept events may take on the heap: the shared budget's bytes, validation keeping a bounded copy of each. */
const HELD_LIMIT_MB = EVENTS_BUDGET_BYTES / (1024 * 1024);

interface Measured {
  readonly machines: number;
  readonly ms: number;
  readonly rssBefore: number;
  readonly rssPeak: number;
  readonly heldHeap: number;
  readonly kept: number;
  readonly notShown: number;
  readonly truncated: number;
}

function measure(machines: number): Measured {
  const output = execFileSync(
    process.execPath,
    ['--expose-gc', join(__dirname, 'eventsMemory.js'), String(machines), String(EVENTS_PER_MACHINE)],
    {
      encoding: 'utf8',
      maxBuffer: 1024 * 1024,
    },
  );
  return JSON.parse(output) as Measured;
}

export const eventsMemoryBench: Benchmark = {
  name: `Events memory: 1 to ${SIZES.at(-1)} machines of ${EVENTS_PER_MACHINE} events of 400 KB (30 MB each) read at once and kept`,
  // eslint-disable-next-line @typescript-eslint/require-await
  async run() {
    let met = true;
    for (const machines of SIZES) {
      const m = measure(machines);
      const ok = m.heldHeap <= HELD_LIMIT_MB;
      met &&= ok;
      console.log(
        `${ok ? 'ok  ' : 'MISS'} ${machines} machines (${machines * 30} MB of history on the server): held after GC ${m.heldHeap.toFixed(0)} MB of heap (limit ${HELD_LIMIT_MB} MB, the shared budget), peak RSS ${m.rssPeak.toFixed(0)} MB (${m.rssBefore.toFixed(0)} MB before), ${m.kept} events kept, ${m.notShown} not shown, ${m.truncated} of ${machines} truncated, ${(m.ms / 1000).toFixed(1)} s`,
      );
    }
    return met;
  },
};
