// What one auto-refresh poll of the pinned machines amounts to, for the
// scheduler (autoRefresh.ts): carry on, back off (honouring the longest
// Retry-After the API asked for), or stop. Pure: it sees facts (signed in or
// not, the pins, when the poll started, each machine's last failure), not the
// model or VS Code, so every rule is a row in test/unit/machines/pollPolicy.test.ts.
import { isApiError, type ApiErrorKind } from '../../core/client/errors';
import type { PollOutcome } from './autoRefresh';

/** The last failed load of one machine, as far as the policy cares. */
export interface PollFailure {
  /** The ApiError kind; undefined for any other error. */
  readonly errorKind: ApiErrorKind | undefined;
  /** The wait the server asked for (Retry-After), when it said. */
  readonly retryAfterMs: number | undefined;
  /** When it failed (epoch ms). */
  readonly at: number;
}

export type PollVerdict =
  | { readonly kind: 'ok' }
  /** `failed` machines of the poll failed; `retryAfterMs` is the longest wait the server asked for. */
  | { readonly kind: 'failed'; readonly failed: number; readonly retryAfterMs?: number }
  | { readonly kind: 'stop' };

const OK: PollVerdict = { kind: 'ok' };
const STOP: PollVerdict = { kind: 'stop' };

/**
 * Before refreshing: signed out, polling cannot work (stop until reset);
 * nothing pinned, there is nothing to ask (a successful poll). `undefined`
 * means: refresh the pins, then judge the round with `judgePoll`.
 */
export function beforePoll(signedIn: boolean, pinned: readonly string[]): PollOutcome | undefined {
  if (!signedIn) return STOP;
  if (pinned.length === 0) return OK;
  return undefined;
}

export interface PollRound {
  /** Still signed in after the refresh (a rejected token signs out). */
  readonly signedIn: boolean;
  readonly pinned: readonly string[];
  /** When the poll started: an older failure belongs to an earlier attempt, not to this poll. */
  readonly startedAt: number;
  readonly failureOf: (serialNumber: string) => PollFailure | undefined;
}

/** After refreshing the pins: what the poll amounts to. */
export function judgePoll(round: PollRound): PollVerdict {
  if (!round.signedIn) return STOP;
  let failed = 0;
  let retryAfterMs: number | undefined;
  for (const serial of round.pinned) {
    const failure = round.failureOf(serial);
    if (!failure || failure.at < round.startedAt) continue;
    // Polling again with credentials the API refused would only be refused again.
    if (failure.errorKind === 'invalid-credentials') return STOP;
    failed++;
    if (failure.retryAfterMs !== undefined) retryAfterMs = Math.max(retryAfterMs ?? 0, failure.retryAfterMs);
  }
  if (failed === 0) return OK;
  return retryAfterMs === undefined ? { kind: 'failed', failed } : { kind: 'failed', failed, retryAfterMs };
}

/** The facts of a recorded load failure (the model keeps the Error itself). */
export function pollFailureOf(failure: { readonly error: Error; readonly at: number } | undefined): PollFailure | undefined {
  if (failure === undefined) return undefined;
  const { error, at } = failure;
  return isApiError(error)
    ? { errorKind: error.kind, retryAfterMs: error.details.retryAfterMs, at }
    : { errorKind: undefined, retryAfterMs: undefined, at };
}
