// Remedies that name nothing of any program (the clock, the server's owners, waiting): every
// program words these causes alike, so their texts live once, below all three.
import type { Localize } from '../common/localize';
import type { ErrorCause } from './errors';

/** Causes whose remedy names nothing of any program: every program shows these words. */
export function neutralText(cause: Extract<ErrorCause, { kind: 'rate-limited' | 'server' }>, t: Localize): string {
  if (cause.kind === 'server')
    return t('The API had a problem answering (HTTP {0}). Try again later; if it persists, the service may be down.', cause.status);
  return cause.retryAfterMs === undefined
    ? t('The API is limiting how often it may be called (HTTP {0}). Wait a minute and try again.', cause.status)
    : t(
        'The API is limiting how often it may be called (HTTP {0}). Wait {1} s and try again.',
        cause.status,
        Math.max(1, Math.ceil(cause.retryAfterMs / 1000)),
      );
}

/** An expired or not yet valid certificate: the remedy is the clock or its owner, in every program. */
export function expiredText(whose: string, code: string, t: Localize): string {
  return code === 'CERT_NOT_YET_VALID'
    ? t(
        "The certificate of {0} is not valid yet ({1}). Check this computer's date and time; otherwise ask the server's administrators.",
        whose,
        code,
      )
    : t(
        "The certificate of {0} has expired ({1}). Ask the server's administrators to renew it, and check this computer's date and time.",
        whose,
        code,
      );
}

export function proxyExpiredText(inside: string, code: string, t: Localize): string {
  return t(
    "The certificate of {0} is not valid now ({1}). Check this computer's date and time; otherwise ask your network administrators to renew it.",
    inside,
    code,
  );
}
