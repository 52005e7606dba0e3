// `oe` itself: its help and version, and one run of one command: parse its
// arguments, build its context, run it, and turn its answer or its error into
// an exit code and one message on stderr, never a stack trace.
import { parseArgs } from 'node:util';
import { definedOnly } from '../../core/common/definedOnly';
import { errorMessage } from '../../core/common/errors';
import type { Localize } from '../../core/common/localize';
import { isApiError } from '../../core/client/errors';
import { EXIT, InterruptedError, UsageError, type CliCommand, type CliIo, type CliOptions, type ParsedArgs } from '../cliCommand';
import { withStdinOperands } from '../cliArgs';
import { createContext, refusedSecretOption } from '../cliSession';
import { takeJsonOptions } from '../jsonOutput';
import { nearest } from '../didYouMean';
import { oeErrorText } from '../remedies';
import { KeychainError } from '../cliKeychain';
import { command as auth } from './auth';
import { command as mcp } from './mcp';
import { command as check } from './check';
import { command as curl } from './curl';
import { command as events } from './events';
import { command as testConnection } from './testConnection';
import { command as watch } from './watch';
import { command as completion, completeWords, COMPLETE } from './completion';

/** Replaced by the bundler with package.json's version. */
declare const OE_VERSION: string | undefined;
const version = typeof OE_VERSION === 'string' ? OE_VERSION : '0.0.0';

/** The options every command takes besides its own, parsed here once. */
const GLOBAL_OPTIONS: CliOptions = {
  help: { type: 'boolean', short: 'h' },
  debug: { type: 'boolean' },
  'request-timeout': { type: 'string' },
};

/** The options of a command that writes JSON: taken out before parseArgs (jsonOutput.ts), named here for completion and did-you-mean. */
const JSON_OPTIONS: CliOptions = { json: { type: 'string' }, jq: { type: 'string' } };

/** A command's options as they are parsed (and completed): its own, its JSON ones and the global ones. */
function optionsOf(command: CliCommand): CliOptions {
  return { ...command.options, ...(command.json === undefined ? {} : JSON_OPTIONS), ...GLOBAL_OPTIONS };
}

/** Every command, in the order `oe --help` lists them. */
const COMMANDS: readonly CliCommand[] = [events, check, watch, testConnection, curl, mcp, auth, completion];

/** " Did you mean events?" when a command's name is near `word`, else nothing. */
function commandHint(word: string, t: Localize): string {
  const near = nearest(
    word,
    COMMANDS.map((command) => command.name),
  );
  return near === undefined ? '' : ` ${t('Did you mean {0}?', near)}`;
}

/** A command's whole --help: its usage, the global options, and its examples. */
function helpOf(command: CliCommand, t: Localize): string {
  const examples = command.examples.flatMap((example) => [`  ${example.line}`, `      ${example.says(t)}`]);
  return [
    command.usage(t).trimEnd(),
    '',
    t('Every command also takes --debug and --request-timeout DURATION (see oe --help).'),
    '',
    t('Examples:'),
    ...examples,
    '',
  ].join('\n');
}

/** The exit code of a run cut short by a signal, as shells report it (128 + the signal's number). */
function signalExit(signal: AbortSignal): number {
  return signal.reason === 'SIGTERM' ? EXIT.terminated : EXIT.interrupted;
}

function overview(t: Localize): string {
  const width = Math.max(...COMMANDS.map((command) => command.name.length));
  return [
    t('Usage: oe <command> [options]'),
    '',
    t('Commands:'),
    ...COMMANDS.map((command) => `  ${command.name.padEnd(width)}  ${command.summary(t)}`),
    '',
    t('Options:'),
    `  --help, -h                  ${t('show the help of oe or of a command')}`,
    `  --version                   ${t('show the version of oe')}`,
    `  --debug                     ${t('each request on stderr: method, URL, status or failure, time taken; credentials redacted')}`,
    `  --request-timeout DURATION  ${t('how long one request may take, such as 10s or 2m (default: onboardingEvents.requestTimeoutSeconds, 30s)')}`,
    '',
    t('Examples:'),
    `  oe events KRP-0815-A0001 --since 2h`,
    `  oe check . --junit report.xml`,
    `  oe help watch`,
    `  source <(oe completion bash)`,
    '',
    t(
      "Exit codes shared by every command: 0 success, 64 bad input (unknown option, malformed serial number, unreadable path or --ca-file, a secret given as an option), 70 a fault of oe itself, 74 the output could not be written (a full disk; a closed pipe is no error), 130 interrupted by Ctrl-C (at a prompt too), 143 ended by SIGTERM; each command's --help lists its own.",
    ),
    '',
    t(
      'Every command that prints data takes --json [FIELDS] (JSON on stdout, each object with its schemaVersion: docs/schemas) and --jq EXPR (that JSON through jq). The data is in English whatever the language; the messages on stderr are in yours.',
    ),
    '',
    t(
      "Credentials come from OE_API_URL, OE_AUTH_URL, OE_CLIENT_ID, OE_CLIENT_SECRET, OE_USERNAME and OE_PASSWORD, from --password-stdin, or from a prompt in a terminal; never from an option. Run 'oe <command> --help' for a command's options and exit codes.",
    ),
    '',
    t('Or sign in once with oe auth login: --env NAME (or OE_ENV) chooses the environment; the variables win over it.'),
    '',
  ].join('\n');
}

/** parseArgs's errors in the user's words: the option it stumbled on, the nearest one it knows, and where to look. */
function parseFailure(error: unknown, options: CliOptions, t: Localize): UsageError {
  const code = (error as { code?: unknown }).code;
  const message = errorMessage(error);
  const quoted = /'([^']+)'/.exec(message)?.[1] ?? '';
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION': {
      const near = quoted.startsWith('--') ? nearest(quoted.slice(2).split('=')[0] ?? '', Object.keys(options)) : undefined;
      return new UsageError(`${t('Unknown option {0}.', quoted)}${near === undefined ? '' : ` ${t('Did you mean {0}?', `--${near}`)}`}`);
    }
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return new UsageError(t('The option {0} needs a value, or takes none.', quoted.split(' ')[0] ?? quoted));
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return new UsageError(t('Unexpected argument {0}.', quoted));
    default:
      return new UsageError(message);
  }
}

function parse(command: CliCommand, args: readonly string[], t: Localize): ParsedArgs {
  const secret = refusedSecretOption(args, t);
  if (secret !== undefined) throw new UsageError(secret);
  const { rest, json } = takeJsonOptions(args, command.json, t);
  try {
    const { values, positionals } = parseArgs({
      args: rest,
      options: optionsOf(command),
      strict: true,
      allowPositionals: true,
    });
    return { values, positionals, ...definedOnly({ json }) };
  } catch (error) {
    throw parseFailure(error, optionsOf(command), t);
  }
}

/** Runs `oe` with these arguments; resolves with the exit code. */
export async function runCli(argv: readonly string[], io: CliIo, signal: AbortSignal): Promise<number> {
  const { t } = io;
  const [first, ...rest] = argv;
  if (first === '--version' || first === '-V') {
    io.stdout(`${version}\n`);
    return EXIT.ok;
  }
  if (first === COMPLETE) {
    io.stdout(await completeWords(rest, io, COMMANDS, optionsOf));
    return EXIT.ok;
  }
  if (first === '--help' || first === '-h' || first === 'help') {
    const asked = first === 'help' ? rest[0] : undefined;
    const named = COMMANDS.find((command) => command.name === asked);
    if (asked !== undefined && named === undefined) {
      io.stderr(`oe: ${t('Unknown command {0}.', asked)}${commandHint(asked, t)} ${t("Run 'oe --help' for the list of commands.")}\n`);
      return EXIT.usage;
    }
    io.stdout(named === undefined ? overview(t) : helpOf(named, t));
    return EXIT.ok;
  }
  if (first === undefined) {
    io.stderr(overview(t));
    return EXIT.usage;
  }
  const command = COMMANDS.find((candidate) => candidate.name === first);
  if (command === undefined) {
    io.stderr(`oe: ${t('Unknown command {0}.', first)}${commandHint(first, t)} ${t("Run 'oe --help' for the list of commands.")}\n`);
    return EXIT.usage;
  }
  let dispose = (): void => undefined;
  try {
    const parsed = parse(command, rest, t);
    if (parsed.values['help'] === true) {
      io.stdout(helpOf(command, t));
      return EXIT.ok;
    }
    // `-` is a list on stdin for the commands that take serial numbers or paths; for others it stays a word.
    const args = command.operands === 'serial-numbers' || command.operands === 'paths' ? await withStdinOperands(parsed, io) : parsed;
    const session = createContext(args, io, signal);
    dispose = session.dispose;
    return await command.run(args, io, session.context);
  } catch (error) {
    if (signal.aborted) return signalExit(signal);
    if (error instanceof InterruptedError) return EXIT.interrupted;
    if (error instanceof UsageError) {
      io.stderr(`oe ${command.name}: ${error.message}\n${t("Run 'oe {0} --help' for its usage.", command.name)}\n`);
      return EXIT.usage;
    }
    // What went wrong and what to do in a terminal, in the user's language.
    if (error instanceof KeychainError) {
      io.stderr(`oe ${command.name}: ${error.message}\n`);
      return EXIT.unreachable;
    }
    if (isApiError(error)) {
      io.stderr(`oe ${command.name}: ${oeErrorText(error, t)}\n`);
      return EXIT.unreachable;
    }
    io.stderr(`oe ${command.name}: ${t('Unexpected error: {0}', errorMessage(error, t))}\n`);
    return EXIT.internal;
  } finally {
    dispose();
  }
}
