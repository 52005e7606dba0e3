import * as assert from 'node:assert/strict';
import { readClientSettings, type SettingsReader } from '../../../src/domain/settings/clientSettings';

function reader(values: Record<string, unknown>): SettingsReader {
  return (section, key) => values[`${section}.${key}`];
}

describe('client settings from VS Code configuration', () => {
  it('passes VS Code http.proxy, http.proxyStrictSSL and http.noProxy to the core client', () => {
    const settings = readClientSettings(
      reader({ 'http.proxy': ' http://proxy.corp:3128 ', 'http.proxyStrictSSL': false, 'http.noProxy': ['internal.example.com', '', 7, '10.0.0.0/8'] }),
    );
    assert.deepEqual(settings.http, { proxy: 'http://proxy.corp:3128', proxyStrictSSL: false, noProxy: ['internal.example.com', '10.0.0.0/8'] });
  });

  it('leaves unset proxy settings out, so the core falls back to HTTPS_PROXY/NO_PROXY', () => {
    assert.deepEqual(readClientSettings(reader({ 'http.proxy': '', 'http.noProxy': [] })).http, {});
  });

  it('maps concurrency and the request timeout (seconds to ms), clamping hand-edited values', () => {
    assert.deepEqual(readClientSettings(reader({ 'onboardingEvents.maxConcurrentRequests': 4, 'onboardingEvents.requestTimeoutSeconds': 45 })).http, {
      maxConcurrency: 4,
      requestTimeoutMs: 45_000,
    });
    // 1000 is clamped to the maximum, 64, which is also the core's default ceiling and so left out.
    assert.deepEqual(readClientSettings(reader({ 'onboardingEvents.maxConcurrentRequests': 1000, 'onboardingEvents.requestTimeoutSeconds': 1 })).http, {
      requestTimeoutMs: 5_000,
    });
    assert.deepEqual(readClientSettings(reader({ 'onboardingEvents.maxConcurrentRequests': 'eight' })).http, {});
  });

  it('reads the timestamp unit, defaulting to auto', () => {
    assert.equal(readClientSettings(reader({ 'onboardingEvents.timestampUnit': 'seconds' })).timestampUnit, 'seconds');
    assert.equal(readClientSettings(reader({ 'onboardingEvents.timestampUnit': 'milliseconds' })).timestampUnit, 'milliseconds');
    assert.equal(readClientSettings(reader({ 'onboardingEvents.timestampUnit': 'weeks' })).timestampUnit, 'auto');
    assert.equal(readClientSettings(reader({})).timestampUnit, 'auto');
  });
});
