// What a translation must carry over from its English source unchanged: the
// parts of a message that are filled in, run, linked or read by a program
// rather than by the user. The bundle test compares them between languages;
// the pseudo-locale leaves exactly these parts unaccented.

/** One kind of fixed token and the pattern that finds it. */
interface TokenKind {
  readonly kind: string;
  readonly pattern: string;
}

// Order matters: at each position the first kind that matches wins, so a URL is
// one token rather than a host and a path, and a code span hides what is inside it.
const KINDS: readonly TokenKind[] = [
  { kind: 'code span', pattern: '`[^`\\n]*`' },
  { kind: 'link target', pattern: '\\]\\((?:command:|https?:)[^)\\s]*\\)' },
  { kind: 'placeholder', pattern: '\\{\\w+\\}' },
  { kind: 'codicon', pattern: '\\$\\([\\w~-]+\\)' },
  { kind: 'escape', pattern: '\\\\(?:k<\\w+>|[^\\s])' },
  { kind: 'url', pattern: '\\bhttps?://(?:[\\w-]+(?:\\.[\\w-]+)*)?' },
  { kind: 'loopback', pattern: '\\blocalhost\\b|\\[::1\\]' },
  // Setting ids, hosts and file names: at least two dot-separated words of two or more characters ("e.g." is none).
  { kind: 'dotted name', pattern: '\\b[A-Za-z][\\w-]+(?:\\.[A-Za-z][\\w-]+)+' },
  // Numbers and ids with a digit: limits, examples (MX-4711-A0023, 2025-01-31T08:00), status codes.
  { kind: 'number', pattern: '[A-Za-z_-]*\\d[\\w:-]*' },
];

const TOKEN = new RegExp(KINDS.map((k) => `(?:${k.pattern})`).join('|'), 'g');
const WHOLE = KINDS.map((k) => [k.kind, new RegExp(`^(?:${k.pattern})$`)] as const);

export interface Token {
  readonly kind: string;
  readonly text: string;
  readonly index: number;
}

/** Every fixed token of a message, in order. */
export function fixedTokens(message: string): Token[] {
  const tokens: Token[] = [];
  for (const match of message.matchAll(TOKEN)) {
    // The first kind that matches the whole token is the alternative that matched it.
    const kind = WHOLE.find(([, whole]) => whole.test(match[0]))?.[0] ?? 'unknown';
    tokens.push({ kind, text: match[0], index: match.index });
  }
  return tokens;
}

/**
 * What must be equal between a message and its translation, as sorted
 * "kind: text" lines: a placeholder or code span may move, never go or
 * multiply; the number of lines (a welcome view's buttons stand on lines of
 * their own) stays the same.
 */
export function invariants(message: string): string[] {
  const lines = [`line breaks: ${message.split('\n').length - 1}`];
  return [...lines, ...fixedTokens(message).map((t) => `${t.kind}: ${t.text}`)].sort();
}

/** The message with its fixed tokens cut out: what a translator translates. */
export function translatableText(message: string): string {
  return message.replace(TOKEN, ' ');
}
