// One request budget per window for loads nobody asked for (issue 34, item 3):
// closing an onboarding board and opening another used to start a fresh
// VisibleLoads with a budget of its own, so six open/close cycles of fifty
// new machines each sent 300 requests in two seconds. Every view's loads now
// spend from the one budget the window's events cache owns. Counted at the
// fake API, over the real client and cache.
import * as assert from 'node:assert/strict';
import { AUTOMATIC_BUDGET } from '../../../src/core/eventsCache/loadBudget';
import { EventsCache } from '../../../src/core/eventsCache/eventsCache';
import { MAX_AUTOMATIC_PER_VIEW, VisibleLoads } from '../../../src/core/eventsCache/visibleLoads';
import { useFakeApi } from '../core/testClient';

/** Fifty machines the API has not heard of, new ones per board. */
const machinesOfBoard = (board: number): string[] =>
  Array.from({ length: MAX_AUTOMATIC_PER_VIEW }, (_, i) => `MX-${String(4700 + board).padStart(4, '0')}-B${String(i).padStart(4, '0')}`);

/** Resolves once no load of this view is on the wire (a settled load starts the next queued one before this wakes). */
async function settled(loads: VisibleLoads): Promise<void> {
  while (loads.pending.length > 0)
    await new Promise<void>((resolve) => {
      const listener = loads.onDidSettle(() => {
        listener.dispose();
        resolve();
      });
    });
}

describe('one request budget per window for loads nobody asked for', () => {
  const context = useFakeApi();

  it('boards opened and closed one after another send no more than the window budget', async () => {
    const { api, client } = context();
    const events = new EventsCache({ source: () => client, freshForMs: () => 60_000 });
    let held = 0;
    for (let board = 0; board < 6; board++) {
      // A board panel: its own VisibleLoads over the window's cache, disposed when the panel closes.
      const loads = new VisibleLoads({
        load: (serialNumber, signal) => events.get(serialNumber, { signal }),
        cache: events,
        periodMs: () => 60_000,
      });
      loads.show(machinesOfBoard(board));
      await settled(loads);
      held += loads.heldCount;
      loads.dispose();
    }
    const sent = api.eventRequests().length;
    assert.ok(sent <= AUTOMATIC_BUDGET, `${sent} requests sent without asking by six boards, more than the window's ${AUTOMATIC_BUDGET}`);
    assert.equal(sent, AUTOMATIC_BUDGET, 'the budget is spent, not more');
    assert.equal(held, 6 * MAX_AUTOMATIC_PER_VIEW - AUTOMATIC_BUDGET, 'the rest is held for the user to load');
  });
});
