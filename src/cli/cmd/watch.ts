// `oe watch SERIAL…`: waits for machines to onboard, for a test rig, on the
// extension's watch rules (schedule, outcome, "cannot poll"). Steps go to a
// terminal's stderr; stdout gets one line per machine at the end.
import { plainLocalize } from '../../core/common/localize';
import { terminalText } from '../../core/common/serverText';
import { formatDuration, formatUtcIso } from '../../core/common/time';
import { isApiError, type ApiError } from '../../core/client/errors';
import type { OnboardingClient } from '../../core/client/onboardingClient';
import { stateWord, type EventStateRules } from '../../core/domain/events/eventState';
import {
  afterPoll,
  DEFAULT_WATCH_TIMING,
  NO_HISTORY,
  nextPollDelay,
  readWatch,
  unreachableForLong,
  type PollHistory,
  type WatchOutcome,
  type NewestEvent,
  type WatchTiming,
} from '../../core/domain/watch/watchRules';
import { EXIT, UsageError, type CliCommand, type CliIo } from '../cliCommand';
import { jsonWriter, type JsonWriter } from '../jsonOutput';
import { durationArgument, serialArguments, stringOption } from '../cliArgs';
import { messageWidth } from '../cliIo';
import { SESSION_OPTIONS } from '../cliSession';
import { oeErrorText } from '../remedies';

const DEFAULT_TIMEOUT = '60m';

type Ending =
  | { readonly kind: 'outcome'; readonly outcome: WatchOutcome }
  | { readonly kind: 'timed-out'; readonly seen: NewestEvent | undefined }
  | {
      readonly kind: 'cannot-poll';
      readonly error: ApiError | undefined;
      readonly seen: NewestEvent | undefined;
      /** A request was still unanswered when the timeout passed. */
      readonly hung?: true;
    };

interface WatchInput {
  readonly serialNumber: string;
  readonly client: OnboardingClient;
  readonly rules: EventStateRules;
  readonly timing: WatchTiming;
  readonly deadline: number;
  /** Wait for an outcome after this time (epoch ms); undefined: the newest outcome is the answer, however old. */
  readonly after: number | undefined;
  readonly signal: AbortSignal;
  /** A new event (or the first reading) for the progress line. */
  readonly onNewest: (seen: NewestEvent) => void;
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, ms));
    signal.addEventListener('abort', done, { once: true });
  });
}

/** One machine's watch, from its first reading to its ending. */
async function watchOne(input: WatchInput): Promise<Ending> {
  const { serialNumber, client, rules, timing, deadline, after, signal } = input;
  let history: PollHistory = NO_HISTORY;
  let seen: NewestEvent | undefined;
  let firstFailureAt: number | undefined;
  let lastError: ApiError | undefined;
  let first = true;
  for (;;) {
    if (signal.aborted) return { kind: 'timed-out', seen };
    // The timeout bounds a request that hangs too, not only the waits between polls.
    const timeout = AbortSignal.timeout(Math.max(0, deadline - Date.now()));
    try {
      const result = await client.getEvents(serialNumber, { signal: AbortSignal.any([signal, timeout]) });
      firstFailureAt = undefined;
      lastError = undefined;
      const reading = readWatch(result, rules, after);
      const newest = reading.newest;
      const fresh = newest !== undefined && (seen === undefined || newest.at !== seen.at || newest.type !== seen.type);
      if (fresh) input.onNewest(newest);
      seen = newest ?? seen;
      // An outcome is the answer, however old, unless --next asked for one after the start.
      if (reading.kind === 'outcome') return { kind: 'outcome', outcome: reading.outcome };
      // The first reading starts the schedule afresh, as the extension's start does.
      if (!first) history = afterPoll(history, fresh ? 'new-event' : 'quiet');
    } catch (error) {
      if (!isApiError(error)) throw error;
      // Cut off by the timeout: the API had not answered. By Ctrl-C: the run ends as interrupted.
      if (error.kind === 'cancelled')
        return timeout.aborted ? { kind: 'cannot-poll', error: lastError, seen, hung: true } : { kind: 'timed-out', seen };
      // Refused credentials do not heal by waiting.
      if (error.kind === 'invalid-credentials' || error.kind === 'permission-denied') return { kind: 'cannot-poll', error, seen };
      lastError = error;
      firstFailureAt ??= Date.now();
      if (unreachableForLong(firstFailureAt, Date.now(), timing)) return { kind: 'cannot-poll', error, seen };
      history = afterPoll(history, 'failed');
    }
    first = false;
    const delay = nextPollDelay(history, true, timing);
    if (Date.now() + delay > deadline) {
      await sleep(deadline - Date.now(), signal);
      // The polls were failing when time ran out: whether it onboarded cannot be told.
      return lastError !== undefined ? { kind: 'cannot-poll', error: lastError, seen } : { kind: 'timed-out', seen };
    }
    await sleep(delay, signal);
  }
}

function newestText(seen: NewestEvent | undefined): string {
  if (seen === undefined) return '';
  return `${terminalText(seen.type, 80)} ${formatUtcIso(seen.at) ?? ''}`.trimEnd();
}

/** The line stdout gets: data a script reads, so in English whatever LANG is (stderr is in the user's language). */
function endingLine(serialNumber: string, ending: Ending, maxMessage: number): string {
  const t = plainLocalize;
  switch (ending.kind) {
    case 'outcome':
      return [
        serialNumber,
        stateWord(ending.outcome.state, t),
        newestText({ type: ending.outcome.type, at: ending.outcome.at }),
        t('took {0}', formatDuration(ending.outcome.tookMs, t)),
        terminalText(ending.outcome.message, maxMessage),
      ].join('  ');
    case 'timed-out':
      return [serialNumber, t('timed out'), newestText(ending.seen)].join('  ').trimEnd();
    case 'cannot-poll':
      return [serialNumber, t('could not poll'), newestText(ending.seen)].join('  ').trimEnd();
  }
}

/** 1 when any failed, else 3 when any could not be polled, else 2 when any timed out, else 0. */
function exitCode(endings: readonly Ending[]): number {
  if (endings.some((ending) => ending.kind === 'outcome' && ending.outcome.state === 'failed')) return EXIT.no;
  if (endings.some((ending) => ending.kind === 'cannot-poll')) return EXIT.unreachable;
  if (endings.some((ending) => ending.kind === 'timed-out')) return EXIT.timedOut;
  return EXIT.ok;
}

/**
 * One NDJSON line of `oe watch --json`: a machine's new newest event, or its result; data, never translated. Server
 * text goes in as it is (a string at run time): the JSON writer writes it as sent, escaping what a terminal acts on.
 */
function eventRecord(serialNumber: string, seen: NewestEvent): object {
  return { kind: 'event', serialNumber, type: seen.type, time: formatUtcIso(seen.at) ?? null };
}

function resultRecord(serialNumber: string, ending: Ending): object {
  if (ending.kind === 'outcome') {
    const { state, type, at, tookMs, message } = ending.outcome;
    return {
      kind: 'result',
      serialNumber,
      result: state,
      type,
      time: formatUtcIso(at) ?? null,
      tookMs,
      message,
    };
  }
  const seen = ending.seen === undefined ? {} : { type: ending.seen.type, time: formatUtcIso(ending.seen.at) ?? null };
  // The error in English, the language of a data format (oe check --json does the same).
  const error =
    ending.kind === 'cannot-poll'
      ? { error: ending.hung === true ? 'timed out waiting for the API' : (ending.error?.message ?? null) }
      : {};
  return { kind: 'result', serialNumber, result: ending.kind, ...seen, ...error };
}

function progress(io: CliIo, serialNumber: string, seen: NewestEvent): void {
  // Progress is for a person at a terminal; a log file or a pipe gets the result only.
  if (io.isTTY.stderr) io.stderr(`${serialNumber}: ${newestText(seen)}\n`);
}

export const command: CliCommand = {
  name: 'watch',
  summary: (t) => t('wait until machines have onboarded or failed: for a test rig'),
  usage: (t) =>
    t(`Usage: oe watch SERIAL… [--next] [--timeout DURATION] [--json [FIELDS]] [--jq EXPR]

Polls each machine on the schedule of the extension's watch until its newest event says onboarded or failed. A machine that already has an outcome answers at once with it and the time it happened (onboarded 0, failed 1); --next waits for an outcome after the watch started instead, for a rig that onboards a machine again. Each new step is shown on stderr when it is a terminal; one line per machine is written to stdout at the end, in English whatever the language (it is data).

Options:
  --next              wait for an outcome newer than the start of the watch; one from before does not count
  --timeout DURATION  give up after this long, a request that hangs included, such as 90s, 30m or 2h (default 60m)
  --json [FIELDS]     NDJSON on stdout instead, written as it happens: a line for each new event and one for each machine's result (docs/schemas/oe-watch.schema.json); FIELDS, comma-separated, keeps only those: kind, serialNumber, type, time, result, tookMs, message, error
  --jq EXPR           filter each JSON line through jq, as gh --jq does: a string is written as text, any other value as JSON
  --api-url URL, --auth-url URL, --client-id ID, --username NAME, --password-stdin, --ca-file FILE
                      sign-in and network (see oe --help)

Exit codes (with several machines: 1 when any failed, else 3, else 2):
  0   every machine onboarded
  1   a machine failed
  2   the timeout passed before every machine had an outcome
  3   could not poll: the credentials were refused, or the API could not be reached or did not answer (for 15 minutes, or when the timeout passed)
  64  bad input: unknown option, malformed serial number, a bad duration, a secret given as an option, an unknown --json field, a --jq expression jq refuses (with its message)
`),
  operands: 'serial-numbers',
  examples: [
    { line: 'oe watch KRP-0815-B0001 --timeout 30m', says: (t) => t('wait up to 30 minutes for one machine to onboard or fail') },
    {
      line: 'oe watch KRP-0815-B0001 KRP-0815-B0002 --next',
      says: (t) => t('wait for a new outcome of two machines, for a rig that onboards them again'),
    },
    { line: 'oe watch - --timeout 2h < rig.txt', says: (t) => t('the machines listed in rig.txt, one a line') },
  ],
  options: { ...SESSION_OPTIONS, timeout: { type: 'string' }, next: { type: 'boolean' } },
  json: { schemaVersion: 1, fields: ['kind', 'serialNumber', 'type', 'time', 'result', 'tookMs', 'message', 'error'] },
  async run(args, io, context) {
    const { t } = io;
    const serialNumbers = serialArguments(args, t);
    const timeoutMs = durationArgument(stringOption(args, 'timeout') ?? DEFAULT_TIMEOUT, '--timeout', t);
    const settings = context.settings;
    const timing: WatchTiming = { ...DEFAULT_WATCH_TIMING, firstMs: settings['watch.firstIntervalSeconds'] * 1000 };
    const client = await context.client();
    const started = Date.now();
    const deadline = started + timeoutMs;
    const after = args.values['next'] === true ? started : undefined;
    const json: JsonWriter | undefined = args.json === undefined ? undefined : jsonWriter(io, args.json, context.signal);
    const endings = await Promise.all(
      serialNumbers.map(async (serialNumber) => {
        const ending = await watchOne({
          serialNumber,
          client,
          rules: settings.eventStates,
          timing,
          deadline,
          after,
          signal: context.signal,
          onNewest: (seen) => {
            progress(io, serialNumber, seen);
            json?.line(eventRecord(serialNumber, seen));
          },
        });
        // NDJSON as it happens: each machine's result when it has one, not at the end.
        if (!context.signal.aborted) json?.line(resultRecord(serialNumber, ending));
        return ending;
      }),
    );
    await json?.end();
    if (context.signal.aborted) throw new UsageError(t('Cancelled.'));
    serialNumbers.forEach((serialNumber, index) => {
      const ending = endings[index];
      if (ending === undefined) return;
      if (json === undefined) io.stdout(`${endingLine(serialNumber, ending, messageWidth(io))}\n`);
      if (ending.kind === 'cannot-poll' && ending.hung === true)
        io.stderr(`oe watch: ${serialNumber}: ${t('The API had not answered when the timeout passed.')}\n`);
      else if (ending.kind === 'cannot-poll' && ending.error !== undefined)
        io.stderr(`oe watch: ${serialNumber}: ${oeErrorText(ending.error, t)}\n`);
    });
    return exitCode(endings);
  },
};
