// Finds serial numbers in text for hovers, links, the look-up and the
// workspace scan. Pure TypeScript (no vscode import) so it is tested under
// plain mocha with table-style cases. The pattern is a user setting, so it is
// compiled defensively: an invalid or dangerous pattern never throws at use,
// the matcher falls back to the default and says why once (`problem`).
import { MAX_SERIAL_NUMBER_LENGTH } from '../../core/serialNumber';
import { errorMessage } from '../../common/errors';
import { plainLocalize, type Localize } from '../../common/localize';
import { inertNotificationText } from '../../common/notificationText';

/**
 * Must equal the default of the `onboardingEvents.serialNumber.pattern`
 * setting in package.json (a unit test compares them). Matches the demo
 * serials (`MX-4711-A0023`: family, model, plant letter + sequence) with word
 * boundaries, so `XMX-4711-A0023X` or a longer token never yields a hover.
 */
export const DEFAULT_SERIAL_PATTERN = '\\b[A-Z]{2,4}-\\d{4}-[A-Z0-9]{5}\\b';

/** Default of `onboardingEvents.serialNumber.minLength`. */
export const DEFAULT_SERIAL_MIN_LENGTH = 6;

export interface SerialMatch {
  readonly serialNumber: string;
  /** Offset of the first character in the searched text. */
  readonly start: number;
  /** Offset just after the last character. */
  readonly end: number;
}

export interface SerialMatcherOptions {
  /** RegExp source (JavaScript syntax, no slashes or flags); empty or undefined means the default. */
  readonly pattern?: string | undefined;
  /** Matches shorter than this are ignored. */
  readonly minLength?: number | undefined;
  /** Exact strings (compared case-insensitively) that match the pattern but are not serial numbers. */
  readonly denyList?: readonly string[] | undefined;
  /** Words `problem` (vscode.l10n.t in the glue); English without it. */
  readonly t?: Localize | undefined;
}

export interface SerialMatcher {
  /** The source actually in use (the default when the user's pattern was refused). */
  readonly source: string;
  /** Why the user's pattern was refused, when it was; report it once. */
  readonly problem: string | undefined;
  /** Every serial number in `text`, in order, at most `limit` of them. */
  findAll(text: string, limit?: number): SerialMatch[];
  /** The serial number that covers `offset` (start ≤ offset ≤ end), if any. */
  matchAt(text: string, offset: number): SerialMatch | undefined;
  /** True when the whole of `candidate` is one serial number (pattern, min length, deny list). */
  isSerialNumber(candidate: string): boolean;
  /**
   * A fresh non-global RegExp for `TextDocument.getWordRangeAtPosition`
   * (which refuses patterns that match the empty string; the matcher already
   * refused those).
   */
  wordPattern(): RegExp;
}

/**
 * Star height above one — a quantified group that itself contains an
 * unbounded quantifier, as in `(a+)+` or `(\w*-)*` — is the classic shape of
 * catastrophic backtracking. A JavaScript regex cannot be interrupted once
 * running, so such patterns are refused up front rather than time-boxed.
 */
export function hasNestedQuantifier(source: string): boolean {
  // For each open group: does it contain an unbounded quantifier?
  const groups: boolean[] = [];
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') {
      inClass = true;
    } else if (c === '(') {
      groups.push(false);
    } else if (c === ')') {
      const innerUnbounded = groups.pop() ?? false;
      const quantifier = unboundedQuantifierAt(source, i + 1);
      if (innerUnbounded && quantifier) return true;
      if ((innerUnbounded || quantifier) && groups.length > 0) groups[groups.length - 1] = true;
    } else if (unboundedQuantifierAt(source, i) && groups.length > 0) {
      groups[groups.length - 1] = true;
    }
  }
  return false;
}

/** `+`, `*`, `{n,}` or `{n,m}` with m > 1 at `index` (a repetition that can backtrack over many positions). */
function unboundedQuantifierAt(source: string, index: number): boolean {
  const c = source[index];
  if (c === '+' || c === '*') return true;
  if (c !== '{') return false;
  const brace = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(index, index + 24));
  if (!brace) return false;
  if (brace[2] === undefined) return false;
  if (brace[3] === undefined || brace[3] === '') return true;
  return Number(brace[3]) > 1;
}

interface Compiled {
  readonly regex: RegExp;
  readonly source: string;
}

function compile(source: string, t: Localize): Compiled | string {
  let regex: RegExp;
  try {
    regex = new RegExp(source, 'g');
  } catch (error) {
    return errorMessage(error);
  }
  if (regex.test('')) {
    return t('it matches an empty string, so it would match everywhere');
  }
  if (hasNestedQuantifier(source)) {
    return t('it nests repetitions (like (a+)+), which can make matching take exponential time');
  }
  return { regex, source };
}

/** Builds a matcher; never throws (an unusable pattern falls back to the default, see `problem`). */
export function createSerialMatcher(options: SerialMatcherOptions = {}): SerialMatcher {
  const requested = options.pattern?.trim() ?? '';
  const t = options.t ?? plainLocalize;
  let compiled: Compiled;
  let problem: string | undefined;
  if (requested === '' || requested === DEFAULT_SERIAL_PATTERN) {
    compiled = compile(DEFAULT_SERIAL_PATTERN, t) as Compiled;
  } else {
    const result = compile(requested, t);
    if (typeof result === 'string') {
      // Shown in a notification, and the pattern may come from a workspace's settings: no command link may form in it.
      problem = inertNotificationText(t('The serial-number pattern "{0}" cannot be used ({1}); using the default {2} instead.', requested, result, DEFAULT_SERIAL_PATTERN));
      compiled = compile(DEFAULT_SERIAL_PATTERN, t) as Compiled;
    } else {
      compiled = result;
    }
  }
  const minLength = Math.max(1, Math.floor(options.minLength ?? DEFAULT_SERIAL_MIN_LENGTH));
  const denied = new Set((options.denyList ?? []).map((entry) => entry.trim().toUpperCase()).filter((entry) => entry !== ''));
  const regex = compiled.regex;

  const accept = (value: string): boolean =>
    value.length >= minLength && value.length <= MAX_SERIAL_NUMBER_LENGTH && (denied.size === 0 || !denied.has(value.toUpperCase()));

  /** Runs the global regex from `from`; calls `visit` per accepted match until it returns false. */
  const scan = (text: string, from: number, visit: (match: SerialMatch) => boolean): void => {
    regex.lastIndex = from;
    for (;;) {
      const m = regex.exec(text);
      if (m === null) return;
      const value = m[0];
      if (value === '') {
        // Cannot happen for the patterns compile() accepts; guards the loop anyway.
        regex.lastIndex++;
        continue;
      }
      if (accept(value) && !visit({ serialNumber: value, start: m.index, end: m.index + value.length })) return;
    }
  };

  return {
    source: compiled.source,
    problem,
    findAll(text, limit = Number.POSITIVE_INFINITY) {
      const found: SerialMatch[] = [];
      if (limit <= 0) return found;
      scan(text, 0, (match) => {
        found.push(match);
        return found.length < limit;
      });
      return found;
    },
    matchAt(text, offset) {
      if (offset < 0 || offset > text.length) return undefined;
      // A serial is at most MAX_SERIAL_NUMBER_LENGTH long, so one covering
      // `offset` starts no earlier than this; lookbehinds and \b still see the
      // real text before it.
      let hit: SerialMatch | undefined;
      scan(text, Math.max(0, offset - MAX_SERIAL_NUMBER_LENGTH), (match) => {
        if (match.start > offset) return false;
        if (match.end >= offset) {
          hit = match;
          return false;
        }
        return true;
      });
      return hit;
    },
    isSerialNumber(candidate) {
      let whole = false;
      scan(candidate, 0, (match) => {
        whole = match.start === 0 && match.end === candidate.length;
        return false;
      });
      return whole;
    },
    wordPattern() {
      return new RegExp(compiled.source);
    },
  };
}
