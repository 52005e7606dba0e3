// What the API returns (spec §2), after validation; every string is the server's and is rendered as text.

import type { Priority } from './http/concurrencyLimiter';
import type { ServerText } from '../common/serverText';

export type { Priority, RequestPriority } from './http/concurrencyLimiter';

/**
 * Spec §2.2 sets no limit: validation cuts longer strings with a mark of the whole length (boundText).
 * An over-long `href` is dropped rather than cut: a cut URL names another resource.
 */
export const SERVER_TEXT_LIMITS = {
  type: 256,
  message: 16_384,
  other: 4_096,
  href: 8_192,
} as const;

/** Spec §2.4: every field optional. Unknown fields are kept in `extra`. */
export interface HalLink {
  readonly href?: string;
  readonly templated?: boolean;
  readonly type?: string;
  readonly deprecation?: string;
  readonly name?: string;
  readonly profile?: string;
  readonly title?: string;
  readonly hreflang?: string;
  readonly seen?: string;
  readonly extra?: Readonly<Record<string, unknown>>;
}

/** How the raw `timestamp` integer was interpreted (spec §2.2: unit and epoch not shown). */
export type TimestampUnit = 'seconds' | 'milliseconds';

export interface EventTime {
  readonly raw: number;
  readonly epochMs: number;
  readonly unit: TimestampUnit;
  readonly detected: boolean;
}

export interface OnboardingEvent {
  readonly serialNumber: string;
  readonly type: ServerText;
  readonly message: ServerText;
  readonly time: EventTime;
  readonly assetId?: string;
  /** Link relation name → link(s). `machine` is the one the spec names. */
  readonly links: Readonly<Record<string, readonly HalLink[]>>;
  readonly extra: Readonly<Record<string, unknown>>;
  /** The event object as received (its strings bounded by SERVER_TEXT_LIMITS), for "show raw JSON" and export. */
  readonly raw: unknown;
  /** Stable key for de-duplication and command links: a hash of type, raw timestamp, message and assetId (so it is short whatever they hold). */
  readonly key: string;
}

export interface InvalidEvent {
  readonly index: number;
  readonly reason: string;
  readonly raw: unknown;
}

export interface EventsResult {
  readonly serialNumber: string;
  readonly events: readonly OnboardingEvent[];
  readonly invalid: readonly InvalidEvent[];
  readonly fetchedAt: number;
  /** The oldest events are missing: the server had more pages than are read, or the machine's memory share cut them. */
  readonly truncated: boolean;
  /** Events the server sent that are not kept (the oldest, past the machine's share of the client's memory for events). */
  readonly notShown?: number;
}

export interface GetEventsOptions {
  /** Spec §4.1 `timestamp` query parameter, sent as given (raw server units). */
  readonly timestamp?: number;
  readonly signal?: AbortSignal;
  /** The events cache passes a lane, which it expedites when someone joins in person. */
  readonly priority?: Priority;
  /** Cap on pages followed when the server answers with a §2.5 envelope; 50 when absent. */
  readonly maxPages?: number;
}
