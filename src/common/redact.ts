// Redaction for everything that goes to the log: known secret values (the
// client secret, password, access token) and anything shaped like a
// credential, in case a value we were never told about slips through.

const REDACTED = '[redacted]';

interface Rule {
  readonly pattern: RegExp;
  readonly replace: (match: string, ...groups: string[]) => string;
}

const RULES: readonly Rule[] = [
  // Authorization header values: "Bearer <token>", "Basic <base64>".
  { pattern: /\b(Bearer|Basic)\s+[A-Za-z0-9\-._~+/]+=*/gi, replace: (_match, scheme = '') => `${scheme} ${REDACTED}` },
  // Form fields and JSON properties that carry credentials.
  {
    pattern: /\b(access_token|refresh_token|id_token|client_secret|password)(["']?\s*[:=]\s*["']?)[^"'&\s,}]+/gi,
    replace: (_match, name = '', separator = '') => `${name}${separator}${REDACTED}`,
  },
  // Anything shaped like a JWT, wherever it appears.
  { pattern: /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g, replace: () => REDACTED },
];

export class Redactor {
  private readonly secrets = new Set<string>();

  /** Values that must never be printed. Empty and very short values are ignored (they would shred ordinary text). */
  addSecret(value: string | undefined): void {
    if (value && value.length >= 4) this.secrets.add(value);
  }

  redact(text: string): string {
    let out = text;
    // Longest first, so a secret that contains another is removed whole.
    for (const secret of [...this.secrets].sort((a, b) => b.length - a.length)) {
      for (const form of encodings(secret)) out = out.split(form).join(REDACTED);
    }
    for (const rule of RULES) {
      // The callback gets (match, ...captures, offset, whole text): keep only the captures.
      out = out.replace(rule.pattern, (match: string, ...rest: unknown[]) =>
        rule.replace(match, ...rest.slice(0, -2).map((part) => (typeof part === 'string' ? part : ''))),
      );
    }
    return out;
  }
}

/** The forms a secret takes in URLs and form bodies, besides itself. */
function encodings(secret: string): string[] {
  const forms = new Set([secret, encodeURIComponent(secret), encodeURIComponent(secret).replace(/%20/g, '+')]);
  return [...forms];
}
