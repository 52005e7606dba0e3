// "3 days ago" for hovers and quick picks. Pure (no vscode import); the locale
// comes from the glue (vscode.env.language), so the words follow the UI.

const UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['week', 7 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
  ['second', 1000],
];

const formatters = new Map<string, Intl.RelativeTimeFormat>();

function formatter(locale: string): Intl.RelativeTimeFormat {
  let known = formatters.get(locale);
  if (known === undefined) {
    try {
      known = new Intl.RelativeTimeFormat(locale, { numeric: 'auto', style: 'long' });
    } catch {
      known = new Intl.RelativeTimeFormat('en', { numeric: 'auto', style: 'long' });
    }
    formatters.set(locale, known);
  }
  return known;
}

/**
 * `epochMs` relative to `now`, in the largest unit it reaches, rounded: "3 days
 * ago", "in 2 hours", "now". Same rounding as the Machines tree, so a machine
 * reads the same age in the tree, the hover and the look-up.
 */
export function formatRelativeTime(epochMs: number, now: number, locale = 'en'): string {
  const delta = epochMs - now;
  const abs = Math.abs(delta);
  const rtf = formatter(locale);
  for (const [unit, size] of UNITS) {
    if (abs >= size || unit === 'second') {
      const value = Math.round(delta / size);
      return rtf.format(unit === 'second' && Math.abs(value) < 10 ? 0 : value, unit);
    }
  }
  return rtf.format(0, 'second');
}

/** "2025-04-20 20:58:46 UTC": exact, sortable, and the same for every reader. */
export function formatUtc(epochMs: number): string {
  const date = new Date(epochMs);
  return Number.isNaN(date.getTime()) ? String(epochMs) : `${date.toISOString().replace('T', ' ').slice(0, 19)} UTC`;
}
