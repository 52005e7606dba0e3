// The one settings → serial-number matcher builder that the views, oe check and oe mcp share.
import * as assert from 'node:assert/strict';
import { serialMatcherOf } from '../../../../../src/core/domain/serialNumbers/settingsMatcher';
import { readSettings, SECTION } from '../../../../../src/core/domain/settings/settingsRules';

/** The settings a .vscode/settings.json with `values` gives (as VS Code and oe read them). */
function settingsWith(values: Readonly<Record<string, unknown>>) {
  return readSettings((section, name) => (section === SECTION ? values[`${SECTION}.${name}`] : undefined));
}

describe('serialMatcherOf: the serialNumber.* settings as one matcher', () => {
  it('uses the pattern, the minimum length and the deny list of the settings', () => {
    const matcher = serialMatcherOf(
      settingsWith({
        'onboardingEvents.serialNumber.pattern': '\\bSN-\\d+\\b',
        'onboardingEvents.serialNumber.minLength': 6,
        'onboardingEvents.serialNumber.denyList': ['SN-0000'],
      }),
    );
    assert.deepEqual(
      matcher.findAll('SN-1 SN-4711 SN-0000 MX-4711-A0023').map((match) => match.serialNumber),
      ['SN-4711'],
    );
  });

  it('uses a minimum length other than the default: shorter matches of the pattern are not serial numbers', () => {
    const matcher = serialMatcherOf(
      settingsWith({ 'onboardingEvents.serialNumber.pattern': '\\bSN-\\d+\\b', 'onboardingEvents.serialNumber.minLength': 8 }),
    );
    assert.deepEqual(
      matcher.findAll('SN-47 SN-4711 SN-47110').map((match) => match.serialNumber),
      ['SN-47110'],
    );
  });

  it("says why a refused pattern is not used, in the caller's words, and falls back to the default", () => {
    const matcher = serialMatcherOf(settingsWith({ 'onboardingEvents.serialNumber.pattern': '(unclosed' }), (message) => `«${message}»`);
    assert.match(matcher.problem ?? '', /^«/);
    assert.deepEqual(
      matcher.findAll('MX-4711-A0023').map((match) => match.serialNumber),
      ['MX-4711-A0023'],
    );
  });
});
