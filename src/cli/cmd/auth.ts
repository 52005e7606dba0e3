// `oe auth login | status | logout | token`: sign in once per environment. The
// secrets and the access token go to the keychain (cliKeychain.ts), who signs
// in where to the config file (cliConfig.ts); every other command finds them
// through cliSession.ts, where the OE_* variables still win.
import type { Localize } from '../../core/common/localize';
import { toSingleLine } from '../../core/common/markdownText';
import { formatUtcIso } from '../../core/common/time';
import { tokenEndpoint } from '../../core/client/auth/tokenClient';
import { OnboardingClient } from '../../core/client/onboardingClient';
import { SIGN_IN_VARIABLES } from '../../core/domain/session/argumentSignIn';
import { checkEnvironmentName, sameName, suggestEnvironmentName } from '../../core/domain/session/environmentRules';
import { EXIT, UsageError, type CliCommand, type CliContext, type CliIo, type ParsedArgs } from '../cliCommand';
import { configPath, findEnvironment, readConfig, writeConfig, withEnvironment, type CliConfig } from '../cliConfig';
import { deleteEnvironmentSecrets, readCredentials, readToken, samePlace, storeCredentials, storeToken } from '../cliKeychain';
import { httpSettingsOf, loginFieldsOf, namedEnvironment, SESSION_OPTIONS } from '../cliSession';
import { jsonWriter } from '../jsonOutput';

const SUBCOMMANDS = ['login', 'status', 'logout', 'token'] as const;

function quoted(name: string): string {
  return JSON.stringify(toSingleLine(name, 80));
}

async function login(args: ParsedArgs, io: CliIo, context: CliContext): Promise<number> {
  const { t } = io;
  const path = configPath(io.env);
  const config = readConfig(path, t);
  const named = namedEnvironment(args, io);
  const known = findEnvironment(config, named ?? config.default);
  const { endpoints, credentials } = await loginFieldsOf(args, io, known, context.signal);
  // Without a name: the environment signed in before, else the extension's rule (the API's host).
  const name =
    named ??
    known?.name ??
    suggestEnvironmentName(
      endpoints.apiBaseUrl,
      config.environments.map((env) => ({ ...env, id: env.name })),
      t,
    );
  if (checkEnvironmentName(name, []) !== undefined) throw new UsageError(t('--env takes a name of one line and at most 60 characters.'));
  const place = { ...endpoints, clientId: credentials.clientId, username: credentials.username };
  const verifier = new OnboardingClient({
    ...endpoints,
    credentials: () => Promise.resolve(credentials),
    http: httpSettingsOf(args, io, context.settings),
  });
  let granted;
  try {
    granted = (await verifier.verifyCredentials(context.signal)).tokenFor(tokenEndpoint(endpoints.authUrl));
  } finally {
    verifier.dispose();
  }
  await storeCredentials({ name, ...place, clientSecret: credentials.clientSecret, password: credentials.password }, context.signal, t);
  if (granted !== undefined) await storeToken(name, { ...place, value: granted.value, refreshAt: granted.refreshAt }, context.signal, t);
  const updated = withEnvironment(config, { name, ...place }, args.values['default'] === true);
  await writeConfig(path, updated);
  io.stderr(
    `${t('Signed in to {0} as {1} ({2}).', quoted(name), toSingleLine(place.username, 80), place.apiBaseUrl)} ${t(
      'The client secret, the password and the token are in the keychain; the URLs and names in {0}.',
      toSingleLine(path, 300),
    )}${updated.default !== undefined && sameName(updated.default, name) ? ` ${t('It is the default environment.')}` : ''}\n`,
  );
  return EXIT.ok;
}

/** What `oe auth status` says of one environment: where, who, and whether the keychain has its sign-in; no secret. */
interface EnvironmentStatus {
  readonly name: string;
  readonly default: boolean;
  readonly apiBaseUrl: string;
  readonly authUrl: string;
  readonly username: string;
  readonly clientId: string;
  readonly signedIn: boolean;
  /** When the kept token stops being used (ISO); null when none is kept or it has run out. */
  readonly tokenValidUntil: string | null;
}

async function statusOf(config: CliConfig, name: string, signal: AbortSignal, t: Localize): Promise<EnvironmentStatus | undefined> {
  const env = findEnvironment(config, name);
  if (env === undefined) return undefined;
  const stored = await readCredentials(env.name, signal, t);
  const signedIn = stored !== undefined && samePlace(stored, env);
  const token = signedIn ? await readToken(env.name, signal, t) : undefined;
  const fresh = token !== undefined && samePlace(token, env) && Date.now() < token.refreshAt;
  return {
    name: env.name,
    default: config.default !== undefined && sameName(config.default, env.name),
    apiBaseUrl: env.apiBaseUrl,
    authUrl: env.authUrl,
    username: env.username,
    clientId: env.clientId,
    signedIn,
    tokenValidUntil: fresh ? (formatUtcIso(token.refreshAt) ?? null) : null,
  };
}

/** The lines of `oe auth status` for one environment. */
function statusText(env: EnvironmentStatus, t: Localize): string {
  const lines = [
    `${toSingleLine(env.name, 80)}${env.default ? ` ${t('(default)')}` : ''}`,
    `  ${t('API:')} ${env.apiBaseUrl}`,
    `  ${t('Authorization server:')} ${env.authUrl}`,
    `  ${t('User:')} ${toSingleLine(env.username, 80)} (${t('client ID')} ${toSingleLine(env.clientId, 80)})`,
    env.signedIn
      ? `  ${t('Signed in: yes, credentials in the keychain')}`
      : `  ${t('Signed in: no. Run oe auth login --env {0}.', quoted(env.name))}`,
  ];
  if (env.signedIn)
    lines.push(
      env.tokenValidUntil !== null
        ? `  ${t('Token: valid until {0}', env.tokenValidUntil)}`
        : `  ${t('Token: none kept; the next command asks for one')}`,
    );
  return `${lines.join('\n')}\n`;
}

async function status(args: ParsedArgs, io: CliIo, context: CliContext): Promise<number> {
  const { t } = io;
  const path = configPath(io.env);
  const config = readConfig(path, t);
  const named = namedEnvironment(args, io);
  if (named !== undefined && findEnvironment(config, named) === undefined) {
    io.stderr(
      `oe auth: ${t('There is no environment {0} in {1}.', quoted(named), toSingleLine(path, 300))} ${t('Run oe auth login --env NAME to add it.')}\n`,
    );
    return EXIT.no;
  }
  const overriddenBy = Object.values(SIGN_IN_VARIABLES).filter((variable) => (io.env[variable] ?? '') !== '');
  const shown = named === undefined ? config.environments.map((env) => env.name) : [named];
  const selected = named ?? config.default;
  const environments: EnvironmentStatus[] = [];
  for (const name of shown) {
    const env = await statusOf(config, name, context.signal, t);
    if (env !== undefined) environments.push(env);
  }
  const selectedSignedIn = environments.some((env) => selected !== undefined && sameName(selected, env.name) && env.signedIn);
  if (args.json !== undefined) {
    // A script reads the JSON even when not signed in: the exit code says that, as without --json.
    const json = jsonWriter(io, args.json, context.signal);
    json.document({ environments, overriddenBy });
    await json.end();
  } else io.stdout(environments.map((env) => statusText(env, t)).join('\n'));
  if (config.environments.length === 0) {
    io.stderr(`oe auth: ${t('Not signed in: there is no environment yet. Run oe auth login.')}\n`);
    return EXIT.no;
  }
  if (overriddenBy.length > 0)
    io.stderr(`oe auth: ${t('{0} set in this shell win over the stored environments.', overriddenBy.join(', '))}\n`);
  return selectedSignedIn ? EXIT.ok : EXIT.no;
}

async function logout(args: ParsedArgs, io: CliIo, context: CliContext): Promise<number> {
  const { t } = io;
  const path = configPath(io.env);
  const config = readConfig(path, t);
  const name = findEnvironment(config, namedEnvironment(args, io) ?? config.default)?.name ?? namedEnvironment(args, io);
  if (name === undefined) throw new UsageError(t('Name the environment to sign out of with --env NAME.'));
  const removed = await deleteEnvironmentSecrets(name, context.signal, t);
  io.stderr(
    `oe auth: ${
      removed
        ? t('Signed out of {0}: its credentials and token are removed from the keychain.', quoted(name))
        : t('{0} was not signed in: the keychain holds nothing of it.', quoted(name))
    }\n`,
  );
  return EXIT.ok;
}

async function token(io: CliIo, context: CliContext): Promise<number> {
  // Only to stdout, for a script to read: `curl -H "Authorization: Bearer $(oe auth token)"`.
  io.stdout(`${await context.accessToken()}\n`);
  return EXIT.ok;
}

function usage(t: Localize): string {
  return t(`Usage: oe auth login [--env NAME] [--default] [--api-url URL] [--auth-url URL] [--client-id ID] [--username NAME] [--password-stdin]
       oe auth status [--env NAME] [--json [FIELDS]] [--jq EXPR]
       oe auth logout [--env NAME]
       oe auth token [--env NAME]

Signs in once per environment (production, a test system…), as the extension does. login asks for what it needs in a terminal (or reads the password with --password-stdin), checks it with a token request, keeps the client secret, the password and the access token in the operating system's keychain, and the URLs, client ID and user name in a config file (XDG_CONFIG_HOME/oe/config.json, else ~/.config/oe/config.json; %APPDATA%\\oe\\config.json on Windows). Every command then signs in with the environment --env or OE_ENV names, else the default one, and with a kept token sends one request. The OE_* variables and the options win over what is stored.

Subcommands:
  login    sign in to an environment and keep its credentials (the first environment becomes the default)
  status   list the environments: where, who, whether signed in, until when the token holds; never a secret
  logout   remove the environment's credentials and token from the keychain (its URLs stay in the config file)
  token    print the access token, for scripts (the kept one while it holds, else a new one)

Options:
  --env NAME       the environment (default: OE_ENV, else the default environment)
  --default        login: make this environment the default one
  --api-url URL, --auth-url URL, --client-id ID, --username NAME, --password-stdin, --ca-file FILE
                   login: the sign-in (see oe --help)
  --json [FIELDS]  status: the environments as JSON, never a secret (docs/schemas/oe-auth.schema.json); FIELDS, comma-separated, keeps only those: environments, overriddenBy
  --jq EXPR        status: filter that JSON through jq, as gh --jq does: a string is written as text, any other value as JSON, one per line

Exit codes:
  0   done; status: the environment in use is signed in
  1   status: the environment in use is not signed in, or there is none (with --json the JSON is still written)
  3   the keychain or the authorization server could not be used (the message says which and what to do)
  64  bad input: unknown subcommand or option, a bad config file, a secret given as an option, --json other than with status, an unknown --json field, a --jq expression jq refuses (with its message)
`);
}

export const command: CliCommand = {
  name: 'auth',
  summary: (t) => t('sign in once per environment, keep the credentials in the keychain, show who is signed in'),
  usage,
  operands: { words: SUBCOMMANDS },
  examples: [
    { line: 'oe auth login --env Production --default', says: (t) => t('sign in to an environment once and make it the default') },
    { line: 'oe auth status', says: (t) => t('who is signed in to which environment, without a secret') },
    { line: 'oe auth token --env Test', says: (t) => t('the access token for a script, on stdout only') },
    { line: 'oe auth logout --env Test', says: (t) => t('remove the credentials and the token from the keychain') },
  ],
  options: { ...SESSION_OPTIONS, default: { type: 'boolean' } },
  json: { schemaVersion: 1, fields: ['environments', 'overriddenBy'] },
  async run(args, io, context) {
    const { t } = io;
    const [sub, ...extra] = args.positionals;
    if (sub === undefined || !(SUBCOMMANDS as readonly string[]).includes(sub))
      throw new UsageError(t('Name one of login, status, logout or token.'));
    if (extra.length > 0) throw new UsageError(t('Unexpected argument {0}.', toSingleLine(extra[0] ?? '', 80)));
    if (sub !== 'login' && args.values['default'] === true) throw new UsageError(t('--default is an option of oe auth login.'));
    if (sub !== 'status' && args.json !== undefined)
      throw new UsageError(t('Only oe auth status writes JSON: --json and --jq are its options.'));
    switch (sub) {
      case 'login':
        return login(args, io, context);
      case 'status':
        return status(args, io, context);
      case 'logout':
        return logout(args, io, context);
      default:
        return token(io, context);
    }
  },
};
