// Endpoints build a Reply instead of writing to the socket, so the fault
// engine can delay, trickle or replace any answer in one place.

import { BASE_URL_PLACEHOLDER } from './data';

export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer;
}

/**
 * Serialises `value` and replaces the base-URL placeholder of data sets with
 * the real origin, which is only known once the server listens.
 */
export function jsonReply(
  status: number,
  value: unknown,
  baseUrl: string,
  contentType: string | null = 'application/json',
  headers: Record<string, string> = {},
): Reply {
  const body = JSON.stringify(value).split(BASE_URL_PLACEHOLDER).join(baseUrl);
  const all: Record<string, string> = { ...headers };
  if (contentType !== null) {
    all['content-type'] = contentType;
  }
  return { status, headers: all, body };
}

/** Spring-style error body; the spec does not define one (§7), so keep it plausible. */
export function errorReply(status: number, message: string, path: string, baseUrl: string): Reply {
  return jsonReply(status, { status, error: statusText(status), message, path }, baseUrl);
}

export function statusText(status: number): string {
  const texts: Record<number, string> = {
    400: 'Bad Request',
    401: 'Unauthorized',
    403: 'Forbidden',
    404: 'Not Found',
    405: 'Method Not Allowed',
    429: 'Too Many Requests',
    500: 'Internal Server Error',
    502: 'Bad Gateway',
    503: 'Service Unavailable',
    504: 'Gateway Timeout',
  };
  return texts[status] ?? 'Error';
}
