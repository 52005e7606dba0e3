// How every view writes a point in time: Intl does the wording in the caller's locale, so a machine
// reads the same age and exact time wherever it is shown.
import { definedOnly } from './definedOnly';
import { plainLocalize, type Localize } from './localize';

/** JavaScript dates cover ±8.64e15 ms around the epoch; beyond that there is no date to show. */
const MAX_DATE_MS = 8.64e15;

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Largest first. `promoteAt`: a rounded count that reads better as one of the next larger unit. */
const UNITS: readonly { readonly unit: Intl.RelativeTimeFormatUnit; readonly size: number; readonly promoteAt?: number }[] = [
  { unit: 'year', size: 365 * DAY },
  { unit: 'month', size: 30 * DAY, promoteAt: 12 },
  { unit: 'week', size: 7 * DAY },
  { unit: 'day', size: DAY, promoteAt: 7 },
  { unit: 'hour', size: HOUR, promoteAt: 24 },
  { unit: 'minute', size: MINUTE, promoteAt: 60 },
  { unit: 'second', size: SECOND, promoteAt: 60 },
];

/** Closer than this, in either direction, reads "now": clocks differ by a few seconds anyway. */
const NOW_WITHIN_MS = 10 * SECOND;

export function isRepresentable(epochMs: number): boolean {
  return Number.isFinite(epochMs) && Math.abs(epochMs) <= MAX_DATE_MS;
}

/** VS Code's display language ids are BCP 47 tags; anything Intl rejects falls back to English. */
export function safeLocale(locale: string): string {
  try {
    return Intl.getCanonicalLocales(locale)[0] ?? 'en';
  } catch {
    return 'en';
  }
}

const relativeFormatters = new Map<string, Intl.RelativeTimeFormat>();

/** 'short' ("3 mo. ago", "5 min. ago") for narrow places such as tree descriptions; 'long' ("3 months ago") elsewhere. */
export type RelativeStyle = 'long' | 'short';

function relativeFormatter(locale: string, style: RelativeStyle): Intl.RelativeTimeFormat {
  const cacheKey = `${locale}|${style}`;
  let formatter = relativeFormatters.get(cacheKey);
  if (formatter === undefined) {
    // numeric 'auto': "yesterday", "last month", "now" where the language has such words.
    formatter = new Intl.RelativeTimeFormat(safeLocale(locale), { numeric: 'auto', style });
    relativeFormatters.set(cacheKey, formatter);
  }
  return formatter;
}

/**
 * Rounded to the nearest count of the largest unit reached (halves away from zero, so past and future
 * agree); a count that rounds up to a full next unit says that instead ("1 hour ago").
 */
export function formatRelative(epochMs: number, nowMs: number, locale: string, style: RelativeStyle = 'long'): string | undefined {
  if (!isRepresentable(epochMs) || !Number.isFinite(nowMs)) return undefined;
  const delta = epochMs - nowMs;
  const distance = Math.abs(delta);
  const format = relativeFormatter(locale, style);
  if (distance < NOW_WITHIN_MS) return format.format(0, 'second');
  const sign = delta < 0 ? -1 : 1;
  for (let i = 0; i < UNITS.length; i++) {
    const current = UNITS[i];
    if (current === undefined || (distance < current.size && current.unit !== 'second')) continue;
    const count = Math.round(distance / current.size);
    const larger = i > 0 ? UNITS[i - 1] : undefined;
    if (larger !== undefined && current.promoteAt !== undefined && count >= current.promoteAt) return format.format(sign, larger.unit);
    return format.format(sign * count, current.unit);
  }
  return format.format(0, 'second');
}

/** Formatters by locale, zone and style: making one costs far more than formatting with it, and a tree of 10,000 rows formats on every draw. */
const dateFormatters = new Map<string, Intl.DateTimeFormat>();
const MAX_DATE_FORMATTERS = 64;

function dateFormatter(
  locale: string,
  style: Pick<Intl.DateTimeFormatOptions, 'dateStyle' | 'timeStyle'>,
  timeZone?: string,
): Intl.DateTimeFormat {
  const key = `${locale}\u0000${timeZone ?? ''}\u0000${style.dateStyle ?? ''}\u0000${style.timeStyle ?? ''}`;
  let formatter = dateFormatters.get(key);
  if (formatter === undefined) {
    // Locale and zone come from settings and the environment: a few, but bounded all the same.
    if (dateFormatters.size >= MAX_DATE_FORMATTERS) dateFormatters.clear();
    formatter = new Intl.DateTimeFormat(safeLocale(locale), { ...style, ...definedOnly({ timeZone }) });
    dateFormatters.set(key, formatter);
  }
  return formatter;
}

/** The same everywhere, with seconds and the zone: "Jan 15, 2025, 9:01:00 AM GMT+1". */
export function formatAbsolute(epochMs: number, locale: string, timeZone?: string): string | undefined {
  if (!isRepresentable(epochMs)) return undefined;
  return dateFormatter(locale, { dateStyle: 'medium', timeStyle: 'long' }, timeZone).format(new Date(epochMs));
}

/** A compact point in time for a tree description: the time of day when it is today, else date and time. */
export function formatShort(epochMs: number, nowMs: number, locale: string, timeZone?: string): string | undefined {
  if (!isRepresentable(epochMs)) return undefined;
  const day = dateFormatter('en-CA', { dateStyle: 'short' }, timeZone);
  const sameDay = isRepresentable(nowMs) && day.format(new Date(nowMs)) === day.format(new Date(epochMs));
  return dateFormatter(locale, sameDay ? { timeStyle: 'short' } : { dateStyle: 'medium', timeStyle: 'short' }, timeZone).format(
    new Date(epochMs),
  );
}

/** UTC in ISO 8601 with milliseconds, e.g. 2025-01-15T08:01:00.000Z; undefined when out of range. */
export function formatUtcIso(epochMs: number): string | undefined {
  return isRepresentable(epochMs) ? new Date(epochMs).toISOString() : undefined;
}

/** A raw timestamp with digit grouping, so 1736928060000 and 1736928060 are told apart on sight. */
export function formatRaw(raw: number, locale: string): string {
  return new Intl.NumberFormat(safeLocale(locale), { useGrouping: true, maximumFractionDigits: 0 }).format(raw);
}

/**
 * How long something took or has waited, in the reader's words: "850 ms", "1.2 s", "40 s", "46 min",
 * "2 h 5 min", "1 day 4 h", "141 days". Past a day minutes are noise, past a week hours.
 */
export function formatDuration(ms: number, t: Localize = plainLocalize): string {
  const clamped = Math.max(0, ms);
  if (clamped < SECOND) return t('{0} ms', Math.round(clamped));
  if (clamped < 10 * SECOND) return t('{0} s', Number((clamped / SECOND).toFixed(1)));
  const seconds = Math.round(clamped / SECOND);
  if (seconds < 60) return t('{0} s', seconds);
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return t('{0} min', minutes);
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours < 24) return rest === 0 ? t('{0} h', hours) : t('{0} h {1} min', hours, rest);
  const roundedHours = Math.round(minutes / 60);
  const days = Math.floor(roundedHours / 24);
  const restHours = roundedHours % 24;
  if (days >= 7) return t('{0} days', days);
  if (restHours === 0) return days === 1 ? t('1 day') : t('{0} days', days);
  return days === 1 ? t('1 day {0} h', restHours) : t('{0} days {1} h', days, restHours);
}
