// The argument values more than one command reads: serial numbers (the
// extension's rule, domain/serialNumbers), durations (`90s`, `30m`, `2h`,
// `7d`) and times (a duration back from now, or an ISO 8601 date, the Filter
// Events rule). A value that does not fit is a UsageError in the user's
// language.
import type { Localize } from '../common/localize';
import { parseSince } from '../domain/events/eventFilter';
import { checkSerialNumber } from '../domain/serialNumbers/serialNumberInput';
import { UsageError, type ParsedArgs } from './cliCommand';

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

/** A point in time: a duration back from `now`, or a date the Filter Events command would take. */
export function sinceArgument(text: string, now: number, t: Localize): number {
  const ms = durationMs(text);
  if (ms !== undefined) return now - ms;
  try {
    return parseSince(text, t) ?? now;
  } catch (error) {
    throw new UsageError(`${(error as Error).message} ${t('Or give a duration back from now, such as 30m, 2h or 7d.')}`);
  }
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
