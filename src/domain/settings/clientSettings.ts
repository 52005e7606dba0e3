// Turns VS Code settings into the core client's options. Pure (settings come
// through a reader function) so the mapping is unit-tested; the glue passes
// `(section, key) => workspace.getConfiguration(section).get(key)`.
import type { HttpSettings } from '../../core/onboardingClient';
import type { TimestampUnitSetting } from '../../core/timestamp';

export type SettingsReader = (section: 'http' | 'onboardingEvents', key: string) => unknown;

/** Settings whose change means the client must be rebuilt. */
export const CLIENT_SETTINGS: readonly string[] = [
  'http.proxy',
  'http.proxyStrictSSL',
  'http.noProxy',
  'onboardingEvents.timestampUnit',
  'onboardingEvents.maxConcurrentRequests',
  'onboardingEvents.requestTimeoutSeconds',
];

export interface ClientSettings {
  readonly timestampUnit: TimestampUnitSetting;
  readonly http: HttpSettings;
}

export function readClientSettings(read: SettingsReader): ClientSettings {
  const http: HttpSettings = {};
  const proxy = read('http', 'proxy');
  if (typeof proxy === 'string' && proxy.trim() !== '') http.proxy = proxy.trim();
  const strict = read('http', 'proxyStrictSSL');
  if (typeof strict === 'boolean') http.proxyStrictSSL = strict;
  const noProxy = read('http', 'noProxy');
  if (Array.isArray(noProxy)) {
    const hosts = (noProxy as unknown[]).filter((entry): entry is string => typeof entry === 'string' && entry.trim() !== '');
    if (hosts.length > 0) http.noProxy = hosts;
  }
  const concurrency = integerIn(read('onboardingEvents', 'maxConcurrentRequests'), 1, 64);
  if (concurrency !== undefined) http.maxConcurrency = concurrency;
  const timeoutSeconds = integerIn(read('onboardingEvents', 'requestTimeoutSeconds'), 5, 300);
  if (timeoutSeconds !== undefined) http.requestTimeoutMs = timeoutSeconds * 1000;
  const unit = read('onboardingEvents', 'timestampUnit');
  const timestampUnit: TimestampUnitSetting = unit === 'seconds' || unit === 'milliseconds' ? unit : 'auto';
  return { timestampUnit, http };
}

/** Out-of-range values (hand-edited settings.json) are clamped rather than ignored. */
function integerIn(value: unknown, min: number, max: number): number | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return undefined;
  return Math.min(max, Math.max(min, Math.round(value)));
}
