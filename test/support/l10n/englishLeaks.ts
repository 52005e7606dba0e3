// The pseudo-locale tier's rule (issue 29, "a check that nothing is left
// out"): in a window running in `qps-ploc` every letter the user reads came
// through l10n, so it is accented and stands between ⟦ ⟧ (pseudoLocale.ts).
// What may stay plain ASCII is what no translator translates: names. Cut the
// names out of a shown text, and any run of two or more ASCII letters left is
// English that bypassed l10n:
//   - outside ⟦ ⟧: a string that never went through l10n at all;
//   - inside ⟦ ⟧: English filled into a localized message's placeholder (a
//     glued fragment, or an English-only error text rendered into it).
// Pure: the extension-host tier (test/integration/pseudo/) feeds it what the
// views showed; the unit tests pin the rule.

import { CLOSE, OPEN } from './pseudoLocale';

/** Product and protocol names shown as they are in every language. Never ordinary English words. */
export const PRODUCT_NAMES: readonly string[] = ['Onboarding Events', 'Visual Studio Code', 'VS Code', 'HTTPS', 'HTTP'];

/**
 * Kinds of names recognised by their form. Addresses go first, before a
 * name or a time inside one (a serial number in a command link's arguments,
 * "1:41" in 127.0.0.1:41947) could cut them in two.
 */
const ADDRESSES: readonly RegExp[] = [
  // A Markdown link's target (a command link's arguments are encoded JSON): the label stays checked.
  /\]\((?:command:|https?:|file:)[^)\s]*\)/g,
  /\bcommand:[\w.-]+(?:\?[^\s)]*)?/g,
  /\b(?:https?|file):\/\/[^\s)\]>"'`]*/g,
  /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g,
];
/** Setting ids and hosts are dotted names (onboardingEvents.tree.maxEvents, http.proxy); serial numbers, status codes and versions carry a digit. */
const NAME_FORMS: readonly RegExp[] = [
  /\$\([\w~-]+\)/g,
  /\{\w+\}/g,
  /\blocalhost\b(?::\d+)?|\[::1\](?::\d+)?/g,
  /\b[A-Za-z][\w-]*(?:\.[A-Za-z0-9][\w-]*)+(?::\d+)?/g,
  // SI symbols after a number ("12 ms", "4 s") read the same in every language the extension is translated into (before the number itself is blanked).
  /(?<=\d\s?)(?:ms|s|min|h|KB|MB|KiB|MiB)\b/g,
  /[A-Za-z_-]*\d[\w:.-]*/g,
];

/** Code spans: fixed by design inside a localized message (pseudoLocale.ts leaves them), checked like prose outside one. */
const CODE_SPAN = /`[^`\n]*`/g;

export interface AllowList {
  /** Exact strings shown as they are: serial numbers, server text (event types and messages), environment names. */
  readonly names?: readonly string[];
  /** Patterns of what Intl writes in the display language (dates, relative times): see intlPatterns. */
  readonly patterns?: readonly RegExp[];
}

export interface Leak {
  /** The English: a run of ASCII words with nothing but spaces and punctuation between them. */
  readonly text: string;
  /** Where it was found: outside any ⟦ ⟧ (never localized) or inside one (English filled into a localized message). */
  readonly place: 'outside ⟦ ⟧' | 'inside ⟦ ⟧';
  /** The text around it, on one line. */
  readonly excerpt: string;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A name as a whole word: "HTTP" does not allow the "HTTP" in "HTTPClient". */
function namePattern(name: string): RegExp {
  return new RegExp(`(?<![A-Za-z0-9])${escapeRegExp(name)}(?![A-Za-z0-9])`, 'g');
}

/** Blanks every match (same length, so positions and the brackets stay). */
function blank(text: string, pattern: RegExp): string {
  return text.replace(pattern, (match) => match.replace(/[^⟦⟧\n]/g, ' '));
}

/** The depth of ⟦ ⟧ at each index (nested messages: a localized text inside another's placeholder). */
function depths(text: string): number[] {
  const result: number[] = [];
  let depth = 0;
  for (const char of text) {
    if (char === OPEN) depth++;
    // A ⟦ ⟧ pair can be several UTF-16 units away; one entry per code unit keeps indices aligned.
    for (let i = 0; i < char.length; i++) result.push(depth);
    if (char === CLOSE) depth = Math.max(0, depth - 1);
  }
  return result;
}

/** Markdown escapes (ONBOARDING\_COMPLETED) and non-breaking spaces (&nbsp;) as the reader sees them. */
function asRead(text: string): string {
  return text.replace(/&nbsp;|&#160;/g, ' ').replace(/\\([!-/:-@[-`{-~])/g, '$1');
}

/** Words with at most four characters between them (spaces, punctuation, a one-letter word, no bracket, no name) are one phrase. */
const PHRASE_GAP = /^[^⟦⟧0-9]{0,4}$/;

/** Every English phrase in `shown`, in order. */
export function findEnglish(shown: string, allow: AllowList = {}): Leak[] {
  const text = asRead(shown);
  let rest = text;
  for (const pattern of ADDRESSES) rest = blank(rest, pattern);
  // Longest names first, so "Onboarding Events" goes before a name that is part of it.
  const names = [...PRODUCT_NAMES, ...(allow.names ?? [])].filter((name) => /[A-Za-z]/.test(name)).sort((a, b) => b.length - a.length);
  for (const name of names) rest = blank(rest, namePattern(name));
  for (const pattern of allow.patterns ?? []) rest = blank(rest, pattern);
  for (const pattern of NAME_FORMS) rest = blank(rest, pattern);
  const depth = depths(rest);
  // Code spans inside a localized message are fixed parts; outside one they are checked like the rest.
  rest = rest.replace(CODE_SPAN, (span, index: number) => ((depth[index] ?? 0) > 0 ? span.replace(/[^\n]/g, ' ') : span));
  const words = [...rest.matchAll(/[A-Za-z]{2,}/g)].map((match) => ({ start: match.index, end: match.index + match[0].length }));
  const phrases: { start: number; end: number }[] = [];
  for (const word of words) {
    const last = phrases.at(-1);
    const inside = (at: number): boolean => (depth[at] ?? 0) > 0;
    if (last !== undefined && inside(last.start) === inside(word.start) && PHRASE_GAP.test(rest.slice(last.end, word.start))) last.end = word.end;
    else phrases.push({ ...word });
  }
  return phrases.map(({ start, end }) => ({
    text: text.slice(start, end),
    place: (depth[start] ?? 0) > 0 ? 'inside ⟦ ⟧' : 'outside ⟦ ⟧',
    excerpt: text
      .slice(Math.max(0, start - 20), end + 20)
      .replace(/\s+/g, ' ')
      .trim(),
  }));
}

/**
 * What Intl writes for dates and relative times in `locale` (which, for a
 * locale Intl does not know, such as qps-ploc, is English): the views leave
 * that wording to Intl on purpose (src/core/common/time.ts), so it is a name here.
 * Built from Intl's own output, not from a list of English words.
 */
export function intlPatterns(locale: string, timeZone?: string): RegExp[] {
  const zone = timeZone === undefined ? {} : { timeZone };
  const relative = new Set<string>();
  for (const style of ['long', 'short', 'narrow'] as const) {
    for (const numeric of ['auto', 'always'] as const) {
      const format = new Intl.RelativeTimeFormat(locale, { style, numeric });
      for (const unit of ['year', 'quarter', 'month', 'week', 'day', 'hour', 'minute', 'second'] as const) {
        for (const count of [-21, -5, -2, -1, 0, 1, 2, 5, 21]) {
          relative.add(
            escapeRegExp(format.format(count, unit))
              .replace(/\d+/g, '\\d[\\d,.]*')
              .replace(/\s+/g, '\\s+'),
          );
        }
      }
    }
  }
  const months = new Set<string>();
  for (let month = 0; month < 12; month++) {
    for (const style of ['short', 'long'] as const) {
      const date = new Date(Date.UTC(2025, month, 15, 12));
      months.add(new Intl.DateTimeFormat(locale, { month: style, timeZone: 'UTC' }).format(date));
    }
  }
  const periods = new Set<string>();
  const zones = new Set<string>(['UTC', 'GMT']);
  for (const hour of [3, 15]) {
    const parts = new Intl.DateTimeFormat(locale, { timeStyle: 'long', ...zone }).formatToParts(new Date(Date.UTC(2025, 0, 15, hour)));
    for (const part of parts) {
      if (part.type === 'dayPeriod') periods.add(part.value);
      if (part.type === 'timeZoneName') zones.add(part.value.replace(/[+-]\d.*$/, ''));
    }
  }
  /** Longest first, so "5 min. ago" goes before a shorter form it starts with. */
  const sources = (values: Iterable<string>): string =>
    [...values]
      .filter((value) => value !== '')
      .sort((a, b) => b.length - a.length)
      .join('|');
  const alternatives = (values: Iterable<string>): string => sources([...values].map(escapeRegExp));
  const bounded = (source: string): RegExp => new RegExp(`(?<![A-Za-z])(?:${source})(?![A-Za-z])`, 'g');
  return [
    bounded(sources(relative)),
    // "Jan 15, 2025": a month name only next to a day number, never on its own ("May" alone is a word).
    bounded(`(?:${alternatives(months)})\\.?\\s+\\d{1,2}(?:,\\s+\\d{4})?`),
    // "8:01:00 AM UTC", "9:01 PM GMT+1": a day period or zone only after a time.
    new RegExp(
      `(?<![\\d.:])\\d{1,2}:\\d{2}(?::\\d{2})?(?:\\s(?:${alternatives(periods)}))?(?:\\s(?:${alternatives(zones)})(?:[+-]\\d{1,2}(?::\\d{2})?)?)?(?![A-Za-z0-9])`,
      'g',
    ),
  ];
}

/** One line per leak, for a test's failure message and the report: where it was seen, the English, the text around it. */
export function describeLeaks(where: string, leaks: readonly Leak[]): string[] {
  return leaks.map((leak) => `${where}: "${leak.text}" ${leak.place} in «${leak.excerpt}»`);
}
