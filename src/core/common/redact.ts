// Everything logged loses known secrets and anything shaped like a credential we were never told about.

const REDACTED = '[redacted]';

interface Rule {
  readonly pattern: RegExp;
  /** Every capture group of `pattern` is mandatory, so each reaches `replace` as a string. */
  readonly replace: (match: string, ...groups: string[]) => string;
}

const RULES: readonly Rule[] = [
  { pattern: /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]*@/gi, replace: (_match, scheme) => `${scheme}${REDACTED}@` },
  // Quoted JSON values of credential properties, escaped quotes and spaces included.
  {
    pattern: /("(?:access_token|refresh_token|id_token|client_secret|password)"\s*:\s*")(?:[^"\\]|\\.)*"/gi,
    replace: (_match, head) => `${head}${REDACTED}"`,
  },
  // Form fields: the value runs to the next "&" (a form-encoded value has no raw spaces, but a logged draft may).
  {
    pattern: /\b(access_token|refresh_token|id_token|client_secret|password)=[^&\r\n]*/gi,
    replace: (_match, name) => `${name}=${REDACTED}`,
  },
  { pattern: /\b(Bearer|Basic)\s+[A-Za-z0-9\-._~+/]+=*/gi, replace: (_match, scheme) => `${scheme} ${REDACTED}` },
  // Form fields and JSON properties that carry credentials.
  {
    pattern: /\b(access_token|refresh_token|id_token|client_secret|password)(["']?\s*[:=]\s*["']?)[^"'&\s,}]+/gi,
    replace: (_match, name, separator) => `${name}${separator}${REDACTED}`,
  },
  { pattern: /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g, replace: () => REDACTED },
];

/** Below this length a secret is removed only where it stands alone, or "ab" would shred every "about". */
const SHORT_SECRET = 4;
/** Access tokens kept: a long session gets a new one every hour, and an expired one is worth little. */
const MAX_TOKENS = 16;

export class Redactor {
  private readonly secrets = new Set<string>();
  private readonly tokens: string[] = [];

  addSecret(value: string | undefined): void {
    // An empty value has no non-empty encodings (see encodings()), so it removes nothing.
    if (value !== undefined) this.secrets.add(value);
  }

  /** An access token, the moment it arrives: redacted like a secret, the oldest forgotten beyond MAX_TOKENS. */
  addToken(value: string | undefined): void {
    if (value === undefined || value === '' || this.tokens.includes(value)) return;
    this.tokens.push(value);
    if (this.tokens.length > MAX_TOKENS) this.tokens.shift();
  }

  redact(text: string): string {
    let out = text;
    // Longest first, so a secret that contains another is removed whole.
    for (const secret of [...this.secrets, ...this.tokens].sort((a, b) => b.length - a.length)) {
      for (const form of encodings(secret)) {
        out = form.length >= SHORT_SECRET ? out.split(form).join(REDACTED) : out.replace(standingAlone(form), `$1${REDACTED}`);
      }
    }
    // The callback gets (match, ...captures, offset, whole text); each rule reads only its captures, which are all strings.
    for (const rule of RULES) out = out.replace(rule.pattern, rule.replace);
    return out;
  }
}

/** The forms a secret takes in URLs, form bodies and JSON strings, besides itself. */
function encodings(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  const asciiJson = json.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  // The token request's form body is written by URLSearchParams, which also encodes ' ! ( ) ~.
  const formBody = new URLSearchParams({ x: secret }).toString().slice(2);
  const forms = new Set([secret, encodeURIComponent(secret), encodeURIComponent(secret).replace(/%20/g, '+'), formBody, json, asciiJson]);
  return [...forms].filter((form) => form !== '');
}

/** A short value where it is a whole token: not inside a longer word. */
function standingAlone(form: string): RegExp {
  const escaped = form.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^A-Za-z0-9])${escaped}(?![A-Za-z0-9])`, 'g');
}
