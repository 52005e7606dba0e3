// `oe curl SERIAL`: the requests `oe events` makes, as curl commands for an
// IT ticket, from the builder "Copy as curl" uses. Secrets stay variables: it
// reads none and sends nothing.
import { curlCommands } from '../../core/domain/links/curlCommands';
import { EXIT, UsageError, type CliCommand } from '../cliCommand';
import { serialArgument, stringOption } from '../cliArgs';
import { jsonWriter } from '../jsonOutput';
import { plainLocalize } from '../../core/common/localize';

export const command: CliCommand = {
  name: 'curl',
  summary: (t) => t('the token and events requests for a machine as curl commands, secrets as variables'),
  usage: (t) =>
    t(`Usage: oe curl SERIAL [--timestamp N] [--json [FIELDS]] [--jq EXPR]

Prints the two requests oe events makes (the token request, then the events request) as curl
commands for a POSIX shell, to put in a ticket or run where oe is not installed. No secret is
written: the commands read OE_CLIENT_SECRET and OE_PASSWORD (and OE_CLIENT_ID and OE_USERNAME
unless given as options) from the shell, and hand them to curl on its standard input. Nothing is
sent and no secret is read.

Options:
  --timestamp N    add the API's timestamp parameter, sent as given (the spec leaves its unit open)
  --json [FIELDS]  the commands as JSON, their comments in English (docs/schemas/oe-curl.schema.json); FIELDS, comma-separated, keeps only those: serialNumber, apiBaseUrl, authUrl, timestamp, script
  --jq EXPR        filter that JSON through jq, as gh --jq does: a string is written as text, any other value as JSON, one per line
  --api-url URL, --auth-url URL   the URLs (default: OE_API_URL, OE_AUTH_URL)
  --client-id ID, --username NAME written into the commands instead of $OE_CLIENT_ID, $OE_USERNAME

Exit codes:
  0   the commands were printed
  64  bad input: unknown option, malformed serial number or URL, no URL set, an unknown --json field, a --jq expression jq refuses (with its message)
`),
  operands: 'serial-numbers',
  examples: [
    { line: 'oe curl MX-4711-A0023 > requests.sh', says: (t) => t('the two requests as curl commands, to attach to a ticket') },
    {
      line: 'oe curl MX-4711-A0023 --client-id my-client --username me',
      says: (t) => t('the same with the client ID and user name written in'),
    },
  ],
  options: {
    env: { type: 'string' },
    'api-url': { type: 'string' },
    'auth-url': { type: 'string' },
    'client-id': { type: 'string' },
    username: { type: 'string' },
    timestamp: { type: 'string' },
  },
  json: { schemaVersion: 1, fields: ['serialNumber', 'apiBaseUrl', 'authUrl', 'timestamp', 'script'] },
  async run(args, io, context) {
    const { t } = io;
    if (args.positionals.length !== 1) throw new UsageError(t('Name exactly one serial number.'));
    const serialNumber = serialArgument(args.positionals[0] ?? '', t);
    const timestampText = stringOption(args, 'timestamp');
    const timestamp = timestampText === undefined ? undefined : Number(timestampText.trim());
    if (timestamp !== undefined && (!/^-?\d+$/.test(timestampText?.trim() ?? '') || !Number.isSafeInteger(timestamp)))
      throw new UsageError(t('--timestamp takes a whole number, not "{0}".', timestampText ?? ''));
    const { apiBaseUrl, authUrl } = context.endpoints();
    const input = {
      apiBaseUrl,
      authUrl,
      serialNumber,
      timestamp,
      clientId: stringOption(args, 'client-id'),
      username: stringOption(args, 'username'),
    };
    if (args.json === undefined) {
      io.stdout(curlCommands(input, t));
      return EXIT.ok;
    }
    // The script's comments in English in the JSON: data, whatever LANG is.
    const json = jsonWriter(io, args.json, context.signal);
    json.document({ serialNumber, apiBaseUrl, authUrl, timestamp: timestamp ?? null, script: curlCommands(input, plainLocalize) });
    await json.end();
    return EXIT.ok;
  },
};
