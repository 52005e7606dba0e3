// When a watched machine's next poll is due, what a fresh result says, and when "cannot reach the API"
// has lasted long enough to tell. The outcome is read through the one machine state, so a watch ends
// exactly when the tree and hover say onboarded or failed. Pure, and clock-free.
import { truncate } from '../../common/markdownText';
import type { EventsResult, OnboardingEvent } from '../../client/model';
import { eventState, newestOf, type EventStateRules } from '../events/eventState';
import { serverText, serverTextData, type ServerText } from '../../common/serverText';

/** At most this many watches at once: each one is a request every few minutes at least, on the user's sign-in. */
export const MAX_WATCHES = 50;

export interface WatchTiming {
  /** The first interval, and the interval right after a new event appeared (setting watch.firstIntervalSeconds). */
  readonly firstMs: number;
  readonly maxMs: number;
  /** Each poll that brought nothing new multiplies the interval by this much. */
  readonly quietGrowth: number;
  /** Each failed poll in a row doubles the interval (error back-off), from at least this much. */
  readonly errorFloorMs: number;
  /** An unfocused window polls this many times slower (it keeps polling: being away is the point of watching). */
  readonly unfocusedFactor: number;
  /** Failed polls for this long in a row, with no success between: the user is told the watch cannot poll. */
  readonly unreachableAfterMs: number;
}

export const DEFAULT_WATCH_TIMING: WatchTiming = {
  firstMs: 15_000,
  maxMs: 5 * 60_000,
  quietGrowth: 1.5,
  errorFloorMs: 30_000,
  unfocusedFactor: 2,
  unreachableAfterMs: 15 * 60_000,
};

export interface PollHistory {
  readonly quietPolls: number;
  readonly failedPolls: number;
}

export const NO_HISTORY: PollHistory = { quietPolls: 0, failedPolls: 0 };

/**
 * `firstMs` grown per quiet poll, or `errorFloorMs` doubled per failure, up to `maxMs`; times
 * `unfocusedFactor` out of focus. Never below `firstMs`.
 */
export function nextPollDelay(history: PollHistory, focused: boolean, timing: WatchTiming = DEFAULT_WATCH_TIMING): number {
  const first = Math.max(1, timing.firstMs);
  const max = Math.max(first, timing.maxMs);
  // Exponents are capped so a long-quiet watch never computes Infinity.
  const quiet = Math.min(max, first * timing.quietGrowth ** Math.min(history.quietPolls, 64));
  const failing =
    history.failedPolls === 0 ? 0 : Math.min(max, Math.max(first, timing.errorFloorMs) * 2 ** Math.min(history.failedPolls - 1, 32));
  const delay = Math.max(quiet, failing);
  return Math.round(focused ? delay : delay * Math.max(1, timing.unfocusedFactor));
}

export function afterPoll(history: PollHistory, poll: 'new-event' | 'quiet' | 'failed'): PollHistory {
  switch (poll) {
    case 'new-event':
      return NO_HISTORY;
    case 'quiet':
      return { quietPolls: history.quietPolls + 1, failedPolls: 0 };
    case 'failed':
      return { quietPolls: history.quietPolls, failedPolls: history.failedPolls + 1 };
  }
}

/** The newest event of a watched machine, as its row shows it ("DEVICE_REGISTERED · 2 min ago"). */
export interface NewestEvent {
  readonly type: ServerText;
  /** The event's time (epoch ms). */
  readonly at: number;
}

export interface WatchOutcome {
  readonly state: 'onboarded' | 'failed';
  readonly type: ServerText;
  readonly at: number;
  readonly message: ServerText;
  /** From the machine's first event to the deciding one, in ms: "onboarded in 46 min". */
  readonly tookMs: number;
}

/** Longest server message a watch keeps (it is stored with the watch, and shown in one notification). */
export const MAX_OUTCOME_MESSAGE = 500;

export type WatchReading =
  | { readonly kind: 'outcome'; readonly newest: NewestEvent; readonly outcome: WatchOutcome }
  | { readonly kind: 'newest'; readonly newest: NewestEvent | undefined };

function newestEventOf(event: OnboardingEvent): NewestEvent {
  return { type: event.type, at: event.time.epochMs };
}

/** Only an event newer than `since` ends a watch: watching a failed machine waits for its retry. */
export function readWatch(result: EventsResult, rules: EventStateRules, since: number | undefined): WatchReading {
  const newest = newestOf(result.events);
  if (newest === undefined) return { kind: 'newest', newest: undefined };
  const step = newestEventOf(newest);
  const state = eventState(newest, rules);
  if (state === 'in-progress' || (since !== undefined && newest.time.epochMs <= since)) return { kind: 'newest', newest: step };
  let first = newest.time.epochMs;
  for (const event of result.events) if (event.time.epochMs < first) first = event.time.epochMs;
  const message = serverText(truncate(serverTextData(newest.message), MAX_OUTCOME_MESSAGE));
  return { kind: 'outcome', newest: step, outcome: { state, type: newest.type, at: step.at, message, tookMs: step.at - first } };
}

export function unreachableForLong(firstFailureAt: number | undefined, now: number, timing: WatchTiming = DEFAULT_WATCH_TIMING): boolean {
  return firstFailureAt !== undefined && now - firstFailureAt >= timing.unreachableAfterMs;
}

/** One watch, as the agent tools (and any other reader) get it: plain data; the newest event's type and the outcome's message are server text. */
export interface WatchSummary {
  readonly serialNumber: string;
  readonly environment: string;
  /** watching, paused (its environment is not signed in), onboarded or failed (the watch ended by itself). */
  readonly state: 'watching' | 'paused' | 'onboarded' | 'failed';
  /** The newest event seen: its type and time (epoch ms). */
  readonly newestEvent?: NewestEvent;
  readonly since: number;
  readonly outcome?: {
    readonly state: 'onboarded' | 'failed';
    readonly at: number;
    readonly tookMs: number;
    /** The deciding event's message: server text, at most 500 characters. */
    readonly message: ServerText;
  };
}

export type WatchStartAnswer =
  | { readonly kind: 'started' | 'already-watched' | 'not-signed-in' }
  | { readonly kind: 'already-onboarded'; readonly newestEvent: NewestEvent }
  | { readonly kind: 'limit'; readonly max: number };
