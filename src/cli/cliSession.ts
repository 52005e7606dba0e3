// The context a command runs in (createContext): the settings of its folder
// and a client built on first use. Credentials come from the environment,
// --password-stdin, the keychain (oe auth login) or a hidden prompt, never
// from an option (`ps` and shell history show it) nor a file.
import { lstatSync, statSync, type Stats } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { parse as parseJsonc, type ParseError } from 'jsonc-parser';
import { definedOnly } from '../core/common/definedOnly';
import { errorMessage } from '../core/common/errors';
import { foldersUpTo } from '../core/common/folderPaths';
import { toSingleLine } from '../core/common/markdownText';
import { readNamedFileSync } from '../core/common/namedFiles';
import type { Localize } from '../core/common/localize';
import { tokenEndpoint, VerifiedGrant, type Credentials } from '../core/client/auth/tokenClient';
import { requestLogLine, type RequestLogger } from '../core/client/http/httpClient';
import { OnboardingClient, type HttpSettings } from '../core/client/onboardingClient';
import { Redactor } from '../core/common/redact';
import { SIGN_IN_VARIABLES as V } from '../core/domain/session/argumentSignIn';
import type { Endpoints } from '../core/domain/session/sessionMachine';
import { checkEndpointUrl, urlProblemMessage } from '../core/domain/session/environmentRules';
import { clientSettingsOf } from '../core/domain/settings/clientSettings';
import { readSettings, SECTION, type Settings } from '../core/domain/settings/settingsRules';
import { durationArgument } from './cliArgs';
import { InterruptedError, UsageError, type CliContext, type CliIo, type CliOptions, type ParsedArgs } from './cliCommand';
import { configPath, ENV_VARIABLE, readConfig, selectedEnvironment, type CliEnvironment } from './cliConfig';
import { credentialsOfRecord, readCredentials, readToken, samePlace, storeToken, type StoredCredentials } from './cliKeychain';

/** The options of every command that signs in (none of them carries a secret). */
export const SESSION_OPTIONS: CliOptions = {
  env: { type: 'string' },
  'api-url': { type: 'string' },
  'auth-url': { type: 'string' },
  'client-id': { type: 'string' },
  username: { type: 'string' },
  'password-stdin': { type: 'boolean' },
  'ca-file': { type: 'string' },
};

/** Options that would put a secret on the command line, and the variable that carries each instead. */
const SECRET_OPTIONS: Readonly<Record<string, string>> = {
  password: V.password,
  'client-secret': V.clientSecret,
  secret: V.clientSecret,
  token: V.password,
  'access-token': V.password,
};

/**
 * A secret given as an option, refused before anything is parsed, with the safe way to pass it.
 * Matches `--password`, `--password=…` and `-p…`-less long forms only: no short option takes a secret.
 */
export function refusedSecretOption(args: readonly string[], t: Localize): string | undefined {
  for (const arg of args) {
    if (arg === '--') return undefined;
    const name = /^--([a-z-]+)(?:=|$)/.exec(arg)?.[1];
    const variable = name === undefined ? undefined : SECRET_OPTIONS[name];
    if (variable !== undefined)
      return t(
        'Secrets are not accepted as options: the command line is visible to other users and kept in shell history. Set {0} in the environment, pipe the password with --password-stdin, or run oe in a terminal to be asked for it.',
        variable,
      );
  }
  return undefined;
}

/** Nobody is asked to trust a cloned repository: its settings never choose where credentials go or whom to trust. */
const NOT_FROM_A_FOLDER = new Set(['apiBaseUrl', 'authUrl', 'caCertificatesFile']);

/** The largest settings file read. */
const MAX_SETTINGS_BYTES = 1024 * 1024;

/**
 * The settings of `.vscode/settings.json` in `folder` or the nearest folder above it that has one, looked up
 * no further than the repository's root (the folder holding .git) or the working folder `top`, and never in a
 * folder another user owns (a shared /tmp's settings are not this repository's); defaults when none.
 */
export function settingsOfFolder(folder: string, top: string, warn: (message: string) => void, t: Localize): Settings {
  const file = nearestSettingsFile(resolve(folder), resolve(top));
  let values: Record<string, unknown> = {};
  if (file !== undefined) {
    let text: string | undefined;
    try {
      text = readNamedFileSync(file, { maxBytes: MAX_SETTINGS_BYTES, within: dirname(dirname(file)), ownedByUs: true }).toString('utf8');
    } catch (error) {
      warn(`${errorMessage(error, t)} ${t('Its settings are ignored.')}`);
    }
    const errors: ParseError[] = [];
    const parsed: unknown = text === undefined ? {} : parseJsonc(text, errors, { allowTrailingComma: true });
    if (errors.length > 0 || typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      warn(t('{0} is not valid JSON; its settings are ignored.', toSingleLine(file, 300)));
    else values = parsed as Record<string, unknown>;
  }
  return readSettings((section, name) => (section === SECTION && !NOT_FROM_A_FOLDER.has(name) ? values[`${SECTION}.${name}`] : undefined));
}

function nearestSettingsFile(start: string, top: string): string | undefined {
  const uid = process.getuid?.();
  for (const folder of foldersUpTo(isDirectory(start) ? start : dirname(start), top)) {
    const info = lstatOrUndefined(folder);
    if (info === undefined || (uid !== undefined && info.uid !== uid)) return undefined;
    const candidate = join(folder, '.vscode', 'settings.json');
    if (lstatOrUndefined(candidate) !== undefined) return candidate;
    if (lstatOrUndefined(join(folder, '.git')) !== undefined) return undefined;
  }
  return undefined;
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function option(args: ParsedArgs, name: string): string | undefined {
  const value = args.values[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function variable(io: CliIo, name: string): string | undefined {
  const value = io.env[name];
  return value === undefined || value === '' ? undefined : value;
}

/** The environment a command runs in: the one --env or OE_ENV names, else the config's default; the config is read on first call. */
type EnvironmentOf = () => CliEnvironment | undefined;

function environmentOf(args: ParsedArgs, io: CliIo): EnvironmentOf {
  let chosen: { readonly environment: CliEnvironment | undefined } | undefined;
  return () => {
    if (chosen === undefined) {
      const path = configPath(io.env);
      chosen = { environment: selectedEnvironment(readConfig(path, io.t), namedEnvironment(args, io), path, io.t) };
    }
    return chosen.environment;
  };
}

/** The environment --env or OE_ENV names, if any. */
export function namedEnvironment(args: ParsedArgs, io: CliIo): string | undefined {
  return option(args, 'env') ?? variable(io, ENV_VARIABLE);
}

/** Each URL from its option, its variable or the environment, in that order: a pipeline's variables win over a sign-in. */
function endpointsOf(args: ParsedArgs, io: CliIo, environment: EnvironmentOf): Endpoints {
  const { t } = io;
  if (namedEnvironment(args, io) !== undefined) environment();
  const url = (flag: string, name: string, key: 'apiBaseUrl' | 'authUrl'): string => {
    const given = option(args, flag) ?? variable(io, name) ?? environment()?.[key];
    if (given === undefined)
      throw new UsageError(
        `${t('Set {0} (or --{1}) to the URL your administrator gave you.', name, flag)} ${t('Or sign in once with oe auth login.')}`,
      );
    const check = checkEndpointUrl(given);
    if (!check.ok) throw new UsageError(`${name}: ${urlProblemMessage(check.problem, t)}`);
    return check.url;
  };
  return { apiBaseUrl: url('api-url', V.apiBaseUrl, 'apiBaseUrl'), authUrl: url('auth-url', V.authUrl, 'authUrl') };
}

/** --ca-file as an absolute path; a file that is not there is bad input, not a network failure found later. */
function caFileOf(args: ParsedArgs, io: CliIo): string | undefined {
  const given = option(args, 'ca-file');
  if (given === undefined) return undefined;
  const path = resolve(io.cwd, given);
  let problem: string | undefined;
  try {
    if (!statSync(path).isFile()) problem = 'EISDIR';
  } catch (error) {
    problem = (error as NodeJS.ErrnoException).code ?? 'ENOENT';
  }
  if (problem !== undefined) throw new UsageError(`--ca-file: ${io.t('Cannot read {0}: {1}', given, problem)}`);
  return path;
}

/** The longest --request-timeout: beyond a day a timer no longer keeps its time (Node caps it at about 24.8 days). */
const MAX_REQUEST_TIMEOUT_MS = 86_400_000;

/** --request-timeout in ms, over the folder's onboardingEvents.requestTimeoutSeconds; undefined when not given. */
function requestTimeoutOf(args: ParsedArgs, io: CliIo): number | undefined {
  const given = args.values['request-timeout'];
  if (typeof given !== 'string') return undefined;
  const ms = durationArgument(given, '--request-timeout', io.t);
  if (ms > MAX_REQUEST_TIMEOUT_MS) throw new UsageError(io.t('--request-timeout takes at most 24h, not "{0}".', given));
  return ms;
}

/** The network settings of the CLI's clients: the folder's limits, the environment's proxy and CAs, --ca-file, --request-timeout. */
export function httpSettingsOf(args: ParsedArgs, io: CliIo, settings: Settings): HttpSettings {
  return {
    ...clientSettingsOf(settings).http,
    ...definedOnly({ caCertificatesFile: caFileOf(args, io), requestTimeoutMs: requestTimeoutOf(args, io) }),
    env: io.env,
    engine: 'undici',
  };
}

/** Reads one line without echoing it: readline over a muted output, the prompt on stderr. */
async function hiddenPrompt(io: CliIo, prompt: string): Promise<string> {
  const muted = new Writable({
    write: (_chunk, _encoding, done) => {
      done();
    },
  });
  // The interface first: it turns the terminal's echo off, so a password typed the moment the prompt shows is not echoed.
  const reader = createInterface({ input: io.stdin, output: muted, terminal: true });
  io.stderr(prompt);
  try {
    return await new Promise<string>((resolveLine, reject) => {
      reader.once('line', resolveLine);
      reader.once('close', () => {
        reject(new UsageError(io.t('No input: the prompt was closed.')));
      });
      // Ctrl-C in raw mode comes to readline, not as a signal.
      reader.once('SIGINT', () => {
        reject(new InterruptedError());
      });
    });
  } finally {
    reader.close();
    io.stderr('\n');
  }
}

async function visiblePrompt(io: CliIo, prompt: string): Promise<string> {
  const reader = createInterface({ input: io.stdin, output: process.stderr, terminal: true });
  try {
    return await new Promise<string>((resolveLine, reject) => {
      reader.question(prompt, resolveLine);
      reader.once('close', () => {
        reject(new UsageError(io.t('No input: the prompt was closed.')));
      });
      reader.once('SIGINT', () => {
        reject(new InterruptedError());
      });
    });
  } finally {
    reader.close();
  }
}

/** The whole of stdin up to its end, without the final line break: what `--password-stdin` reads. */
async function readStdin(io: CliIo): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/** How the client signs in: its credentials, and with the keychain's the token kept there and the way to keep a new one. */
interface SignIn {
  readonly credentials: () => Promise<Credentials>;
  readonly grant?: VerifiedGrant;
  readonly keep?: (grant: VerifiedGrant) => void;
}

/**
 * Each credential from its option or variable (or stdin), then the environment and its keychain entry, then a
 * prompt in a terminal; a clear error naming the variable when none can be had. The keychain's token is used
 * only when no secret came from the caller, so a pipeline that sets the variables never touches the keychain.
 */
async function signInOf(
  args: ParsedArgs,
  io: CliIo,
  endpoints: Endpoints,
  environment: EnvironmentOf,
  signal: AbortSignal,
  warn: (message: string) => void,
  keychain = true,
): Promise<SignIn> {
  const { t } = io;
  const interactive = io.isTTY.stdin && io.isTTY.stderr;
  const piped = args.values['password-stdin'] === true;
  const callerSecret = variable(io, V.clientSecret);
  const callerPassword = piped ? undefined : variable(io, V.password);
  const callerId = option(args, 'client-id') ?? variable(io, V.clientId);
  const callerUser = option(args, 'username') ?? variable(io, V.username);
  const everyGiven =
    callerId !== undefined && callerUser !== undefined && callerSecret !== undefined && (piped || callerPassword !== undefined);
  const env = everyGiven && namedEnvironment(args, io) === undefined ? undefined : environment();
  const clientIdKnown = callerId ?? env?.clientId;
  const usernameKnown = callerUser ?? env?.username;
  const stored =
    keychain &&
    env !== undefined &&
    clientIdKnown !== undefined &&
    usernameKnown !== undefined &&
    samePlace(env, { ...endpoints, clientId: clientIdKnown, username: usernameKnown })
      ? env
      : undefined;
  const fromCaller = callerSecret !== undefined || piped || callerPassword !== undefined;
  let record: StoredCredentials | undefined;
  if (stored !== undefined) {
    const matching = (found: StoredCredentials | undefined): StoredCredentials | undefined =>
      found !== undefined && samePlace(found, stored) ? found : undefined;
    const keep = (grant: VerifiedGrant): void => {
      const token = grant.tokenFor(tokenEndpoint(stored.authUrl));
      if (token === undefined) return;
      const place = { apiBaseUrl: stored.apiBaseUrl, authUrl: stored.authUrl, clientId: stored.clientId, username: stored.username };
      storeToken(stored.name, { ...place, value: token.value, refreshAt: token.refreshAt }, signal, t).catch((error: unknown) => {
        warn(errorMessage(error, t));
      });
    };
    if (!fromCaller) {
      const token = await readToken(stored.name, signal, t);
      if (token !== undefined && samePlace(token, stored) && Date.now() < token.refreshAt) {
        // One request: the kept token; the secrets are read only if the API refuses it.
        const credentials = async (): Promise<Credentials> => {
          const found = matching(await readCredentials(stored.name, signal, t));
          if (found === undefined) throw new UsageError(notSignedIn(stored.name, t));
          return credentialsOfRecord(found);
        };
        return {
          credentials,
          grant: new VerifiedGrant(tokenEndpoint(stored.authUrl), { value: token.value, refreshAt: token.refreshAt }),
          keep,
        };
      }
    }
    if (callerSecret === undefined || (!piped && callerPassword === undefined))
      record = matching(await readCredentials(stored.name, signal, t));
    if (!fromCaller && record !== undefined) {
      const credentials = credentialsOfRecord(record);
      return { credentials: () => Promise.resolve(credentials), keep };
    }
  }
  const plain = async (flag: string, name: string, label: string, known: string | undefined): Promise<string> => {
    if (known !== undefined) return known;
    if (interactive) return (await visiblePrompt(io, `${label}: `)).trim();
    throw new UsageError(`${t('Set {0} (or --{1}).', name, flag)} ${t('Or sign in once with oe auth login.')}`);
  };
  const secret = async (name: string, label: string, storedValue: string | undefined, stdinHint: boolean): Promise<string> => {
    const given = variable(io, name) ?? storedValue;
    if (given !== undefined) return given;
    if (interactive) return hiddenPrompt(io, `${label}: `);
    throw new UsageError(
      `${
        stdinHint
          ? t('No password: set {0} in the environment or pipe it with --password-stdin.', name)
          : t('No client secret: set {0} in the environment.', name)
      } ${t('Or sign in once with oe auth login.')}`,
    );
  };
  const clientId = await plain('client-id', V.clientId, t('Client ID'), clientIdKnown);
  const clientSecret = await secret(V.clientSecret, t('Client secret'), record?.clientSecret, false);
  const username = await plain('username', V.username, t('User name'), usernameKnown);
  const password = piped ? await readStdin(io) : await secret(V.password, t('Password'), record?.password, true);
  if (password === '') throw new UsageError(t('No password: set {0} in the environment or pipe it with --password-stdin.', V.password));
  const credentials = { clientId, clientSecret, username, password };
  return { credentials: () => Promise.resolve(credentials) };
}

function notSignedIn(name: string, t: Localize): string {
  return t('Not signed in to {0}: run oe auth login --env {0}, or set the OE_* variables.', JSON.stringify(name));
}

/** --debug: each request on stderr as the extension's log writes it, through the same redactor, told the secrets and each token. */
export function debugLog(io: CliIo, credentials: Credentials | undefined): { onRequest: RequestLogger; onToken: (token: string) => void } {
  const redactor = new Redactor();
  redactor.addSecret(credentials?.clientSecret);
  redactor.addSecret(credentials?.password);
  return {
    onRequest: (entry) => {
      io.stderr(`oe: debug: ${redactor.redact(requestLogLine(entry))}\n`);
    },
    onToken: (token) => {
      redactor.addToken(token);
    },
  };
}

/** The context a command runs in (the settings of the working folder, and a client built on first use), and its end. */
export function createContext(args: ParsedArgs, io: CliIo, signal: AbortSignal): { context: CliContext; dispose: () => void } {
  // Checked before any work: a gate must not scan a repository only to fail on its own option.
  caFileOf(args, io);
  requestTimeoutOf(args, io);
  const warned = new Set<string>();
  const warn = (message: string): void => {
    if (warned.has(message)) return;
    warned.add(message);
    io.stderr(`oe: ${message}\n`);
  };
  const settingsFor = (path: string): Settings => settingsOfFolder(resolve(io.cwd, path), io.cwd, warn, io.t);
  const settings = settingsFor(io.cwd);
  const environment = environmentOf(args, io);
  let client: Promise<OnboardingClient> | undefined;
  const context: CliContext = {
    settings,
    settingsFor,
    signal,
    endpoints: () => endpointsOf(args, io, environment),
    async accessToken() {
      const endpoints = endpointsOf(args, io, environment);
      const tokenUrl = tokenEndpoint(endpoints.authUrl);
      const signIn = await signInOf(args, io, endpoints, environment, signal, warn);
      const kept = signIn.grant?.tokenFor(tokenUrl);
      if (kept !== undefined) return kept.value;
      const verifier = new OnboardingClient({
        ...endpoints,
        credentials: signIn.credentials,
        http: httpSettingsOf(args, io, settings),
        ...definedOnly({ onGrant: signIn.keep }),
      });
      try {
        const token = (await verifier.verifyCredentials(signal)).tokenFor(tokenUrl);
        if (token === undefined) throw new Error('The token was granted for another token URL.');
        return token.value;
      } finally {
        verifier.dispose();
      }
    },
    async credentialsIfAny() {
      try {
        return await (await signInOf(args, io, endpointsOf(args, io, environment), environment, signal, warn)).credentials();
      } catch (error) {
        if (error instanceof UsageError) return undefined;
        throw error;
      }
    },
    client() {
      client ??= (async () => {
        const endpoints = endpointsOf(args, io, environment);
        const signIn = await signInOf(args, io, endpoints, environment, signal, warn);
        // --debug redacts the secrets it is told: only then are they read ahead of the first token request.
        const debug = args.values['debug'] === true ? debugLog(io, await signIn.credentials()) : {};
        const built = new OnboardingClient({
          ...endpoints,
          credentials: signIn.credentials,
          timestampUnit: settings.timestampUnit,
          http: httpSettingsOf(args, io, settings),
          ...definedOnly({ verifiedGrant: signIn.grant, onGrant: signIn.keep }),
          ...debug,
        });
        signal.addEventListener(
          'abort',
          () => {
            built.dispose();
          },
          { once: true },
        );
        return built;
      })();
      return client;
    },
  };
  return {
    context,
    // Closes the client's keep-alive sockets, so the process ends as soon as its output is written.
    dispose: () =>
      void client?.then(
        (built) => {
          built.dispose();
        },
        () => undefined,
      ),
  };
}

/**
 * What oe auth login keeps: each field from its option, its variable or the environment signed in before, else
 * asked in a terminal; the secrets never from the keychain, whose entries the login replaces.
 */
export async function loginFieldsOf(
  args: ParsedArgs,
  io: CliIo,
  known: CliEnvironment | undefined,
  signal: AbortSignal,
): Promise<{ readonly endpoints: Endpoints; readonly credentials: Credentials }> {
  const { t } = io;
  const interactive = io.isTTY.stdin && io.isTTY.stderr;
  const ask = async (flag: string, name: string, key: 'apiBaseUrl' | 'authUrl', label: string): Promise<string> => {
    const given = option(args, flag) ?? variable(io, name) ?? known?.[key];
    if (given !== undefined || !interactive) return given ?? '';
    return (await visiblePrompt(io, `${label}: `)).trim();
  };
  const apiBaseUrl = await ask('api-url', V.apiBaseUrl, 'apiBaseUrl', t('API URL'));
  const authUrl = await ask('auth-url', V.authUrl, 'authUrl', t('Authorization server URL'));
  // The URLs asked for (or none) are checked as any command checks them.
  const answered: ParsedArgs = { values: { ...args.values, 'api-url': apiBaseUrl, 'auth-url': authUrl }, positionals: args.positionals };
  const endpoints = endpointsOf(answered, io, () => undefined);
  const signIn = await signInOf(
    args,
    io,
    endpoints,
    () => known,
    signal,
    () => undefined,
    false,
  );
  return { endpoints, credentials: await signIn.credentials() };
}
