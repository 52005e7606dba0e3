// The fake API in a process of its own for eventsMemory.ts, so the client's RSS is the client's alone:
// `machines` machines of `events` events of about 400 KB each, served in pages of 20 (8 MB, under the
// 10 MB response cap). Every event shares one filler string, so the server holds little itself.
import { defaultData, makeEvent, startFakeApi } from '../support/fakeApi';

const FILLER = 'x'.repeat(400 * 1024);
const T0 = Date.UTC(2025, 0, 15, 8, 0, 0);

async function main(): Promise<void> {
  const machines = Number(process.argv[2]);
  const events = Number(process.argv[3]);
  const data = defaultData();
  for (let m = 0; m < machines; m++) {
    data.machines[`BIG-1000-A${String(m).padStart(4, '0')}`] = Array.from({ length: events }, (_, index) =>
      makeEvent({ type: `STEP_${index}`, message: 'step', timestamp: T0 + index * 60_000, extra: { filler: FILLER } }),
    );
  }
  const api = await startFakeApi({ data, envelope: 'page' });
  process.send?.({ baseUrl: api.baseUrl, authUrl: api.authUrl });
  process.on('disconnect', () => {
    void api.close().then(() => process.exit(0));
  });
}

void main();
