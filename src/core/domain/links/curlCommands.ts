// The token and events requests as curl commands for an IT ticket: one text for Copy as curl and
// `oe curl`. No secret is written: they are shell variables handed to curl on stdin (`--config -`), so
// `ps` shows none; every value from users or settings is single-quoted, comment lines included.
import { tokenEndpoint } from '../../client/auth/tokenClient';
import { invalidInputError } from '../../client/errors';
import { eventsUrl } from '../../client/events/eventsClient';
import { normalizeSerialNumber } from '../../client/serialNumber';
import type { Localize } from '../../common/localize';
import { SIGN_IN_VARIABLES } from '../session/argumentSignIn';
import { checkEndpointUrl } from '../session/environmentRules';

/** The variables the commands read: the sign-in fields' (oe reads the same), and the token the first command sets. */
const CURL_VARIABLES = {
  clientId: SIGN_IN_VARIABLES.clientId,
  clientSecret: SIGN_IN_VARIABLES.clientSecret,
  username: SIGN_IN_VARIABLES.username,
  password: SIGN_IN_VARIABLES.password,
  token: 'OE_TOKEN',
} as const;

export interface CurlInput {
  readonly apiBaseUrl: string;
  readonly authUrl: string;
  readonly serialNumber: string;
  /** The events request's `timestamp` filter (spec §4.1), as the server counts it. */
  readonly timestamp?: number | undefined;
  /** Not secret (the Accounts menu shows them): written into the text when known, else read from $OE_CLIENT_ID / $OE_USERNAME. */
  readonly clientId?: string | undefined;
  readonly username?: string | undefined;
}

export function shellQuote(value: string): string {
  // A NUL cannot be in a shell word at all: refusing is the only honest answer.
  if (value.includes('\0')) throw invalidInputError((t) => t('A value for the curl commands contains a NUL character.'));
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

function endpoint(url: string): string {
  const checked = checkEndpointUrl(url);
  if (!checked.ok) throw invalidInputError((t) => t('The URL {0} cannot be used in the curl commands ({1}).', url, checked.problem));
  // An IPv6 literal is the one host in brackets (hex, colons and dots inside); braces or brackets in a
  // host name no resolver knows.
  const host = new URL(checked.url).hostname;
  if (!host.startsWith('[') && /[{}[\]]/.test(host)) {
    throw invalidInputError((t) => t('The URL {0} cannot be used in the curl commands ({1}).', url, 'host'));
  }
  return checked.url;
}

export function curlCommands(input: CurlInput, t: Localize): string {
  const serialNumber = normalizeSerialNumber(input.serialNumber);
  if (input.timestamp !== undefined && !Number.isSafeInteger(input.timestamp)) {
    throw invalidInputError((tt) => tt('The timestamp filter must be a whole number (spec §4.1: int64).'));
  }
  const tokenUrl = tokenEndpoint(endpoint(input.authUrl));
  const url = eventsUrl(endpoint(input.apiBaseUrl), serialNumber, input.timestamp);
  const v = CURL_VARIABLES;
  const curl = 'curl --silent --show-error --fail --globoff --config - --header ' + shellQuote('Accept: application/json');
  const known = [
    ...(input.clientId === undefined ? [] : [`${v.clientId}=${shellQuote(input.clientId)}`]),
    ...(input.username === undefined ? [] : [`${v.username}=${shellQuote(input.username)}`]),
  ];
  const toSet = [
    v.clientSecret,
    v.password,
    ...(input.clientId === undefined ? [v.clientId] : []),
    ...(input.username === undefined ? [v.username] : []),
  ];
  return [
    `# ${t('Onboarding Events: the token and events requests for {0}, as the extension makes them.', shellQuote(serialNumber))}`,
    `# ${t('Set {0} first, without writing them into a file, a ticket or the shell history.', toSet.join(', '))}`,
    `# ${t('curl reads every credential from its standard input (--config -): none appears in a process list.')}`,
    ...known,
    `oe_form() { printf '%s' "$1" | od -An -tx1 -v | tr -d ' \\n' | sed 's/../%&/g'; }`,
    `# ${t('1. Token request (spec §5): password grant, the client authenticated by HTTP Basic.')}`,
    `${v.token}=$({`,
    `  printf 'user = "%s:%s"\\n' "$(oe_form "$${v.clientId}")" "$(oe_form "$${v.clientSecret}")"`,
    `  printf 'data = "grant_type=password&username=%s&password=%s&scope=api"\\n' "$(oe_form "$${v.username}")" "$(oe_form "$${v.password}")"`,
    `} | ${curl} ${shellQuote(tokenUrl)} \\`,
    `  | sed -n 's/\\\\\\//\\//g; s/.*"access_token"[[:space:]]*:[[:space:]]*"\\([^"]*\\)".*/\\1/p')`,
    `# ${t('2. Events request (spec §4.1) with that token.')}`,
    `printf 'header = "Authorization: Bearer %s"\\n' "$${v.token}" \\`,
    `  | ${curl} ${shellQuote(url)}`,
    '',
  ].join('\n');
}
