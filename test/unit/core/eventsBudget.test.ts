// The client's memory for events is one budget shared by the machines it reads: the fake serves large
// histories for many machines over HTTP, and what the client hands back (the views keep one answer per
// machine) stays within the shared total instead of growing with their number.
import * as assert from 'node:assert/strict';
import { EVENTS_BUDGET_BYTES, MAX_BYTES_PER_MACHINE } from '../../../src/core/client/events/eventsBudget';
import type { EventsResult } from '../../../src/core/client/model';
import { serverTextData } from '../../../src/core/common/serverText';
import { defaultData, makeEvent, startFakeApi, type FakeApi } from '../../support/fakeApi';
import { makeClient } from './testClient';

const T0 = Date.UTC(2025, 0, 15, 8, 0, 0);
/** One unknown field this long makes each event about 400 KB on the wire (validation keeps a bounded copy). */
const FILLER = 'x'.repeat(400 * 1024);
const EVENTS_PER_MACHINE = 8;

function largeHistory(serial: string): unknown[] {
  return Array.from({ length: EVENTS_PER_MACHINE }, (_, index) =>
    makeEvent({ type: `STEP_${index}`, message: `${serial} step ${index}`, timestamp: T0 + index * 60_000, extra: { filler: FILLER } }),
  );
}

/** The bytes of one served event: every event of these histories is this size within a few bytes. */
const EVENT_BYTES = new TextEncoder().encode(JSON.stringify(largeHistory('BIG-00')[0])).byteLength + 1;

async function withMachines(count: number, run: (api: FakeApi, serials: readonly string[]) => Promise<void>): Promise<void> {
  const serials = Array.from({ length: count }, (_, index) => `BIG-${String(index).padStart(2, '0')}`);
  const data = defaultData();
  for (const serial of serials) data.machines[serial] = largeHistory(serial);
  const api = await startFakeApi({ data, order: 'shuffled' });
  try {
    await run(api, serials);
  } finally {
    await api.close();
  }
}

describe("events client: one memory budget shared by the machines it reads, not one machine's cap times their number", function () {
  this.timeout(60_000);

  it(`24 machines of ${EVENTS_PER_MACHINE} events of 400 KB read at once hold at most ${EVENTS_BUDGET_BYTES / 1024 / 1024} MiB together; each keeps its newest and says how many more were sent`, async () => {
    await withMachines(24, async (api, serials) => {
      assert.ok(serials.length * EVENTS_PER_MACHINE * EVENT_BYTES > EVENTS_BUDGET_BYTES, 'the fake serves more than the budget');
      const client = makeClient(api);
      try {
        const results: EventsResult[] = await Promise.all(serials.map((serial) => client.getEvents(serial, { priority: 'bulk' })));
        const kept = results.reduce((sum, result) => sum + result.events.length, 0);
        assert.ok(
          kept * EVENT_BYTES <= EVENTS_BUDGET_BYTES,
          `the machines hold ${((kept * EVENT_BYTES) / 1024 / 1024).toFixed(1)} MiB of events together, over the ${EVENTS_BUDGET_BYTES / 1024 / 1024} MiB budget`,
        );
        for (const result of results) {
          const count = result.events.length;
          assert.ok(count >= 1 && count < EVENTS_PER_MACHINE, `${result.serialNumber} kept ${count} of ${EVENTS_PER_MACHINE} events`);
          assert.equal(result.truncated, true, `${result.serialNumber} says its oldest events are missing`);
          assert.equal(result.notShown, EVENTS_PER_MACHINE - count, `${result.serialNumber} says how many more were sent`);
          const newest = Array.from({ length: count }, (_, index) => `STEP_${EVENTS_PER_MACHINE - 1 - index}`);
          assert.deepEqual(
            result.events.map((event) => serverTextData(event.type)),
            newest,
            `${result.serialNumber} keeps its newest events, newest first`,
          );
        }
      } finally {
        client.dispose();
      }
    });
  });

  it(`a machine read alone keeps its whole history within one machine's ${MAX_BYTES_PER_MACHINE / 1024 / 1024} MiB`, async () => {
    await withMachines(1, async (api, [serial]) => {
      const client = makeClient(api);
      try {
        const result = await client.getEvents(serial ?? '');
        assert.deepEqual([result.events.length, result.truncated, result.notShown], [EVENTS_PER_MACHINE, false, undefined]);
      } finally {
        client.dispose();
      }
    });
  });
});
