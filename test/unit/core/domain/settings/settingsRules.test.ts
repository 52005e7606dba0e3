import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  HTTP_SETTING_RULES,
  readSettings,
  SECTION,
  SETTING_RULES,
  type RawSettings,
} from '../../../../../src/core/domain/settings/settingsRules';

interface Contributed {
  readonly default?: unknown;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly enum?: readonly string[];
}

const root = join(__dirname, '..', '..', '..', '..', '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, Contributed> } };
};
const contributed = manifest.contributes.configuration.properties;

const reading =
  (values: Record<string, unknown>): RawSettings =>
  (section, name) =>
    values[`${section}.${name}`];

describe('settings rules (the one settings reader)', () => {
  it('has a rule for every onboardingEvents setting in package.json, and no rule without one', () => {
    const declared = Object.keys(contributed)
      .map((id) => id.slice(SECTION.length + 1))
      .sort();
    assert.deepEqual(Object.keys(SETTING_RULES).sort(), declared);
  });

  it('uses the defaults, ranges and choices package.json declares', () => {
    for (const [name, rule] of Object.entries(SETTING_RULES)) {
      const spec = contributed[`${SECTION}.${name}`];
      assert.ok(spec, name);
      assert.deepEqual(rule.default, spec.default, `${name}: default`);
      if ('min' in rule && spec.minimum !== undefined) assert.equal(rule.min, spec.minimum, `${name}: minimum`);
      if ('max' in rule && spec.maximum !== undefined) assert.equal(rule.max, spec.maximum, `${name}: maximum`);
      if ('values' in rule) assert.deepEqual(rule.values, spec.enum, `${name}: choices`);
    }
  });

  it('reads every default when nothing is set', () => {
    const settings = readSettings(() => undefined);
    for (const [name, rule] of Object.entries(SETTING_RULES))
      assert.deepEqual(settings[name as keyof typeof SETTING_RULES], rule.default, name);
    assert.deepEqual(settings.http, {
      proxy: undefined,
      proxyStrictSSL: true,
      noProxy: [],
      proxyAuthorization: undefined,
      systemCertificates: true,
    });
    assert.equal(Object.keys(HTTP_SETTING_RULES).length, 5);
  });

  it('reads blank optional text (the proxy, its authorization) as unset, and trims the rest', () => {
    const blank = readSettings(reading({ 'http.proxy': '   ', 'http.proxyAuthorization': '\t' }));
    assert.equal(blank.http.proxy, undefined);
    assert.equal(blank.http.proxyAuthorization, undefined);
    assert.equal(readSettings(reading({ 'http.proxy': ' http://proxy.corp:3128 ' })).http.proxy, 'http://proxy.corp:3128');
  });

  it('clamps hand-edited numbers into their range and rounds them', () => {
    const settings = readSettings(
      reading({
        'onboardingEvents.maxConcurrentRequests': 1000,
        'onboardingEvents.cacheSeconds': -5,
        'onboardingEvents.hover.maxEvents': 7.6,
        'onboardingEvents.autoRefresh.intervalSeconds': 1,
      }),
    );
    assert.equal(settings.maxConcurrentRequests, 64);
    assert.equal(settings.cacheSeconds, 0);
    assert.equal(settings['hover.maxEvents'], 8);
    assert.equal(settings['autoRefresh.intervalSeconds'], 30);
  });

  it('falls back to the default for values of the wrong type', () => {
    const settings = readSettings(
      reading({
        'onboardingEvents.maxConcurrentRequests': 'eight',
        'onboardingEvents.hover.enabled': 'yes',
        'onboardingEvents.timestampUnit': 'weeks',
        'onboardingEvents.tree.pinnedScope': 3,
        'onboardingEvents.serialNumber.pattern': 42,
      }),
    );
    assert.equal(settings.maxConcurrentRequests, 64);
    assert.equal(settings['hover.enabled'], true);
    assert.equal(settings.timestampUnit, 'auto');
    assert.equal(settings['tree.pinnedScope'], 'workspace');
    assert.equal(settings['serialNumber.pattern'], SETTING_RULES['serialNumber.pattern'].default);
  });

  it('keeps only the non-blank strings of a hand-edited list (the deny list, languages, http.noProxy)', () => {
    const settings = readSettings(
      reading({
        'onboardingEvents.serialNumber.denyList': ['AB-1234-XXXXX', 7, null, ' ', ' CD-0000-00000 '],
        'http.noProxy': ['corp.example', {}],
        'onboardingEvents.hover.languages': 'yaml',
      }),
    );
    assert.deepEqual(settings['serialNumber.denyList'], ['AB-1234-XXXXX', 'CD-0000-00000']);
    assert.deepEqual(settings.http.noProxy, ['corp.example']);
    assert.deepEqual(settings['hover.languages'], ['*']);
  });
});
