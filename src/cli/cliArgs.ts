// The argument values more than one command reads: serial numbers (the
// extension's rule), durations and times. A value that does not fit is a
// UsageError in the user's language, never a guess.
import type { Localize } from '../core/common/localize';
import { checkSerialNumber } from '../core/domain/serialNumbers/serialNumberInput';
import { UsageError, type CliIo, type ParsedArgs } from './cliCommand';

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `90s`, `30m`, `2h`, `7d`, `1h30m` as milliseconds; undefined when it is not one. */
export function durationMs(text: string): number | undefined {
  const trimmed = text.trim().toLowerCase();
  if (!/^(\d+(?:\.\d+)?(ms|s|m|h|d))+$/.test(trimmed)) return undefined;
  let total = 0;
  for (const [, amount, unit] of trimmed.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d)/g)) total += Number(amount) * (UNIT_MS[unit ?? ''] ?? 0);
  return Number.isFinite(total) ? Math.round(total) : undefined;
}

export function durationArgument(text: string, option: string, t: Localize): number {
  const ms = durationMs(text);
  if (ms === undefined || ms <= 0) throw new UsageError(t('{0} takes a duration such as 90s, 30m, 2h or 7d, not "{1}".', option, text));
  return ms;
}

/** The dates --since names: a day (midnight UTC), or a day and a time with its zone (Z or an offset such as +01:00). */
const SINCE_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,3})?)?(Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)?)?$/i;

/** A point in time: a duration back from `now`, or a date in one of the forms the help names; anything else is bad input. */
export function sinceArgument(text: string, now: number, t: Localize): number {
  const ms = durationMs(text);
  if (ms !== undefined) return now - ms;
  const refused = new UsageError(
    t('--since takes a date such as 2025-01-31 or 2025-01-31T08:00Z, or a duration back from now such as 30m, 2h or 7d, not "{0}".', text),
  );
  const parts = SINCE_DATE.exec(text.trim());
  if (parts === null) throw refused;
  const [, year, month, day, hour, minute, second, fraction, zone] = parts;
  // The table's times are UTC: a time without its zone could be meant either way, so it is refused, not guessed.
  if (hour !== undefined && zone === undefined)
    throw new UsageError(t('--since {0} has no time zone: add Z for UTC, as the table shows times, or an offset such as +01:00.', text));
  const n = (digits: string | undefined): number => Number(digits ?? 0);
  const [y, mo, d, h, mi, sec] = [n(year), n(month) - 1, n(day), n(hour), n(minute), n(second)];
  const date = new Date(Date.UTC(y, mo, d, h, mi, sec));
  // Date.UTC rolls 2025-02-30 over into March and 24:00 into the next day: what is not on the calendar or the clock is refused.
  const rolled = [
    date.getUTCFullYear(),
    date.getUTCMonth(),
    date.getUTCDate(),
    date.getUTCHours(),
    date.getUTCMinutes(),
    date.getUTCSeconds(),
  ];
  if (rolled.some((value, index) => value !== [y, mo, d, h, mi, sec][index])) throw refused;
  const offsetMinutes =
    zone === undefined || zone.toUpperCase() === 'Z'
      ? 0
      : (zone.startsWith('-') ? -1 : 1) * (n(zone.slice(1, 3)) * 60 + n(zone.slice(4, 6)));
  return date.getTime() + Math.round(Number(`0${fraction ?? ''}`) * 1000) - offsetMinutes * 60_000;
}

/** The serial number as the extension's look-up accepts it, or a UsageError saying why not. */
export function serialArgument(text: string, t: Localize): string {
  const checked = checkSerialNumber(text, t);
  // The text itself is not echoed: it may hold the very control characters that made it fail.
  if (!checked.ok) throw new UsageError(t('Not a serial number: {0}', checked.message));
  return checked.serialNumber;
}

/** The positionals as serial numbers: at least one, each checked, duplicates once. */
export function serialArguments(args: ParsedArgs, t: Localize): string[] {
  if (args.positionals.length === 0) throw new UsageError(t('Name at least one serial number.'));
  return [...new Set(args.positionals.map((text) => serialArgument(text, t)))];
}

export function stringOption(args: ParsedArgs, name: string): string | undefined {
  const value = args.values[name];
  return typeof value === 'string' ? value : undefined;
}

/** What `-` reads at most: a list of machines or files, not a log. */
export const MAX_STDIN_LINES = 10_000;
const MAX_STDIN_BYTES = 1024 * 1024;

/**
 * The positionals with `-` replaced by the lines of stdin (one serial number or path each; blank lines and a
 * line's CR skipped), read up to the bounds above: more is refused, not cut, so a list is never half-read.
 */
export async function withStdinOperands(args: ParsedArgs, io: CliIo): Promise<ParsedArgs> {
  const { t } = io;
  const dashes = args.positionals.filter((arg) => arg === '-').length;
  if (dashes === 0) return args;
  if (dashes > 1) throw new UsageError(t('Give - once: it reads all of stdin.'));
  if (args.values['password-stdin'] === true) throw new UsageError(t('Choose - or --password-stdin: both read stdin.'));
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of io.stdin) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    bytes += buffer.length;
    if (bytes > MAX_STDIN_BYTES)
      throw new UsageError(
        t('stdin holds more than {0} lines or {1} MB: give at most that many, one serial number or path a line.', MAX_STDIN_LINES, 1),
      );
    chunks.push(buffer);
  }
  const lines = Buffer.concat(chunks)
    .toString('utf8')
    .split('\n')
    .map((line) => line.replace(/\r$/, ''))
    .filter((line) => line.trim() !== '');
  if (lines.length > MAX_STDIN_LINES)
    throw new UsageError(
      t('stdin holds more than {0} lines or {1} MB: give at most that many, one serial number or path a line.', MAX_STDIN_LINES, 1),
    );
  if (lines.length === 0) throw new UsageError(t('- reads stdin, which was empty: give one serial number or path a line.'));
  return { ...args, positionals: args.positionals.flatMap((arg) => (arg === '-' ? lines : [arg])) };
}
