// What the details page and the host say to each other. Both sides validate every message: the page
// shows server data, and a compromised page must make the host do nothing a button press would not.
import { isRecord } from '../../core/common/guards';

export const HAL_LINK_FIELDS = ['href', 'templated', 'type', 'deprecation', 'name', 'profile', 'title', 'hreflang', 'seen'] as const;
export type HalLinkField = (typeof HAL_LINK_FIELDS)[number];

export interface FieldView {
  readonly name: string;
  readonly value: string | null;
}

export type LinkBlockReason = 'no-href' | 'malformed' | 'scheme';

export interface LinkTargetView {
  readonly url: string | null;
  readonly openable: boolean;
  readonly blocked: LinkBlockReason | null;
}

export interface LinkView {
  /** Index into the event's links; the host looks the link up again by it and never trusts a URL from the page. */
  readonly id: number;
  readonly relation: string;
  readonly fields: readonly FieldView[];
  readonly extra: readonly FieldView[];
  readonly deprecated: boolean;
  readonly deprecation: string | null;
  /** True when `deprecation` is an http(s) URL that may be offered for opening. */
  readonly deprecationOpenable: boolean;
  readonly templated: boolean;
  readonly variables: readonly string[];
  /** Values the form starts with: variables named like a field of the event (assetId, serialNumber). */
  readonly values: VariableValues;
  readonly target: LinkTargetView;
}

export interface TimeView {
  readonly local: string;
  readonly utcIso: string;
  readonly relative: string;
  readonly epochMs: number;
  readonly raw: string;
  readonly unit: 'seconds' | 'milliseconds';
  /** True when the unit was detected from the magnitude rather than set by the user. */
  readonly detected: boolean;
}

export interface EventView {
  readonly title: string;
  readonly type: string;
  readonly message: string;
  readonly serialNumber: string;
  readonly assetId: string | null;
  readonly time: TimeView;
  readonly links: readonly LinkView[];
  readonly extra: readonly FieldView[];
  /** Locale used for times, so the page can refresh the relative time the same way. */
  readonly locale: string;
}

export interface PersistedState {
  readonly version: 1;
  readonly serialNumber: string;
  readonly raw: unknown;
}

/** Every user-visible string of the page, localised by the host (the page cannot call vscode.l10n). */
export const PAGE_STRING_KEYS = [
  'eventHeading',
  'type',
  'message',
  'serialNumber',
  'assetId',
  'assetIdAbsent',
  'time',
  'timeLocal',
  'timeUtc',
  'timeRelative',
  'timeRaw',
  'unitSeconds',
  'unitMilliseconds',
  'unitDetected',
  'unitFromSetting',
  'linksHeading',
  'noLinks',
  'deprecated',
  'deprecatedBecause',
  'openDeprecationInfo',
  'templated',
  'templateVariables',
  'expandedUrl',
  'target',
  'notSent',
  'open',
  'openAria',
  'fetch',
  'fetchAria',
  'copyUrl',
  'copy',
  'copyAssetIdAria',
  'copySerialNumberAria',
  'copyJson',
  'showRawJson',
  'exportEvents',
  'exportEventsAria',
  'otherFields',
  'otherLinkFields',
  'blockedNoHref',
  'blockedMalformed',
  'blockedScheme',
  'variablesHint',
  'loading',
  'fetching',
  'actions',
  'linkFields',
] as const;
export type PageStringKey = (typeof PAGE_STRING_KEYS)[number];
export type PageStrings = Readonly<Record<PageStringKey, string>>;

export type HostMessage =
  | { readonly type: 'show'; readonly event: EventView; readonly state: PersistedState; readonly strings: PageStrings }
  | { readonly type: 'expanded'; readonly seq: number; readonly linkId: number; readonly target: LinkTargetView }
  | { readonly type: 'fetched'; readonly seq: number; readonly linkId: number; readonly ok: boolean; readonly message: string }
  | { readonly type: 'status'; readonly message: string };

export type VariableValues = Readonly<Record<string, string>>;

export type CopyWhat = 'json' | 'assetId' | 'serialNumber' | 'url';

export type PageMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'expand'; readonly seq: number; readonly linkId: number; readonly variables: VariableValues }
  | { readonly type: 'open'; readonly linkId: number; readonly variables: VariableValues }
  | { readonly type: 'open-deprecation'; readonly linkId: number }
  | { readonly type: 'fetch'; readonly seq: number; readonly linkId: number; readonly variables: VariableValues }
  | { readonly type: 'copy'; readonly what: CopyWhat; readonly linkId?: number; readonly variables?: VariableValues }
  | { readonly type: 'show-raw-json' }
  | { readonly type: 'export-events' };

// ---- validation (runs on both sides; no DOM, no vscode) ----

const isString = (v: unknown): v is string => typeof v === 'string';
const isNullableString = (v: unknown): v is string | null => v === null || typeof v === 'string';
const isBoolean = (v: unknown): v is boolean => typeof v === 'boolean';
const isIndex = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
// Number.isFinite does not coerce: it is false for anything but a finite number.
const isFiniteNumber = (v: unknown): v is number => Number.isFinite(v);

/** Bounds what a page can make the host process in one message. */
const MAX_VARIABLES = 64;
const MAX_VARIABLE_LENGTH = 4096;

function isArrayOf<T>(value: unknown, item: (v: unknown) => v is T): value is readonly T[] {
  return Array.isArray(value) && value.every((v) => item(v));
}

function isField(value: unknown): value is FieldView {
  return isRecord(value) && isString(value['name']) && isNullableString(value['value']);
}

const BLOCK_REASONS: readonly unknown[] = ['no-href', 'malformed', 'scheme'];

export function isLinkTarget(value: unknown): value is LinkTargetView {
  return (
    isRecord(value) &&
    isNullableString(value['url']) &&
    isBoolean(value['openable']) &&
    (value['blocked'] === null || BLOCK_REASONS.includes(value['blocked']))
  );
}

function isLinkView(value: unknown): value is LinkView {
  return (
    isRecord(value) &&
    isIndex(value['id']) &&
    isString(value['relation']) &&
    isArrayOf(value['fields'], isField) &&
    isArrayOf(value['extra'], isField) &&
    isBoolean(value['deprecated']) &&
    isNullableString(value['deprecation']) &&
    isBoolean(value['deprecationOpenable']) &&
    isBoolean(value['templated']) &&
    isArrayOf(value['variables'], isString) &&
    isVariableValues(value['values']) &&
    isLinkTarget(value['target'])
  );
}

function isTimeView(value: unknown): value is TimeView {
  return (
    isRecord(value) &&
    isString(value['local']) &&
    isString(value['utcIso']) &&
    isString(value['relative']) &&
    isFiniteNumber(value['epochMs']) &&
    isString(value['raw']) &&
    (value['unit'] === 'seconds' || value['unit'] === 'milliseconds') &&
    isBoolean(value['detected'])
  );
}

export function isEventView(value: unknown): value is EventView {
  return (
    isRecord(value) &&
    isString(value['title']) &&
    isString(value['type']) &&
    isString(value['message']) &&
    isString(value['serialNumber']) &&
    isNullableString(value['assetId']) &&
    isTimeView(value['time']) &&
    isArrayOf(value['links'], isLinkView) &&
    isArrayOf(value['extra'], isField) &&
    isString(value['locale'])
  );
}

export function isPersistedState(value: unknown): value is PersistedState {
  return isRecord(value) && value['version'] === 1 && isString(value['serialNumber']) && 'raw' in value;
}

export function isPageStrings(value: unknown): value is PageStrings {
  return isRecord(value) && PAGE_STRING_KEYS.every((key) => isString(value[key]));
}

export function isVariableValues(value: unknown): value is VariableValues {
  if (!isRecord(value)) return false;
  const entries = Object.entries(value);
  return entries.length <= MAX_VARIABLES && entries.every(([, v]) => isString(v) && v.length <= MAX_VARIABLE_LENGTH);
}

export function isHostMessage(value: unknown): value is HostMessage {
  if (!isRecord(value)) return false;
  switch (value['type']) {
    case 'show':
      return isEventView(value['event']) && isPersistedState(value['state']) && isPageStrings(value['strings']);
    case 'expanded':
      return isIndex(value['seq']) && isIndex(value['linkId']) && isLinkTarget(value['target']);
    case 'fetched':
      return isIndex(value['seq']) && isIndex(value['linkId']) && isBoolean(value['ok']) && isString(value['message']);
    case 'status':
      return isString(value['message']);
    default:
      return false;
  }
}

const COPY_WHATS: readonly unknown[] = ['json', 'assetId', 'serialNumber', 'url'];

export function isPageMessage(value: unknown): value is PageMessage {
  if (!isRecord(value)) return false;
  switch (value['type']) {
    case 'ready':
    case 'show-raw-json':
    case 'export-events':
      return true;
    case 'expand':
    case 'fetch':
      return isIndex(value['seq']) && isIndex(value['linkId']) && isVariableValues(value['variables']);
    case 'open':
      return isIndex(value['linkId']) && isVariableValues(value['variables']);
    case 'open-deprecation':
      return isIndex(value['linkId']);
    case 'copy':
      return (
        COPY_WHATS.includes(value['what']) &&
        (value['linkId'] === undefined || isIndex(value['linkId'])) &&
        (value['variables'] === undefined || isVariableValues(value['variables'])) &&
        (value['what'] !== 'url' || isIndex(value['linkId']))
      );
    default:
      return false;
  }
}
