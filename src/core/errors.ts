// Errors a UI can act on. Every message says what to do next, and none ever
// contains a password, client secret or token: callers may show or log them.

export type ApiErrorKind =
  | 'invalid-credentials'
  | 'permission-denied'
  | 'not-found'
  | 'rate-limited'
  | 'server'
  | 'network'
  | 'timeout'
  | 'protocol'
  | 'cancelled'
  | 'invalid-input';

/**
 * Which network failure a 'network' or 'timeout' error is, so a view can tell
 * them apart without parsing the message. The kind stays 'network' (or
 * 'timeout') so every view keeps offering "Try Again" for all of them.
 */
export type NetworkFailure =
  | 'untrusted-certificate'
  | 'certificate-expired'
  | 'certificate-name-mismatch'
  | 'proxy-auth-required'
  | 'proxy-refused'
  | 'proxy-unreachable'
  | 'proxy-invalid'
  | 'ca-file'
  | 'dns'
  | 'connection-refused'
  | 'connection'
  | 'connect-timeout'
  | 'response-timeout';

export class ApiError extends Error {
  constructor(
    readonly kind: ApiErrorKind,
    message: string,
    readonly details: {
      readonly status?: number;
      /** Milliseconds the server asked us to wait (Retry-After), when it said. */
      readonly retryAfterMs?: number;
      /** Method and path (no query string secrets; serial numbers are not secret). */
      readonly request?: string;
      /** Set on 'network' and 'timeout' errors. */
      readonly network?: NetworkFailure;
      /** Error codes from the outermost to the root cause (e.g. UND_ERR_SOCKET, ECONNRESET): for the log, never a library message. */
      readonly causes?: readonly string[];
    } = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}
