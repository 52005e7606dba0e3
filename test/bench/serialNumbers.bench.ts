// Issue 7 item 4: how fast serial numbers in code answer.
//   - a cached hover: the work our provider does when the cache is fresh
//     (matching the word, peek + isFresh, building the Markdown), ≤ 2 ms;
//   - an uncached hover with a warm token: one request through the real
//     OnboardingClient and EventsService against the fake with injected
//     latency, then the Markdown, ≤ 1 × RTT + 10 ms;
//   - scanning a 5 MB file for serial numbers (what the link provider and the
//     workspace scan do), ≤ 50 ms.
// Each figure is printed as a ratio against its limit and next to a naive
// baseline measured in the same run. The extension-host figure of the cached
// hover is logged by the integration test (test/integration/serialNumbers).

import { OnboardingClient } from '../../src/core/onboardingClient';
import { EventsService } from '../../src/eventsCache/eventsService';
import { plainLocalize } from '../../src/common/localize';
import { eventsHoverMarkdown, type HoverContext } from '../../src/editor/hoverMarkdown';
import { createSerialMatcher, DEFAULT_SERIAL_PATTERN } from '../../src/domain/serialNumbers/serialMatcher';
import { startFakeApi, TEST_CREDENTIALS, TEST_SERIALS, type FakeApi } from '../support/fakeApi';
import { bareToken, median, percentile, timed } from './benchSupport';
import type { Benchmark } from './index';

const INJECTED_RTT_MS = 50;
const LIMITS = { cachedHoverMs: 2, uncachedOverRttMs: 10, scanMs: 50 } as const;
const CACHED_HOVERS = 5000;
const UNCACHED_REPEATS = 9;
const SCAN_REPEATS = 7;
const FIVE_MB = 5 * 1024 * 1024;

function newClient(api: FakeApi): OnboardingClient {
  return new OnboardingClient({
    apiBaseUrl: api.baseUrl,
    authUrl: api.authUrl,
    credentials: () => Promise.resolve({ ...TEST_CREDENTIALS }),
    http: { env: {} },
  });
}

/** A 5 MB log-like file: mostly near misses that make the regex work, a serial every 50 lines. */
function fiveMegabyteFile(): string {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < FIVE_MB; i++) {
    const line =
      i % 50 === 0
        ? `2025-06-02T09:30:${String(i % 60).padStart(2, '0')}Z INFO machine MX-4711-A${String(i % 10000).padStart(4, '0')} onboarding step ${i}`
        : `2025-06-02T09:30:00Z DEBUG gw-${i % 12} AB-12-X${i} MX-471-A0023 abcd-1234-efghi retries=${i % 7} ${'-'.repeat(i % 20)}`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n');
}

/** The naive scan: a new RegExp per line (as a provider written line by line would do). */
function naiveScan(text: string): number {
  let found = 0;
  for (const line of text.split('\n')) {
    const regex = new RegExp(DEFAULT_SERIAL_PATTERN, 'g');
    found += line.match(regex)?.length ?? 0;
  }
  return found;
}

/** One bare request (plain fetch, token ready): the round trip the uncached hover is measured against. */
async function bareRtt(api: FakeApi): Promise<number> {
  const token = await bareToken(api);
  const url = `${api.baseUrl}/public/api/onboarding-events/events?serialNumber=${encodeURIComponent(TEST_SERIALS.onboarded)}`;
  const samples: number[] = [];
  for (let i = 0; i < 5; i++) samples.push(await timed(async () => (await fetch(url, { headers: { authorization: `Bearer ${token}` } })).json()));
  return median(samples);
}

export const serialNumbersBench: Benchmark = {
  name: `Serial numbers in code (hover, links; fake service, injected RTT ${INJECTED_RTT_MS} ms)`,
  async run() {
    const api = await startFakeApi();
    try {
      const matcher = createSerialMatcher();
      const line = `    serial: ${TEST_SERIALS.onboarded}  # press on line 3`;
      const offset = line.indexOf(TEST_SERIALS.onboarded) + 4;
      const ctx = (): HoverContext => ({ now: Date.now(), locale: 'en', t: plainLocalize, maxEvents: 5 });

      // Warm up: load undici, get a token, JIT the code paths.
      const client = newClient(api);
      const events = new EventsService({ source: () => client, freshForMs: () => 60_000 });
      await events.get(TEST_SERIALS.onboarded);
      api.setLatency(INJECTED_RTT_MS);

      // (a) cached hover: word → serial → peek/isFresh → Markdown.
      const cachedHover = (): string | undefined => {
        const match = matcher.matchAt(line, offset);
        if (match === undefined || !matcher.isSerialNumber(match.serialNumber)) return undefined;
        const entry = events.peek(match.serialNumber);
        if (entry === undefined || !events.isFresh(match.serialNumber)) return undefined;
        return eventsHoverMarkdown(match.serialNumber, entry, ctx());
      };
      for (let i = 0; i < 500; i++) cachedHover();
      const cachedSamples: number[] = [];
      for (let i = 0; i < CACHED_HOVERS; i++) {
        const started = performance.now();
        if (cachedHover() === undefined) throw new Error('the cached hover path found nothing');
        cachedSamples.push(performance.now() - started);
      }
      const cachedMedian = median(cachedSamples);
      const cachedP99 = percentile(cachedSamples, 0.99);
      // Naive: no cache, every hover asks the API (token warm).
      const naiveHover = median(await Promise.all([0, 1, 2].map(() => timed(() => client.getEvents(TEST_SERIALS.onboarded)))));

      // (b) uncached hover with a warm token, through the real client and EventsService.
      const rtt = await bareRtt(api);
      const uncachedSamples: number[] = [];
      for (let i = 0; i < UNCACHED_REPEATS; i++) {
        events.clear();
        uncachedSamples.push(
          await timed(async () => {
            const result = await events.get(TEST_SERIALS.onboarded);
            eventsHoverMarkdown(TEST_SERIALS.onboarded, { result, stale: false }, ctx());
          }),
        );
      }
      const uncached = median(uncachedSamples);
      const requestsBefore = api.eventRequests(TEST_SERIALS.onboarded).length;
      await Promise.all([0, 1, 2, 3].map(() => events.get(TEST_SERIALS.onboarded)));
      const repeatRequests = api.eventRequests(TEST_SERIALS.onboarded).length - requestsBefore;
      // Naive: a fresh client per hover (no warm token: token + events).
      const naiveUncached = median(
        await Promise.all(
          [0, 1, 2].map(() =>
            timed(async () => {
              const fresh = newClient(api);
              await fresh.getEvents(TEST_SERIALS.onboarded);
              fresh.dispose();
            }),
          ),
        ),
      );
      client.dispose();

      // (c) scanning 5 MB.
      const text = fiveMegabyteFile();
      const expected = matcher.findAll(text).length;
      const scanSamples: number[] = [];
      for (let i = 0; i < SCAN_REPEATS; i++) {
        scanSamples.push(
          await timed(() => {
            if (matcher.findAll(text).length !== expected) throw new Error('scan results differ between runs');
            return Promise.resolve();
          }),
        );
      }
      const scan = median(scanSamples);
      const naiveSamples: number[] = [];
      for (let i = 0; i < 3; i++) {
        naiveSamples.push(
          await timed(() => {
            if (naiveScan(text) !== expected) throw new Error('the naive scan found something else');
            return Promise.resolve();
          }),
        );
      }
      const naive = median(naiveSamples);

      const uncachedLimit = rtt + LIMITS.uncachedOverRttMs;
      const checks = [
        {
          met: cachedMedian <= LIMITS.cachedHoverMs && cachedP99 <= LIMITS.cachedHoverMs,
          line: `cached hover: median ${cachedMedian.toFixed(3)} ms, p99 ${cachedP99.toFixed(3)} ms = ${(cachedP99 / LIMITS.cachedHoverMs).toFixed(3)} × limit ${LIMITS.cachedHoverMs} ms — naive (no cache, a request per hover) ${naiveHover.toFixed(1)} ms = ${(naiveHover / LIMITS.cachedHoverMs).toFixed(1)} × limit`,
        },
        {
          met: uncached <= uncachedLimit && repeatRequests === 0,
          line: `uncached hover (token warm): ${uncached.toFixed(1)} ms = ${(uncached / uncachedLimit).toFixed(2)} × limit (RTT ${rtt.toFixed(1)} ms + ${LIMITS.uncachedOverRttMs} ms); 4 more hovers within the cache period sent ${repeatRequests} requests — naive (fresh token per hover) ${naiveUncached.toFixed(1)} ms = ${(naiveUncached / uncachedLimit).toFixed(2)} × limit`,
        },
        {
          met: scan <= LIMITS.scanMs,
          line: `scan ${(text.length / 1024 / 1024).toFixed(1)} MB (${expected} serial numbers): ${scan.toFixed(1)} ms = ${(scan / LIMITS.scanMs).toFixed(2)} × limit ${LIMITS.scanMs} ms — naive (new RegExp per line) ${naive.toFixed(1)} ms = ${(naive / LIMITS.scanMs).toFixed(2)} × limit`,
        },
      ];
      for (const check of checks) console.log(`${check.met ? 'ok  ' : 'MISS'} ${check.line}`);
      return checks.every((check) => check.met);
    } finally {
      await api.close();
    }
  },
};
