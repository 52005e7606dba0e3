// Issue 3 item 9, measured against peers (issue 14): how close the API core
// gets to the round-trip floor for single look-ups, and how many tokens it
// asks for, next to the simple client (token cached, plain fetch, no limit)
// and by hand (one request after another), in the same run on the same fake.
//
// Floors: a cold look-up needs a token and the events, 2 × RTT; a warm one only
// the events, 1 × RTT. Refreshing many machines is fleet.bench.ts's subject.
//
// The fake runs in a worker thread, as a real server runs elsewhere. RTT is the
// injected latency plus what one bare request costs on this machine (server
// work, loopback, event loop): it is measured in the same run as the median of
// plain fetches with a ready token, right before each of our look-ups, so the
// ratios show the client's own overhead rather than how busy the machine is.
//
// (c) The two engines side by side (issue 25): the same client over the fetch
// transport (VS Code's network path inside the extension host) and over the
// undici transport (the engine outside VS Code, and everywhere before).

import { performance } from 'node:perf_hooks';
import { DEFAULT_INITIAL_LIMIT } from '../../src/core/client/http/adaptiveLimit';
import { createFetchTransport } from '../../src/core/client/http/fetchTransport';
import type { Transport } from '../../src/core/client/http/transport';
import { DEFAULT_HTTP_SETTINGS, OnboardingClient } from '../../src/core/client/onboardingClient';
import { TEST_CREDENTIALS, TEST_SERIALS } from '../support/fakeApi';
import type { Benchmark } from './index';
import { bareEvents, bareToken, median, ms, slowerClause, timed, times } from './benchSupport';
import { byHandRefresh, peerLookup, simpleRefresh } from './peers';
import { RemoteFakeApi } from './remoteFakeApi';

type FakeApi = Pick<RemoteFakeApi, 'baseUrl' | 'authUrl'>;

const INJECTED_RTT_MS = 100;
const REPEATS = 9;
const LOOKUPS_IN_ONE_LIFETIME = 100;
const BY_HAND_SAMPLE = 10;
const CEILING = DEFAULT_HTTP_SETTINGS.maxConcurrency;

const LIMITS = { cold: 1.05, warm: 1.05, engine: 1.1 } as const;

function newClient(api: FakeApi, transport?: Transport): OnboardingClient {
  return new OnboardingClient({
    apiBaseUrl: api.baseUrl,
    authUrl: api.authUrl,
    credentials: () => Promise.resolve({ ...TEST_CREDENTIALS }),
    // No proxy from the environment: the benchmark measures loopback only.
    http: { env: {} },
    ...(transport === undefined ? {} : { transport }),
  });
}

/** Two medians, one per engine. */
interface Pair {
  readonly fetch: number;
  readonly undici: number;
}

/**
 * The two engines of the client side by side (issue 25): the fetch transport, which inside VS Code
 * rides the extension host's patched fetch (here Node's own fetch: the same transport code, without
 * VS Code's proxy resolution), and the undici transport, the engine outside VS Code and before issue
 * 25. Each sample pairs the two right after each other, so a busy machine slows both alike. For the
 * burst, also the main thread's busy time per look-up in the same runs (event-loop utilisation: the
 * fake's worker thread is not in it), which says where the difference goes.
 */
async function engines(api: FakeApi): Promise<{ warm: Pair; many: Pair; busyUs: Pair }> {
  const engine = (name: 'fetch' | 'undici'): OnboardingClient =>
    newClient(api, name === 'fetch' ? createFetchTransport({ fetch: globalThis.fetch }) : undefined);
  const warm = { fetch: [] as number[], undici: [] as number[] };
  const many = { fetch: [] as number[], undici: [] as number[] };
  const busy = { fetch: [] as number[], undici: [] as number[] };
  for (let repeat = 0; repeat < REPEATS; repeat++) {
    for (const name of repeat % 2 === 0 ? (['fetch', 'undici'] as const) : (['undici', 'fetch'] as const)) {
      const client = engine(name);
      try {
        await client.getEvents(TEST_SERIALS.onboarded); // token and connection
        warm[name].push(await timed(() => client.getEvents(TEST_SERIALS.started)));
        // Every repeat, not three: a burst's figure moves with the machine's load more than a single
        // look-up's, and the median of three pairs was at the mercy of one busy moment.
        const before = performance.eventLoopUtilization();
        many[name].push(await timed(() => Promise.all(serials.map((serial) => client.getEvents(serial)))));
        busy[name].push((performance.eventLoopUtilization(before).active * 1000) / serials.length);
      } finally {
        client.dispose();
      }
    }
  }
  const pair = (samples: { fetch: number[]; undici: number[] }): Pair => ({ fetch: median(samples.fetch), undici: median(samples.undici) });
  return { warm: pair(warm), many: pair(many), busyUs: pair(busy) };
}

const serials = Array.from({ length: LOOKUPS_IN_ONE_LIFETIME }, (_, index) => `BENCH-${String(index).padStart(4, '0')}`);

/** A peer's cold look-up: a token (the simple client's first call; by hand, the first curl), then the events. */
async function peerCold(api: FakeApi): Promise<{ ms: number; token: string }> {
  let token = '';
  const took = await timed(async () => {
    token = await bareToken(api);
    await peerLookup(api, TEST_SERIALS.onboarded, token);
  });
  return { ms: took, token };
}

export const coreBench: Benchmark = {
  name: `API core: single look-ups and tokens (fake service in a worker thread, injected RTT ${INJECTED_RTT_MS} ms, ceiling ${CEILING})`,
  async run() {
    const api = await RemoteFakeApi.start();
    try {
      // Load undici and JIT the code once: process start-up, not a look-up, pays for that.
      const warmUp = newClient(api);
      await warmUp.getEvents(TEST_SERIALS.onboarded);
      await peerCold(api);
      warmUp.dispose();
      await api.setLatency(INJECTED_RTT_MS);

      // (a) cold and warm look-ups, ours by a fresh client each time, each paired with bare
      // requests measured right before it, so a busy machine slows both sides alike. The
      // simple client and by hand send the same requests: a token, then the events; warm, the events only.
      const token = await bareToken(api);
      const rtts: number[] = [];
      const ours = { cold: [] as number[], warm: [] as number[], coldRatio: [] as number[], warmRatio: [] as number[] };
      const simple = { cold: [] as number[], warm: [] as number[] };
      const byHand = { cold: [] as number[], warm: [] as number[] };
      for (let repeat = 0; repeat < REPEATS; repeat++) {
        const rtt = median([
          await timed(() => bareEvents(api, TEST_SERIALS.onboarded, token)),
          await timed(() => bareEvents(api, TEST_SERIALS.onboarded, token)),
          await timed(() => bareEvents(api, TEST_SERIALS.onboarded, token)),
        ]);
        rtts.push(rtt);
        const client = newClient(api);
        const cold = await timed(() => client.getEvents(TEST_SERIALS.onboarded));
        const warm = await timed(() => client.getEvents(TEST_SERIALS.started));
        client.dispose();
        ours.cold.push(cold);
        ours.warm.push(warm);
        ours.coldRatio.push(cold / (2 * rtt));
        ours.warmRatio.push(warm / rtt);
        const simpleCold = await peerCold(api);
        simple.cold.push(simpleCold.ms);
        simple.warm.push(await timed(() => peerLookup(api, TEST_SERIALS.started, simpleCold.token)));
        const byHandCold = await peerCold(api);
        byHand.cold.push(byHandCold.ms);
        byHand.warm.push(await timed(() => peerLookup(api, TEST_SERIALS.started, byHandCold.token)));
      }
      const rtt = median(rtts);
      console.log(`RTT: ${INJECTED_RTT_MS} ms injected, ${rtt.toFixed(1)} ms measured (median of bare requests)`);
      const coldRatio = median(ours.coldRatio);
      const warmRatio = median(ours.warmRatio);
      const why =
        'the same requests; the difference is our own work (a fresh client opens its own connections, parses and validates the answer), inside the limit';

      // (b) token requests for 100 look-ups within one token lifetime (3600 s), all asked at once.
      const tokensBefore = (await api.counts()).tokenRequests;
      const counting = newClient(api);
      const oursLifetime = await timed(() => Promise.all(serials.map((serial) => counting.getEvents(serial))));
      const tokenRequests = (await api.counts()).tokenRequests - tokensBefore;
      counting.dispose();
      const simpleBefore = (await api.counts()).tokenRequests;
      const simpleLifetime = await simpleRefresh(api, serials, await bareToken(api));
      const simpleTokens = (await api.counts()).tokenRequests - simpleBefore;
      const byHandBefore = (await api.counts()).tokenRequests;
      const byHandLifetime = await byHandRefresh(api, serials, await bareToken(api), BY_HAND_SAMPLE);
      const byHandTokens = (await api.counts()).tokenRequests - byHandBefore;

      const peers = (simpleMs: number, byHandMs: number): { name: string; ms: number }[] => [
        { name: 'the simple client', ms: simpleMs },
        { name: 'by hand', ms: byHandMs },
      ];
      const checks = [
        {
          met: coldRatio <= LIMITS.cold,
          line:
            `cold look-up (token + events): us ${ms(median(ours.cold))} = ${coldRatio.toFixed(2)} × (2 × RTT) (limit ${LIMITS.cold}) — simple client ${ms(median(simple.cold))}, by hand ${ms(median(byHand.cold))} (median of ${REPEATS})` +
            slowerClause(median(ours.cold), peers(median(simple.cold), median(byHand.cold)), why),
        },
        {
          met: warmRatio <= LIMITS.warm,
          line:
            `warm look-up (token cached): us ${ms(median(ours.warm))} = ${warmRatio.toFixed(2)} × RTT (limit ${LIMITS.warm}) — simple client ${ms(median(simple.warm))}, by hand ${ms(median(byHand.warm))} (median of ${REPEATS})` +
            slowerClause(median(ours.warm), peers(median(simple.warm), median(byHand.warm)), why),
        },
        {
          met: tokenRequests === 1,
          line:
            `token requests for ${LOOKUPS_IN_ONE_LIFETIME} look-ups asked at once in one token lifetime: us ${tokenRequests} (target exactly 1) in ${ms(oursLifetime)} — ` +
            `simple client ${simpleTokens} in ${ms(simpleLifetime.ms)}, by hand ${byHandTokens} in ${ms(byHandLifetime.ms)} (one at a time; ${BY_HAND_SAMPLE} timed, scaled to ${LOOKUPS_IN_ONE_LIFETIME})` +
            slowerClause(
              oursLifetime,
              peers(simpleLifetime.ms, byHandLifetime.ms),
              `by design: we start at ${Math.min(CEILING, DEFAULT_INITIAL_LIMIT)} at once and double each round trip while the server keeps up, as we do not know what it takes; the simple client sends all ${LOOKUPS_IN_ONE_LIFETIME} at once`,
            ),
        },
      ];
      // (c) the fetch engine (VS Code's path) beside the undici engine (today's transport).
      const side = await engines(api);
      for (const [what, figures] of [
        ['warm look-up', side.warm],
        [`${LOOKUPS_IN_ONE_LIFETIME} look-ups at once`, side.many],
      ] as const) {
        const ratio = figures.fetch / figures.undici;
        // The single look-up is the target (what a hover waits for); a burst of 100 is where fetch's
        // CPU per request shows: that figure is printed, and a loss says so, but it is issue 25's open
        // item, not a target the fetch engine meets today.
        const target = what === 'warm look-up';
        const lost = ratio > LIMITS.engine;
        const busy = side.busyUs;
        const line =
          `${what}, fetch engine beside undici: fetch ${ms(figures.fetch)}, undici ${ms(figures.undici)} = ${ratio.toFixed(2)}× (${target ? 'limit' : 'goal'} ${LIMITS.engine}; median of ${REPEATS} pairs run back to back)` +
          (target
            ? ''
            : `; main thread busy per look-up: fetch ${busy.fetch.toFixed(0)} µs, undici ${busy.undici.toFixed(0)} µs (${times(busy.fetch / busy.undici)})`) +
          (ratio > 1
            ? ` — SLOWER by ${ms(figures.fetch - figures.undici)}: fetch's own work per request costs more CPU than undici's request() (its Request, Response, Headers, AbortSignal and WHATWG body stream, and their garbage: profiled, our transport around it is about 5% of it); a burst is bound by that CPU, a single look-up by the round trip. Inside VS Code it is the price of VS Code's proxy, PAC, Kerberos and certificate handling`
            : '');
        if (target) checks.push({ met: !lost, line });
        else console.log(`${lost ? 'LOSE' : 'ok  '} ${line}`);
      }
      for (const check of checks) console.log(`${check.met ? 'ok  ' : 'MISS'} ${check.line}`);
      return checks.every((check) => check.met);
    } finally {
      await api.close();
    }
  },
};
