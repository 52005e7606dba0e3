// Hostile corpus: what one opened file may cost in requests. A file whose
// three visible lines hold 713 different serial numbers each used to send a
// request for every one of them (2,139 requests, each up to 50 pages) with
// no prompt. Now at most a screen's worth loads per view and a budget per
// period; the rest waits for the user (issue 24 item 7).
import assert from 'node:assert/strict';
import { LoadBudget } from '../../../src/core/eventsCache/loadBudget';
import { VisibleLoads } from '../../../src/core/eventsCache/visibleLoads';

const serialsOnLine = (line: number): string[] =>
  Array.from({ length: 713 }, (_, i) => `MX-${String(1000 + line).padStart(4, '0')}-A${String(i).padStart(4, '0')}`);

/** The loads over a cache that knows nothing, every request answered at once. */
function loadsAnsweringAtOnce() {
  const asked: string[] = [];
  const answered = new Set<string>();
  const loads = new VisibleLoads({
    load: (serialNumber) => {
      asked.push(serialNumber);
      answered.add(serialNumber);
      return Promise.resolve({});
    },
    cache: {
      isFresh: (serial) => answered.has(serial),
      peek: () => undefined,
      failure: () => undefined,
      automaticLoads: new LoadBudget(),
    },
    periodMs: () => 60_000,
  });
  return { loads, asked };
}

const settle = async (): Promise<void> => {
  for (let i = 0; i < 50; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe('hostile input: requests one opened file may cost', () => {
  it('three visible lines of 713 serial numbers each load at most 50 without asking, not 2,139', async () => {
    const { loads, asked } = loadsAnsweringAtOnce();
    const visible = [0, 1, 2].flatMap(serialsOnLine);
    // The inline status shows the same view again after each answer and on every scroll event.
    for (let i = 0; i < 20; i++) {
      loads.show(visible);
      await settle();
    }
    assert.ok(asked.length <= 50, `${asked.length} requests sent without asking`);
    assert.deepEqual(asked, visible.slice(0, asked.length), 'the first in view, top first');
    loads.dispose();
  });

  it('scrolling screen after screen through a list of 2,000 serial numbers stops at the budget of 200 requests', async () => {
    const { loads, asked } = loadsAnsweringAtOnce();
    const list = [0, 1, 2].flatMap(serialsOnLine).slice(0, 2_000);
    for (let top = 0; top < list.length; top += 50) {
      loads.show(list.slice(top, top + 50));
      await settle();
    }
    assert.ok(asked.length <= 200, `${asked.length} requests sent without asking`);
    loads.dispose();
  });
});
