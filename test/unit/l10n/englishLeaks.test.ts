// The pseudo-locale tier's rule: after the names are cut out, every ASCII
// word must be gone, because pseudo-localized text has none. These pin what
// counts as a leak and what counts as a name, so the tier in the extension
// host (test/integration/pseudo/) neither misses English nor cries wolf.
import * as assert from 'node:assert/strict';
import { describeLeaks, findEnglish, intlPatterns } from '../../support/l10n/englishLeaks';
import { pseudoLocalize } from '../../support/l10n/pseudoLocale';

const words = (text: string, allow?: Parameters<typeof findEnglish>[1]): string[] => findEnglish(text, allow).map((leak) => leak.text);

describe('English left in a pseudo-localized view (findEnglish)', () => {
  it('finds English that never went through l10n, with where it stands', () => {
    const leaks = findEnglish('Server error · HTTP 500. Try again later; if it persists, ask.');
    assert.deepEqual(
      leaks.map((leak) => [leak.text, leak.place]),
      [
        ['Server error', 'outside ⟦ ⟧'],
        ['Try again later; if it persists, ask', 'outside ⟦ ⟧'],
      ],
    );
    assert.match(leaks[0]?.excerpt ?? '', /Server error · HTTP 500/);
  });

  it('passes pseudo-localized text, its fixed parts and its padding', () => {
    for (const message of [
      'Sign in to the Onboarding Events API to see your machines.',
      'Set `onboardingEvents.apiBaseUrl` to {0}, e.g. https://api.example.com or MX-4711-A0023.',
      'No machines yet.\n[Add Machine](command:onboardingEvents.addMachine)',
      '$(check) Copied the link to the clipboard.',
    ]) {
      assert.deepEqual(words(pseudoLocalize(message)), [], message);
    }
  });

  it('finds a pseudo-localized message with English glued into its placeholder, inside ⟦ ⟧', () => {
    const shown = pseudoLocalize('Could not load the events: {0}').replace('{0}', 'Try again later');
    assert.deepEqual(
      findEnglish(shown).map((leak) => [leak.text, leak.place]),
      [['Try again later', 'inside ⟦ ⟧']],
    );
  });

  it('allows names: the given ones, product names, setting ids, hosts, URLs, numbers, codicons, command links', () => {
    const shown = [
      'MX-4711-A0023 ONBOARDING\\_COMPLETED Onboarding completed',
      'Onboarding Events · VS Code · HTTP 500 · HTTPS',
      'onboardingEvents.tree.maxEvents http.proxy proxy.example.com:8080 127.0.0.1:3128 localhost:80',
      'http://127.0.0.1:4711/public/api/machines/3f2b',
      '$(vm-active) [⟦Šîĝñ Îñ⟧](command:onboardingEvents.signIn?%5B%22x%22%5D) test.user+api@example.invalid',
    ].join('\n');
    assert.deepEqual(words(shown, { names: ['ONBOARDING_COMPLETED', 'Onboarding completed', '3f2b'] }), []);
  });

  it('allows an SI unit symbol after a number, but not the symbol or an English unit word on its own', () => {
    assert.deepEqual(words('⟦Ŧöķéñ ŕéǫûéšţ⟧ (12 ms) · 4 s · 3 min'), []);
    assert.deepEqual(words('⟦Ŧöķéñ⟧ ms'), ['ms']);
    assert.deepEqual(words('⟦Ŧöķéñ⟧ 12 seconds'), ['seconds']);
  });

  it('allows a name only as a whole word, and never an ordinary word because a name contains it', () => {
    assert.deepEqual(words('HTTPClient failed', { names: ['Onboarding completed'] }), ['HTTPClient failed']);
    assert.deepEqual(words('Onboarding failed'), ['Onboarding failed']);
    assert.deepEqual(words('Events'), ['Events']);
  });

  it('checks a code span outside ⟦ ⟧ like prose, and leaves it alone as a fixed part inside', () => {
    assert.deepEqual(words('`Refresh All`'), ['Refresh All']);
    assert.deepEqual(words(pseudoLocalize('Run `npm test` now')), []);
  });

  it("allows what Intl writes for dates and relative times in the locale, but not a month name on its own", () => {
    const patterns = intlPatterns('qps-ploc', 'UTC');
    const at = new Date(Date.UTC(2025, 0, 15, 8, 1));
    const absolute = new Intl.DateTimeFormat('qps-ploc', { dateStyle: 'medium', timeStyle: 'long', timeZone: 'UTC' }).format(at);
    const short = new Intl.DateTimeFormat('qps-ploc', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(at);
    const relative = new Intl.RelativeTimeFormat('qps-ploc', { numeric: 'auto', style: 'short' });
    const ago = new Intl.RelativeTimeFormat('qps-ploc', { numeric: 'auto', style: 'long' });
    // Views keep a relative time on one line with non-breaking spaces.
    const unbroken = ago.format(-2, 'year').replace(/ /g, '&nbsp;');
    const shown = `${pseudoLocalize('Latest: {0}').replace('{0}', `${relative.format(-3, 'month')} · ${absolute}`)} ${short} ${ago.format(-17, 'day')} ${ago.format(-1, 'day')} | ${unbroken} |`;
    assert.deepEqual(words(shown, { patterns }), [], shown);
    assert.deepEqual(words('May I help', { patterns }), ['May I help']);
    assert.deepEqual(words('3 mo. ago is stale', { patterns }), ['is stale']);
    // A time is a time only on its own: the "1:41" of a host and port is not one.
    assert.deepEqual(words('127.0.0.1:41947 ok', { patterns }), ['ok']);
  });

  it('describes each leak on one line with where it was seen', () => {
    assert.deepEqual(describeLeaks('tree: MX-1 tooltip', findEnglish('⟦Ļåţ⟧ Last refresh ⟦ţĥé {0} ⟧'.replace('{0}', 'server'))), [
      'tree: MX-1 tooltip: "Last refresh" outside ⟦ ⟧ in «⟦Ļåţ⟧ Last refresh ⟦ţĥé server ⟧»',
      'tree: MX-1 tooltip: "server" inside ⟦ ⟧ in «⟧ Last refresh ⟦ţĥé server ⟧»',
    ]);
  });
});
