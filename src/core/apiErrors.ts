// Builds each ApiError with a message that tells the user what to do next.
// Messages are assembled only from status codes, error codes, hosts and paths:
// never from server bodies or library messages, which could echo a secret.

import { ApiError } from './errors';
import type { TransportError } from './http/transport';

export const SIGN_IN_COMMAND = "'Onboarding Events: Sign In'";

/** "GET /path" for error details: enough to locate the call, nothing a secret could hide in. */
export function describeRequest(method: string, url: string): string {
  try {
    return `${method} ${new URL(url).pathname}`;
  } catch {
    return method;
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'the server';
  }
}

export function cancelledError(): ApiError {
  return new ApiError('cancelled', 'The request was cancelled.');
}

export function disposedError(): ApiError {
  return new ApiError('cancelled', 'The request was cancelled because the extension is shutting down or reloading its settings.');
}

export function invalidCredentialsError(request: string, status?: number): ApiError {
  return new ApiError('invalid-credentials', `The API rejected the credentials. Run ${SIGN_IN_COMMAND} again.`, withStatus({ request }, status));
}

export function rejectedFreshTokenError(request: string): ApiError {
  return new ApiError(
    'invalid-credentials',
    `The API rejected a freshly issued access token (HTTP 401). Check that the API base URL and the authorization URL belong to the same environment, then run ${SIGN_IN_COMMAND} again.`,
    { status: 401, request },
  );
}

export function permissionDeniedError(request: string, status?: number): ApiError {
  return new ApiError(
    'permission-denied',
    "The API user is not allowed to read onboarding events. Ask the administrator who created the API user to grant it access to the Onboarding Events API (scope 'api'), then sign in again.",
    withStatus({ request }, status),
  );
}

export function notFoundError(request: string, what = 'The requested resource'): ApiError {
  return new ApiError('not-found', `${what} was not found (HTTP 404). Check the serial number and the API base URL setting.`, { status: 404, request });
}

export function rateLimitedError(request: string, status: number, retryAfterMs?: number): ApiError {
  const wait = retryAfterMs === undefined ? 'Wait a minute' : `Wait ${Math.max(1, Math.ceil(retryAfterMs / 1000))} s`;
  const details = retryAfterMs === undefined ? { status, request } : { status, request, retryAfterMs };
  return new ApiError('rate-limited', `The API is limiting how often it may be called (HTTP ${status}). ${wait} and try again.`, details);
}

export function serverError(request: string, status: number): ApiError {
  return new ApiError('server', `The API had a problem answering (HTTP ${status}). Try again later; if it persists, the service may be down.`, { status, request });
}

export function unexpectedStatusError(request: string, status: number): ApiError {
  return new ApiError('protocol', `The API answered with an unexpected HTTP ${status}. Check the API base URL setting.`, { status, request });
}

export function protocolError(request: string, problem: string, status?: number): ApiError {
  return new ApiError('protocol', `${problem} Check the API base URL and authorization URL settings, and any proxy in between.`, withStatus({ request }, status));
}

export function invalidInputError(message: string): ApiError {
  return new ApiError('invalid-input', message);
}

/** Maps a request that produced no response. */
export function errorForTransportFailure(error: TransportError, method: string, url: string, timeoutMs: number): ApiError {
  const request = describeRequest(method, url);
  const host = hostOf(url);
  switch (error.failure) {
    case 'aborted':
      return cancelledError();
    case 'connect-timeout':
      return new ApiError('timeout', `Could not connect to ${host} in time. Check your network and proxy settings, then try again.`, { request });
    case 'headers-timeout':
    case 'body-timeout':
    case 'total-timeout':
      return new ApiError('timeout', `${host} did not answer within ${Math.round(timeoutMs / 1000)} s. Try again, or raise the request timeout setting if the service is slow.`, { request });
    case 'too-large':
      return protocolError(request, `The answer from ${host} was larger than the allowed maximum, so it was not read.`);
    case 'proxy':
      return new ApiError('network', 'The proxy setting is not a valid URL. Fix the http.proxy setting or the HTTPS_PROXY environment variable.', { request });
    case 'invalid-url':
      return invalidInputError(`The URL for ${request} is not valid. Check the API base URL and authorization URL settings.`);
    case 'connection':
      return new ApiError('network', `Could not reach ${host} (${error.code}). Check your network connection, the API base URL and proxy settings, then try again.`, { request });
  }
}

function withStatus<T extends object>(details: T, status: number | undefined): T | (T & { status: number }) {
  return status === undefined ? details : { ...details, status };
}

/**
 * Maps a non-2xx answer of the API (not the token endpoint). 401 is handled by
 * the caller, which owns the one-retry-with-a-new-token rule.
 */
export function errorForApiStatus(request: string, status: number, retryAfterMs: number | undefined, what?: string): ApiError {
  if (status === 401) return invalidCredentialsError(request, status);
  if (status === 403) return permissionDeniedError(request, status);
  if (status === 404) return notFoundError(request, what);
  if (status === 429) return rateLimitedError(request, status, retryAfterMs);
  if (status >= 500) return serverError(request, status);
  return unexpectedStatusError(request, status);
}
