// `oe events SERIAL`: one machine's events as a table, JSON or NDJSON.
// --since filters the full list here: the spec leaves the unit and direction
// of the API's `timestamp` open, and one run has no earlier answer to judge by.
import { terminalText } from '../../core/common/serverText';
import { formatUtcIso } from '../../core/common/time';
import type { OnboardingEvent } from '../../core/client/model';
import { compileFilter } from '../../core/domain/events/eventFilter';
import { eventState } from '../../core/domain/events/eventState';
import { eventsDocument } from '../../core/domain/events/exportEvents';
import { EXIT, UsageError, type CliCommand, type CliIo } from '../cliCommand';
import { serialArgument, sinceArgument, stringOption } from '../cliArgs';
import { messageWidth, outputJson, styler } from '../cliIo';
import { jsonWriter } from '../jsonOutput';
import { SESSION_OPTIONS } from '../cliSession';
import { definedOnly } from '../../core/common/definedOnly';

function table(io: CliIo, events: readonly OnboardingEvent[], rules: Parameters<typeof eventState>[1]): string {
  const { t, color } = io;
  const style = styler(color);
  const rows = events.map((event) => {
    const type = terminalText(event.type, 80);
    const state = eventState(event, rules);
    return [
      formatUtcIso(event.time.epochMs) ?? String(event.time.raw),
      state === 'failed' ? style.red(type) : state === 'onboarded' ? style.green(type) : type,
      event.assetId ?? '',
      terminalText(event.message, messageWidth(io)),
      // The visible width of the type, without the colour codes.
      type.length,
    ] as const;
  });
  const header = [t('TIME (UTC)'), t('TYPE'), t('ASSET ID'), t('MESSAGE')];
  // A loop, not Math.max(...rows): a spread of 130,000 arguments overflows the stack.
  const widths = [0, 1, 2].map((column) =>
    rows.reduce((widest, row) => Math.max(widest, column === 1 ? row[4] : (row[column] as string).length), header[column]?.length ?? 0),
  );
  const pad = (text: string, column: number, visible = text.length): string => text + ' '.repeat((widths[column] ?? 0) - visible + 2);
  const lines = [style.bold(header.map((cell, column) => (column < 3 ? pad(cell, column) : cell)).join(''))];
  for (const row of rows) lines.push(`${pad(row[0], 0)}${pad(row[1], 1, row[4])}${pad(row[2], 2)}${row[3]}`.trimEnd());
  return `${lines.join('\n')}\n`;
}

export const command: CliCommand = {
  name: 'events',
  summary: (t) => t("a machine's onboarding events, as a table or as JSON"),
  usage: (t) =>
    t(`Usage: oe events SERIAL [--since TIME] [--json [FIELDS] | --ndjson] [--jq EXPR]

Shows the onboarding events of one machine, newest first.

Options:
  --since TIME     only events at or after TIME: a day (2025-01-31, from midnight UTC), a time with its zone (2025-01-31T08:00Z, 2025-01-31T09:00+01:00) or a duration back from now (30m, 2h, 7d)
  --json [FIELDS]  the events as the server sent them, in the export format of the extension (docs/schemas/oe-events.schema.json); FIELDS, comma-separated, keeps only those: serialNumber, exportedAt, fetchedAt, filter, count, events
  --jq EXPR        filter that JSON through jq, as gh --jq does: a string is written as text, any other value as JSON, one per line
  --ndjson         one event per line, as the server sent it
  --api-url URL, --auth-url URL, --client-id ID, --username NAME, --password-stdin, --ca-file FILE
                   sign-in and network (see oe --help)

Exit codes:
  0   the events were read (also when there are none)
  3   the events could not be read: sign-in, network or server (the message says which)
  64  bad input: unknown option, malformed serial number, a --since that is not one of the forms above, a secret given as an option, an unknown --json field, a --jq expression jq refuses (with its message)
`),
  operands: 'serial-numbers',
  examples: [
    { line: 'oe events MX-4711-A0023', says: (t) => t('the events of one machine, newest first') },
    { line: 'oe events MX-4711-A0023 --since 2h --json', says: (t) => t('the events of the last two hours, as JSON') },
    { line: 'echo MX-4711-A0023 | oe events -', says: (t) => t('the machine named on stdin') },
  ],
  options: {
    ...SESSION_OPTIONS,
    since: { type: 'string' },
    ndjson: { type: 'boolean' },
  },
  json: { schemaVersion: 1, fields: ['serialNumber', 'exportedAt', 'fetchedAt', 'filter', 'count', 'events'] },
  async run(args, io, context) {
    const { t } = io;
    if (args.positionals.length !== 1) throw new UsageError(t('Name exactly one serial number.'));
    const serialNumber = serialArgument(args.positionals[0] ?? '', t);
    if (args.json !== undefined && args.values['ndjson'] === true) throw new UsageError(t('Choose --json or --ndjson, not both.'));
    const sinceText = stringOption(args, 'since');
    const sinceMs = sinceText === undefined ? undefined : sinceArgument(sinceText, Date.now(), t);
    const client = await context.client();
    const result = await client.getEvents(serialNumber, { signal: context.signal });
    const events = sinceMs === undefined ? result.events : result.events.filter(compileFilter({ sinceMs }));
    if (result.invalid.length > 0)
      io.stderr(`oe events: ${t('{0} events the server sent were not valid and are left out.', result.invalid.length)}\n`);
    if (result.truncated) io.stderr(`oe events: ${t('The server sent more pages than are read; the oldest events are missing.')}\n`);
    if (args.json !== undefined) {
      const json = jsonWriter(io, args.json, context.signal);
      json.document(
        eventsDocument(serialNumber, events, {
          exportedAt: Date.now(),
          fetchedAt: result.fetchedAt,
          ...definedOnly({ filter: sinceMs === undefined ? undefined : `since ${new Date(sinceMs).toISOString()}` }),
        }),
      );
      await json.end();
    } else if (args.values['ndjson'] === true) {
      io.stdout(events.map((event) => `${outputJson(event.raw)}\n`).join(''));
    } else if (events.length === 0) {
      io.stderr(`oe events: ${t('No events for {0}.', serialNumber)}\n`);
    } else {
      await io.page(table(io, events, context.settings.eventStates));
    }
    return EXIT.ok;
  },
};
