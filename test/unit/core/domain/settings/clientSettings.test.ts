import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CA_FILE_SETTING } from '../../../../../src/extension/workbench/remedies';
import { readSettings, settingId, type RawSettings } from '../../../../../src/core/domain/settings/settingsRules';
import { CLIENT_SETTINGS, clientSettingsOf, type ClientSettings } from '../../../../../src/core/domain/settings/clientSettings';

function reader(values: Record<string, unknown>): RawSettings {
  return (section, key) => values[`${section}.${key}`];
}

/** As the session reads them: every setting validated once, then the client's part picked out. */
function readClientSettings(read: RawSettings): ClientSettings {
  return clientSettingsOf(readSettings(read));
}

describe('client settings from VS Code configuration', () => {
  it('passes VS Code http.proxy, http.proxyStrictSSL and http.noProxy to the core client', () => {
    const settings = readClientSettings(
      reader({
        'http.proxy': ' http://proxy.corp:3128 ',
        'http.proxyStrictSSL': false,
        'http.noProxy': ['internal.example.com', '', 7, '10.0.0.0/8'],
      }),
    );
    assert.deepEqual(settings.http, {
      proxy: 'http://proxy.corp:3128',
      proxyStrictSSL: false,
      noProxy: ['internal.example.com', '10.0.0.0/8'],
    });
  });

  it('leaves unset proxy settings out, so the core falls back to HTTPS_PROXY/NO_PROXY', () => {
    assert.deepEqual(readClientSettings(reader({ 'http.proxy': '', 'http.noProxy': [] })).http, {});
  });

  it('maps concurrency and the request timeout (seconds to ms), clamping hand-edited values', () => {
    assert.deepEqual(
      readClientSettings(reader({ 'onboardingEvents.maxConcurrentRequests': 4, 'onboardingEvents.requestTimeoutSeconds': 45 })).http,
      {
        maxConcurrency: 4,
        requestTimeoutMs: 45_000,
      },
    );
    // 1000 is clamped to the maximum, 64, which is also the core's default ceiling and so left out.
    assert.deepEqual(
      readClientSettings(reader({ 'onboardingEvents.maxConcurrentRequests': 1000, 'onboardingEvents.requestTimeoutSeconds': 1 })).http,
      {
        requestTimeoutMs: 5_000,
      },
    );
    assert.deepEqual(readClientSettings(reader({ 'onboardingEvents.maxConcurrentRequests': 'eight' })).http, {});
  });

  it('passes http.proxyAuthorization, http.systemCertificates off and the CA file to the core client', () => {
    const settings = readClientSettings(
      reader({
        'http.proxyAuthorization': 'Basic dTpw',
        'http.systemCertificates': false,
        'onboardingEvents.caCertificatesFile': ' /etc/company/root-ca.pem ',
      }),
    );
    assert.deepEqual(settings.http, {
      proxyAuthorization: 'Basic dTpw',
      systemCertificates: false,
      caCertificatesFile: '/etc/company/root-ca.pem',
    });
    assert.deepEqual(readClientSettings(reader({ 'http.systemCertificates': true, 'onboardingEvents.caCertificatesFile': '' })).http, {});
  });

  it('treats a CA file setting of only spaces as unset, so the client adds no CA file', () => {
    assert.deepEqual(readClientSettings(reader({ 'onboardingEvents.caCertificatesFile': ' \t ' })).http, {});
  });

  it("the core's error messages name the CA setting by its real id, and package.json makes it machine-scoped (a workspace must not pick the CAs)", () => {
    assert.equal(CA_FILE_SETTING, settingId('caCertificatesFile'));
    const manifest = JSON.parse(readFileSync(join(__dirname, '../../../../../../package.json'), 'utf8')) as {
      contributes: { configuration: { properties: Record<string, { scope?: string }> } };
    };
    assert.equal(manifest.contributes.configuration.properties[CA_FILE_SETTING]?.scope, 'machine');
  });

  // That a change of one of them rebuilds the client is seen from outside, by the fake API's token
  // requests: test/integration/session/clientSettings.test.ts.
  // One changed value for each setting the client is built from.
  const changed: Record<string, unknown> = {
    'http.proxy': 'http://proxy.corp:3128',
    'http.proxyStrictSSL': false,
    'http.noProxy': ['internal.example.com'],
    'http.proxyAuthorization': 'Basic dTpw',
    'http.systemCertificates': false,
    'onboardingEvents.caCertificatesFile': '/etc/company/root-ca.pem',
    'onboardingEvents.timestampUnit': 'seconds',
    'onboardingEvents.maxConcurrentRequests': 8,
    'onboardingEvents.requestTimeoutSeconds': 60,
  };
  it('rebuilds the client on a change of exactly the settings it is built from', () => {
    const unchanged = readClientSettings(reader({}));
    for (const [id, value] of Object.entries(changed))
      assert.notDeepEqual(readClientSettings(reader({ [id]: value })), unchanged, `${id} changes the client`);
    assert.deepEqual([...CLIENT_SETTINGS].sort(), Object.keys(changed).sort());
  });

  it('reads the timestamp unit, defaulting to auto', () => {
    assert.equal(readClientSettings(reader({ 'onboardingEvents.timestampUnit': 'seconds' })).timestampUnit, 'seconds');
    assert.equal(readClientSettings(reader({ 'onboardingEvents.timestampUnit': 'milliseconds' })).timestampUnit, 'milliseconds');
    assert.equal(readClientSettings(reader({ 'onboardingEvents.timestampUnit': 'weeks' })).timestampUnit, 'auto');
    assert.equal(readClientSettings(reader({})).timestampUnit, 'auto');
  });
});
