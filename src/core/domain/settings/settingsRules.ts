// Every setting the extension reads, with its rule: type, default, range.
// Values come from settings.json files, which a user or a cloned workspace may
// have edited by hand, so each one is validated and clamped here, once, and the
// rest of the code reads typed values. The defaults and ranges are the ones in
// package.json (a unit test holds the two together). Pure: no vscode.
import type { TimestampUnitSetting } from '../../client/timestamp';
import { stringsOf } from '../../common/guards';
import { MAX_SERIAL_NUMBER_LENGTH } from '../../client/serialNumber';
import { DEFAULT_SERIAL_MIN_LENGTH, DEFAULT_SERIAL_PATTERN } from '../serialNumbers/serialMatcher';
import { DEFAULT_EVENT_STATE_RULES, parseEventStateRules, type EventStateRules } from '../events/eventState';
import { parseStepsSetting, type StepSetting } from '../progress/lineHistory';

interface Rule<T> {
  readonly default: T;
  /** The value to use for whatever the settings file holds (undefined when unset). */
  parse(value: unknown): T;
}

function boolean(fallback: boolean): Rule<boolean> {
  return { default: fallback, parse: (value) => (typeof value === 'boolean' ? value : fallback) };
}

/** Whole numbers in [min, max]: out-of-range values are clamped, non-numbers give the default. */
function integer(fallback: number, min: number, max: number): Rule<number> & { readonly min: number; readonly max: number } {
  return {
    default: fallback,
    min,
    max,
    parse: (value) => (typeof value === 'number' && Number.isFinite(value) ? Math.min(max, Math.max(min, Math.round(value))) : fallback),
  };
}

function oneOf<const T extends string>(values: readonly T[], fallback: T): Rule<T> & { readonly values: readonly T[] } {
  return { default: fallback, values, parse: (value) => values.find((candidate) => candidate === value) ?? fallback };
}

function text(fallback: string): Rule<string> {
  return { default: fallback, parse: (value) => (typeof value === 'string' ? value : fallback) };
}

/** Trimmed non-empty text, or undefined. */
function optionalText(): Rule<string | undefined> {
  return { default: undefined, parse: (value) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined) };
}

/** Arrays of strings; entries of other types (a hand-edited file) are dropped, blank ones too. */
function strings(fallback: readonly string[]): Rule<readonly string[]> {
  return {
    default: fallback,
    parse: (value) =>
      Array.isArray(value)
        ? stringsOf(value)
            .map((entry) => entry.trim())
            .filter((entry) => entry !== '')
        : fallback,
  };
}

export const DEFAULT_SCAN_INCLUDE =
  '**/*.{json,jsonc,yaml,yml,xml,ini,cfg,conf,properties,toml,csv,txt,log,md,ts,js,py,java,cs,go,rs,c,cpp,h,sh,env}';

/** The `onboardingEvents.*` settings, keyed by their name below the section. */
export const SETTING_RULES = {
  apiBaseUrl: text(''),
  authUrl: text(''),
  timestampUnit: oneOf<TimestampUnitSetting>(['auto', 'seconds', 'milliseconds'], 'auto'),
  maxConcurrentRequests: integer(64, 1, 64),
  requestTimeoutSeconds: integer(30, 5, 300),
  cacheSeconds: integer(60, 0, 86400),
  'serialNumber.pattern': text(DEFAULT_SERIAL_PATTERN),
  'serialNumber.minLength': integer(DEFAULT_SERIAL_MIN_LENGTH, 1, MAX_SERIAL_NUMBER_LENGTH),
  'serialNumber.denyList': strings([]),
  'hover.enabled': boolean(true),
  'hover.languages': strings(['*']),
  'hover.maxEvents': integer(5, 1, 50),
  'links.enabled': boolean(true),
  'tree.maxEvents': integer(50, 1, 10000),
  'tree.pinnedScope': oneOf(['workspace', 'global'], 'workspace'),
  'workspaceScan.enabled': boolean(true),
  'workspaceScan.include': text(DEFAULT_SCAN_INCLUDE),
  'workspaceScan.maxFiles': integer(20000, 1, 100000),
  'autoRefresh.enabled': boolean(false),
  'autoRefresh.intervalSeconds': integer(300, 30, 86400),
  'details.panelMode': oneOf(['preview', 'perEvent'], 'preview'),
  caCertificatesFile: text(''),
  'agentTools.enabled': boolean(true),
  eventStates: { default: DEFAULT_EVENT_STATE_RULES, parse: parseEventStateRules } satisfies Rule<EventStateRules>,
  steps: { default: [], parse: parseStepsSetting } satisfies Rule<readonly StepSetting[]>,
  'inlineStatus.mode': oneOf(['all', 'currentLine', 'off'], 'all'),
  'diagnostics.severity': oneOf(['off', 'hint', 'information', 'warning', 'error'], 'warning'),
  'watch.notifications': oneOf(['all', 'failures', 'off'], 'all'),
  'watch.notifyPinnedFailures': boolean(false),
  'watch.firstIntervalSeconds': integer(15, 1, 300),
} as const;

/** VS Code's own `http.*` settings that the API client honours. */
export const HTTP_SETTING_RULES = {
  proxy: optionalText(),
  proxyStrictSSL: boolean(true),
  noProxy: strings([]),
  proxyAuthorization: optionalText(),
  systemCertificates: boolean(true),
} as const;

export const SECTION = 'onboardingEvents';
export type SettingName = keyof typeof SETTING_RULES;
export type HttpSettingName = keyof typeof HTTP_SETTING_RULES;

type Values<Rules> = { readonly [K in keyof Rules]: Rules[K] extends Rule<infer T> ? T : never };

/** Every setting, validated: what the rest of the extension reads. */
export interface Settings extends Values<typeof SETTING_RULES> {
  readonly http: Values<typeof HTTP_SETTING_RULES>;
}

/** Where raw values come from: `(section, name) => workspace.getConfiguration(section).get(name)` in the glue. */
export type RawSettings = (section: typeof SECTION | 'http', name: string) => unknown;

function parseAll<Rules extends Record<string, Rule<unknown>>>(rules: Rules, read: (name: string) => unknown): Values<Rules> {
  const values: Record<string, unknown> = {};
  for (const [name, rule] of Object.entries(rules)) values[name] = rule.parse(read(name));
  return values as Values<Rules>;
}

export function readSettings(read: RawSettings): Settings {
  return { ...parseAll(SETTING_RULES, (name) => read(SECTION, name)), http: parseAll(HTTP_SETTING_RULES, (name) => read('http', name)) };
}

/** The full id of a setting, e.g. `onboardingEvents.cacheSeconds`. */
export function settingId(name: SettingName): `${typeof SECTION}.${SettingName}` {
  return `${SECTION}.${name}`;
}
