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
    } = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}
