// Issue 24 item 3: the Problems panel on a 1 M-line document (5 MB: 1 M lines
// of four spaces, just under the 5 MB limit), empty and with a serial number
// on every 200th line. Ours (src/extension/editor/serialDiagnostics.ts): index the
// document once (SerialIndex: at most 50,000 lines read, 5,000 matches kept),
// then re-derive only the answered serial's entries. Beside it the naive
// full scan, as the extension did before: every line read through a per-line
// cache (LineMatchCache) and every match re-planned on every answer. Both
// print wall time and the heap they keep (after a GC).
//   Targets: our first pass ≤ 150 ms, each later update ≤ 2 ms, ≤ 20 MB kept.
import { plainLocalize } from '../../src/core/common/localize';
import { createSerialMatcher } from '../../src/core/domain/serialNumbers/serialMatcher';
import { LineMatchCache, SerialIndex } from '../../src/core/domain/serialNumbers/visibleSerials';
import { planProblems, type SerialStatus, type StatusTextContext } from '../../src/extension/editor/statusText';
import { MAX_DIAGNOSTICS_PER_DOCUMENT } from '../../src/extension/editor/serialDiagnostics';
import { median } from './benchSupport';
import type { Benchmark } from './index';
import { serverText } from '../../src/core/common/serverText';

const LINES = 1_000_000;
const EVERY = 200;
const UPDATES = 21;
const LIMITS = { firstPassMs: 150, updateMs: 2, keptMb: 20 } as const;
const T0 = Date.UTC(2025, 0, 15, 8, 0, 0);

const serialOf = (i: number): string =>
  `MX-${String(1000 + Math.floor(i / 10_000)).padStart(4, '0')}-A${String(i % 10_000).padStart(4, '0')}`;

function heapMb(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

interface Row {
  readonly firstMs: number;
  readonly updateMs: number;
  readonly keptMb: number;
  readonly entries: number;
}

export const problemsBench: Benchmark = {
  name: 'Problems on a 1 M-line document (issue 24)',
  async run(): Promise<boolean> {
    const matcher = createSerialMatcher();
    const ctx: StatusTextContext = { now: T0, locale: 'en', t: plainLocalize };
    const failed: SerialStatus = { state: 'failed', latestEpochMs: T0 - 60_000, latestType: serverText('ONBOARDING_FAILED'), stale: false };
    const checks: { met: boolean; line: string }[] = [];
    for (const withSerials of [false, true]) {
      const lines = Array.from({ length: LINES }, (_, i) => (withSerials && i % EVERY === 0 ? `- ${serialOf(i / EVERY)}` : '    '));
      const lineText = (line: number): string => lines[line] ?? '';
      // Each later update is an answer for one serial number of the document (or, for the empty one, of none).
      const answered = (u: number): string => serialOf((u * 7) % 200);
      const stateOf = (serial: string): SerialStatus | undefined => (serial.endsWith('3') ? failed : undefined);

      // `uncapped`: the index alone, every line read, to show what the index buys beside what the cap does.
      const ours = (uncapped = false): Row => {
        const before = heapMb();
        const started = performance.now();
        const index = new SerialIndex(
          matcher,
          lineText,
          LINES,
          uncapped ? { lines: LINES, matches: MAX_DIAGNOSTICS_PER_DOCUMENT } : undefined,
        );
        let entries = 0;
        for (const matches of index.bySerial().values()) entries += planProblems(matches, stateOf, ctx).length;
        const firstMs = performance.now() - started;
        const times: number[] = [];
        for (let u = 0; u < UPDATES; u++) {
          const t = performance.now();
          const matches = index.bySerial().get(answered(u));
          if (matches !== undefined) planProblems(matches, stateOf, ctx);
          times.push(performance.now() - t);
        }
        const keptMb = heapMb() - before;
        if (index.matches < 0) throw new Error('unreachable: keeps the index alive for the heap figure');
        return { firstMs, updateMs: median(times), keptMb, entries };
      };

      const naive = (): Row => {
        const before = heapMb();
        const cache = new LineMatchCache(matcher);
        const pass = (): number =>
          planProblems(cache.matchesIn(lineText, [{ start: 0, end: LINES - 1 }], MAX_DIAGNOSTICS_PER_DOCUMENT), stateOf, ctx).length;
        const started = performance.now();
        const entries = pass();
        const firstMs = performance.now() - started;
        const times: number[] = [];
        for (let u = 0; u < 5; u++) {
          const t = performance.now();
          pass();
          times.push(performance.now() - t);
        }
        const keptMb = heapMb() - before;
        if (cache.matchesIn(lineText, [{ start: 0, end: 0 }]).length < 0) throw new Error('unreachable: keeps the cache alive');
        return { firstMs, updateMs: median(times), keptMb, entries };
      };

      // One of each first (JIT), then the measured runs.
      ours();
      naive();
      const o = ours();
      const u = ours(true);
      const n = naive();
      const what = withSerials ? `1 M lines, a serial number on every ${EVERY}th` : '1 M lines of spaces (5 MB)';
      checks.push({
        met: o.firstMs <= LIMITS.firstPassMs && o.updateMs <= LIMITS.updateMs && o.keptMb <= LIMITS.keptMb,
        line: `${what}: first pass ${o.firstMs.toFixed(1)} ms, each later update ${o.updateMs.toFixed(3)} ms, ${o.keptMb.toFixed(1)} MB kept, ${o.entries} entries (limits ${LIMITS.firstPassMs} ms, ${LIMITS.updateMs} ms, ${LIMITS.keptMb} MB); the same index reading all 1 M lines: ${u.firstMs.toFixed(1)} ms, ${u.updateMs.toFixed(3)} ms, ${u.keptMb.toFixed(1)} MB, ${u.entries} entries — naive full scan: first pass ${n.firstMs.toFixed(1)} ms, each later update ${n.updateMs.toFixed(1)} ms, ${n.keptMb.toFixed(1)} MB kept, ${n.entries} entries`,
      });
    }
    for (const check of checks) console.log(`${check.met ? 'ok  ' : 'MISS'} ${check.line}`);
    return Promise.resolve(checks.every((check) => check.met));
  },
};
