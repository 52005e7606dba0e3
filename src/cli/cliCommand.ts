// The shape every `oe` command has and what it is handed: its parsed
// arguments, the process as it sees it (CliIo) and its context (CliContext).
// A command returns an exit code or throws; it never exits nor prints a stack.
import type { ParseArgsConfig } from 'node:util';
import type { Localize, LocalizedText } from '../core/common/localize';
import type { Credentials } from '../core/client/auth/tokenClient';
import type { OnboardingClient } from '../core/client/onboardingClient';
import type { Endpoints } from '../core/domain/session/sessionMachine';
import type { Settings } from '../core/domain/settings/settingsRules';

export interface CliIo {
  /** Data: what a script reads (a table, JSON, a report). */
  stdout(text: string): void;
  /** Messages: errors, warnings, progress. */
  stderr(text: string): void;
  readonly stdin: NodeJS.ReadableStream;
  readonly isTTY: { readonly stdout: boolean; readonly stderr: boolean; readonly stdin: boolean };
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** Colour on stdout: a terminal, and neither NO_COLOR nor TERM=dumb. */
  readonly color: boolean;
  /** The user's language (LC_ALL, LC_MESSAGES, LANG): English, German or Chinese. */
  readonly t: Localize;
  /** Long data for a person: through the pager when stdout is a terminal and the text is taller than it, else as stdout. */
  page(text: string): Promise<void>;
}

export type CliOptions = NonNullable<ParseArgsConfig['options']>;

export interface ParsedArgs {
  readonly values: Readonly<Record<string, string | boolean | (string | boolean)[] | undefined>>;
  readonly positionals: readonly string[];
  /** --json / --jq, when given to a command that writes JSON (jsonOutput.ts). */
  readonly json?: JsonChoice;
}

/** What a command's JSON holds: its schema's version, and the top-level fields --json can choose (of each object of a list). */
export interface JsonSpec {
  readonly schemaVersion: number;
  readonly fields: readonly string[];
}

/** The user's choice: the fields (all when undefined) and the jq expression, if any. */
export interface JsonChoice {
  readonly schemaVersion: number;
  readonly fields: readonly string[] | undefined;
  readonly jq: string | undefined;
}

export interface CliContext {
  /** The signed-in client, built on first call: a command that fails on its input has asked for no credentials. */
  client(): Promise<OnboardingClient>;
  /** The API and authorization URLs: from the options, the OE_* variables or the environment (--env, OE_ENV, the default). */
  endpoints(): Endpoints;
  /** The credentials, found as client() finds them, or undefined when there are none to be had (Test Connection skips its sign-in steps). */
  credentialsIfAny(): Promise<Credentials | undefined>;
  /** The access token oe would send: the keychain's while it is fresh, else a new one (oe auth token prints it). */
  accessToken(): Promise<string>;
  /** The `onboardingEvents.*` settings of the working folder's .vscode/settings.json (defaults when absent). */
  readonly settings: Settings;
  /** The settings that apply to `path` (a file or folder): those of the nearest .vscode/settings.json above it. */
  settingsFor(path: string): Settings;
  /** Aborted on Ctrl-C (SIGINT) or SIGTERM: a command stops its requests and returns. */
  readonly signal: AbortSignal;
}

export interface CliExample {
  /** A shell command line that runs oe as `oe …` (in a pipe, perhaps). */
  readonly line: string;
  readonly says: LocalizedText;
}

export interface CliCommand {
  readonly name: string;
  /** One line for `oe --help`. */
  readonly summary: LocalizedText;
  /** The whole `oe <name> --help`: synopsis, options and exit codes. */
  readonly usage: LocalizedText;
  readonly options: CliOptions;
  /** The command writes JSON: --json and --jq are its options (docs/schemas/oe-<name>.schema.json). */
  readonly json?: JsonSpec;
  /** What the positionals are, for completion: serial numbers, paths, or a word of `words`. */
  readonly operands?: 'serial-numbers' | 'paths' | { readonly words: readonly string[] };
  /** The "Examples:" of its --help: true command lines, each with what it does. */
  readonly examples: readonly CliExample[];
  run(args: ParsedArgs, io: CliIo, context: CliContext): Promise<number>;
}

/** Every exit code of oe: `oe --help` lists the shared ones, each command's --help those it uses. */
export const EXIT = {
  ok: 0,
  /** The command's "no": a machine failed, the connection test failed. */
  no: 1,
  /** oe watch: the timeout passed before every machine had an outcome. */
  timedOut: 2,
  /** The API could not be asked (sign-in, network or server), or oe check could not check everything it was given. */
  unreachable: 3,
  /** Bad input: unknown option, malformed serial number, unreadable path, a secret given as an option (sysexits EX_USAGE). */
  usage: 64,
  /** A fault of oe itself (sysexits EX_SOFTWARE); the message says what, never a stack. */
  internal: 70,
  /** The output could not be written: a full disk, a broken device (sysexits EX_IOERR); a closed pipe is no error. */
  ioError: 74,
  /** Ended by Ctrl-C, at a prompt too: 128 + SIGINT, as a shell reports it. */
  interrupted: 130,
  /** Ended by SIGTERM: 128 + SIGTERM. */
  terminated: 143,
} as const;

/** Ctrl-C typed at a prompt: the terminal's raw mode delivers it as input, not as a signal (EXIT.interrupted). */
export class InterruptedError extends Error {
  constructor() {
    super('Interrupted');
    this.name = 'InterruptedError';
  }
}

/** Bad input: the message, a pointer to `oe <command> --help`, and EXIT.usage. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
