// "5 minutes ago" and the absolute time shown next to it. Pure TypeScript;
// the locale comes from the caller (vscode.env.language in the glue), and
// Intl does the wording, so it is translated without our own strings.

const UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600 * 1000],
  ['month', 30 * 24 * 3600 * 1000],
  ['week', 7 * 24 * 3600 * 1000],
  ['day', 24 * 3600 * 1000],
  ['hour', 3600 * 1000],
  ['minute', 60 * 1000],
  ['second', 1000],
];

const formatters = new Map<string, Intl.RelativeTimeFormat>();

function formatterFor(locale: string): Intl.RelativeTimeFormat {
  let formatter = formatters.get(locale);
  if (!formatter) {
    try {
      formatter = new Intl.RelativeTimeFormat(locale, { numeric: 'auto', style: 'long' });
    } catch {
      formatter = new Intl.RelativeTimeFormat('en', { numeric: 'auto', style: 'long' });
    }
    formatters.set(locale, formatter);
  }
  return formatter;
}

/** "3 hours ago", "yesterday", "in 2 minutes" (a clock ahead of ours), "now". */
export function formatRelative(epochMs: number, now: number, locale = 'en'): string {
  const delta = epochMs - now;
  const size = Math.abs(delta);
  for (const [unit, ms] of UNITS) {
    if (size >= ms || unit === 'second') {
      const value = Math.round(delta / ms);
      return formatterFor(locale).format(unit === 'second' && Math.abs(value) < 10 ? 0 : value, unit);
    }
  }
  return formatterFor(locale).format(0, 'second');
}

/** Local date and time with seconds, and the time zone, e.g. "15 Jan 2025, 09:00:00 CET". */
export function formatAbsolute(epochMs: number, locale = 'en'): string {
  const date = new Date(epochMs);
  if (Number.isNaN(date.getTime())) return String(epochMs);
  try {
    return date.toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'long' });
  } catch {
    return date.toISOString();
  }
}

/** A compact point in time: the time of day when it is today, else the date and time. */
export function formatShort(epochMs: number, now: number, locale = 'en'): string {
  const date = new Date(epochMs);
  if (Number.isNaN(date.getTime())) return String(epochMs);
  const sameDay = new Date(now).toDateString() === date.toDateString();
  try {
    return sameDay ? date.toLocaleTimeString(locale, { timeStyle: 'short' }) : date.toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
  } catch {
    return date.toISOString();
  }
}
