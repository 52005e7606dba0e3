// Redaction for everything that goes to the log: known secret values (the
// client secret, password, access token) and anything shaped like a
// credential, in case a value we were never told about slips through.

const PATTERNS: readonly RegExp[] = [
  /\b(Bearer|Basic)\s+[A-Za-z0-9\-._~+/]+=*/gi,
  /\b(access_token|refresh_token|client_secret|password)(["']?\s*[:=]\s*["']?)[^"'&\s,}]+/gi,
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g,
];

export class Redactor {
  private readonly secrets = new Set<string>();

  /** Values that must never be printed. Empty and very short values are ignored (they would shred ordinary text). */
  addSecret(value: string | undefined): void {
    if (value && value.length >= 4) this.secrets.add(value);
  }

  redact(text: string): string {
    let out = text;
    for (const secret of this.secrets) {
      out = out.split(secret).join('[redacted]');
      const encoded = encodeURIComponent(secret);
      if (encoded !== secret) out = out.split(encoded).join('[redacted]');
    }
    for (const pattern of PATTERNS) {
      out = out.replace(pattern, (_match: string, name: string, sep?: string) =>
        typeof sep === 'string' ? `${name}${sep}[redacted]` : `${name.startsWith('eyJ') ? '' : `${name} `}[redacted]`,
      );
    }
    return out;
  }
}
