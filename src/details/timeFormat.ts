// Pure time formatting for the details page. The API does not state the unit
// of `timestamp` (spec §2.2), so the page shows every reading side by side:
// local time, UTC ISO 8601, relative, and the raw integer with its unit.
// Shared by the host and the page (which refreshes the relative time).

/** JavaScript dates cover ±8.64e15 ms around the epoch; beyond that there is no date to show. */
const MAX_DATE_MS = 8.64e15;

export function isRepresentable(epochMs: number): boolean {
  return Number.isFinite(epochMs) && Math.abs(epochMs) <= MAX_DATE_MS;
}

/** UTC in ISO 8601 with milliseconds, e.g. 2025-01-15T08:01:00.000Z; undefined when out of range. */
export function formatUtcIso(epochMs: number): string | undefined {
  return isRepresentable(epochMs) ? new Date(epochMs).toISOString() : undefined;
}

/** Date and time in the user's locale and time zone, with the zone named so it is never ambiguous. */
export function formatLocal(epochMs: number, locale: string, timeZone?: string): string | undefined {
  if (!isRepresentable(epochMs)) return undefined;
  const options: Intl.DateTimeFormatOptions = {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    timeZoneName: 'short',
  };
  if (timeZone !== undefined) options.timeZone = timeZone;
  return new Intl.DateTimeFormat(safeLocale(locale), options).format(new Date(epochMs));
}

const UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600 * 1000],
  ['month', 30 * 24 * 3600 * 1000],
  ['week', 7 * 24 * 3600 * 1000],
  ['day', 24 * 3600 * 1000],
  ['hour', 3600 * 1000],
  ['minute', 60 * 1000],
  ['second', 1000],
];

/** "3 hours ago", "in 2 days", "now": the largest unit that fits, rounded toward zero. */
export function formatRelative(epochMs: number, nowMs: number, locale: string): string | undefined {
  if (!isRepresentable(epochMs)) return undefined;
  const diff = epochMs - nowMs;
  // "1 year ago" rather than "last year": a count is clearer next to an exact date.
  const format = new Intl.RelativeTimeFormat(safeLocale(locale), { numeric: 'always' });
  if (Math.abs(diff) < 1000) return new Intl.RelativeTimeFormat(safeLocale(locale), { numeric: 'auto' }).format(0, 'second');
  for (const [unit, size] of UNITS) {
    if (Math.abs(diff) >= size || unit === 'second') return format.format(Math.trunc(diff / size), unit);
  }
  return undefined;
}

/** The raw integer with digit grouping, so 1736928060000 and 1736928060 are told apart at a glance. */
export function formatRaw(raw: number, locale: string): string {
  return new Intl.NumberFormat(safeLocale(locale), { useGrouping: true, maximumFractionDigits: 0 }).format(raw);
}

/** VS Code's display language ids are BCP 47 tags; anything Intl rejects falls back to English. */
export function safeLocale(locale: string): string {
  try {
    return Intl.getCanonicalLocales(locale)[0] ?? 'en';
  } catch {
    return 'en';
  }
}
