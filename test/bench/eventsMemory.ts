// The memory a client holds for N machines with large histories, read at once and kept as `oe check`
// keeps them, measured in a process of its own (the fake serves from another): run by
// eventsMemory.bench.ts as `node --expose-gc eventsMemory.js <machines> <eventsPerMachine>`; prints JSON.
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { OnboardingClient } from '../../src/core/client/onboardingClient';
import { TEST_CREDENTIALS } from '../support/fakeApi';

const mb = (bytes: number): number => bytes / (1024 * 1024);

function gcHeapMb(): number {
  for (let i = 0; i < 4; i++) (globalThis as { gc?: () => void }).gc?.();
  return mb(process.memoryUsage().heapUsed);
}

async function main(): Promise<void> {
  const machines = Number(process.argv[2]);
  const events = Number(process.argv[3]);
  const server = fork(join(__dirname, 'largeHistoryServer.js'), [String(machines), String(events)]);
  const urls = await new Promise<{ baseUrl: string; authUrl: string }>((resolve) => server.once('message', resolve));
  const client = new OnboardingClient({
    apiBaseUrl: urls.baseUrl,
    authUrl: urls.authUrl,
    credentials: () => Promise.resolve({ ...TEST_CREDENTIALS }),
    http: { env: {} },
  });
  try {
    await client.getEvents('WARM-1000-A0000');
    const heapBefore = gcHeapMb();
    const rssBefore = mb(process.memoryUsage().rss);
    let rssPeak = rssBefore;
    const timer = setInterval(() => {
      rssPeak = Math.max(rssPeak, mb(process.memoryUsage().rss));
    }, 10);
    const serials = Array.from({ length: machines }, (_, m) => `BIG-1000-A${String(m).padStart(4, '0')}`);
    const started = performance.now();
    const results = await Promise.all(serials.map((serial) => client.getEvents(serial, { priority: 'bulk' })));
    const ms = performance.now() - started;
    clearInterval(timer);
    rssPeak = Math.max(rssPeak, mb(process.memoryUsage().rss));
    const heldHeap = gcHeapMb() - heapBefore;
    const kept = results.reduce((sum, result) => sum + result.events.length, 0);
    const notShown = results.reduce((sum, result) => sum + (result.notShown ?? 0), 0);
    process.stdout.write(
      JSON.stringify({
        machines,
        events,
        ms,
        rssBefore,
        rssPeak,
        heldHeap,
        kept,
        notShown,
        truncated: results.filter((r) => r.truncated).length,
      }),
    );
  } finally {
    client.dispose();
    server.disconnect();
  }
}

void main();
