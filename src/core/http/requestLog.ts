// What the client reports about each HTTP attempt, for the glue's output
// channel. URLs lose any user:password part; queries are kept because the only
// things we put there are serial numbers, timestamps and page cursors.

export interface RequestLogEntry {
  readonly method: string;
  /** Origin, path and query; never a secret. */
  readonly url: string;
  readonly status?: number;
  readonly durationMs: number;
  /** A failure code such as ECONNRESET or headers-timeout; never a library message. */
  readonly error?: string;
  /** 1 for the first try, 2 for the first retry, and so on. */
  readonly attempt: number;
  /** Set when http.proxyStrictSSL is false: the server's certificate was not verified. */
  readonly certificateChecksOff?: boolean;
}

export type RequestLogger = (entry: RequestLogEntry) => void;

/** Strips credentials embedded in a URL (`https://user:pass@host`) before it is logged or shown. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return '(invalid URL)';
  }
}
