// The hover's Markdown, from cached events. Every server string goes through markdownCell or
// escapeMarkdown; the only links are command links built here (HOVER_ENABLED_COMMANDS).
import type { CacheEntry } from '../../core/eventsCache/eventsCache';
import { commandUri, escapeMarkdown, toSingleLine } from '../../core/common/markdownText';
import type { Localize } from '../../core/common/localize';
import { extensionErrorText } from '../workbench/remedies';
import { formatAbsolute, formatRelative } from '../../core/common/time';
import { COMMANDS } from '../workbench/constants';
import { machineState, stateWord, type EventStateRules } from '../../core/domain/events/eventState';
import { markdownText, type ServerText } from '../../core/common/serverText';
import type { EventsResult } from '../../core/client/model';
import { progressWords, type ProgressAnswer } from '../../core/domain/progress/machineProgress';

function serverCell(text: ServerText, max: number): string {
  return markdownText(text, max) || '—';
}

/**
 * The exact allow-list for `MarkdownString.isTrusted`; arguments carry `{ serialNumber }` and an event
 * key, so no server data rides in a URI.
 */
export const HOVER_ENABLED_COMMANDS: readonly string[] = [
  COMMANDS.showEventDetails,
  COMMANDS.revealMachine,
  COMMANDS.pinMachine,
  COMMANDS.watchMachine,
  COMMANDS.copySerialNumber,
  COMMANDS.copyLinkToMachine,
  COMMANDS.signIn,
  COMMANDS.showLog,
];

export interface HoverContext {
  readonly now: number;
  readonly locale: string;
  readonly t: Localize;
  readonly maxEvents: number;
  readonly timeZone?: string;
  readonly rules: EventStateRules;
  /** Adds the mark that makes Reveal and Pin our own UI's links rather than anyone's (workbench/argumentTrust.ts). */
  readonly ownArgument?: (fields: { readonly serialNumber: string }) => { readonly serialNumber: string };
  /** A result's progress against the line's history (eventsCache/cachedLineHistory.ts); without it the hover says no progress. */
  readonly progress?: (result: EventsResult) => ProgressAnswer;
}

function age(epochMs: number, ctx: HoverContext): string {
  return formatRelative(epochMs, ctx.now, ctx.locale) ?? String(epochMs);
}

/** Longest message shown in a cell (a compact hover); the details panel shows the whole text. */
export const MESSAGE_CELL_MAX = 60;
const TYPE_CELL_MAX = 40;
/**
 * Our error messages end with what to do, and a long host name would push that past a cut from the
 * end: the middle is cut, so the advice stays.
 */
export const ERROR_TEXT_MAX = 480;

/** One line of an error message, at most ERROR_TEXT_MAX code points: the start and the end kept, the middle elided. */
export function shortenErrorText(message: string): string {
  // Cut first, then clean: of a message far longer than is shown, only its start and end are looked at.
  const edge = ERROR_TEXT_MAX * 4;
  const near = message.length <= 2 * edge ? message : `${message.slice(0, edge)} … ${message.slice(-edge)}`;
  const points = Array.from(toSingleLine(near, Number.MAX_SAFE_INTEGER));
  if (points.length <= ERROR_TEXT_MAX) return points.join('');
  const elision = ' … ';
  const head = Math.floor((ERROR_TEXT_MAX - elision.length) / 3);
  const tail = ERROR_TEXT_MAX - elision.length - head;
  return `${points.slice(0, head).join('').trimEnd()}${elision}${points.slice(-tail).join('').trimStart()}`;
}

function heading(serialNumber: string): string {
  return `**${escapeMarkdown(serialNumber)}**`;
}

/** `watchable`: the machine is not onboarded yet, so watching it has something to wait for. */
function actions(serialNumber: string, latestKey: string | undefined, ctx: HoverContext, watchable = false): string {
  const arg = [ctx.ownArgument?.({ serialNumber }) ?? { serialNumber }];
  const links: string[] = [];
  if (latestKey !== undefined) {
    links.push(
      `[${ctx.t('Show Details')}](${commandUri(COMMANDS.showEventDetails, [{ serialNumber, key: latestKey }])} "${ctx.t('Open the latest event in the details panel')}")`,
    );
  }
  links.push(
    `[${ctx.t('Reveal in Sidebar')}](${commandUri(COMMANDS.revealMachine, arg)} "${ctx.t('Show this machine in the Onboarding Events view')}")`,
  );
  links.push(`[${ctx.t('Pin')}](${commandUri(COMMANDS.pinMachine, arg)} "${ctx.t('Pin this machine in the Onboarding Events view')}")`);
  if (watchable)
    links.push(
      `[${ctx.t('Watch')}](${commandUri(COMMANDS.watchMachine, arg)} "${ctx.t('Poll this machine until it is onboarded or fails, and notify')}")`,
    );
  links.push(`[${ctx.t('Copy')}](${commandUri(COMMANDS.copySerialNumber, arg)} "${ctx.t('Copy the serial number')}")`);
  links.push(
    `[${ctx.t('Copy Link')}](${commandUri(COMMANDS.copyLinkToMachine, arg)} "${ctx.t('Copy a link that opens this machine in VS Code')}")`,
  );
  return links.join(' · ');
}

/**
 * What matters first, in view even in a small hover: the state and newest event's age, the actions,
 * then the table, counts and exact time.
 */
export function eventsHoverMarkdown(serialNumber: string, cached: CacheEntry, ctx: HoverContext): string {
  const { result } = cached;
  const events = result.events;
  const parts: string[] = [];
  const latest = events[0];
  const machine = machineState({ result }, ctx.rules);
  const state = escapeMarkdown(stateWord(machine, ctx.t));
  // Not from a stale result: the time at a step counts from an event that may have been followed since.
  const progress = cached.stale ? undefined : ctx.progress?.(result);
  if (progress?.kind === 'progress') {
    // In progress, the step and what is likely left (or that it is stalled or abandoned) say more than the newest event's age.
    const words = progressWords(progress, ctx.t, (text) => markdownText(text, TYPE_CELL_MAX));
    parts.push(
      [heading(serialNumber), state, words.step, words.abandoned ?? words.stalled ?? words.toGo]
        .filter((part) => part !== undefined)
        .join(' · '),
    );
    // The kind it was learned from only where it was learned (the steps setting pools nothing).
    const cohort = progress.source === 'learned' ? words.cohort : undefined;
    const why = [words.restsOn, cohort, words.reasons, progress.stalled ? words.stallRule : undefined, words.oddities];
    parts.push(`_${why.filter((part) => part !== undefined).join(' · ')}._ ${words.how}`);
  } else {
    const first = `${heading(serialNumber)} · ${latest === undefined ? state : `${state} · ${escapeMarkdown(age(latest.time.epochMs, ctx))}`}`;
    if (progress === undefined) parts.push(first);
    else {
      const words = progressWords(progress, ctx.t, markdownText);
      parts.push(`${first} · ${words.restsOn}`, `_${words.how}_`);
    }
  }
  if (cached.stale) {
    const when = age(result.fetchedAt, ctx);
    const why = cached.error ? ` ${escapeMarkdown(shortenErrorText(extensionErrorText(cached.error, ctx.t)))}` : '';
    parts.push(`_${ctx.t('Not up to date: last loaded {0}.', when)}_${why}`);
  }
  parts.push(actions(serialNumber, latest?.key, ctx, machine !== 'onboarded'));
  if (events.length === 0) {
    parts.push(ctx.t('No onboarding events recorded for this machine.'));
  } else {
    const shown = events.slice(0, Math.max(1, ctx.maxEvents));
    const rows = shown.map(
      // Non-breaking spaces keep "2 years ago" on one line when the message is long.
      (event) =>
        `| ${serverCell(event.type, TYPE_CELL_MAX)} | ${escapeMarkdown(age(event.time.epochMs, ctx)).replace(/ /g, '\u00a0')} | ${serverCell(event.message, MESSAGE_CELL_MAX)} |`,
    );
    parts.push([`| ${ctx.t('Type')} | ${ctx.t('When')} | ${ctx.t('Message')} |`, '| :-- | :-- | :-- |', ...rows].join('\n'));
    const hidden = events.length - shown.length;
    const count = events.length === 1 ? ctx.t('1 event') : ctx.t('{0} events', events.length);
    const notShown =
      hidden === 0 ? '' : ` (${hidden === 1 ? ctx.t('1 older event not shown') : ctx.t('{0} older events not shown', hidden)})`;
    const more = result.truncated ? ` ${ctx.t('(more not loaded)')}` : '';
    const exact =
      latest === undefined
        ? ''
        : ` · ${ctx.t('latest {0}', escapeMarkdown(formatAbsolute(latest.time.epochMs, ctx.locale, ctx.timeZone) ?? String(latest.time.raw)))}`;
    parts.push(`_${count}${notShown}${more}${exact}_`);
  }
  if (result.invalid.length > 0) {
    parts.push(
      `_${result.invalid.length === 1 ? ctx.t('1 event could not be read.') : ctx.t('{0} events could not be read.', result.invalid.length)}_ [${ctx.t('Show Log')}](${commandUri(COMMANDS.showLog, [])})`,
    );
  }
  return parts.join('\n\n');
}

export function signedOutHoverMarkdown(serialNumber: string, ctx: HoverContext): string {
  return [
    `${heading(serialNumber)} · ${ctx.t('Onboarding Events')}`,
    `${ctx.t('Sign in to see the onboarding events of this machine.')} [${ctx.t('Sign In')}](${commandUri(COMMANDS.signIn, [])})`,
  ].join('\n\n');
}

export function errorHoverMarkdown(serialNumber: string, message: string, ctx: HoverContext): string {
  return [
    heading(serialNumber),
    `[${ctx.t('Show Log')}](${commandUri(COMMANDS.showLog, [])}) · ${actions(serialNumber, undefined, ctx)}`,
    ctx.t('Could not load onboarding events: {0}', escapeMarkdown(shortenErrorText(message))),
  ].join('\n\n');
}
