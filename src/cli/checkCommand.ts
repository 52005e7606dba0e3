// `oe check PATH…`: the CI gate. Finds the serial numbers in files and
// folders with the editor's matcher and rules (each path's nearest
// .vscode/settings.json: pattern, minimum length, deny list, the scan's
// include glob and file limit, the event-state words), reads each distinct
// machine once, and exits non-zero when one of them is in a state the gate
// counts. One request per distinct serial number, all through the one
// client, so its limiter and back-off pace them as they pace the extension's
// refresh of many machines ('bulk' priority, as the workspace scan asks).
import { readdirSync, readFileSync, statSync, writeFileSync, type Stats } from 'node:fs';
import { hostname } from 'node:os';
import { join, relative, resolve } from 'node:path';
import picomatch from 'picomatch';
import { errorMessage } from '../common/errors';
import type { Localize } from '../common/localize';
import { toSingleLine } from '../common/markdownText';
import { terminalText } from '../common/serverText';
import { formatUtcIso } from '../common/time';
import { isApiError, type ApiError } from '../core/errors';
import type { EventsResult, OnboardingEvent } from '../core/model';
import { machineState, newestOf, stateWord, type EventStateRules, type MachineState } from '../domain/events/eventState';
import { createSerialMatcher } from '../domain/serialNumbers/serialMatcher';
import type { Settings } from '../domain/settings/settingsRules';
import { MAX_SCANNED_FILE_BYTES, SerialCollector } from '../domain/workspaceScan/workspaceSerials';
import { EXIT, UsageError, type CliCommand, type CliIo } from './cliCommand';
import { stringOption } from './cliArgs';
import { styler } from './cliIo';
import { progressFields } from './checkProgress';
import { SESSION_OPTIONS } from './cliSession';

/** The states --fail-on can name, as MachineState spells them; 'unavailable' (the request failed) is no machine's verdict: it exits 3. */
const COUNTABLE: readonly MachineState[] = ['failed', 'unknown', 'inProgress', 'noEvents'];

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

function failOn(text: string | undefined, t: Localize): ReadonlySet<MachineState> {
  const names = (text ?? COUNTABLE.join(','))
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const states = new Set<MachineState>();
  for (const name of names) {
    const state = COUNTABLE.find((candidate) => candidate === name);
    if (state === undefined)
      throw new UsageError(t('--fail-on takes a comma-separated list of {0}, not "{1}".', COUNTABLE.join(', '), name));
    states.add(state);
  }
  return states;
}

function statOrRefuse(path: string, t: Localize): Stats {
  try {
    return statSync(path);
  } catch (error) {
    throw new UsageError(t('Cannot read {0}: {1}', path, (error as NodeJS.ErrnoException).code ?? errorMessage(error)));
  }
}

function readOrRefuse(path: string, t: Localize): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(t('Cannot read {0}: {1}', path, (error as NodeJS.ErrnoException).code ?? errorMessage(error)));
  }
}

/** The files of a folder the workspace scan would read: the include glob, no excluded folder, at most maxFiles. */
function filesOf(folder: string, include: string, maxFiles: number, warn: (message: string) => void, t: Localize): string[] {
  const files: string[] = [];
  // picomatch, not node:path's matchesGlob: that one is experimental in Node 22 and missing before Node 20.17.
  const included = picomatch(include);
  const walk = (dir: string): boolean => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    } catch (error) {
      throw new UsageError(t('Cannot read {0}: {1}', dir, (error as NodeJS.ErrnoException).code ?? errorMessage(error)));
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name) && !walk(path)) return false;
      } else if (entry.isFile() && included(relative(folder, path).replace(/\\/g, '/'))) {
        if (files.length >= maxFiles) {
          warn(
            t('{0} has more than {1} files to scan (onboardingEvents.workspaceScan.maxFiles); the rest are left out.', folder, maxFiles),
          );
          return false;
        }
        files.push(path);
      }
    }
    return true;
  };
  walk(folder);
  return files;
}

/** Every serial number in the paths, once, with where it was found and the rules of the folder it was found in. */
function findSerials(paths: readonly string[], io: CliIo, settingsFor: (path: string) => Settings): Found[] {
  const { t } = io;
  const warned = new Set<string>();
  const warn = (message: string): void => {
    if (warned.has(message)) return;
    warned.add(message);
    io.stderr(`oe check: ${message}\n`);
  };
  const found = new Map<string, Found>();
  for (const given of paths) {
    const path = resolve(io.cwd, given);
    const stats = statOrRefuse(path, t);
    const settings = settingsFor(path);
    const matcher = createSerialMatcher({
      pattern: settings['serialNumber.pattern'],
      minLength: settings['serialNumber.minLength'],
      denyList: settings['serialNumber.denyList'],
      t,
    });
    if (matcher.problem !== undefined) warn(matcher.problem);
    const files = stats.isDirectory()
      ? filesOf(path, settings['workspaceScan.include'], settings['workspaceScan.maxFiles'], warn, t)
      : [path];
    const collector = new SerialCollector(matcher);
    for (const file of files) {
      if (statOrRefuse(file, t).size > MAX_SCANNED_FILE_BYTES) {
        warn(
          t(
            '{0} is larger than {1} MB and is not scanned, as in the editor.',
            relative(io.cwd, file),
            MAX_SCANNED_FILE_BYTES / 1024 / 1024,
          ),
        );
        continue;
      }
      collector.add(file, readOrRefuse(file, t));
    }
    for (const { serialNumber, locations } of collector.result()) {
      const where = locations.map((location) => `${relative(io.cwd, location.file) || location.file}:${location.line + 1}`);
      const known = found.get(serialNumber);
      if (known === undefined) found.set(serialNumber, { serialNumber, locations: where, rules: settings.eventStates });
      else known.locations.push(...where);
    }
  }
  return [...found.values()].sort((a, b) => (a.serialNumber < b.serialNumber ? -1 : a.serialNumber > b.serialNumber ? 1 : 0));
}

/** Text for XML 1.0: no character it forbids (controls go, as on the terminal), the five specials escaped. */
function xml(text: string): string {
  // The five predefined entities: every XML reader knows them (some JUnit consumers decode no numeric reference).
  return text.replace(/[&<>"']/g, (char) => XML_ENTITIES[char] ?? char);
}

const XML_ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

function newestLine(machine: Checked, t: Localize): string {
  // Our own message, one line like the rest of the row.
  if (machine.error !== undefined) return toSingleLine(errorMessage(machine.error, t), 300);
  if (machine.newest === undefined) return '';
  const time = formatUtcIso(machine.newest.time.epochMs) ?? String(machine.newest.time.raw);
  return `${terminalText(machine.newest.type, 80)} ${time} ${terminalText(machine.newest.message, 200)}`;
}

/** A JUnit XML report: one test case per machine, a failure for a counted state, an error for a machine that could not be read. */
function junit(machines: readonly Checked[], seconds: number, t: Localize): string {
  const failures = machines.filter((machine) => machine.counted).length;
  const errors = machines.filter((machine) => machine.error !== undefined).length;
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
  const counts = `tests="${machines.length}" failures="${failures}" errors="${errors}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="oe check" ${counts} time="${time}">`,
    `  <testsuite name="oe check" ${counts} skipped="0" time="${time}" timestamp="${new Date().toISOString().slice(0, 19)}" hostname="${xml(hostname())}">`,
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
  const width = (header: string, cells: readonly string[]): number => Math.max(header.length, ...cells.map((cell) => cell.length));
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
    lines.push(`${shown}  ${machine.serialNumber.padEnd(serialWidth)}  ${where.padEnd(whereWidth)}  ${newestLine(machine, t)}`.trimEnd());
  }
  return `${lines.join('\n')}\n`;
}

export const command: CliCommand = {
  name: 'check',
  summary: (t) => t('the state of every machine named in files and folders: a gate for a pipeline'),
  usage: (t) =>
    t(`Usage: oe check PATH… [--fail-on STATES] [--junit FILE] [--json]

Finds the serial numbers in the files and folders given, with the rules of the editor and the onboardingEvents.* settings of the nearest .vscode/settings.json (pattern, minimum length, deny list, include glob, event states), reads each machine once and lists its state.

Options:
  --fail-on STATES  the states that fail the check, comma-separated: failed, unknown, inProgress, noEvents (default: all four, so only onboarded machines pass)
  --junit FILE      also write a JUnit XML report to FILE: one test case per machine
  --json            the result as JSON on stdout instead of the table
  --api-url URL, --auth-url URL, --client-id ID, --username NAME, --password-stdin, --ca-file FILE
                    sign-in and network (see oe --help)

Exit codes:
  0   every machine passed (also when no serial number was found)
  1   at least one machine is in a state --fail-on counts
  3   a machine could not be read (sign-in, network or server) and none failed
  64  bad input: unknown option, unreadable path, unknown state in --fail-on, a secret given as an option
`),
  options: {
    ...SESSION_OPTIONS,
    'fail-on': { type: 'string' },
    junit: { type: 'string' },
    json: { type: 'boolean' },
  },
  async run(args, io, context) {
    const { t } = io;
    const started = Date.now();
    if (args.positionals.length === 0) throw new UsageError(t('Name at least one file or folder.'));
    const counted = failOn(stringOption(args, 'fail-on'), t);
    const junitFile = stringOption(args, 'junit');
    const found = findSerials(args.positionals, io, (path) => context.settingsFor(path));
    let results: { readonly result?: EventsResult; readonly error?: ApiError }[] = [];
    if (found.length > 0) {
      const client = await context.client();
      results = await Promise.all(
        found.map(({ serialNumber }) =>
          client.getEvents(serialNumber, { signal: context.signal, priority: 'bulk' }).then(
            (result) => ({ result }),
            (error: unknown) => {
              if (!isApiError(error)) throw error;
              return { error };
            },
          ),
        ),
      );
    }
    // Refused credentials refuse every machine alike: one message, as the extension says it, not a thousand.
    const refused = results.find(({ error }) => error?.kind === 'invalid-credentials' || error?.kind === 'permission-denied')?.error;
    if (refused !== undefined) throw refused;
    if (context.signal.aborted) throw new Error(t('Cancelled.'));
    const machines: Checked[] = found.map((machine, index) => {
      const { result, error } = results[index] ?? {};
      const state =
        result !== undefined
          ? machineState({ result }, machine.rules)
          : machineState({ errorKind: error?.kind ?? 'network' }, machine.rules);
      const newest = result === undefined ? undefined : newestOf(result.events);
      return {
        ...machine,
        state,
        counted: counted.has(state),
        ...(newest === undefined ? {} : { newest }),
        ...(error === undefined || state === 'unknown' ? {} : { error }),
      };
    });
    if (junitFile !== undefined) {
      try {
        writeFileSync(resolve(io.cwd, junitFile), junit(machines, (Date.now() - started) / 1000, t));
      } catch (error) {
        throw new UsageError(t('Cannot write {0}: {1}', junitFile, (error as NodeJS.ErrnoException).code ?? errorMessage(error)));
      }
    }
    if (args.values['json'] === true) {
      const progressOf = progressFields(results, context.settings, Date.now());
      const json = machines.map((machine, index) => ({
        serialNumber: machine.serialNumber,
        state: machine.state,
        counted: machine.counted,
        locations: machine.locations,
        // The newest event as the server sent it; an error in English, the language of a data format.
        ...(machine.newest === undefined ? {} : { newestEvent: machine.newest.raw }),
        ...(machine.error === undefined ? {} : { error: machine.error.message }),
        ...progressOf(index, machine.rules),
      }));
      io.stdout(`${JSON.stringify(json, null, 2)}\n`);
    } else if (machines.length === 0) {
      io.stderr(`oe check: ${t('No serial numbers found.')}\n`);
    } else {
      io.stdout(table(machines, io));
    }
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
    return unread > 0 ? EXIT.unreachable : EXIT.ok;
  },
};
