// Each element of the untrusted `events` array (spec §2.2) is judged alone: a bad one is reported with
// a reason and never hides the good ones.

import { createHash } from 'node:crypto';
import { parseLinks, type HalLinks } from './hal';
import { SERVER_TEXT_LIMITS, type HalLink, type InvalidEvent, type OnboardingEvent } from './model';
import { toEventTime, type TimestampUnitSetting } from './timestamp';
import { isRecord } from '../common/guards';
import { pruneDeepJson } from '../common/jsonDepth';
import { plainLocalize, type Localize } from '../common/localize';
import { boundText } from '../common/markdownText';
import { serverText } from '../common/serverText';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const KNOWN_FIELDS = new Set(['message', 'timestamp', 'type', 'assetId', '_links']);

export interface ValidatedEvents {
  readonly events: readonly OnboardingEvent[];
  readonly invalid: readonly InvalidEvent[];
}

export interface ValidateOptions {
  readonly serialNumber: string;
  readonly timestampUnit?: TimestampUnitSetting;
  readonly indexOffset?: number;
}

export function validateEvents(rawEvents: readonly unknown[], options: ValidateOptions): ValidatedEvents {
  const events: OnboardingEvent[] = [];
  const invalid: InvalidEvent[] = [];
  rawEvents.forEach((raw, position) => {
    const index = position + (options.indexOffset ?? 0);
    // English on purpose: the reason is data (the public API hands it on, views show only a count).
    const result = validateEvent(raw, options.serialNumber, options.timestampUnit ?? 'auto', plainLocalize);
    if (typeof result === 'string')
      invalid.push({ index, reason: boundText(result, SERVER_TEXT_LIMITS.other), raw: boundEventStrings(pruneDeepJson(raw)) });
    else events.push(result);
  });
  return { events, invalid };
}

/** The event, or the reason it is invalid, worded by `t` (vscode.l10n.t where a user reads it, as the details command does). */
export function validateEvent(
  input: unknown,
  serialNumber: string,
  timestampUnit: TimestampUnitSetting = 'auto',
  t: Localize = plainLocalize,
): OnboardingEvent | string {
  // Bodies are pruned when parsed; an event from anywhere else (a webview message, a stored result) is pruned here.
  const pruned = pruneDeepJson(input);
  if (!isRecord(pruned)) return t('the event is not a JSON object');
  // Every string is bounded here, at the edge: nothing downstream meets a 10 MB type or message.
  const raw = boundEventStrings(pruned) as Record<string, unknown>;
  const { message, timestamp, type, assetId } = raw;
  if (typeof message !== 'string')
    return message === undefined || message === null ? t('message is missing') : t('message must be a string');
  if (typeof type !== 'string') return type === undefined || type === null ? t('type is missing') : t('type must be a string');
  if (timestamp === undefined || timestamp === null) return t('timestamp is missing');
  if (typeof timestamp !== 'number' || !Number.isInteger(timestamp)) return t('timestamp must be an integer');
  // Beyond 2^53 a JSON number has already lost digits; showing it would show a wrong time.
  if (!Number.isSafeInteger(timestamp)) return t('timestamp is too large to represent exactly');
  // Serialisers often emit null for unset optionals, so null means absent.
  if (assetId !== undefined && assetId !== null) {
    if (typeof assetId !== 'string') return t('assetId must be a string');
    if (!UUID.test(assetId)) return t('assetId must be a UUID');
  }
  // Parsed from what was sent, so an over-long href is dropped whole rather than kept cut (boundLinks).
  const links = parseLinks(pruned['_links'], t);
  if (!links.ok) return links.reason;

  // fromEntries defines own properties: a field named "__proto__" is kept as one, not made the prototype.
  const extra: Record<string, unknown> = Object.fromEntries(Object.entries(raw).filter(([name]) => !KNOWN_FIELDS.has(name)));

  const validAssetId = typeof assetId === 'string' ? assetId : undefined;
  const common = {
    serialNumber,
    type: serverText(type),
    message: serverText(message),
    time: toEventTime(timestamp, timestampUnit),
    links: boundLinks(links.links),
    extra,
    raw,
    key: eventKey(type, timestamp, message, validAssetId),
  };
  return validAssetId === undefined ? common : { ...common, assetId: validAssetId };
}

/** The spec gives events no id: a hash of its fields, so a key is 64 characters and carries no server text. */
export function eventKey(type: string, rawTimestamp: number, message: string, assetId?: string): string {
  return createHash('sha256')
    .update(JSON.stringify([type, rawTimestamp, message, assetId ?? null]))
    .digest('hex');
}

/** The longest string kept at a place in an event: its type and message have their own limits, everything else (keys included) `other`. */
function limitAt(depth: number, name: string | undefined): number {
  if (depth === 1 && name === 'type') return SERVER_TEXT_LIMITS.type;
  if (depth === 1 && name === 'message') return SERVER_TEXT_LIMITS.message;
  return SERVER_TEXT_LIMITS.other;
}

function hasLongString(value: unknown): boolean {
  const stack: [unknown, number, string | undefined][] = [[value, 0, undefined]];
  while (stack.length > 0) {
    const [current, depth, name] = stack.pop() as [unknown, number, string | undefined];
    if (typeof current === 'string') {
      if (current.length > limitAt(depth, name)) return true;
    } else if (Array.isArray(current)) {
      for (const child of current) stack.push([child, depth + 1, undefined]);
    } else if (isRecord(current)) {
      for (const [key, child] of Object.entries(current)) {
        if (key.length > SERVER_TEXT_LIMITS.other) return true;
        stack.push([child, depth + 1, key]);
      }
    }
  }
  return false;
}

/** The event itself when within limits (no copy); else a copy with long strings cut. */
function boundEventStrings(value: unknown): unknown {
  if (!hasLongString(value)) return value;
  const root: { value?: unknown } = {};
  const stack: [unknown, number, string | undefined, (copy: unknown) => void][] = [[value, 0, undefined, (c) => (root.value = c)]];
  while (stack.length > 0) {
    const [source, depth, name, place] = stack.pop() as [unknown, number, string | undefined, (copy: unknown) => void];
    if (typeof source === 'string') {
      place(boundText(source, limitAt(depth, name)));
    } else if (Array.isArray(source)) {
      const copy: unknown[] = [];
      place(copy);
      source.forEach((child, index) => stack.push([child, depth + 1, undefined, (c) => (copy[index] = c)]));
    } else if (isRecord(source)) {
      // Own properties by assignment through defineProperty: a key named "__proto__" stays a key.
      const copy: Record<string, unknown> = {};
      place(copy);
      for (const [key, child] of Object.entries(source)) {
        const bounded = boundText(key, SERVER_TEXT_LIMITS.other);
        stack.push([
          child,
          depth + 1,
          key,
          (c) => Object.defineProperty(copy, bounded, { value: c, enumerable: true, writable: true, configurable: true }),
        ]);
      }
    } else {
      place(source);
    }
  }
  return root.value;
}

/** Links with every string bounded; an href too long to keep whole is dropped (a cut URL names another resource). */
function boundLinks(links: HalLinks): HalLinks {
  if (!hasLongString(links)) return links;
  const hrefsKept = Object.entries(links).map(([relation, list]): [string, HalLink[]] => [
    relation,
    list.map(({ href, ...link }) => (href === undefined || href.length > SERVER_TEXT_LIMITS.other ? link : { ...link, href })),
  ]);
  // Below the top level every string's limit is `other`: relation names, link fields and their unknown fields alike.
  return boundEventStrings(Object.fromEntries(hrefsKept)) as HalLinks;
}

/** Spec §4.1 rule 3 leaves ordering open, so we sort: newest first, server order among equal times. */
export function sortNewestFirst(events: readonly OnboardingEvent[]): OnboardingEvent[] {
  return [...events].sort((a, b) => b.time.epochMs - a.time.epochMs);
}

export function dedupeEvents(events: readonly OnboardingEvent[]): OnboardingEvent[] {
  const seen = new Set<string>();
  return events.filter((event) => {
    if (seen.has(event.key)) return false;
    seen.add(event.key);
    return true;
  });
}
