// Issue 24 item 4: a 10 MB event type, the size one answer may carry, from
// validation through what the user and an agent see of it: the hover's
// Markdown, the Problems and inline-status text, and the onboarding summary of
// 10 machines that all have such a type. Ours (cut at the edge, then cut
// before cleaning) beside the naive full scan: the code path before issue 24,
// reproduced here as the honest peer — no bound in validation, a key that is
// the fields' JSON, every cleaner run over the whole string before it is cut,
// and summary lines built after the result's budget is spent.
import { plainLocalize } from '../../src/core/common/localize';
import { commandUri, escapeMarkdown } from '../../src/core/common/markdownText';
import type { EventsResult, OnboardingEvent } from '../../src/core/client/model';
import { validateEvent } from '../../src/core/client/validateEvents';
import { serialStatusOf, planProblems, planStatuses } from '../../src/extension/editor/statusText';
import { eventsHoverMarkdown } from '../../src/extension/editor/hoverMarkdown';
import { TOOL_LIMITS } from '../../src/core/domain/agentTools/toolInput';
import { summaryText, type MachineReport } from '../../src/core/domain/agentTools/toolResults';
import { DEFAULT_EVENT_STATE_RULES } from '../../src/core/domain/events/eventState';
import { COMMANDS } from '../../src/extension/workbench/constants';
import { median, ms } from './benchSupport';
import type { Benchmark } from './index';

const TEN_MB = 10 * 1024 * 1024;
const MACHINES = 10;
const NOW = Date.UTC(2025, 5, 2, 12, 0, 0);
/** Ours, the whole path for one 10 MB type (the summary of ten): what a short type costs, give or take. */
const LIMIT_MS = 20;
const REPEATS = 5;

const serialOf = (i: number): string => `MX-4711-A${String(100 + i).padStart(4, '0')}`;

/** A type that gives every cleaner work: spaces, breaks, invisible and bidi characters between the letters. */
function hugeType(): string {
  const unit = ' x\u200b\n\u202ey\t';
  return `ONBOARDING_FAILED${unit.repeat(Math.ceil(TEN_MB / unit.length))}`;
}

const raw = (type: string, i: number): unknown => ({ type, message: 'Certificate signing request rejected.', timestamp: NOW - i * 60_000 });
const result = (serialNumber: string, events: OnboardingEvent[]): EventsResult => ({
  serialNumber,
  events,
  invalid: [],
  fetchedAt: NOW,
  truncated: false,
});

// ── ours ──────────────────────────────────────────────────────────────────────

function ours(type: string): { sizes: number[] } {
  const events = Array.from({ length: MACHINES }, (_, i) => {
    const event = validateEvent(raw(type, i), serialOf(i), 'milliseconds');
    if (typeof event === 'string') throw new Error(event);
    return event;
  });
  const first = events[0];
  if (first === undefined) throw new Error('no event');
  const hover = eventsHoverMarkdown(
    serialOf(0),
    { result: result(serialOf(0), [first]), stale: false },
    {
      now: NOW,
      locale: 'en',
      t: plainLocalize,
      maxEvents: 5,
      timeZone: 'UTC',
      rules: DEFAULT_EVENT_STATE_RULES,
    },
  );
  const state = serialStatusOf({ result: result(serialOf(0), [first]), stale: false }, undefined, DEFAULT_EVENT_STATE_RULES);
  const match = { line: 0, start: 0, end: serialOf(0).length, serialNumber: serialOf(0) };
  const statusCtx = { now: NOW, locale: 'en', t: plainLocalize };
  const problems = planProblems([match], () => state, statusCtx);
  const statuses = planStatuses([match], () => state, statusCtx);
  const reports: MachineReport[] = events.map((event, i) => ({
    serialNumber: serialOf(i),
    outcome: { kind: 'events', stale: false, result: result(serialOf(i), [event]) },
  }));
  const summary = summaryText(reports, [], { now: NOW, environment: 'Bench', rules: DEFAULT_EVENT_STATE_RULES });
  // The inline status holds no server text (a glyph, a word, an age): it is timed, not measured.
  if (statuses.length !== 1) throw new Error('no inline status');
  return { sizes: [hover.length, problems[0]?.message.length ?? 0, summary.length] };
}

// ── the naive full scan: the code before issue 24 ─────────────────────────────

// eslint-disable-next-line no-control-regex -- the old cleaners, as they were
const OLD_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069]/g;
const OLD_INVISIBLE =
  // eslint-disable-next-line no-control-regex, no-misleading-character-class -- the old cleaners, as they were
  /[\u0000-\u0008\u000e-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufe00-\ufe0f\ufeff\ufff9-\ufffb]|\udb40[\udc00-\udc7f]|\udb40[\udd00-\uddef]/g;
const oldTruncate = (text: string, max: number): string => {
  const points = Array.from(text);
  return points.length <= max
    ? text
    : `${points
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`;
};
const oldSingleLine = (text: string): string => text.replace(OLD_CONTROL, '').replace(/\s+/g, ' ').trim();
const oldCell = (text: string, max: number): string => escapeMarkdown(oldTruncate(oldSingleLine(text), max)) || '—';
const oldQuote = (text: string, max: number): string =>
  JSON.stringify(oldTruncate(text.replace(OLD_INVISIBLE, '').replace(/\s+/g, ' ').trim(), max));

function naive(type: string): { sizes: number[] } {
  // Validation kept every string whole, and the key was the fields' JSON.
  const events = Array.from({ length: MACHINES }, (_, i) => {
    const event = raw(type, i) as { type: string; message: string; timestamp: number };
    return { ...event, key: JSON.stringify([event.type, event.timestamp, event.message, null]) };
  });
  const first = events[0];
  if (first === undefined) throw new Error('no event');
  const hover = [
    `**${escapeMarkdown(serialOf(0))}**`,
    `[Show Details](${commandUri(COMMANDS.showEventDetails, [{ serialNumber: serialOf(0), key: first.key }])})`,
    `| ${oldCell(first.type, 40)} | now | ${oldCell(first.message, 60)} |`,
  ].join('\n\n');
  const problem = `Onboarding of ${serialOf(0)} failed: its latest event is ${oldTruncate(oldSingleLine(first.type), 60)}.`;
  // The summary built every machine's line, then found that it did not fit.
  const lines: string[] = [];
  let used = 0;
  for (const [i, event] of events.entries()) {
    const line = `- "${serialOf(i)}": newest event: type ${oldQuote(event.type, TOOL_LIMITS.maxValueChars)}; message ${oldQuote(event.message, TOOL_LIMITS.maxValueChars)}`;
    if (used + line.length + 1 <= TOOL_LIMITS.maxResultChars) {
      lines.push(line);
      used += line.length + 1;
    }
  }
  return { sizes: [hover.length, problem.length, lines.join('\n').length] };
}

function time(work: () => unknown): number {
  const started = performance.now();
  work();
  return performance.now() - started;
}

export const serverStringsBench: Benchmark = {
  name: `a 10 MB event type: validation, hover, Problems and inline status, summary of ${MACHINES} machines (ours ≤ ${LIMIT_MS} ms)`,
  run() {
    const type = hugeType();
    ours(type); // warm up
    const runs = Array.from({ length: REPEATS }, () => time(() => ours(type)));
    const oursMs = median(runs);
    const oursSizes = ours(type).sizes;
    let naiveSizes: number[] = [];
    const naiveMs = time(() => (naiveSizes = naive(type).sizes));
    const ok = oursMs <= LIMIT_MS;
    const sizes = (values: number[]): string => values.map((value) => value.toLocaleString('en')).join(' / ');
    console.log(
      `${ok ? 'ok  ' : 'MISS'} ours ${oursMs.toFixed(1)} ms (median of ${REPEATS}) — naive full scan ${ms(naiveMs)} (one run)\n` +
        `     characters (hover / Problems entry / summary): ours ${sizes(oursSizes)}; naive ${sizes(naiveSizes)}`,
    );
    return Promise.resolve(ok);
  },
};
