// Validates the untrusted `events` array (spec §2.2) into typed events. Each
// element is judged alone: a bad one is reported in `invalid` with a reason and
// never hides or breaks the good ones.

import { parseLinks } from './hal';
import type { InvalidEvent, OnboardingEvent } from './model';
import { toEventTime, type TimestampUnitSetting } from './timestamp';
import { isRecord } from '../common/guards';
import { pruneDeepJson } from '../common/jsonDepth';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const KNOWN_FIELDS = new Set(['message', 'timestamp', 'type', 'assetId', '_links']);

export interface ValidatedEvents {
  readonly events: readonly OnboardingEvent[];
  readonly invalid: readonly InvalidEvent[];
}

export interface ValidateOptions {
  readonly serialNumber: string;
  readonly timestampUnit?: TimestampUnitSetting;
  /** Added to each element's index, so pages of one walk number their elements continuously. */
  readonly indexOffset?: number;
}

export function validateEvents(rawEvents: readonly unknown[], options: ValidateOptions): ValidatedEvents {
  const events: OnboardingEvent[] = [];
  const invalid: InvalidEvent[] = [];
  rawEvents.forEach((raw, position) => {
    const index = position + (options.indexOffset ?? 0);
    const result = validateEvent(raw, options.serialNumber, options.timestampUnit ?? 'auto');
    if (typeof result === 'string') invalid.push({ index, reason: result, raw });
    else events.push(result);
  });
  return { events, invalid };
}

/** The event, or the reason it is invalid. */
export function validateEvent(
  input: unknown,
  serialNumber: string,
  timestampUnit: TimestampUnitSetting = 'auto',
): OnboardingEvent | string {
  // Bodies are pruned when parsed; an event from anywhere else (a webview message, a stored result) is pruned here.
  const raw = pruneDeepJson(input);
  if (!isRecord(raw)) return 'the event is not a JSON object';
  const { message, timestamp, type, assetId } = raw;
  if (typeof message !== 'string') return message === undefined || message === null ? 'message is missing' : 'message must be a string';
  if (typeof type !== 'string') return type === undefined || type === null ? 'type is missing' : 'type must be a string';
  if (timestamp === undefined || timestamp === null) return 'timestamp is missing';
  if (typeof timestamp !== 'number' || !Number.isInteger(timestamp)) return 'timestamp must be an integer';
  // Beyond 2^53 a JSON number has already lost digits; showing it would show a wrong time.
  if (!Number.isSafeInteger(timestamp)) return 'timestamp is too large to represent exactly';
  // Serialisers often emit null for unset optionals, so null means absent.
  if (assetId !== undefined && assetId !== null) {
    if (typeof assetId !== 'string') return 'assetId must be a string';
    if (!UUID.test(assetId)) return 'assetId must be a UUID';
  }
  const links = parseLinks(raw['_links']);
  if (!links.ok) return links.reason;

  // fromEntries defines own properties: a field named "__proto__" is kept as one, not made the prototype.
  const extra: Record<string, unknown> = Object.fromEntries(Object.entries(raw).filter(([name]) => !KNOWN_FIELDS.has(name)));

  const validAssetId = typeof assetId === 'string' ? assetId : undefined;
  const common = {
    serialNumber,
    type,
    message,
    time: toEventTime(timestamp, timestampUnit),
    links: links.links,
    extra,
    raw,
    key: eventKey(type, timestamp, message, validAssetId),
  };
  return validAssetId === undefined ? common : { ...common, assetId: validAssetId };
}

/** Stable identity of an event for de-duplication: the spec gives events no id. */
export function eventKey(type: string, rawTimestamp: number, message: string, assetId?: string): string {
  return JSON.stringify([type, rawTimestamp, message, assetId ?? null]);
}

/** Spec §4.1 rule 3 leaves ordering open, so we sort: newest first, server order among equal times. */
export function sortNewestFirst(events: readonly OnboardingEvent[]): OnboardingEvent[] {
  return [...events].sort((a, b) => b.time.epochMs - a.time.epochMs);
}

/** Drops later repeats of the same key (pages of a shifting list can overlap). */
export function dedupeEvents(events: readonly OnboardingEvent[]): OnboardingEvent[] {
  const seen = new Set<string>();
  return events.filter((event) => {
    if (seen.has(event.key)) return false;
    seen.add(event.key);
    return true;
  });
}
