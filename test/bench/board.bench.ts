// The onboarding board's page in Debian's Chromium, for 1,000 and 10,000
// machines × 10 events:
//   (a) first render: the message arrives, the rows are taken, sorted and
//       filtered, the rows in view are drawn, the timeline draws, and layout
//       has run. Target ≤ 200 ms at both sizes.
//   (b) a filter change (typing in the filter box) and (c) a sort change
//       (a column header clicked): the rows are filtered or sorted as data and
//       only the rows in view are drawn again. Target ≤ 50 ms at both sizes.
//   (d) the page's memory: the JS heap after a collection, and the DOM's
//       nodes, read over the DevTools protocol.
// The ratio 10,000 / 1,000 of each figure is printed: drawing only what is in
// view should keep it near 1, not 10 (the JS heap holds every row's data, so it
// grows with them; the DOM does not).
// Figures are taken in the page by the test's read-back script, not the page's
// code (test/support/pages/readBack.ts: performance.now from the host's
// message or the user's input to the changed DOM, after a layout the script
// forces), medians of several runs.
import { cpus, loadavg } from 'node:os';
import type { Browser } from 'playwright-core';
import { boardOf, launchBrowser, openBoardPage, type BoardPage } from '../support/board/boardPage';
import { manyRowsWithProgress } from '../support/board/boardFixtures';
import { median } from './benchSupport';
import type { Benchmark } from './index';

const SIZES = [1000, 10_000] as const;
const EVENTS = 10;
const LIMITS = { firstRenderMs: 200, changeMs: 50 } as const;
const RUNS: Readonly<Record<(typeof SIZES)[number], number>> = { 1000: 7, 10_000: 5 };
const FILTERS = ['A01', 'A0', 'fail', '', 'MX-10', 'certificate', ''];
/** Column headers clicked in turn (their place in the header row): state, newest, age, events, serial number twice. */
const SORTS = [1, 4, 5, 7, 0, 0];

interface Figures {
  readonly first: number;
  readonly filter: number;
  readonly filterMax: number;
  readonly sort: number;
  readonly sortMax: number;
  readonly heapMb: number;
  readonly nodes: number;
  readonly drawn: number;
  readonly lanes: number;
  readonly firsts: readonly number[];
}

/** The page's JS heap after a collection, and its DOM nodes, as DevTools reads them. */
async function memory(page: BoardPage): Promise<{ heapMb: number; nodes: number }> {
  const cdp = await page.page.context().newCDPSession(page.page);
  try {
    await cdp.send('HeapProfiler.collectGarbage');
    await cdp.send('Performance.enable');
    const { metrics } = await cdp.send('Performance.getMetrics');
    const metric = (name: string): number => metrics.find((m) => m.name === name)?.value ?? Number.NaN;
    return { heapMb: metric('JSHeapUsedSize') / 1024 / 1024, nodes: metric('Nodes') };
  } finally {
    await cdp.detach();
  }
}

async function measure(browser: Browser, machines: (typeof SIZES)[number]): Promise<Figures> {
  // With the line's history (issue 38): the progress columns filled and the usual steps drawn behind every lane.
  const { rows, usual } = manyRowsWithProgress(machines, EVENTS);
  const first: number[] = [];
  const filter: number[] = [];
  const sort: number[] = [];
  const heap: number[] = [];
  const nodes: number[] = [];
  let lanes = 0;
  let drawn = 0;
  const runs = RUNS[machines];
  for (let run = 0; run < runs; run++) {
    // A fresh page each run: a first render, not a re-render.
    const page = await openBoardPage(browser, 'dark', { width: 1400, height: 900 });
    const report = await page.show(boardOf(rows, { usual }));
    first.push(report.renderMs);
    lanes = report.lanesDrawn;
    drawn = report.drawn;
    const input = page.page.locator('#filter');
    for (const text of FILTERS) {
      const next = page.nextRendered('filter');
      await input.fill(text);
      filter.push((await next).renderMs);
    }
    const headers = page.page.locator('[role=columnheader] button');
    for (const column of SORTS) {
      const next = page.nextRendered('sort');
      await headers.nth(column).click();
      sort.push((await next).renderMs);
    }
    if (run === 0) {
      const m = await memory(page);
      heap.push(m.heapMb);
      nodes.push(m.nodes);
    }
    await page.close();
  }
  return {
    first: median(first.slice(1)),
    filter: median(filter),
    filterMax: Math.max(...filter),
    sort: median(sort),
    sortMax: Math.max(...sort),
    heapMb: median(heap),
    nodes: median(nodes),
    drawn,
    lanes,
    firsts: first,
  };
}

export const boardBench: Benchmark = {
  name: 'board (onboarding board page, 1,000 and 10,000 machines × 10 events)',
  async run() {
    const browser = await launchBrowser();
    try {
      const figures = new Map<number, Figures>();
      for (const machines of SIZES) {
        const f = await measure(browser, machines);
        figures.set(machines, f);
        const n = machines.toLocaleString('en');
        console.log(
          `(load average ${(loadavg()[0] ?? 0).toFixed(1)} on ${cpus().length} cores; first renders at ${n}: ${f.firsts.map((ms) => ms.toFixed(0)).join(', ')} ms)`,
        );
        console.log(
          `${n} machines × ${EVENTS} events: first render ${f.first.toFixed(1)} ms median (target ≤ ${LIMITS.firstRenderMs} ms; ${f.drawn} rows and ${f.lanes} lanes drawn)`,
        );
        console.log(
          `${n}: filter change ${f.filter.toFixed(1)} ms median, max ${f.filterMax.toFixed(1)} ms; sort change ${f.sort.toFixed(1)} ms median, max ${f.sortMax.toFixed(1)} ms (target ≤ ${LIMITS.changeMs} ms)`,
        );
        console.log(`${n}: page memory ${f.heapMb.toFixed(1)} MB JS heap after a collection, ${f.nodes.toFixed(0)} DOM nodes`);
      }
      const small = figures.get(SIZES[0]);
      const large = figures.get(SIZES[1]);
      if (small && large) {
        const ratio = (a: number, b: number): string => `${(b / Math.max(a, 0.01)).toFixed(2)}×`;
        console.log(
          `ratio 10,000 / 1,000 (10× the rows): first render ${ratio(small.first, large.first)}, filter ${ratio(small.filter, large.filter)}, sort ${ratio(small.sort, large.sort)}, JS heap ${ratio(small.heapMb, large.heapMb)}, DOM nodes ${ratio(small.nodes, large.nodes)}`,
        );
      }
      return [...figures.values()].every(
        (f) => f.first <= LIMITS.firstRenderMs && f.filter <= LIMITS.changeMs && f.sort <= LIMITS.changeMs,
      );
    } finally {
      await browser.close();
    }
  },
};
