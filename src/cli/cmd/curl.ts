// `oe curl SERIAL`: the requests `oe events` makes, as curl commands for an
// IT ticket, from the builder "Copy as curl" uses. Secrets stay variables: it
// reads none and sends nothing.
import { curlCommands } from '../../core/domain/links/curlCommands';
import { EXIT, UsageError, type CliCommand } from '../cliCommand';
import { serialArgument, stringOption } from '../cliArgs';
import { endpointsOf } from '../cliSession';

export const command: CliCommand = {
  name: 'curl',
  summary: (t) => t('the token and events requests for a machine as curl commands, secrets as variables'),
  usage: (t) =>
    t(`Usage: oe curl SERIAL [--timestamp N]

Prints the two requests oe events makes (the token request, then the events request) as curl
commands for a POSIX shell, to put in a ticket or run where oe is not installed. No secret is
written: the commands read OE_CLIENT_SECRET and OE_PASSWORD (and OE_CLIENT_ID and OE_USERNAME
unless given as options) from the shell, and hand them to curl on its standard input. Nothing is
sent and no secret is read.

Options:
  --timestamp N    add the API's timestamp parameter, sent as given (the spec leaves its unit open)
  --api-url URL, --auth-url URL   the URLs (default: OE_API_URL, OE_AUTH_URL)
  --client-id ID, --username NAME written into the commands instead of $OE_CLIENT_ID, $OE_USERNAME

Exit codes:
  0   the commands were printed
  64  bad input: unknown option, malformed serial number or URL, no URL set
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
    'api-url': { type: 'string' },
    'auth-url': { type: 'string' },
    'client-id': { type: 'string' },
    username: { type: 'string' },
    timestamp: { type: 'string' },
  },
  run(args, io) {
    const { t } = io;
    if (args.positionals.length !== 1) throw new UsageError(t('Name exactly one serial number.'));
    const serialNumber = serialArgument(args.positionals[0] ?? '', t);
    const timestampText = stringOption(args, 'timestamp');
    const timestamp = timestampText === undefined ? undefined : Number(timestampText.trim());
    if (timestamp !== undefined && (!/^-?\d+$/.test(timestampText?.trim() ?? '') || !Number.isSafeInteger(timestamp)))
      throw new UsageError(t('--timestamp takes a whole number, not "{0}".', timestampText ?? ''));
    const { apiBaseUrl, authUrl } = endpointsOf(args, io);
    io.stdout(
      curlCommands(
        {
          apiBaseUrl,
          authUrl,
          serialNumber,
          timestamp,
          clientId: stringOption(args, 'client-id'),
          username: stringOption(args, 'username'),
        },
        t,
      ),
    );
    return Promise.resolve(EXIT.ok);
  },
};
