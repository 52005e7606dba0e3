// Issue 5 item 8: the Machines tree at scale — 10,000 events on one machine
// and 1,000 pinned machines — measured on the vscode-free model the tree
// renders from, against naive versions of the same work in the same run.
//
// (a) Children of a machine with 10,000 events. VS Code calls getChildren on
//     every expand, change event and reveal. Ours merges, sorts and filters
//     once per (result, filter) and then slices the newest N; the naive
//     version re-sorts and re-filters everything on every call.
// (b) Refresh of 1,000 pinned machines through the real OnboardingClient
//     against the fake service (injected latency) in a worker thread, bounded
//     by the client's ceiling c: the floor is ceil(1000 / c) round trips,
//     each the round trip of c bare requests at once, the mean of those
//     measured right before and right after the run (a lone request's round
//     trip understates it on loaded cores).
//     Five runs, each by a fresh client, after one untimed run that compiles
//     the code path; the median ratio is judged, and every run and its floor
//     are printed. Next to the peers of
//     fleet.bench.ts: the simple client (all at once) and by hand (one at a time).
//     The injected RTT is 100 ms, as in fleet.bench.ts (it was 20 ms at a
//     concurrency of 8): at 20 ms the floor with the ceiling of 64 asks for
//     3,200 answers a second, which measures what two shared cores can parse,
//     not the tree.
// (c) Heap used by the model holding those 1,000 machines plus the
//     10,000-event one, and by what one render of the big machine allocates,
//     against a naive render that builds a node for every event.

import { DEFAULT_EVENT_STATE_RULES } from '../../src/core/domain/events/eventState';
import { DEFAULT_HTTP_SETTINGS, OnboardingClient } from '../../src/core/client/onboardingClient';
import type { EventsResult, OnboardingEvent } from '../../src/core/client/model';
import { validateEvent } from '../../src/core/client/validateEvents';
import { EventsCache } from '../../src/core/eventsCache/eventsCache';
import { compileFilter } from '../../src/core/domain/events/eventFilter';
import { MachineLists, type KeyValueStore } from '../../src/extension/machines/machineLists';
import { MachinesModel } from '../../src/extension/machines/machinesModel';
import { SeenTracker } from '../../src/extension/machines/seenTracker';
import { defaultData, makeEvent, TEST_CREDENTIALS, type FakeApiData } from '../support/fakeApi';
import { DEFAULT_INITIAL_LIMIT } from '../../src/core/client/http/adaptiveLimit';
import { bareToken, median, roundTripAt, slowerClause, timed } from './benchSupport';
import { byHandRefresh, simpleRefresh } from './peers';
import { RemoteFakeApi } from './remoteFakeApi';
import type { Benchmark } from './index';
import { serverTextData } from '../../src/core/common/serverText';

const BIG = 'BIG-0000-A0000';
const EVENTS_ON_BIG = 10_000;
const PINNED = 1_000;
const EVENTS_PER_MACHINE = 5;
const CALLS = 200;
const RUNS = 5;
const BY_HAND_SAMPLE = 50;
const INJECTED_RTT_MS = 100;
const CONCURRENCY = DEFAULT_HTTP_SETTINGS.maxConcurrency;
const MAX_EVENTS_SHOWN = 50;
const T0 = Date.UTC(2025, 0, 15, 8, 0, 0);

const LIMITS = {
  /** One warm getChildren of the 10,000-event machine. */
  warmChildrenMs: 1,
  /** The first build (merge, sort check, filter) of its view. */
  coldChildrenMs: 50,
  /** Refresh-all against its floor of ceil(N / c) round trips. */
  refreshRatio: 1.3,
  /** Heap for 1,000 machines × 5 events plus one of 10,000 events. */
  heapMb: 64,
} as const;

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

function bigResult(): EventsResult {
  const events: OnboardingEvent[] = [];
  for (let i = EVENTS_ON_BIG - 1; i >= 0; i--) {
    const raw = makeEvent({
      type: `TYPE_${i % 13}`,
      message: `Step ${i} of the onboarding of ${BIG}`,
      timestamp: T0 + i * 1000,
      ...(i === 3 ? { assetId: '3f2b8c1e-7a4d-4e4b-9a6f-1c2d3e4f5a6b' } : {}),
    });
    const event = validateEvent(raw, BIG);
    if (typeof event === 'string') throw new Error(event);
    events.push(event);
  }
  return { serialNumber: BIG, events, invalid: [], fetchedAt: Date.now(), truncated: false };
}

function heapMb(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed / (1024 * 1024);
}

/** What a naive provider does on each getChildren: copy, sort, filter everything, then cut. */
function naiveChildren(result: EventsResult, filter: (event: OnboardingEvent) => boolean): OnboardingEvent[] {
  return [...result.events]
    .sort((a, b) => b.time.epochMs - a.time.epochMs)
    .filter(filter)
    .slice(0, MAX_EVENTS_SHOWN);
}

/** A naive render: one node with label, description and tooltip text for every event. */
function naiveRenderAll(result: EventsResult): { label: string; description: string; tooltip: string }[] {
  return [...result.events]
    .sort((a, b) => b.time.epochMs - a.time.epochMs)
    .map((event) => ({
      label: serverTextData(event.type),
      description: new Date(event.time.epochMs).toISOString(),
      tooltip: `${serverTextData(event.message)}\n${JSON.stringify(event.raw)}`,
    }));
}

function newModel(events: EventsCache, lists: MachineLists): MachinesModel {
  return new MachinesModel({
    events,
    lists,
    seen: new SeenTracker(new MemoryStore(), () => 'bench'),
    settings: () => ({
      maxEvents: MAX_EVENTS_SHOWN,
      concurrency: CONCURRENCY,
      timestampUnit: 'auto',
      eventStates: DEFAULT_EVENT_STATE_RULES,
      workspaceScanEnabled: false,
      hasWorkspace: false,
    }),
    signedIn: () => true,
  });
}

const serials = Array.from({ length: PINNED }, (_, index) => `PIN-${String(index).padStart(4, '0')}-A0000`);

/** The fake's data: the default machines plus the pinned ones, five events each. */
function loadedData(): FakeApiData {
  const data = defaultData();
  for (const serial of serials) {
    data.machines[serial] = Array.from({ length: EVENTS_PER_MACHINE }, (_, i) =>
      makeEvent({ type: `STEP_${i}`, message: `Step ${i} of ${serial}`, timestamp: T0 + i * 60_000 }),
    );
  }
  return data;
}

export const treeBench: Benchmark = {
  name: `Machines tree (${EVENTS_ON_BIG.toLocaleString('en')} events on one machine, ${PINNED.toLocaleString('en')} pinned machines, c=${CONCURRENCY}, injected RTT ${INJECTED_RTT_MS} ms)`,
  async run() {
    const checks: { met: boolean; line: string }[] = [];

    // (a) children of the 10,000-event machine -----------------------------------------
    const beforeBig = heapMb();
    const big = bigResult();
    let served: EventsResult = big;
    const events = new EventsCache({ source: () => ({ getEvents: () => Promise.resolve(served) }), freshForMs: () => 60_000 });
    const lists = new MachineLists({ pinnedStore: () => new MemoryStore(), recentStore: new MemoryStore() });
    const model = newModel(events, lists);
    await events.get(BIG);
    model.children(BIG);
    const bigMb = heapMb() - beforeBig;
    const textFilter = { text: 'step 9' };
    const matches = compileFilter(textFilter);

    const cold: number[] = [];
    for (let repeat = 0; repeat < 9; repeat++) {
      served = { ...big }; // a new result identity: what a refresh delivers
      await events.get(BIG, { force: true });
      model.setFilter(repeat % 2 === 0 ? {} : textFilter);
      cold.push(await timed(() => model.children(BIG)));
    }
    model.setFilter(textFilter);
    model.children(BIG);
    const warmTotal = await timed(() => {
      for (let call = 0; call < CALLS; call++) model.children(BIG);
    });
    const naiveTotal = await timed(() => {
      for (let call = 0; call < CALLS; call++) naiveChildren(big, matches);
    });
    const warm = warmTotal / CALLS;
    const naive = naiveTotal / CALLS;
    const coldMedian = median(cold);
    checks.push({
      met: warm <= LIMITS.warmChildrenMs && warm < naive,
      line: `getChildren of a ${EVENTS_ON_BIG.toLocaleString('en')}-event machine (filtered, newest ${MAX_EVENTS_SHOWN}): ${warm.toFixed(3)} ms per call (limit ${LIMITS.warmChildrenMs} ms, ${(warm / LIMITS.warmChildrenMs).toFixed(2)}× of it) — naive re-sort/re-filter ${naive.toFixed(2)} ms, ${(naive / warm).toFixed(0)}× slower`,
    });
    checks.push({
      met: coldMedian <= LIMITS.coldChildrenMs,
      line: `first build after a refresh or filter change: ${coldMedian.toFixed(2)} ms median (limit ${LIMITS.coldChildrenMs} ms, ${(coldMedian / LIMITS.coldChildrenMs).toFixed(2)}× of it) — naive pays ${naive.toFixed(2)} ms on every call, not once`,
    });

    // (c, part 1) what one render of the big machine allocates ------------------------------
    model.setFilter({});
    const beforeOurs = heapMb();
    const ourRender = model.children(BIG);
    const ourRenderMb = heapMb() - beforeOurs;
    const beforeNaive = heapMb();
    const naiveRender = naiveRenderAll(big);
    const naiveRenderMb = heapMb() - beforeNaive;

    // (b) refresh all of 1,000 pinned machines through the real client, RUNS times ------------
    // The fake runs in a worker thread: its work is not charged to the client's thread.
    const fake = await RemoteFakeApi.start({ data: loadedData() });
    const baseline = heapMb();
    try {
      const token = await bareToken(fake);
      await fake.setLatency(INJECTED_RTT_MS);
      const pinnedStore = new MemoryStore();
      await pinnedStore.update('onboardingEvents.pinnedMachines', serials);
      const realLists = new MachineLists({ pinnedStore: () => pinnedStore, recentStore: new MemoryStore() });
      const runs: { ms: number; rtt: number; ratio: number; requests: number; failed: number }[] = [];
      let client: OnboardingClient | undefined;
      let realModel: MachinesModel | undefined;
      // One untimed run first: the first refresh in the process compiles the model's code path (JIT).
      for (let run = -1; run < RUNS; run++) {
        // Each run by a fresh client, as after a window reload: nothing learnt from the run before.
        client?.dispose();
        realModel?.dispose();
        const runClient = new OnboardingClient({
          apiBaseUrl: fake.baseUrl,
          authUrl: fake.authUrl,
          credentials: () => Promise.resolve({ ...TEST_CREDENTIALS }),
          http: { maxConcurrency: CONCURRENCY, env: {} },
        });
        const realEvents = new EventsCache({ source: () => runClient, freshForMs: () => 60_000 });
        const runModel = newModel(realEvents, realLists);
        client = runClient;
        realModel = runModel;
        await runClient.getEvents('WARM-0000-A0000'); // token and sockets: start-up, not refresh
        // The round trip on this machine, at the concurrency the refresh runs at (injected latency
        // plus loopback, server and client work for that many answers), right before and right after
        // the run, their mean: on two cores shared with other builds the load moves within seconds
        // (floors of 1.8 s and 3.8 s in one run, measured), and a floor taken before the run only judged
        // it by a moment it was not in. The limit is unchanged.
        const roundTrip = (): Promise<number> => roundTripAt(fake, token, CONCURRENCY, (index) => serials[index % serials.length] ?? '');
        const before = await roundTrip();
        await fake.reset();
        const ms = await timed(() => runModel.refreshAll());
        const requests = (await fake.counts()).eventRequests;
        const rtt = (before + (await roundTrip())) / 2;
        const failed = serials.filter((serial) => runModel.failureOf(serial) !== undefined).length;
        if (run >= 0) runs.push({ ms, rtt, ratio: ms / (Math.ceil(PINNED / CONCURRENCY) * rtt), requests, failed });
      }
      if (client === undefined || realModel === undefined) throw new Error('no run');
      const simple = await simpleRefresh(fake, serials, token);
      const byHand = await byHandRefresh(fake, serials, token, BY_HAND_SAMPLE);
      const ratios = runs.map((run) => run.ratio);
      const medianRun = [...runs].sort((a, b) => a.ratio - b.ratio)[Math.floor(runs.length / 2)] ?? runs[0];
      if (medianRun === undefined) throw new Error('no run');
      const worst = Math.max(...ratios);
      const rounds = Math.ceil(PINNED / CONCURRENCY);
      checks.push({
        met: medianRun.ratio <= LIMITS.refreshRatio && runs.every((run) => run.failed === 0 && run.requests === PINNED),
        line:
          `refresh all ${PINNED} pinned machines: us ${Math.round(medianRun.ms)} ms = ${medianRun.ratio.toFixed(2)} × floor, the median of ${RUNS} runs after an untimed warm-up run, each against its own floor, the mean of those measured right before and after it (ceil(${PINNED}/${CONCURRENCY}) × the round trip of ${CONCURRENCY} bare requests at once, ${medianRun.rtt.toFixed(1)} ms = ${Math.round(rounds * medianRun.rtt)} ms; limit ${LIMITS.refreshRatio}), ` +
          `spread ${Math.min(...ratios).toFixed(2)}–${worst.toFixed(2)} (runs ${runs.map((run) => `${Math.round(run.ms)} ms / ${Math.round(rounds * run.rtt)} ms`).join(', ')}), ` +
          `${runs.map((run) => run.requests).join('/')} requests, ${runs.reduce((sum, run) => sum + run.failed, 0)} failed — ` +
          `simple client ${Math.round(simple.ms)} ms (${simple.sent} requests, all at once), by hand ${Math.round(byHand.ms)} ms (one at a time; ${byHand.measured} timed, scaled to ${PINNED})` +
          slowerClause(
            medianRun.ms,
            [
              { name: 'the simple client', ms: simple.ms },
              { name: 'by hand', ms: byHand.ms },
            ],
            `by design: we send at most the ceiling of ${CONCURRENCY} at once and learn our way up to it from ${Math.min(CONCURRENCY, DEFAULT_INITIAL_LIMIT)}, the simple client sends all ${PINNED}`,
          ),
      });

      // (c, part 2) heap of the model with everything loaded -------------------------------
      realModel.unseenTotal();
      realModel.children(serials[0] ?? BIG);
      const heldMb = heapMb() - baseline;
      const totalMb = heldMb + bigMb;
      checks.push({
        met: totalMb <= LIMITS.heapMb,
        line:
          `heap: ${PINNED} machines × ${EVENTS_PER_MACHINE} events after refresh-all +${heldMb.toFixed(1)} MB, the ${EVENTS_ON_BIG.toLocaleString('en')}-event machine +${bigMb.toFixed(1)} MB; ` +
          `together ${totalMb.toFixed(1)} MB (limit ${LIMITS.heapMb} MB, ${(totalMb / LIMITS.heapMb).toFixed(2)}× of it)${(globalThis as { gc?: unknown }).gc ? '' : ' [approximate: run node with --expose-gc]'}`,
      });
      checks.push({
        met: ourRenderMb < naiveRenderMb,
        line: `one render of the ${EVENTS_ON_BIG.toLocaleString('en')}-event machine allocates ${ourRenderMb.toFixed(2)} MB (${ourRender.length} children) — naive node per event ${naiveRenderMb.toFixed(2)} MB (${naiveRender.length} nodes)`,
      });
      client.dispose();
      realModel.dispose();
    } finally {
      await fake.close();
      model.dispose();
    }
    for (const check of checks) console.log(`${check.met ? 'ok  ' : 'MISS'} ${check.line}`);
    return checks.every((check) => check.met);
  },
};
