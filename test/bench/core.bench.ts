// Issue 3 item 9: how close the API core gets to the round-trip floor, against
// the fake service with an injected latency, and the same work done by a naive
// client (plain fetch, a new token per call, no limit) in the same run.
//
// Floors: a cold lookup needs a token and the events, 2 × RTT; a warm one only
// the events, 1 × RTT; refreshing N serials with c requests in flight needs
// ceil(N / c) rounds of 1 × RTT.
//
// The fake runs in a worker thread, as a real server runs elsewhere. RTT is the
// injected latency plus what one bare request costs on this machine
// (server work, loopback, event loop): it is measured in the same run as the
// median of plain fetches of the events endpoint with a ready token, so the
// ratios show the client's own overhead rather than how busy the machine is.

import { DEFAULT_HTTP_SETTINGS, OnboardingClient } from '../../src/core/onboardingClient';
import { TEST_CREDENTIALS, TEST_SERIALS } from '../support/fakeApi';
import type { Benchmark } from './index';
import { bareEvents, bareToken, median, timed } from './benchSupport';
import { RemoteFakeApi } from './remoteFakeApi';

type FakeApi = Pick<RemoteFakeApi, 'baseUrl' | 'authUrl'>;

const INJECTED_RTT_MS = 100;
const REPEATS = 9;
const LOOKUPS_IN_ONE_LIFETIME = 100;
const SERIALS_TO_REFRESH = 500;
const CONCURRENCY = DEFAULT_HTTP_SETTINGS.maxConcurrency;

const LIMITS = { cold: 1.05, warm: 1.05, refresh: 1.15 } as const;

function newClient(api: FakeApi): OnboardingClient {
  return new OnboardingClient({
    apiBaseUrl: api.baseUrl,
    authUrl: api.authUrl,
    credentials: () => Promise.resolve({ ...TEST_CREDENTIALS }),
    // No proxy from the environment: the benchmark measures loopback only.
    http: { maxConcurrency: CONCURRENCY, env: {} },
  });
}

/** The naive client: a fresh token for every call, plain fetch, no limit, no reuse. */
async function naiveLookup(api: FakeApi, serial: string): Promise<unknown> {
  return bareEvents(api, serial, await bareToken(api));
}

const serials = Array.from({ length: SERIALS_TO_REFRESH }, (_, index) => `BENCH-${String(index).padStart(4, '0')}`);

function ratio(value: number): string {
  return value.toFixed(2);
}

export const coreBench: Benchmark = {
  name: `API core (fake service, injected RTT ${INJECTED_RTT_MS} ms, concurrency ${CONCURRENCY})`,
  async run() {
    const api = await RemoteFakeApi.start();
    try {
      // Load undici and JIT the code once: process start-up, not a lookup, pays for that.
      const warmUp = newClient(api);
      await warmUp.getEvents(TEST_SERIALS.onboarded);
      await naiveLookup(api, TEST_SERIALS.onboarded);
      warmUp.dispose();
      await api.setLatency(INJECTED_RTT_MS);

      // (a) cold and warm lookups by fresh clients, each paired with bare requests
      // measured right before it, so a busy machine slows both sides alike.
      const token = await bareToken(api);
      const rtts: number[] = [];
      const coldRatios: number[] = [];
      const warmRatios: number[] = [];
      const naiveRatios: number[] = [];
      for (let repeat = 0; repeat < REPEATS; repeat++) {
        const rtt = median([await timed(() => bareEvents(api, TEST_SERIALS.onboarded, token)), await timed(() => bareEvents(api, TEST_SERIALS.onboarded, token)), await timed(() => bareEvents(api, TEST_SERIALS.onboarded, token))]);
        rtts.push(rtt);
        const client = newClient(api);
        coldRatios.push((await timed(() => client.getEvents(TEST_SERIALS.onboarded))) / (2 * rtt));
        warmRatios.push((await timed(() => client.getEvents(TEST_SERIALS.started))) / rtt);
        client.dispose();
        naiveRatios.push((await timed(() => naiveLookup(api, TEST_SERIALS.onboarded))) / (2 * rtt));
      }
      const RTT_MS = median(rtts);
      console.log(`RTT: ${INJECTED_RTT_MS} ms injected, ${RTT_MS.toFixed(1)} ms measured (median of bare requests)`);
      const coldRatio = median(coldRatios);
      const warmRatio = median(warmRatios);
      // The naive client has no warm state: every lookup costs what a cold one does.
      const naiveColdRatio = median(naiveRatios);
      const naiveWarmRatio = 2 * naiveColdRatio;

      // (b) token requests for 100 lookups within one token lifetime (3600 s).
      const tokensBefore = (await api.counts()).tokenRequests;
      const counting = newClient(api);
      await Promise.all(serials.slice(0, LOOKUPS_IN_ONE_LIFETIME).map((serial) => counting.getEvents(serial)));
      const tokenRequests = (await api.counts()).tokenRequests - tokensBefore;
      const naiveTokensBefore = (await api.counts()).tokenRequests;
      await Promise.all(serials.slice(0, LOOKUPS_IN_ONE_LIFETIME).map((serial) => naiveLookup(api, serial)));
      const naiveTokenRequests = (await api.counts()).tokenRequests - naiveTokensBefore;

      // (c) refresh 500 serials with the token already cached (the client from (b)).
      const rounds = Math.ceil(SERIALS_TO_REFRESH / CONCURRENCY);
      const requestsBefore = (await api.counts()).requests;
      const refresh = await timed(() => Promise.all(serials.map((serial) => counting.getEvents(serial))));
      const refreshRequests = (await api.counts()).requests - requestsBefore;
      counting.dispose();
      const naiveRequestsBefore = (await api.counts()).requests;
      const naiveRefresh = await timed(() => Promise.all(serials.map((serial) => naiveLookup(api, serial))));
      const naiveRefreshRequests = (await api.counts()).requests - naiveRequestsBefore;
      const refreshRatio = refresh / (rounds * RTT_MS);
      // Each client against its own ideal: with no limit the naive client's ideal is one
      // round trip for all 500 at once (it needs two: a grant and a lookup, and the server
      // takes every request at once); ours is ceil(500/c) round trips at concurrency c.
      const naiveRefreshRatio = naiveRefresh / RTT_MS;

      const checks = [
        { met: coldRatio <= LIMITS.cold, line: `cold lookup: ${ratio(coldRatio)} × (2×RTT) (limit ${LIMITS.cold}) — naive ${ratio(naiveColdRatio)}×` },
        { met: warmRatio <= LIMITS.warm && warmRatio < naiveWarmRatio, line: `warm lookup: ${ratio(warmRatio)} × RTT (limit ${LIMITS.warm}) — naive ${ratio(naiveWarmRatio)}×` },
        {
          met: tokenRequests === 1 && tokenRequests < naiveTokenRequests,
          line: `token requests for ${LOOKUPS_IN_ONE_LIFETIME} lookups in one token lifetime: ${tokenRequests} (target exactly 1) — naive ${naiveTokenRequests}`,
        },
        {
          met: refreshRatio <= LIMITS.refresh && refreshRatio < naiveRefreshRatio,
          line:
            `refresh ${SERIALS_TO_REFRESH} serials at c=${CONCURRENCY}: ${ratio(refreshRatio)} × (ceil(${SERIALS_TO_REFRESH}/${CONCURRENCY})×RTT = ${Math.round(rounds * RTT_MS)} ms) (limit ${LIMITS.refresh}), ${refreshRequests} requests` +
            ` — naive ${ratio(naiveRefreshRatio)}× its ideal (1×RTT, no limit), ${naiveRefreshRequests} requests (${naiveRefreshRequests / 2} token grants); wall time ${Math.round(refresh)} ms vs naive ${Math.round(naiveRefresh)} ms`,
        },
      ];
      for (const check of checks) console.log(`${check.met ? 'ok  ' : 'MISS'} ${check.line}`);
      return checks.every((check) => check.met);
    } finally {
      await api.close();
    }
  },
};
