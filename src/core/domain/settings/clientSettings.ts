// The part of the settings the core API client is built from. Pure, so the
// mapping is unit-tested. A value equal to the core's own default is left out,
// so the core's defaults stay the one source of them.
import { DEFAULT_HTTP_SETTINGS, type HttpSettings } from '../../client/onboardingClient';
import type { TimestampUnitSetting } from '../../client/timestamp';
import type { Settings } from './settingsRules';

/** Settings whose change means the client must be rebuilt. */
export const CLIENT_SETTINGS: readonly string[] = [
  'http.proxy',
  'http.proxyStrictSSL',
  'http.noProxy',
  'http.proxyAuthorization',
  'http.systemCertificates',
  'onboardingEvents.caCertificatesFile',
  'onboardingEvents.timestampUnit',
  'onboardingEvents.maxConcurrentRequests',
  'onboardingEvents.requestTimeoutSeconds',
];

export interface ClientSettings {
  readonly timestampUnit: TimestampUnitSetting;
  readonly http: HttpSettings;
}

export function clientSettingsOf(settings: Settings): ClientSettings {
  // Built field by field: a setting left at its default stays absent, so the client's own default applies.
  const http: { -readonly [K in keyof HttpSettings]: HttpSettings[K] } = {};
  if (settings.http.proxy !== undefined) http.proxy = settings.http.proxy;
  if (!settings.http.proxyStrictSSL) http.proxyStrictSSL = false;
  if (settings.http.noProxy.length > 0) http.noProxy = settings.http.noProxy;
  if (settings.http.proxyAuthorization !== undefined) http.proxyAuthorization = settings.http.proxyAuthorization;
  if (!settings.http.systemCertificates) http.systemCertificates = false;
  if (settings.caCertificatesFile.trim() !== '') http.caCertificatesFile = settings.caCertificatesFile.trim();
  if (settings.maxConcurrentRequests !== DEFAULT_HTTP_SETTINGS.maxConcurrency) http.maxConcurrency = settings.maxConcurrentRequests;
  const timeoutMs = settings.requestTimeoutSeconds * 1000;
  if (timeoutMs !== DEFAULT_HTTP_SETTINGS.requestTimeoutMs) http.requestTimeoutMs = timeoutMs;
  return { timestampUnit: settings.timestampUnit, http };
}
