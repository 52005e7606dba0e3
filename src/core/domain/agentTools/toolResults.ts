// The text of every agent-tool result. A model reads it, so it is English, our
// sentences stay outside the data block, and every value from a server or a file
// is quoted inside it (untrustedText.ts); bounded by TOOL_LIMITS.maxResultChars.
import type { EventsResult, HalLink, OnboardingEvent } from '../../client/model';
import { plainLocalize } from '../../common/localize';
import { serverTextData, type ServerText } from '../../common/serverText';
import { formatDuration, formatRelative, formatUtcIso } from '../../common/time';
import { eventState, machineState, newestOf, stateWord, type EventStateRules, type MachineState } from '../events/eventState';
import { type WatchStartAnswer, type WatchSummary } from '../watch/watchRules';
import type { LearnedSteps } from '../progress/lineHistory';
import { machineProgress, progressWords, restsOnWords } from '../progress/machineProgress';
import { AGENT_TOOL_NAMES } from './toolDefinitions';
import { TOOL_LIMITS, type SerialList } from './toolInput';
import { beginLine, BoundedLines, dataNotice, endLine, quote, type DataSource } from './untrustedText';

const API: DataSource = 'the Onboarding Events API';
const FILES_AND_API: DataSource = 'workspace files and the Onboarding Events API';
/** Room kept outside the data block for our own sentences before and after it. */
const FRAME_CHARS = 1_500;
const ERROR_CHARS = 300;
const PATH_CHARS = 200;

export interface ResultContext {
  readonly now: number;
  /** The signed-in environment's name (user-chosen, so quoted). */
  readonly environment: string;
  /** The eventStates setting: a machine's state here is the one the user's views show. */
  readonly rules: EventStateRules;
  /** The line's usual steps (the events cache's line history): where each machine in progress stands. Without it, no progress is said. */
  readonly learned?: LearnedSteps;
}

/** A machine in progress against the line's history, when the context knows the history. */
function progressOf(result: EventsResult, context: ResultContext): ReturnType<typeof machineProgress> {
  return context.learned === undefined ? undefined : machineProgress(result.events, context.learned, context.now, context.rules);
}

/**
 * Where a machine in progress stands, in the words every surface uses (progressWords, English here), its step's
 * type quoted as data: "progress: step 4 of 6 · "NETWORK_CONFIGURED", usually 14 min more, from 6 onboarded machines",
 * STALLED in capitals so a model asked "which are stuck" cannot miss it.
 */
function progressPart(result: EventsResult, context: ResultContext): string {
  const answer = progressOf(result, context);
  if (answer === undefined) return '';
  const words = progressWords(answer, plainLocalize, sv);
  if (answer.kind === 'not-enough') return `; progress: ${words.restsOn}`;
  const parts = [words.step, `at it for ${formatDuration(answer.atStepMs, plainLocalize)}`];
  if (words.stalled !== undefined) parts.unshift(`STALLED (${words.stalled})`);
  if (words.abandoned !== undefined) parts.unshift(`ABANDONED (${words.abandoned})`);
  if (words.toGo !== undefined) parts.push(words.toGo);
  if (words.oddities !== undefined) parts.push(words.oddities);
  parts.push(words.restsOn);
  return `; progress: ${parts.join(', ')}`;
}

/** Said once per result that holds a machine in progress: how the progress figures were learned, or why there are none. */
function progressNote(context: ResultContext, reports: readonly MachineReport[]): string {
  const learned = context.learned;
  if (learned === undefined || !reports.some((report) => stateOfOutcome(report.outcome, context.rules) === 'in-progress')) return '';
  if (learned.kind === 'not-enough')
    return ` Progress of machines in progress cannot be estimated yet: ${progressWords(learned, plainLocalize, sv).restsOn}.`;
  return ` For machines in progress the result gives their step, how long they have been at it, how long is likely left (the median of what the machines that had been at the same step as long still took, and its 80 % range), STALLED when fewer than 1 in 100 of those machines stayed at their step as long, and ABANDONED when no event came for longer than any onboarding took; ${restsOnWords(learned, plainLocalize).how}`;
}

/** Stalled machines first (they need someone), then the furthest along: a stable order within the in-progress group. */
function stalledFirst(reports: readonly MachineReport[], context: ResultContext): MachineReport[] {
  const rank = (report: MachineReport): number => {
    if (report.outcome.kind !== 'events') return 2;
    const answer = progressOf(report.outcome.result, context);
    return answer?.kind === 'progress' && answer.stalled ? 0 : 1;
  };
  return reports
    .map((report, index) => ({ report, index, rank: rank(report) }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map((x) => x.report);
}

/** Whether a summarized machine is stalled (for the count). */
function isStalled(report: MachineReport, context: ResultContext): boolean {
  if (report.outcome.kind !== 'events') return false;
  const answer = progressOf(report.outcome.result, context);
  return answer?.kind === 'progress' && answer.stalled;
}

/** Whether a summarized machine is abandoned: in progress by its newest event, but counted and listed apart. */
function isAbandoned(report: MachineReport, context: ResultContext): boolean {
  if (report.outcome.kind !== 'events') return false;
  const answer = progressOf(report.outcome.result, context);
  return answer?.kind === 'progress' && answer.abandoned;
}

/** What became of one machine's request. */
export type MachineOutcome =
  | {
      readonly kind: 'events';
      readonly result: EventsResult;
      /** The last good result, shown because the refresh failed (refreshError says why). */
      readonly stale: boolean;
      readonly refreshError?: string;
    }
  | {
      readonly kind: 'error';
      readonly message: string;
      /** The error's kind (`ApiError.kind`), when it has one: 'not-found' makes the machine unknown, as in the views. */
      readonly errorKind?: string;
    };

export interface MachineReport {
  readonly serialNumber: string;
  readonly outcome: MachineOutcome;
}

/** The state the views show for the machine. */
export function stateOfOutcome(outcome: MachineOutcome, rules: EventStateRules): MachineState {
  if (outcome.kind === 'events') return machineState({ result: outcome.result }, rules);
  // Not signed in, or a failure that is no ApiError: a request that failed all the same.
  return outcome.errorKind === undefined ? 'unavailable' : machineState({ errorKind: outcome.errorKind }, rules);
}

/** A state in the views' words, in English (the model answers in the user's language). */
function word(state: MachineState): string {
  return stateWord(state, plainLocalize);
}

/** Order of states in a summary: failures first, since that is what people ask about. */
const SUMMARY_ORDER: readonly MachineState[] = ['failed', 'unavailable', 'unknown', 'in-progress', 'no-events', 'onboarded'];

function when(epochMs: number, now: number): string {
  const iso = formatUtcIso(epochMs) ?? 'an impossible date';
  const relative = formatRelative(epochMs, now, 'en');
  return relative === undefined ? iso : `${iso} (${relative})`;
}

const v = (text: string): string => quote(text, TOOL_LIMITS.maxValueChars);
/** Server text in a tool result: quoted as data, like any other value (the agent-result renderer). */
const sv = (text: ServerText): string => v(serverTextData(text));

function linkText(relation: string, link: HalLink): string {
  const details: string[] = [];
  if (link.title !== undefined) details.push(`title ${v(link.title)}`);
  if (link.deprecation !== undefined) details.push('deprecated');
  return details.length === 0 ? v(relation) : `${v(relation)} (${details.join(', ')})`;
}

/** One event on one line: time, type, message, asset id, links by relation name (never hrefs: the agent cannot use them and a server could put anything there). */
export function eventLine(event: OnboardingEvent, now: number): string {
  const parts = [`${when(event.time.epochMs, now)}: type ${sv(event.type)}`, `message ${sv(event.message)}`];
  if (event.assetId !== undefined) parts.push(`asset id ${v(event.assetId)}`);
  const links = Object.entries(event.links).flatMap(([relation, list]) => list.map((link) => linkText(relation, link)));
  if (links.length > 0) parts.push(`links ${links.slice(0, 5).join(', ')}${links.length > 5 ? ` and ${links.length - 5} more` : ''}`);
  return `  - ${parts.join('; ')}`;
}

function fetchedText(outcome: Extract<MachineOutcome, { kind: 'events' }>, now: number): string {
  const at = `fetched ${when(outcome.result.fetchedAt, now)}`;
  if (!outcome.stale) return at;
  const why = outcome.refreshError === undefined ? '' : `: ${quote(outcome.refreshError, ERROR_CHARS)}`;
  return `${at}, NOT UP TO DATE: the last refresh failed${why}`;
}

function machineHeader(report: MachineReport, shown: number, context: ResultContext): string {
  const { now } = context;
  const serial = v(report.serialNumber);
  const outcome = report.outcome;
  if (outcome.kind === 'error')
    return `Machine ${serial}: ${word(stateOfOutcome(outcome, context.rules))}, the request failed: ${quote(outcome.message, ERROR_CHARS)}`;
  const events = outcome.result.events;
  const notes: string[] = [fetchedText(outcome, now)];
  if (outcome.result.invalid.length > 0)
    notes.push(`${outcome.result.invalid.length} events the API sent could not be read and are left out`);
  if (outcome.result.truncated) notes.push('the API had more pages than the extension reads, so older events may be missing');
  const newest = newestOf(events);
  if (newest === undefined) return `Machine ${serial}: no events recorded; ${notes.join('; ')}.`;
  const state = `state ${word(stateOfOutcome(outcome, context.rules))} (newest event type ${sv(newest.type)})`;
  const count =
    shown >= events.length
      ? `${events.length} events, all shown`
      : `${events.length} events, newest ${shown} shown, ${events.length - shown} more not shown`;
  return `Machine ${serial}: ${state}${progressPart(outcome.result, context)}; ${count}; ${notes.join('; ')}.`;
}

function refusedLines(refused: SerialList['refused']): string[] {
  if (refused.length === 0) return [];
  return [
    `Ignored ${refused.length} entries that are not serial numbers: ${refused
      .slice(0, 10)
      .map((r) => `${v(r.input)} (${r.reason})`)
      .join(', ')}${refused.length > 10 ? ', …' : ''}.`,
  ];
}

function cutNotice(what: string): string {
  return `The result reached its size limit (${TOOL_LIMITS.maxResultChars} characters): ${what} not shown. Ask again about fewer machines, or with fewer events per machine.`;
}

/** The machine-events tool: each machine's newest events, newest first. */
export function machineEventsText(
  reports: readonly MachineReport[],
  options: { readonly maxEvents: number; readonly refused: SerialList['refused'] },
  context: ResultContext,
): string {
  const lines = new BoundedLines(TOOL_LIMITS.maxResultChars - FRAME_CHARS);
  let machinesLeft = reports.length;
  let eventsLeft = 0;
  for (const report of reports) {
    const events =
      report.outcome.kind === 'events' ? [...report.outcome.result.events].sort((a, b) => b.time.epochMs - a.time.epochMs) : [];
    const shown = Math.min(events.length, options.maxEvents);
    if (!lines.add(() => machineHeader(report, shown, context))) {
      eventsLeft += shown;
      continue;
    }
    machinesLeft--;
    for (const event of events.slice(0, shown)) {
      if (lines.add(() => eventLine(event, context.now))) continue;
      eventsLeft++;
    }
  }
  const head = `Onboarding events of ${reports.length} machine${reports.length === 1 ? '' : 's'} from ${API} (environment ${v(context.environment)}), newest first, at most ${options.maxEvents} per machine. Times are UTC (ISO 8601) with their age. A machine's state is read from the type of its newest event.${progressNote(context, reports)}`;
  const tail: string[] = [...refusedLines(options.refused)];
  if (lines.full) tail.push(cutNotice(`${machinesLeft} machines and ${eventsLeft} more events`));
  return [head, dataNotice(API), beginLine(API), lines.text, endLine(API), ...tail].join('\n');
}

/** The summary tool: counts by state, the failures with their newest event, then the rest by state; each machine's watch, and the watch list. */
export function summaryText(
  reports: readonly MachineReport[],
  refused: SerialList['refused'],
  context: ResultContext,
  /** The watch list of the signed-in environment; undefined where the program keeps none (oe mcp). */
  watchList?: readonly WatchSummary[],
): string {
  const watches = watchList ?? [];
  const byState = new Map<MachineState, MachineReport[]>();
  for (const report of reports) {
    const state = stateOfOutcome(report.outcome, context.rules);
    byState.set(state, [...(byState.get(state) ?? []), report]);
  }
  // The abandoned are in progress by their newest event, but no one is working on them: a group of their own, after those in progress.
  const groups = SUMMARY_ORDER.flatMap((state) => {
    const all = byState.get(state) ?? [];
    const apart = state === 'in-progress' ? all.filter((report) => isAbandoned(report, context)) : [];
    const group = all.filter((report) => !apart.includes(report));
    return [
      ...(group.length === 0 ? [] : [{ state, label: word(state), group, abandoned: false }]),
      ...(apart.length === 0 ? [] : [{ state, label: 'abandoned', group: apart, abandoned: true }]),
    ];
  });
  const stalled = reports.filter((report) => isStalled(report, context)).length;
  const countText = groups
    .map(
      ({ state, label, group, abandoned }) =>
        `${group.length} ${label}${state === 'in-progress' && !abandoned && stalled > 0 ? ` (${stalled} of them STALLED)` : ''}`,
    )
    .join(', ');
  const watchOf = new Map(watches.map((watch) => [watch.serialNumber, watch]));
  // The watch list comes after the machines but is built first, within its own share, so many machines never crowd it out.
  const watchPart = watchListText(watches, context.now, WATCH_PART_CHARS, SUMMARY_WATCHES);
  const lines = new BoundedLines(TOOL_LIMITS.maxResultChars - FRAME_CHARS - (watches.length === 0 ? 0 : WATCH_PART_CHARS));
  let left = 0;
  for (const { state, label, group } of groups) {
    // Once a line does not fit, no later one does (BoundedLines): when the heading is cut, so is every machine below it.
    lines.add(`${capitalized(label)} (${group.length}):`);
    const ordered = state === 'in-progress' ? stalledFirst(group, context) : group;
    for (const report of ordered) if (!lines.add(() => summaryLine(report, context, watchOf.get(report.serialNumber)))) left++;
  }
  const watched = reports.filter((report) => watchOf.has(report.serialNumber)).length;
  const watchSentence =
    watchList === undefined
      ? ''
      : watches.length === 0
        ? ` No machine is being watched in this environment (${AGENT_TOOL_WATCH} starts a watch).`
        : ` ${watches.length} machine${watches.length === 1 ? ' is' : 's are'} in this environment's watch list (listed after the machines)${watched === 0 ? '' : `; the lines of the ${watched} summarized here say so`}.`;
  const head = `Onboarding summary of ${reports.length} machine${reports.length === 1 ? '' : 's'} from ${API} (environment ${v(context.environment)}): ${countText || 'nothing to count'}. A machine's state is read from the type of its newest event; failed machines are listed first with that event's message, and stalled machines first among those in progress; abandoned machines are counted and listed apart from them.${progressNote(context, reports)}${watchSentence}`;
  const tail = [...refusedLines(refused)];
  if (lines.full) tail.push(cutNotice(`${left} machines`));
  const block = [lines.text, watchPart].filter((text) => text !== '').join('\n');
  return [head, dataNotice(API), beginLine(API), block, endLine(API), ...tail].join('\n');
}

/**
 * Since when a machine in progress has been going: its first event after the newest one that failed or onboarded
 * it (a retry starts afresh), so an agent asked "which has been going longest" needs no second call.
 */
function inProgressSince(result: EventsResult, context: ResultContext): string {
  let ended = -Infinity;
  for (const event of result.events) if (eventState(event, context.rules) !== 'in-progress') ended = Math.max(ended, event.time.epochMs);
  let since: number | undefined;
  for (const event of result.events) if (event.time.epochMs > ended) since = Math.min(since ?? Infinity, event.time.epochMs);
  if (since === undefined) return '';
  // Past the pages read, an older event of the same attempt may exist.
  const earlier = result.truncated && ended === -Infinity ? ' or earlier (older events were not read)' : '';
  return `; in progress since ${when(since, context.now)}${earlier}`;
}

function summaryLine(report: MachineReport, context: ResultContext, watch: WatchSummary | undefined): string {
  const { now } = context;
  const serial = v(report.serialNumber);
  const outcome = report.outcome;
  const watched = watch === undefined ? '' : `; ${watchMarker(watch, now)}`;
  if (outcome.kind === 'error') return `- ${serial}: the request failed: ${quote(outcome.message, ERROR_CHARS)}${watched}`;
  const events = outcome.result.events;
  const newest = newestOf(events);
  const stale = outcome.stale ? ' (NOT UP TO DATE: the last refresh failed)' : '';
  if (newest === undefined) return `- ${serial}: no events recorded${stale}${watched}`;
  const created = events.find((event) => event.assetId !== undefined);
  const asset = created?.assetId === undefined ? '' : `; asset id ${v(created.assetId)}`;
  const since = stateOfOutcome(outcome, context.rules) === 'in-progress' ? inProgressSince(outcome.result, context) : '';
  return `- ${serial}: newest event ${when(newest.time.epochMs, now)}: type ${sv(newest.type)}; message ${sv(newest.message)}${asset}${since}${progressPart(outcome.result, context)}${stale}${watched}`;
}

/** The watch tool, which the summary points to. */
const AGENT_TOOL_WATCH = AGENT_TOOL_NAMES.watch;
/** Watches the summary lists (the watch tool lists all). */
const SUMMARY_WATCHES = 20;
/** Room the summary keeps for its watch list. */
const WATCH_PART_CHARS = 5_000;

/** A summarized machine's watch, in a few words. */
function watchMarker(watch: WatchSummary, now: number): string {
  switch (watch.state) {
    case 'watching':
      return `WATCHED: polled until onboarded or failed, since ${when(watch.since, now)}`;
    case 'paused':
      return 'watched, but paused (its environment is not signed in)';
    case 'onboarded':
    case 'failed':
      return `its watch ended: ${word(watch.state)}${watch.outcome === undefined ? '' : ` ${when(watch.outcome.at, now)}`}`;
  }
}

/** One watch of the list: its state, newest event, since when; an ended one with its outcome. */
function watchLine(watch: WatchSummary, now: number): string {
  const serial = v(watch.serialNumber);
  const step =
    watch.newestEvent === undefined ? 'no event yet' : `newest event ${sv(watch.newestEvent.type)} at ${when(watch.newestEvent.at, now)}`;
  const since = `watched since ${when(watch.since, now)}`;
  switch (watch.state) {
    case 'watching':
      return `- ${serial}: watching; ${step}; ${since}`;
    case 'paused':
      return `- ${serial}: paused (its environment is not the one signed in); ${step}; ${since}`;
    case 'onboarded':
    case 'failed': {
      const outcome = watch.outcome;
      if (outcome === undefined) return `- ${serial}: ${word(watch.state)}; ${step}; ${since}`;
      const message = watch.state === 'failed' ? `; message ${sv(outcome.message)}` : '';
      return `- ${serial}: ${word(watch.state)} ${when(outcome.at, now)}, ${Math.round(outcome.tookMs / 60_000)} min after its first event; ${step}${message}; ${since} (the watch has ended)`;
    }
  }
}

/** Room kept for the line that counts the watches not shown. */
const MORE_LINE_CHARS = 120;

/**
 * The watch list as lines of a data block (it holds event types and messages),
 * headed by its count, within `budget` characters: the watches that do not fit,
 * and those past `shown`, are counted in a last line.
 */
function watchListText(watches: readonly WatchSummary[], now: number, budget: number, shown = watches.length): string {
  if (watches.length === 0) return '';
  const lines = new BoundedLines(Math.max(0, budget - MORE_LINE_CHARS));
  lines.add(`Watched machines (${watches.length}):`);
  let left = watches.length - Math.min(shown, watches.length);
  for (const watch of watches.slice(0, shown)) if (!lines.add(() => watchLine(watch, now))) left++;
  if (left === 0) return lines.text;
  const more =
    shown < watches.length && !lines.full
      ? `- … and ${left} more watches: ${AGENT_TOOL_WATCH} lists them all.`
      : `- … ${left} more not shown`;
  return `${lines.text}\n${more}`;
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** One serial number found in scope, with what this window already knows of it. */
export interface ScopeEntry {
  readonly serialNumber: string;
  /** Where it was seen: display paths (workspace-relative) and 0-based lines. */
  readonly locations: readonly { readonly file: string; readonly line: number }[];
  readonly occurrences: number;
  readonly pinned: boolean;
  readonly recent: boolean;
  /** The cached result, when one exists (no request is made for this tool). */
  readonly known?: { readonly result: EventsResult; readonly stale: boolean };
}

export interface ScopeDescription {
  /** E.g. 'the active editor', 'the file', 'the workspace scan'. */
  readonly where: string;
  /** The file read (display path), for the editor and file sources. */
  readonly file?: string;
  readonly filesScanned?: number;
  /** The scan or the match count hit its cap: there may be more. */
  readonly capped: boolean;
  readonly signedIn: boolean;
  /** Why the user's serial-number pattern is not used, when it is not. */
  readonly patternProblem?: string;
  /** Who already knew the states listed, and from what: "this window already knew (pinned machines, …)". */
  readonly knownFrom: string;
}

function scopeLine(entry: ScopeEntry, context: Pick<ResultContext, 'now' | 'rules'>, showFiles: boolean): string {
  const { now } = context;
  const parts: string[] = [];
  const first = entry.locations[0];
  if (showFiles) {
    const files = entry.locations.slice(0, 3).map((location) => `${quote(location.file, PATH_CHARS)} line ${location.line + 1}`);
    if (entry.locations.length > 3) files.push(`${entry.locations.length - 3} more files`);
    parts.push(`in ${files.join(', ')}`);
  } else if (first !== undefined) {
    parts.push(`line ${first.line + 1}${entry.occurrences > 1 ? ` (${entry.occurrences} times)` : ''}`);
  }
  if (entry.pinned) parts.push('pinned');
  if (entry.recent) parts.push('looked up recently');
  if (entry.known === undefined) {
    parts.push('state not known yet (no events fetched)');
  } else {
    const newest = newestOf(entry.known.result.events);
    const state = `state ${word(machineState({ result: entry.known.result }, context.rules))}`;
    const detail = newest === undefined ? '' : `, newest event type ${sv(newest.type)} at ${when(newest.time.epochMs, now)}`;
    parts.push(
      `${state}${detail}, as fetched ${when(entry.known.result.fetchedAt, now)}${entry.known.stale ? ' (may be out of date)' : ''}`,
    );
  }
  return `- ${v(entry.serialNumber)}: ${parts.join('; ')}`;
}

/** The scope tool: serial numbers in the editor, a file or the workspace, with their known state. No request is made. */
export function scopeText(
  entries: readonly ScopeEntry[],
  scope: ScopeDescription,
  context: Pick<ResultContext, 'now' | 'rules'>,
  tools: { readonly events: string; readonly summary: string },
): string {
  const where = scope.file === undefined ? scope.where : `${scope.where} ${quote(scope.file, PATH_CHARS)}`;
  const scanned = scope.filesScanned === undefined ? '' : ` (${scope.filesScanned} files scanned)`;
  const head = [
    `${entries.length} serial number${entries.length === 1 ? '' : 's'} found in ${where}${scanned}${scope.capped ? ', which is not all: a limit was reached' : ''}.`,
    `No request was sent: each state is what ${scope.knownFrom}. For current events call ${tools.events}, or ${tools.summary} for counts by state, with these serial numbers.`,
  ];
  if (!scope.signedIn) head.push('The user is not signed in to the Onboarding Events API, so no events can be fetched until they sign in.');
  if (scope.patternProblem !== undefined)
    head.push(`Note, the serial-number pattern setting is not used: ${quote(scope.patternProblem, ERROR_CHARS)}`);
  if (entries.length === 0) return head.join('\n');
  const lines = new BoundedLines(TOOL_LIMITS.maxResultChars - FRAME_CHARS);
  const listed = entries.slice(0, TOOL_LIMITS.maxScopeSerials);
  let left = entries.length - listed.length;
  for (const entry of listed) if (!lines.add(() => scopeLine(entry, context, scope.file === undefined))) left++;
  const tail = left > 0 ? [`${left} more serial numbers not shown.`] : [];
  return [...head, dataNotice(FILES_AND_API), beginLine(FILES_AND_API), lines.text, endLine(FILES_AND_API), ...tail].join('\n');
}

/** Signed out, or the stored credentials were refused: no request was sent, and the agent should ask the user to sign in. */
export function signInNeededText(state: 'signed-out' | 'credentials-rejected', signInCommandId: string): string {
  const why =
    state === 'signed-out'
      ? 'The user is not signed in to the Onboarding Events API, so no request was sent.'
      : 'The Onboarding Events API rejected the stored credentials (they may have been changed or revoked), so no request was sent.';
  return `${why} Ask the user to sign in: run the command "Onboarding Events: Sign In" (command id ${signInCommandId}) from the Command Palette, then call this tool again. Do not ask the user for a password or secret in the chat.`;
}

/** The tools are turned off by a setting (they may still be called by name). */
export function turnedOffText(settingId: string): string {
  return `The Onboarding Events tools are turned off by the setting ${settingId}, so nothing was read. Tell the user they can turn them on in the settings.`;
}

/** The input was refused before anything was read. */
export function invalidInputText(problem: string): string {
  return `Nothing was read: ${problem}`;
}

/** What asking to watch one machine came to: the watch feature's answer, or the error that stopped it. */
export interface WatchStartReport {
  readonly serialNumber: string;
  readonly answer: WatchStartAnswer | { readonly kind: 'error'; readonly message: string };
}

const START_WORDS: Readonly<Record<WatchStartReport['answer']['kind'], string>> = {
  started: 'started',
  'already-watched': 'already watched',
  'already-onboarded': 'already onboarded',
  limit: 'not started (watch limit reached)',
  'not-signed-in': 'not started (not signed in)',
  error: 'not started (an error)',
};

function startLine(report: WatchStartReport, now: number): string {
  const serial = v(report.serialNumber);
  const answer = report.answer;
  switch (answer.kind) {
    case 'started':
      return `- ${serial}: started; the user will be notified when it is onboarded or fails`;
    case 'already-watched':
      return `- ${serial}: already watched; nothing changed`;
    case 'already-onboarded':
      return `- ${serial}: not started: already onboarded (newest event type ${sv(answer.newestEvent.type)} at ${when(answer.newestEvent.at, now)}), so there is nothing left to watch`;
    case 'limit':
      return `- ${serial}: not started: ${answer.max} machines are being watched already, the most there can be; the user can stop a watch from the status bar item "Watching …"`;
    case 'not-signed-in':
      return `- ${serial}: not started: nobody is signed in to the environment any more; ask the user to sign in`;
    case 'error':
      return `- ${serial}: not started: ${quote(answer.message, ERROR_CHARS)}`;
  }
}

/**
 * The watch tool: with serial numbers, what became of each (in the order
 * asked); then the watch list of the signed-in environment, whose event types
 * and messages are server text, so all of it is inside the data block.
 */
export function watchText(
  started: readonly WatchStartReport[],
  watches: readonly WatchSummary[],
  refused: SerialList['refused'],
  context: Pick<ResultContext, 'now' | 'environment'>,
): string {
  const counts = new Map<string, number>();
  for (const report of started) counts.set(START_WORDS[report.answer.kind], (counts.get(START_WORDS[report.answer.kind]) ?? 0) + 1);
  const byState = (['watching', 'paused', 'failed', 'onboarded'] as const)
    .map((state) => ({ state, count: watches.filter((watch) => watch.state === state).length }))
    .filter(({ count }) => count > 0)
    .map(({ state, count }) => `${count} ${state === 'watching' || state === 'paused' ? state : word(state)}`);
  const environment = v(context.environment);
  const asked =
    started.length === 0
      ? `Nothing was started (no serial numbers were given). The watch list of the environment ${environment} in the user's VS Code window: ${watches.length === 0 ? 'no machine is being watched' : byState.join(', ')}.`
      : `Asked to watch ${started.length} machine${started.length === 1 ? '' : 's'} in the environment ${environment}: ${[...counts].map(([what, count]) => `${count} ${what}`).join(', ')}. The watch list now: ${watches.length === 0 ? 'no machine is being watched' : byState.join(', ')}.`;
  const head = [
    asked,
    "A watched machine is polled with the user's sign-in until its newest event says onboarded or failed; the user is then notified and the watch ends by itself. Watches live in the user's VS Code only (nothing is changed on the server); the user sees them in the status bar and can stop any there.",
  ];
  if (started.length === 0 && watches.length === 0 && refused.length === 0) return head.join('\n');
  const lines = new BoundedLines(TOOL_LIMITS.maxResultChars - FRAME_CHARS);
  let left = 0;
  if (started.length > 0) {
    lines.add(`Asked (${started.length}):`);
    for (const report of started) if (!lines.add(() => startLine(report, context.now))) left++;
  }
  // The list gets what the answers left; it counts what it cannot show itself.
  const list = watchListText(watches, context.now, TOOL_LIMITS.maxResultChars - FRAME_CHARS - lines.text.length - 1);
  const tail = [...refusedLines(refused)];
  if (lines.full) tail.push(cutNotice(`${left} machines`));
  return [
    ...head,
    dataNotice(API),
    beginLine(API),
    [lines.text, list].filter((text) => text !== '').join('\n'),
    endLine(API),
    ...tail,
  ].join('\n');
}
