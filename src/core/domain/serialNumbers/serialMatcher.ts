// Finds serial numbers in text for hovers, links, the look-up and the
// workspace scan. Pure TypeScript (no vscode import) so it is tested under
// plain mocha with table-style cases. The pattern is a setting — one a cloned
// repository's .vscode/settings.json can set — so it runs on RE2 (re2js, a
// pure-JavaScript port): matching takes time linear in the text whatever the
// pattern, where a backtracking RegExp can take exponential time and, being
// synchronous, freeze every extension in the window. Only the built-in
// default — our own reviewed pattern, with bounded repetitions — runs on V8's
// RegExp, which scans 5 MB several times faster. An unusable pattern never
// throws at use: the matcher falls back to the default and says why once.
import type { RE2JS } from 're2js';
import { MAX_SERIAL_NUMBER_LENGTH, unsafeSerialCharacters } from '../../client/serialNumber';
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
  /** Pattern source (RE2 syntax, which is JavaScript's without lookaheads and backreferences); empty or undefined means the default. */
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
}

/** Longer pattern settings are refused: a serial-number pattern is a line, not a program. */
export const MAX_PATTERN_LENGTH = 1000;

/**
 * RE2 matches in time proportional to text length × program size, so the
 * program size is what bounds a pattern's cost. Realistic serial patterns
 * compile to 10–50 instructions (the default: about 20); at this ceiling a
 * 10 kB line still takes well under 50 ms (`npm run bench`, hostile patterns).
 */
export const MAX_PROGRAM_SIZE = 120;

/** Finds the next match at or after `from` (context before `from` still counts); one per scan. */
type NextMatch = (from: number) => { readonly start: number; readonly end: number } | undefined;

/**
 * re2js, loaded on first use: its Unicode tables take ~12 ms to load, most of
 * the activation budget, and only a custom pattern needs it.
 */
function re2(): typeof RE2JS {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('re2js') as typeof import('re2js')).RE2JS;
}

interface Compiled {
  readonly source: string;
  /** A scanner over `text`, or undefined when the pattern cannot match it at all. */
  readonly scanner: (text: string) => NextMatch | undefined;
}

/** The built-in default on V8's RegExp: reviewed, no nested or unbounded repetition, so backtracking stays linear. */
function compileDefault(): Compiled {
  const regex = new RegExp(DEFAULT_SERIAL_PATTERN, 'g');
  return {
    source: DEFAULT_SERIAL_PATTERN,
    scanner: (text) => (from) => {
      regex.lastIndex = from;
      const m = regex.exec(text);
      return m === null ? undefined : { start: m.index, end: m.index + m[0].length };
    },
  };
}

/** JavaScript regex syntax RE2 lacks, and what to write instead. */
function unsupportedSyntax(source: string, t: Localize): string | undefined {
  if (/\\[1-9]|\\k</.test(source)) {
    return t(
      'backreferences (\\1, \\k<name>) are not supported, as they cannot be matched in linear time; spell out the repeated part instead',
    );
  }
  if (/\(\?[=!]/.test(source)) {
    return t(
      'lookaheads ((?=…), (?!…)) are not supported; use \\b, a character class, or include the following text in the pattern instead',
    );
  }
  if (/\(\?<[=!][^)]*\((?!\?)/.test(source)) {
    return t('a lookbehind may not contain a capturing group; write (?:…) inside it instead');
  }
  return undefined;
}

function compile(source: string, t: Localize): Compiled | string {
  if (source.length > MAX_PATTERN_LENGTH) return t('it is longer than {0} characters', MAX_PATTERN_LENGTH);
  const unsupported = unsupportedSyntax(source, t);
  if (unsupported !== undefined) return unsupported;
  const engine = re2();
  let re: RE2JS;
  try {
    re = engine.compile(source, engine.LOOKBEHINDS);
  } catch (error) {
    // A few JavaScript spellings (\u0041, [^], \cA) have RE2 equivalents: accept the translation when it compiles.
    try {
      re = engine.compile(engine.translateRegExp(source), engine.LOOKBEHINDS);
    } catch {
      return errorMessage(error);
    }
  }
  if (re.programSize() > MAX_PROGRAM_SIZE) {
    return t(
      'it is too complex ({0} steps, at most {1}); use smaller repetition counts, such as {2} instead of {3}',
      re.programSize(),
      MAX_PROGRAM_SIZE,
      '{2,8}',
      '{2,200}',
    );
  }
  if (re.test('')) {
    return t('it matches an empty string, so it would match everywhere');
  }
  return {
    source,
    scanner: (text) => {
      // One pass of RE2's DFA (no positions, so its fastest engine) says whether there is anything to find at all.
      if (!re.test(text)) return undefined;
      const matcher = re.matcher(text);
      return (from) => (matcher.find(from) ? { start: matcher.start(), end: matcher.end() } : undefined);
    },
  };
}

/** Builds a matcher; never throws (an unusable pattern falls back to the default, see `problem`). */
export function createSerialMatcher(options: SerialMatcherOptions = {}): SerialMatcher {
  const requested = options.pattern?.trim() ?? '';
  // The default written out is the default, run on V8.
  const custom = requested === DEFAULT_SERIAL_PATTERN ? '' : requested;
  const t = options.t ?? plainLocalize;
  let compiled: Compiled;
  let problem: string | undefined;
  if (custom === '') {
    compiled = compileDefault();
  } else {
    const result = compile(custom, t);
    if (typeof result === 'string') {
      // Shown in a notification, and the pattern may come from a workspace's settings: no command link may form in it.
      problem = inertNotificationText(
        t('The serial-number pattern "{0}" cannot be used ({1}); using the default {2} instead.', custom, result, DEFAULT_SERIAL_PATTERN),
      );
      compiled = compileDefault();
    } else {
      compiled = result;
    }
  }
  const minLength = Math.max(1, Math.floor(options.minLength ?? DEFAULT_SERIAL_MIN_LENGTH));
  // A blank entry denies nothing: no empty match is ever accepted (minLength is at least 1).
  const denied = new Set(options.denyList?.map((entry) => entry.trim().toUpperCase()));

  const accept = (value: string): boolean =>
    value.length >= minLength &&
    value.length <= MAX_SERIAL_NUMBER_LENGTH &&
    // Whatever the pattern matched: no control, bidi or zero-width characters, no "](" or "$(" (they render in messages).
    unsafeSerialCharacters(value) === undefined &&
    !denied.has(value.toUpperCase());

  /**
   * Finds matches from `from` (0 ≤ from ≤ text.length; the text before it still counts for \b and lookbehinds);
   * calls `visit` per accepted match until it returns false.
   */
  const scan = (text: string, from: number, visit: (match: SerialMatch) => boolean): void => {
    const next = compiled.scanner(text);
    if (next === undefined) return;
    for (let found = next(from); found !== undefined;) {
      const { start, end } = found;
      const value = text.slice(start, end);
      if (accept(value) && !visit({ serialNumber: value, start, end })) return;
      // After a match that reaches the end of the text only an empty match can follow, and accept() refuses
      // it (minLength is at least 1); re2js would throw for a search starting beyond the text.
      if (end === text.length) return;
      // Patterns such as \b or a bare lookbehind pass compile() (they match nothing in "") yet match empty
      // strings elsewhere: step past such a match.
      found = next(end > start ? end : end + 1);
    }
  };

  const findAll = (text: string, limit = Number.POSITIVE_INFINITY): SerialMatch[] => {
    const found: SerialMatch[] = [];
    if (limit <= 0) return found;
    scan(text, 0, (match) => {
      found.push(match);
      return found.length < limit;
    });
    return found;
  };

  return {
    source: compiled.source,
    problem,
    findAll,
    matchAt(text, offset) {
      // Beyond the text nothing covers the offset (and re2js would throw for a start past the end). A
      // negative offset needs no check: every match starts after it.
      if (offset > text.length) return undefined;
      // A serial is at most MAX_SERIAL_NUMBER_LENGTH long, so one covering
      // `offset` starts no earlier than this; lookbehinds and \b still see the
      // real text before it.
      let hit: SerialMatch | undefined;
      scan(text, Math.max(0, offset - MAX_SERIAL_NUMBER_LENGTH), (match) => {
        // Every later match starts after the offset too: stop.
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
      const [first] = findAll(candidate, 1);
      return first !== undefined && first.start === 0 && first.end === candidate.length;
    },
  };
}
