// The hostile serial-number patterns and the 10 kB lines that make a
// backtracking engine explode on them: one table for the unit tier
// (patterns.test.ts) and `npm run bench` (test/bench/hostilePatterns.bench.ts).
// Add a row here.

const LINE = 10 * 1024;

export const HOSTILE_LINES = {
  letters: 'A'.repeat(LINE),
  digits: '1'.repeat(LINE),
  lower: 'a'.repeat(LINE),
  words: 'ab1 '.repeat(LINE / 4),
  dashes: 'AAAA-'.repeat(LINE / 5),
} as const;
export type HostileLine = keyof typeof HOSTILE_LINES;

export interface HostilePatternRow {
  readonly pattern: string;
  /** The line that makes the naive engine backtrack. */
  readonly line: HostileLine;
}

export const HOSTILE_PATTERN_ROWS: readonly HostilePatternRow[] = [
  { pattern: '(?:A|A)*!', line: 'letters' },
  { pattern: '(\\w|\\d)*!', line: 'digits' },
  { pattern: '\\w+\\d+\\w+!', line: 'digits' },
  { pattern: '(a+)+b', line: 'lower' },
  { pattern: '(x+x+)+y', line: 'lower' },
  { pattern: '(\\w+\\s?)+!', line: 'words' },
  { pattern: '([A-Z]+-?)*\\d', line: 'dashes' },
  { pattern: '(.*a){12}!', line: 'lower' },
  { pattern: '(\\d+)*[A-Z]!', line: 'digits' },
  { pattern: '(?<=SN:)[A-Z]{2}\\d{6}\\b', line: 'letters' },
  // Patterns that do match the hostile lines, so RE2's position-finding engine runs, not only its DFA.
  { pattern: '(.*a){10}', line: 'lower' },
  { pattern: '(\\w+)+', line: 'words' },
  { pattern: '[A-Z0-9-]{6,40}', line: 'dashes' },
  { pattern: '(?:\\w+-?)+\\d', line: 'digits' },
  { pattern: '\\b[A-Z]{2,4}-\\d{4}-[A-Z0-9]{5}\\b', line: 'dashes' },
];
