// `oe check PATH…`: the CI gate. Finds the serial numbers with the editor's
// matcher and each path's settings, reads each machine once through one client
// (its limiter paces them), and fails on a counted state or what it could not check.
import { readdir, realpath, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { definedOnly } from '../../core/common/definedOnly';
import { errorMessage } from '../../core/common/errors';
import { plainLocalize, type Localize } from '../../core/common/localize';
import { globPathOf } from '../../core/common/folderPaths';
import { isInsideFolder, NamedFileError, readNamedFile, writeNamedFile } from '../../core/common/namedFiles';
import { toSingleLine } from '../../core/common/markdownText';
import { terminalText } from '../../core/common/serverText';
import { formatUtcIso } from '../../core/common/time';
import { isApiError, type ApiError } from '../../core/client/errors';
import type { OnboardingClient } from '../../core/client/onboardingClient';
import { SERVER_TEXT_LIMITS, type EventsResult, type OnboardingEvent } from '../../core/client/model';
import { machineState, newestOf, stateWord, type EventStateRules, type MachineState } from '../../core/domain/events/eventState';
import { serialMatcherOf } from '../../core/domain/serialNumbers/settingsMatcher';
import type { Settings } from '../../core/domain/settings/settingsRules';
import { xmlText } from '../../core/domain/board/boardExport';
import { compileIncludeGlob, type IncludeGlob } from '../../core/domain/workspaceScan/includeGlob';
import { MAX_SCANNED_FILE_BYTES, SerialCollector } from '../../core/domain/workspaceScan/workspaceSerials';
import { EXIT, UsageError, type CliCommand, type CliContext, type CliIo } from '../cliCommand';
import { stringOption } from '../cliArgs';
import { progressFields } from './checkProgress';
import { messageWidth, styler } from '../cliIo';
import { jsonWriter } from '../jsonOutput';
import { SESSION_OPTIONS } from '../cliSession';
import { oeErrorText } from '../remedies';

/** The states --fail-on can name; 'unavailable' (the request failed) is no machine's verdict: it is not checked. */
const COUNTABLE: readonly MachineState[] = ['failed', 'unknown', 'in-progress', 'no-events'];

/** The state names `--json` writes: scripts read them, so they keep the camelCase they were published in. */
const JSON_STATE_NAMES: Readonly<Record<MachineState, string>> = {
  onboarded: 'onboarded',
  failed: 'failed',
  'in-progress': 'inProgress',
  'no-events': 'noEvents',
  unknown: 'unknown',
  unavailable: 'unavailable',
};

/**
 * The most machines one run checks (one request each). More fail the check as not checked: a gate never
 * passes on a part of what it was given.
 */
export const MAX_CHECKED_MACHINES = 10_000;

/** Folders a scan never enters: VS Code's default files.exclude and search.exclude. */
const SKIPPED_FOLDERS = new Set(['.git', '.svn', '.hg', 'CVS', 'node_modules', 'bower_components']);

interface Found {
  readonly serialNumber: string;
  /** First occurrence per file: `file:line` (1-based), relative to the working folder. */
  readonly locations: string[];
  readonly rules: EventStateRules;
}

interface Checked extends Found {
  readonly state: MachineState;
  readonly newest?: OnboardingEvent;
  readonly error?: ApiError;
  readonly counted: boolean;
}

/** A state's name without case, spaces, hyphens or underscores: "in progress", "inProgress" and "in-progress" are one. */
function stateKey(name: string): string {
  return name.toLowerCase().replace(/[\s_-]+/g, '');
}

/** --fail-on's states, as the table writes them or in camelCase; an empty or unknown one is bad input, never "count none". */
function failOn(text: string | undefined, t: Localize): ReadonlySet<MachineState> {
  if (text === undefined) return new Set(COUNTABLE);
  const names = COUNTABLE.map((state) => `"${stateWord(state, plainLocalize)}"`).join(', ');
  const states = new Set<MachineState>();
  for (const name of text.split(',').map((part) => part.trim())) {
    if (name === '') throw new UsageError(t('--fail-on names no state: give one or more of {0}, separated by commas.', names));
    const key = stateKey(name);
    // The table's word in English or in the user's language, or the name --json writes.
    const state = COUNTABLE.find((candidate) =>
      [candidate, stateWord(candidate, plainLocalize), stateWord(candidate, t)].some((word) => stateKey(word) === key),
    );
    if (state === undefined) throw new UsageError(t('--fail-on takes a comma-separated list of {0}, not "{1}".', names, name));
    states.add(state);
  }
  return states;
}

/** Serial numbers named in the note of machines cut to their share; the count says the rest. */
const CUT_NAMED = 5;

/**
 * The run's memory for events is shared by its machines (eventsBudget.ts): one that sent more than its share
 * was judged by its newest events, and the note says so rather than cutting silently.
 */
function reportHeldShare(results: readonly Answer[], io: CliIo): void {
  const cut = results.flatMap(({ held }) => (held === undefined ? [] : [held]));
  if (cut.length === 0) return;
  const notShown = cut.reduce((sum, result) => sum + result.notShown, 0);
  const named = cut.slice(0, CUT_NAMED).map((result) => result.serialNumber);
  const list = `${named.join(', ')}${cut.length > CUT_NAMED ? ', …' : ''}`;
  io.stderr(
    `oe check: ${io.t('{0} machines sent more events than their share of the memory of this run holds: their newest events were checked, {1} older ones are not shown ({2}).', cut.length, notShown, list)}\n`,
  );
}

/** A path as the terminal, the JSON and the JUnit file show it: one line, no control, bidi or invisible character. */
function shownPath(path: string): string {
  return toSingleLine(path, 300);
}

/**
 * A file whose content could not be read (too large, not a regular file, a read that failed) is not checked:
 * the message that names it, or undefined for a refusal that is bad input (a link out, another user's file).
 */
function notChecked(path: string, error: unknown, t: Localize): string | undefined {
  if (!(error instanceof NamedFileError)) return undefined;
  if (error.refusal === 'too-large')
    return t('{0} is larger than {1} MB and was not checked.', shownPath(path), MAX_SCANNED_FILE_BYTES / 1024 / 1024);
  if (error.refusal === 'not-a-file' || (error.refusal === 'failed' && error.code !== 'ENOENT'))
    return t('{0} could not be read and was not checked: {1}', shownPath(path), errorMessage(error, t));
  return undefined;
}

/** A path that cannot be checked for a reason of its own (missing, a link out of the folder, another user's): bad input, naming it. */
function refused(path: string, error: unknown, t: Localize): UsageError {
  if (error instanceof NamedFileError && error.refusal !== 'failed')
    return new UsageError(
      `${errorMessage(error, t)} ${t('The check fails, as nothing in it was checked; --follow-symlinks follows links.')}`,
    );
  const code = error instanceof NamedFileError ? error.code : (error as NodeJS.ErrnoException).code;
  return new UsageError(t('Cannot read {0}: {1}', shownPath(path), code ?? errorMessage(error, t)));
}

/**
 * The folder a named path must stay in by its real path: the working folder for a path below it, else the
 * folder the name puts it in; none with --follow-symlinks. A link a repository planted cannot lead out.
 */
function withinFor(path: string, cwd: string, follow: boolean): string | undefined {
  if (follow) return undefined;
  return isInsideFolder(cwd, path) ? cwd : dirname(path);
}

/** Files read at once by the scan: the disk is kept busy while a text is matched, and at most this many texts are held. */
const READ_AHEAD = 8;

/** Lets a signal be handled between files: the scan runs on the event loop, never past Ctrl-C or SIGTERM. */
async function pause(signal: AbortSignal, t: Localize): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  if (signal.aborted) throw new Error(t('Cancelled.'));
}

/** The files of a folder the workspace scan would read: the include glob, no excluded folder, no link, at most maxFiles. */
export async function filesOf(
  folder: string,
  included: IncludeGlob,
  maxFiles: number,
  warn: (message: string) => void,
  io: CliIo,
  signal: AbortSignal,
): Promise<string[]> {
  const { t } = io;
  const files: string[] = [];
  let visited = 0;
  const walk = async (dir: string): Promise<boolean> => {
    let entries;
    try {
      // withFileTypes does not follow links: a link in the folder is never entered; a link to a file is read
      // by the reader, which refuses one whose real path leaves the folder.
      entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    } catch (error) {
      throw refused(dir, error, t);
    }
    for (const entry of entries) {
      if (++visited % 256 === 0) await pause(signal, t);
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name) && !(await walk(path))) return false;
      } else if ((entry.isFile() || entry.isSymbolicLink()) && included.matches(globPathOf(folder, path))) {
        if (files.length >= maxFiles) {
          warn(
            t(
              '{0} has more than {1} files to scan (onboardingEvents.workspaceScan.maxFiles); the rest are left out.',
              shownPath(folder),
              maxFiles,
            ),
          );
          return false;
        }
        files.push(path);
      }
    }
    return true;
  };
  await walk(folder);
  return files;
}

/** What the paths hold: every serial number once, and what was left out (each a message, said once). */
interface Scan {
  readonly found: Found[];
  readonly unchecked: readonly string[];
}

/**
 * Every serial number in the paths, once, with where it was found and the rules of the folder it was found in.
 * `ask` hears each one as the first file names it (with those rules), so its request runs while the scan goes on.
 */
async function findSerials(
  paths: readonly string[],
  io: CliIo,
  settingsFor: (path: string) => Settings,
  follow: boolean,
  signal: AbortSignal,
  ask: (serialNumber: string, rules: EventStateRules) => void,
): Promise<Scan> {
  const { t } = io;
  const warned = new Set<string>();
  const warn = (message: string): void => {
    if (warned.has(message)) return;
    warned.add(message);
    io.stderr(`oe check: ${message}\n`);
  };
  const unchecked: string[] = [];
  const skip = (message: string): void => {
    if (!warned.has(message)) unchecked.push(message);
    warn(message);
  };
  const found = new Map<string, Found>();
  for (const given of paths) {
    const path = resolve(io.cwd, given);
    const within = withinFor(path, io.cwd, follow);
    let isFolder: boolean;
    try {
      isFolder = (await stat(path)).isDirectory();
      if (isFolder && within !== undefined && !isInsideFolder(await realpath(within), await realpath(path)))
        throw new NamedFileError(path, 'outside');
    } catch (error) {
      throw refused(path, error, t);
    }
    const settings = settingsFor(path);
    const matcher = serialMatcherOf(settings, t);
    if (matcher.problem !== undefined) warn(matcher.problem);
    let files = [path];
    if (isFolder) {
      const included = compileIncludeGlob(settings['workspaceScan.include'], t);
      if ('problem' in included)
        throw new UsageError(t('The include glob of onboardingEvents.workspaceScan.include cannot be used: {0}.', included.problem));
      files = await filesOf(path, included, settings['workspaceScan.maxFiles'], skip, io, signal);
    }
    // No cap per file: the gate checks every serial number of what it reads (MAX_CHECKED_MACHINES bounds the requests).
    const collector = new SerialCollector(matcher, Number.POSITIVE_INFINITY, (serialNumber) => {
      ask(serialNumber, settings.eventStates);
    });
    // A file found in a named folder stays in it; the named file itself stays where its name puts it.
    const limits = { maxBytes: MAX_SCANNED_FILE_BYTES, ...definedOnly({ within: follow ? undefined : isFolder ? path : within }) };
    const read = (file: string): Promise<{ readonly text: string } | { readonly error: unknown }> =>
      readNamedFile(file, limits).then(
        (bytes) => ({ text: bytes.toString('utf8') }),
        (error: unknown) => ({ error }),
      );
    // READ_AHEAD files are read at once, and matched in their order: at most that many texts are held.
    const reading = files.slice(0, READ_AHEAD).map(read);
    for (const [index, file] of files.entries()) {
      if (index % 64 === 63) await pause(signal, t);
      const next = files[index + READ_AHEAD];
      if (next !== undefined) reading.push(read(next));
      const outcome = await (reading.shift() as Promise<{ readonly text: string } | { readonly error: unknown }>);
      if ('error' in outcome) {
        const { error } = outcome;
        const shown = relative(io.cwd, file) || file;
        const message =
          isFolder && error instanceof NamedFileError && error.refusal === 'outside'
            ? t('{0} is a symbolic link out of the folder and was not checked; --follow-symlinks follows it.', shownPath(shown))
            : notChecked(shown, error, t);
        if (message === undefined) throw refused(shown, error, t);
        skip(message);
        continue;
      }
      collector.add(file, outcome.text);
    }
    for (const { serialNumber, locations } of collector.result()) {
      const where = locations.map((location) => `${shownPath(relative(io.cwd, location.file) || location.file)}:${location.line + 1}`);
      const known = found.get(serialNumber);
      if (known === undefined) found.set(serialNumber, { serialNumber, locations: where, rules: settings.eventStates });
      // A file named twice (as itself and inside a folder) is one place.
      else known.locations.push(...where.filter((location) => !known.locations.includes(location)));
    }
  }
  const sorted = [...found.values()].sort((a, b) => (a.serialNumber < b.serialNumber ? -1 : a.serialNumber > b.serialNumber ? 1 : 0));
  if (sorted.length > MAX_CHECKED_MACHINES)
    skip(
      t(
        '{0} serial numbers found, more than the {1} machines oe check reads in one run: those after the first {1} were not checked. Split the paths over several runs.',
        sorted.length,
        MAX_CHECKED_MACHINES,
      ),
    );
  return { found: sorted, unchecked };
}

/** What a run keeps of a machine's answer: its state and newest event, and the whole result only when the output needs it. */
interface Answer {
  readonly state: MachineState;
  readonly newest?: OnboardingEvent;
  readonly error?: ApiError;
  readonly result?: EventsResult;
  /** The older events the run's shared memory budget left out of this machine's answer (kept when the result is not). */
  readonly held?: { readonly serialNumber: string; readonly notShown: number };
}

/**
 * Asks for each machine once, the first time the scan finds it, up to MAX_CHECKED_MACHINES; the client (and so
 * the sign-in) is made at the first one. At most twice the client's ceiling wait in it at a time (it always has
 * the next request at hand); the rest wait here as serial numbers, not as pending requests.
 */
class Requests {
  private client: Promise<OnboardingClient> | undefined;
  /** Every machine asked for, and its answer once it came. */
  readonly answers = new Map<string, Answer | undefined>();
  private readonly waiting: { readonly serialNumber: string; readonly rules: EventStateRules }[] = [];
  private nextWaiting = 0;
  private inFlight = 0;
  private readonly outstanding: number;
  private failure: { readonly error: unknown } | undefined;
  private idle: (() => void) | undefined;
  private readonly stopped = new AbortController();
  private readonly signal: AbortSignal;

  constructor(
    private readonly context: CliContext,
    /** --json learns the line's history from every result read; the table needs only each machine's state. */
    private readonly keepResults: boolean,
  ) {
    this.signal = AbortSignal.any([context.signal, this.stopped.signal]);
    this.outstanding = 2 * Math.max(1, context.settings.maxConcurrentRequests);
  }

  /** The scan failed (bad input): the requests already sent are of no use, and the process should not wait for them. */
  stop(): void {
    this.stopped.abort();
  }

  ask(serialNumber: string, rules: EventStateRules): void {
    if (this.answers.has(serialNumber) || this.answers.size >= MAX_CHECKED_MACHINES) return;
    this.answers.set(serialNumber, undefined);
    this.waiting.push({ serialNumber, rules });
    this.pump();
  }

  /** Resolves when every machine asked for has its answer; rejects with the first error that is no API's answer. */
  async settled(): Promise<void> {
    while (this.failure === undefined && (this.inFlight > 0 || this.nextWaiting < this.waiting.length)) {
      await new Promise<void>((resolve) => (this.idle = resolve));
    }
    if (this.failure !== undefined) throw this.failure.error;
  }

  private pump(): void {
    while (this.failure === undefined && this.inFlight < this.outstanding && this.nextWaiting < this.waiting.length) {
      const next = this.waiting[this.nextWaiting++];
      if (next === undefined) break;
      this.inFlight++;
      void this.read(next.serialNumber, next.rules).then(
        (answer) => {
          this.answers.set(next.serialNumber, answer);
          this.done();
        },
        (error: unknown) => {
          this.failure ??= { error };
          this.stop();
          this.done();
        },
      );
    }
    if (this.nextWaiting === this.waiting.length) {
      this.waiting.length = 0;
      this.nextWaiting = 0;
    }
  }

  private done(): void {
    this.inFlight--;
    this.pump();
    const idle = this.idle;
    this.idle = undefined;
    idle?.();
  }

  private async read(serialNumber: string, rules: EventStateRules): Promise<Answer> {
    this.client ??= this.context.client();
    const client = await this.client;
    try {
      const result = await client.getEvents(serialNumber, { signal: this.signal, priority: 'bulk' });
      return {
        state: machineState({ result }, rules),
        ...definedOnly({
          newest: newestOf(result.events),
          result: this.keepResults ? result : undefined,
          held: result.notShown === undefined ? undefined : { serialNumber: result.serialNumber, notShown: result.notShown },
        }),
      };
    } catch (error) {
      if (!isApiError(error)) throw error;
      return { state: machineState({ errorKind: error.kind }, rules), error };
    }
  }
}

/** Text for XML 1.0: the board export's rule (no character XML forbids, the five specials as entities). */
const xml = xmlText;

function newestLine(machine: Checked, t: Localize, maxMessage: number = SERVER_TEXT_LIMITS.message): string {
  // Our own message, one line like the rest of the row.
  if (machine.error !== undefined) return toSingleLine(oeErrorText(machine.error, t), 300);
  if (machine.newest === undefined) return '';
  const time = formatUtcIso(machine.newest.time.epochMs) ?? String(machine.newest.time.raw);
  return `${terminalText(machine.newest.type, 80)} ${time} ${terminalText(machine.newest.message, maxMessage)}`;
}

/**
 * A JUnit XML report: one test case per machine, a failure for a counted state, an error for a machine that could
 * not be read; and one per thing not checked, an error (skipped with --allow-unchecked), so a dashboard that reads
 * only the report is not greener than the exit code. Data, so in English whatever LANG is, as the JSON.
 */
function junit(machines: readonly Checked[], unchecked: readonly string[], allowUnchecked: boolean, seconds: number): string {
  const t = plainLocalize;
  const failures = machines.filter((machine) => machine.counted).length;
  const errors = machines.filter((machine) => machine.error !== undefined).length + (allowUnchecked ? 0 : unchecked.length);
  const skipped = allowUnchecked ? unchecked.length : 0;
  const time = seconds.toFixed(3);
  const cases = machines.map((machine) => {
    const name = `name="${xml(machine.serialNumber)}" classname="onboarding" time="0"`;
    const detail = xml(`${machine.locations.join('\n')}\n${newestLine(machine, t)}`);
    const word = xml(stateWord(machine.state, t));
    if (machine.error !== undefined)
      return `    <testcase ${name}>\n      <error message="${xml(newestLine(machine, t))}" type="${machine.error.kind}">${detail}</error>\n    </testcase>`;
    if (machine.counted)
      return `    <testcase ${name}>\n      <failure message="${word}" type="${machine.state}">${detail}</failure>\n    </testcase>`;
    return `    <testcase ${name}/>`;
  });
  for (const [index, message] of unchecked.entries()) {
    const name = `name="${xml(t('not checked {0}', index + 1))}" classname="onboarding.unchecked" time="0"`;
    cases.push(
      allowUnchecked
        ? `    <testcase ${name}>\n      <skipped message="${xml(message)}"/>\n    </testcase>`
        : `    <testcase ${name}>\n      <error message="${xml(message)}" type="notChecked">${xml(message)}</error>\n    </testcase>`,
    );
  }
  const counts = `tests="${machines.length + unchecked.length}" failures="${failures}" errors="${errors}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="oe check" ${counts} time="${time}">`,
    `  <testsuite name="oe check" ${counts} skipped="${skipped}" time="${time}" timestamp="${new Date().toISOString().slice(0, 19)}" hostname="${xml(hostname())}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

function table(machines: readonly Checked[], io: CliIo): string {
  const { t } = io;
  const style = styler(io.color);
  const rows = machines.map((machine) => ({
    machine,
    word: stateWord(machine.state, t),
    where: `${machine.locations[0] ?? ''}${machine.locations.length > 1 ? ` (+${machine.locations.length - 1})` : ''}`,
  }));
  const width = (header: string, cells: readonly string[]): number =>
    cells.reduce((widest, cell) => Math.max(widest, cell.length), header.length);
  const stateWidth = width(
    t('STATE'),
    rows.map((row) => row.word),
  );
  const serialWidth = width(
    t('SERIAL NUMBER'),
    rows.map((row) => row.machine.serialNumber),
  );
  const whereWidth = width(
    t('WHERE'),
    rows.map((row) => row.where),
  );
  const lines = [
    style.bold(
      `${t('STATE').padEnd(stateWidth)}  ${t('SERIAL NUMBER').padEnd(serialWidth)}  ${t('WHERE').padEnd(whereWidth)}  ${t('NEWEST EVENT')}`,
    ),
  ];
  for (const { machine, word, where } of rows) {
    const padded = word.padEnd(stateWidth);
    const shown =
      machine.state === 'onboarded' ? style.green(padded) : machine.counted || machine.error !== undefined ? style.red(padded) : padded;
    lines.push(
      `${shown}  ${machine.serialNumber.padEnd(serialWidth)}  ${where.padEnd(whereWidth)}  ${newestLine(machine, t, messageWidth(io))}`.trimEnd(),
    );
  }
  return `${lines.join('\n')}\n`;
}

export const command: CliCommand = {
  name: 'check',
  summary: (t) => t('the state of every machine named in files and folders: a gate for a pipeline'),
  usage: (t) =>
    t(`Usage: oe check PATH… [--fail-on STATES] [--allow-unchecked] [--junit FILE] [--json [FIELDS]] [--jq EXPR] [--follow-symlinks]

Finds the serial numbers in the files and folders given, with the rules of the editor and the onboardingEvents.* settings of the nearest .vscode/settings.json (pattern, minimum length, deny list, include glob, event states), reads each machine once and lists its state.

The check passes only when every machine found was read and none is in a state --fail-on counts. What was not checked fails it, each named on stderr: a machine the API could not be asked about, a file larger than 1 MB or one that cannot be read, a folder with more files than onboardingEvents.workspaceScan.maxFiles, more than 10,000 machines in one run (every serial number of every file is checked, up to that limit).

Options:
  --fail-on STATES   the states that fail the check, comma-separated, as the table writes them: failed, unknown, "in progress", "no events" (inProgress and noEvents work too; default: all four, so only onboarded machines pass)
  --allow-unchecked  pass although something was not checked; it is still named on stderr
  --junit FILE       also write a JUnit XML report to FILE: one test case per machine, in English whatever the language (it is data)
  --json [FIELDS]    the result as JSON on stdout instead of the table, one object per machine (docs/schemas/oe-check.schema.json); FIELDS, comma-separated, keeps only those: serialNumber, state, counted, locations, newestEvent, error, progress
  --jq EXPR          filter that JSON through jq, as gh --jq does: a string is written as text, any other value as JSON, one per line
  --follow-symlinks  follow a symbolic link that leads out of the working folder (refused by default: a repository may plant one)
  --api-url URL, --auth-url URL, --client-id ID, --username NAME, --password-stdin, --ca-file FILE
                     sign-in and network (see oe --help)

Exit codes:
  0   every machine passed (also when no serial number was found)
  1   at least one machine is in a state --fail-on counts
  3   none failed, but something was not checked (see above), and --allow-unchecked was not given
  64  bad input: unknown option, a missing path or one refused (a link out of the folder, another user's file), an empty or unknown state in --fail-on, a secret given as an option, an unknown --json field, a --jq expression jq refuses (with its message)
`),
  operands: 'paths',
  examples: [
    { line: 'oe check .', says: (t) => t('every machine named in the files of this folder') },
    {
      line: 'oe check machines.yaml --fail-on failed --junit report.xml',
      says: (t) => t('fail only on failed machines, with a JUnit report for the pipeline'),
    },
    { line: 'git ls-files | oe check -', says: (t) => t('the files git knows, one path a line on stdin') },
  ],
  options: {
    ...SESSION_OPTIONS,
    'fail-on': { type: 'string' },
    junit: { type: 'string' },
    'allow-unchecked': { type: 'boolean' },
    'follow-symlinks': { type: 'boolean' },
  },
  json: { schemaVersion: 1, fields: ['serialNumber', 'state', 'counted', 'locations', 'newestEvent', 'error', 'progress'] },
  async run(args, io, context) {
    const { t } = io;
    const started = Date.now();
    if (args.positionals.length === 0) throw new UsageError(t('Name at least one file or folder.'));
    const counted = failOn(stringOption(args, 'fail-on'), t);
    const junitFile = stringOption(args, 'junit');
    const follow = args.values['follow-symlinks'] === true;
    const allowUnchecked = args.values['allow-unchecked'] === true;
    const requests = new Requests(context, args.json !== undefined);
    const scan = await findSerials(
      args.positionals,
      io,
      (path) => context.settingsFor(path),
      follow,
      context.signal,
      (serial, rules) => {
        requests.ask(serial, rules);
      },
    ).catch((error: unknown) => {
      requests.stop();
      throw error;
    });
    const unchecked = scan.unchecked;
    // The machines asked for: the first MAX_CHECKED_MACHINES the scan found, in the order of their serial numbers.
    await requests.settled();
    const found = scan.found.filter(({ serialNumber }) => requests.answers.has(serialNumber));
    const results: Answer[] = found.map(
      ({ serialNumber, rules }) => requests.answers.get(serialNumber) ?? { state: machineState({ errorKind: 'network' }, rules) },
    );
    // Refused credentials refuse every machine alike: one message, as the extension says it, not a thousand.
    const refused = results.find(({ error }) => error?.kind === 'invalid-credentials' || error?.kind === 'permission-denied')?.error;
    if (refused !== undefined) throw refused;
    if (context.signal.aborted) throw new Error(t('Cancelled.'));
    const machines: Checked[] = found.map((machine, index) => {
      const { state, newest, error } = results[index] ?? { state: machineState({ errorKind: 'network' }, machine.rules) };
      return {
        ...machine,
        state,
        counted: counted.has(state),
        ...definedOnly({ newest, error: state === 'unknown' ? undefined : error }),
      };
    });
    if (junitFile !== undefined) {
      try {
        const path = resolve(io.cwd, junitFile);
        await writeNamedFile(path, junit(machines, unchecked, allowUnchecked, (Date.now() - started) / 1000), {
          ...definedOnly({ within: withinFor(path, io.cwd, follow) }),
        });
      } catch (error) {
        if (error instanceof NamedFileError && error.refusal !== 'failed') throw new UsageError(errorMessage(error, t));
        const code = error instanceof NamedFileError ? error.code : undefined;
        throw new UsageError(t('Cannot write {0}: {1}', shownPath(junitFile), code ?? errorMessage(error)));
      }
    }
    if (args.json !== undefined) {
      const progressOf = progressFields(results, context.settings, Date.now());
      const json = machines.map((machine, index) => ({
        serialNumber: machine.serialNumber,
        state: JSON_STATE_NAMES[machine.state],
        counted: machine.counted,
        locations: machine.locations,
        // The newest event as the server sent it; an error in English, the language of a data format.
        ...definedOnly({ newestEvent: machine.newest?.raw, error: machine.error?.message }),
        ...progressOf(index, machine.rules),
      }));
      const writer = jsonWriter(io, args.json, context.signal);
      writer.document(json);
      await writer.end();
    } else if (machines.length === 0) {
      io.stderr(`oe check: ${t('No serial numbers found.')}\n`);
    } else {
      await io.page(table(machines, io));
    }
    reportHeldShare(results, io);
    const failed = machines.filter((machine) => machine.counted).length;
    const unread = machines.filter((machine) => machine.error !== undefined).length;
    if (machines.length > 0) {
      const summary =
        machines.length === 1
          ? t('1 machine, {0} failing the check, {1} not read.', failed, unread)
          : t('{0} machines, {1} failing the check, {2} not read.', machines.length, failed, unread);
      io.stderr(`oe check: ${summary}\n`);
    }
    if (failed > 0) return EXIT.no;
    if (unread === 0 && unchecked.length === 0) return EXIT.ok;
    // A machine not checked is no pass, unless the user said so.
    io.stderr(
      `oe check: ${
        allowUnchecked
          ? t('Not everything was checked; --allow-unchecked lets the check pass.')
          : t('Not everything was checked (see above), so the check fails; --allow-unchecked lets it pass.')
      }\n`,
    );
    return allowUnchecked ? EXIT.ok : EXIT.unreachable;
  },
};
