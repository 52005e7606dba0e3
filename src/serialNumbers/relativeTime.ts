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

/** `epochMs` relative to `now`, in the largest whole unit: "3 days ago", "in 2 hours", "now". */
export function formatRelativeTime(epochMs: number, now: number, locale = 'en'): string {
  const delta = epochMs - now;
  const abs = Math.abs(delta);
  const rtf = formatter(locale);
  if (abs < 45_000) return rtf.format(0, 'second');
  for (const [unit, size] of UNITS) {
    if (abs >= size) return rtf.format(Math.trunc(delta / size), unit);
  }
  return rtf.format(0, 'second');
}
