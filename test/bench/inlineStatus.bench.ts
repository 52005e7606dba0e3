// Serial numbers' inline status, on a 5,000-line file with
// 1,000 serial numbers, against naive versions of the same work in this run.
//   (a) one decoration update: match the lines in view (cached per line),
//       look up each serial's state in the events cache, write its text.
//       Ours ≤ 5 ms for the WHOLE file in view (the worst case; a real
//       screen is ~50 lines). Naive: re-run the pattern over the whole text
//       and look up and format the state per occurrence on every update.
//   (b) scrolling through the file, page by page, down, back up and down
//       again, through the real OnboardingClient + EventsCache against the
//       fake API: at most one request per serial per cache period, none for
//       lines never shown. Naive: a request per visible serial per
//       visible-range event.
//   (c) the Problems-panel entries for 1,000 serials after their results
//       arrive ≤ 20 ms. Naive: re-match the text and re-derive every
//       occurrence's state and message.
// The extension-host figures (with VS Code's own calls) are logged by the
// integration test of the inline status.
import { plainLocalize } from '../../src/core/common/localize';
import { OnboardingClient } from '../../src/core/client/onboardingClient';
import { DEFAULT_EVENT_STATE_RULES, eventState } from '../../src/core/domain/events/eventState';
import { createSerialMatcher, DEFAULT_SERIAL_PATTERN } from '../../src/core/domain/serialNumbers/serialMatcher';
import { distinctSerials, LineMatchCache, linesToScan } from '../../src/core/domain/serialNumbers/visibleSerials';
import {
  serialStatusOf,
  inlineStatusText,
  planProblems,
  planStatuses,
  problemMessage,
  type StatusTextContext,
} from '../../src/extension/editor/statusText';
import { EventsCache } from '../../src/core/eventsCache/eventsCache';
import { VisibleLoads } from '../../src/core/eventsCache/visibleLoads';
import { makeEvent, startFakeApi, TEST_CREDENTIALS, type FakeApi } from '../support/fakeApi';
import { median } from './benchSupport';
import type { Benchmark } from './index';
import { serverTextData } from '../../src/core/common/serverText';

const LINES = 5_000;
const SERIALS = 1_000;
const SCREEN = 50;
const LIMITS = { decorateMs: 5, diagnosticsMs: 20, requestsPerSerial: 1 } as const;
const REPEATS = 31;
const WARM_UP = 5;
const INJECTED_RTT_MS = 5;
const T0 = Date.UTC(2025, 0, 15, 8, 0, 0);

const serialOf = (i: number): string => `MX-${String(1000 + (i % 9000)).padStart(4, '0')}-A${String(i).padStart(4, '0')}`;

function file(): string[] {
  return Array.from({ length: LINES }, (_, i) =>
    i % (LINES / SERIALS) === 0
      ? `  - serial: ${serialOf(i / (LINES / SERIALS))}   # machine ${i}`
      : `    note: line ${i} of the plant config`,
  );
}

function machineData(): Record<string, unknown[]> {
  const machines: Record<string, unknown[]> = {};
  for (let i = 0; i < SERIALS; i++) {
    const kind = i % 4;
    machines[serialOf(i)] =
      kind === 3
        ? []
        : [
            makeEvent({ type: 'ONBOARDING_STARTED', message: 'started', timestamp: T0 / 1000 + i }),
            makeEvent({
              type: kind === 0 ? 'ONBOARDING_COMPLETED' : kind === 1 ? 'ONBOARDING_FAILED' : 'DEVICE_REGISTERED',
              message: 'next',
              timestamp: T0 / 1000 + i + 60,
            }),
          ];
  }
  return machines;
}

function newClient(api: FakeApi): OnboardingClient {
  return new OnboardingClient({
    apiBaseUrl: api.baseUrl,
    authUrl: api.authUrl,
    credentials: () => Promise.resolve({ ...TEST_CREDENTIALS }),
    http: { env: {} },
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitIdle(loads: VisibleLoads): Promise<void> {
  for (let i = 0; i < 400 && loads.pending.length > 0; i++) await sleep(5);
}

export const inlineStatusBench: Benchmark = {
  name: 'serial numbers inline status (issue 15)',
  async run(): Promise<boolean> {
    const checks: { met: boolean; line: string }[] = [];
    const lines = file();
    const text = lines.join('\n');
    const matcher = createSerialMatcher();
    const ctx: StatusTextContext = { now: T0 + 3 * 86_400_000, locale: 'en', t: plainLocalize };
    const fake = await startFakeApi({ unknownSerial: '404' });
    try {
      for (const [serial, events] of Object.entries(machineData())) fake.setMachineEvents(serial, events);
      const client = newClient(fake);
      const events = new EventsCache({ source: () => client, freshForMs: () => 60_000 });

      // (b) scrolling, first: it fills the cache the other two read --------------------------
      fake.setLatency(INJECTED_RTT_MS);
      const loads = new VisibleLoads({
        load: (serial, signal) => events.get(serial, { signal }),
        cache: events,
        periodMs: () => 60_000,
      });
      const scrollCache = new LineMatchCache(matcher);
      const shownLines = new Set<number>();
      const showScreen = async (top: number): Promise<void> => {
        const range = { start: top, end: Math.min(LINES - 1, top + SCREEN - 1) };
        for (let line = range.start; line <= range.end; line++) shownLines.add(line);
        loads.show(distinctSerials(scrollCache.matchesIn((line) => lines[line] ?? '', linesToScan([range], LINES))));
        await waitIdle(loads);
      };
      // Down through the first 3,000 lines, back up to the top, down again; lines 3,050+ are never shown.
      const tops: number[] = [];
      for (let top = 0; top < 3000; top += SCREEN) tops.push(top);
      for (const top of [...tops, ...[...tops].reverse(), ...tops]) await showScreen(top);
      const shownSerials = new Set(
        distinctSerials(scrollCache.matchesIn((line) => lines[line] ?? '', [{ start: 0, end: LINES - 1 }])).filter((serial) => {
          const line = lines.findIndex((l) => l.includes(serial));
          return shownLines.has(line);
        }),
      );
      let maxPerSerial = 0;
      let neverShownAsked = 0;
      for (let i = 0; i < SERIALS; i++) {
        const count = fake.eventRequests(serialOf(i)).length;
        maxPerSerial = Math.max(maxPerSerial, count);
        if (!shownSerials.has(serialOf(i)) && count > 0) neverShownAsked++;
      }
      const ourRequests = fake.eventRequests().length;
      // Naive: VS Code fires a visible-range event per frame while scrolling (~5 per screen here), each asking for what it shows.
      let naiveRequests = 0;
      for (const top of [...tops, ...[...tops].reverse(), ...tops]) {
        for (let frame = 0; frame < 5; frame++)
          naiveRequests += distinctSerials(
            scrollCache.matchesIn((line) => lines[line] ?? '', [{ start: top, end: top + SCREEN - 1 }]),
          ).length;
      }
      checks.push({
        met: maxPerSerial <= LIMITS.requestsPerSerial && neverShownAsked === 0,
        line: `scroll 3 × 3,000 of ${LINES.toLocaleString('en')} lines: ${ourRequests} requests for ${shownSerials.size} serials shown, at most ${maxPerSerial} per serial (limit ${LIMITS.requestsPerSerial} per cache period), ${neverShownAsked} for lines never shown — naive per visible-range event ${naiveRequests} requests`,
      });
      fake.setLatency(0);
      // The rest of the file's results arrive (as if another view loaded them), for (a) and (c).
      await Promise.all(Array.from({ length: SERIALS }, (_, i) => events.get(serialOf(i)).catch(() => undefined)));
      const stateOf = (serial: string) => serialStatusOf(events.peek(serial), undefined, DEFAULT_EVENT_STATE_RULES);

      // (a) one decoration update, the whole file in view ---------------------------------------
      const decoCache = new LineMatchCache(matcher);
      const all = [{ start: 0, end: LINES - 1 }];
      decoCache.matchesIn((line) => lines[line] ?? '', all);
      const ours: number[] = [];
      let planned = 0;
      // Warm-up runs (JIT) are not counted, for ours and the naive one alike.
      for (let r = 0; r < WARM_UP; r++)
        planStatuses(
          decoCache.matchesIn((line) => lines[line] ?? '', all),
          stateOf,
          ctx,
        );
      for (let r = 0; r < REPEATS; r++) {
        const started = performance.now();
        planned = planStatuses(
          decoCache.matchesIn((line) => lines[line] ?? '', all),
          stateOf,
          ctx,
        ).length;
        ours.push(performance.now() - started);
      }
      const naive: number[] = [];
      for (let r = 0; r < WARM_UP + 5; r++) {
        if (r === WARM_UP) naive.length = 0;
        const started = performance.now();
        const regex = new RegExp(DEFAULT_SERIAL_PATTERN, 'g');
        let count = 0;
        for (const m of text.matchAll(regex)) {
          const result = events.peek(m[0])?.result;
          const latest = result?.events[0];
          // Sorted and formatted again per occurrence, as a provider without a per-update memo does.
          const sorted = [...(result?.events ?? [])].sort((a, b) => b.time.epochMs - a.time.epochMs);
          const state = latest === undefined ? 'no-events' : eventState(sorted[0] ?? latest, DEFAULT_EVENT_STATE_RULES);
          count += inlineStatusText(state, latest?.time.epochMs, { ...ctx, t: plainLocalize }).length > 0 ? 1 : 0;
        }
        naive.push(performance.now() - started);
        if (count !== SERIALS) throw new Error(`naive decoration found ${count}`);
      }
      const decorateMs = median(ours);
      checks.push({
        met: decorateMs <= LIMITS.decorateMs && planned === SERIALS,
        line: `decoration update, all ${LINES.toLocaleString('en')} lines / ${planned} serials in view: ${decorateMs.toFixed(2)} ms (limit ${LIMITS.decorateMs}); one screen of ${SCREEN} lines ${median(
          Array.from({ length: REPEATS }, () => {
            const started = performance.now();
            planStatuses(
              decoCache.matchesIn((line) => lines[line] ?? '', [{ start: 2500, end: 2500 + SCREEN }]),
              stateOf,
              ctx,
            );
            return performance.now() - started;
          }),
        ).toFixed(3)} ms — naive re-match + per-occurrence state ${median(naive).toFixed(2)} ms`,
      });

      // (c) Problems-panel entries after the results arrived -----------------------------------
      const diagCache = new LineMatchCache(matcher);
      diagCache.matchesIn((line) => lines[line] ?? '', all);
      const diag: number[] = [];
      let problems = 0;
      for (let r = 0; r < WARM_UP; r++)
        planProblems(
          diagCache.matchesIn((line) => lines[line] ?? '', all),
          stateOf,
          ctx,
        );
      for (let r = 0; r < REPEATS; r++) {
        const started = performance.now();
        problems = planProblems(
          diagCache.matchesIn((line) => lines[line] ?? '', all),
          stateOf,
          ctx,
        ).length;
        diag.push(performance.now() - started);
      }
      const naiveDiag: number[] = [];
      for (let r = 0; r < WARM_UP + 5; r++) {
        if (r === WARM_UP) naiveDiag.length = 0;
        const started = performance.now();
        let count = 0;
        for (let line = 0; line < LINES; line++) {
          for (const m of (lines[line] ?? '').matchAll(new RegExp(DEFAULT_SERIAL_PATTERN, 'g'))) {
            const result = events.peek(m[0])?.result;
            const sorted = [...(result?.events ?? [])].sort((a, b) => b.time.epochMs - a.time.epochMs);
            const latest = sorted[0];
            const state = latest === undefined ? 'no-events' : eventState(latest, DEFAULT_EVENT_STATE_RULES);
            if (state === 'failed' || state === 'no-events') {
              problemMessage(m[0], state, latest === undefined ? undefined : serverTextData(latest.type), ctx);
              count++;
            }
          }
        }
        naiveDiag.push(performance.now() - started);
        if (count !== problems) throw new Error(`naive diagnostics found ${count}, ours ${problems}`);
      }
      const diagnosticsMs = median(diag);
      checks.push({
        met: diagnosticsMs <= LIMITS.diagnosticsMs,
        line: `Problems entries for ${SERIALS} serials (${problems} raised) after their results arrive: ${diagnosticsMs.toFixed(2)} ms (limit ${LIMITS.diagnosticsMs}) — naive re-match + per-occurrence state ${median(naiveDiag).toFixed(2)} ms`,
      });
      loads.dispose();
      client.dispose();
    } finally {
      await fake.close();
    }
    for (const check of checks) console.log(`${check.met ? 'ok  ' : 'MISS'} ${check.line}`);
    return checks.every((check) => check.met);
  },
};
