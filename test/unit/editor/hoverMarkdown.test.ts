// The hover's Markdown is built from untrusted server data: these tests feed
// it hostile strings and check that only our own command links survive, and
// that the table keeps its shape.
import assert from 'node:assert/strict';
import type { EventsResult, OnboardingEvent } from '../../../src/core/client/model';
import { validateEvent } from '../../../src/core/client/validateEvents';
import {
  ERROR_TEXT_MAX,
  errorHoverMarkdown,
  eventsHoverMarkdown,
  shortenErrorText,
  HOVER_ENABLED_COMMANDS,
  MESSAGE_CELL_MAX,
  signedOutHoverMarkdown,
  type HoverContext,
} from '../../../src/extension/editor/hoverMarkdown';
import { makeEvent } from '../../support/fakeApi';
import { ApiError, errorForTransportFailure } from '../../../src/core/client/errors';
import { CA_FILE_SETTING, extensionErrorText } from '../../../src/extension/workbench/remedies';
import { TransportError } from '../../../src/core/client/http/transport';
import { plainLocalize } from '../../../src/core/common/localize';
import { COMMANDS } from '../../../src/extension/workbench/constants';
import { DEFAULT_EVENT_STATE_RULES, parseEventStateRules } from '../../../src/core/domain/events/eventState';
import { LineHistory } from '../../../src/core/domain/progress/lineHistory';
import { machineProgress } from '../../../src/core/domain/progress/machineProgress';

const NOW = Date.UTC(2025, 5, 2, 12, 0, 0);
const MINUTE = 60_000;
const SERIAL = 'MX-4711-A0023';
const ctx: HoverContext = { now: NOW, locale: 'en', t: plainLocalize, maxEvents: 5, timeZone: 'UTC', rules: DEFAULT_EVENT_STATE_RULES };

function event(type: string, message: string, minutesAgo: number): OnboardingEvent {
  const result = validateEvent(makeEvent({ type, message, timestamp: NOW - minutesAgo * MINUTE }), SERIAL);
  assert.ok(typeof result !== 'string', result as string);
  return result;
}

function result(events: OnboardingEvent[], extra: Partial<EventsResult> = {}): EventsResult {
  return { serialNumber: SERIAL, events, invalid: [], fetchedAt: NOW - 5 * MINUTE, truncated: false, ...extra };
}

/** Every `](target)` in the Markdown: the link targets the renderer would follow. */
function linkTargets(markdown: string): string[] {
  const targets: string[] = [];
  const link = /(?<!\\)\]\((?<target>[^)\s]+)/g;
  for (const m of markdown.matchAll(link)) targets.push(m.groups?.['target'] ?? '');
  return targets;
}

function tableRows(markdown: string): string[] {
  return markdown.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| :--'));
}

/** A table row split on unescaped pipes. */
function cells(row: string): string[] {
  return row
    .split(/(?<!\\)\|/)
    .slice(1, -1)
    .map((c) => c.trim().replace(/\u00a0/g, ' '));
}

describe('hover markdown: events table', () => {
  it('shows the latest events newest first with type, relative time and message', () => {
    const md = eventsHoverMarkdown(
      SERIAL,
      { result: result([event('ONBOARDING_COMPLETED', 'Done', 10), event('ONBOARDING_STARTED', 'Go', 3 * 24 * 60)]), stale: false },
      ctx,
    );
    const rows = tableRows(md);
    assert.deepEqual(cells(rows[0] ?? ''), ['Type', 'When', 'Message']);
    assert.deepEqual(cells(rows[1] ?? ''), ['ONBOARDING\\_COMPLETED', '10 minutes ago', 'Done']);
    assert.deepEqual(cells(rows[2] ?? ''), ['ONBOARDING\\_STARTED', '3 days ago', 'Go']);
    // Read as rendered (escapes removed): the count, and the same exact time as the tree tooltip and the details panel, under the table.
    const paragraphs = md.split('\n\n').map((p) => p.replace(/\\(.)/g, '$1'));
    assert.equal(paragraphs.at(-1), '_2 events · latest Jun 2, 2025, 11:50:00 AM UTC_');
  });

  it('puts the state of the machine and the actions first, the table after, so a small hover shows what matters without scrolling', () => {
    const failed = eventsHoverMarkdown(
      SERIAL,
      { result: result([event('ONBOARDING_FAILED', 'Timeout', 90), event('ONBOARDING_STARTED', 'Go', 100)]), stale: false },
      ctx,
    );
    const paragraphs = failed.split('\n\n');
    // A short state word and the age of the newest event, not the raw type (which is in the table).
    assert.equal(paragraphs[0], '**MX\\-4711\\-A0023** · failed · 2 hours ago');
    assert.ok(paragraphs[1]?.startsWith(`[Show Details](command:${COMMANDS.showEventDetails}?`), paragraphs[1]);
    assert.ok(paragraphs[1]?.includes(`(command:${COMMANDS.copySerialNumber}?`));
    assert.ok(paragraphs[2]?.startsWith('| Type | When | Message |'));
    const completed = eventsHoverMarkdown(SERIAL, { result: result([event('ONBOARDING_COMPLETED', 'Done', 3)]), stale: false }, ctx);
    assert.equal(completed.split('\n\n')[0], '**MX\\-4711\\-A0023** · onboarded · 3 minutes ago');
    const started = eventsHoverMarkdown(SERIAL, { result: result([event('DEVICE_REGISTERED', 'ok', 3)]), stale: false }, ctx);
    assert.equal(started.split('\n\n')[0], '**MX\\-4711\\-A0023** · in progress · 3 minutes ago');
    // A stale result says so right under the state, before the actions.
    const stale = eventsHoverMarkdown(SERIAL, { result: result([event('A', 'b', 1)]), stale: true }, ctx).split('\n\n');
    assert.match(stale[1] ?? '', /^_Not up to date/);
    assert.match(stale[2] ?? '', /^\[Show Details\]/);
  });

  it("says the state the user's eventStates rules give, the word the tree and the inline status use", () => {
    const rules = parseEventStateRules({ failed: ['STARTED'], onboarded: ['FAILED'] });
    const failed = eventsHoverMarkdown(
      SERIAL,
      { result: result([event('ONBOARDING_FAILED', 'Timeout', 3)]), stale: false },
      { ...ctx, rules },
    );
    assert.equal(failed.split('\n\n')[0], '**MX\\-4711\\-A0023** · onboarded · 3 minutes ago');
    const started = eventsHoverMarkdown(
      SERIAL,
      { result: result([event('ONBOARDING_STARTED', 'Go', 3)]), stale: false },
      { ...ctx, rules },
    );
    assert.equal(started.split('\n\n')[0], '**MX\\-4711\\-A0023** · failed · 3 minutes ago');
  });

  it('puts the actions before the error text when loading failed', () => {
    const md = errorHoverMarkdown(SERIAL, 'The API had a problem answering (HTTP 500). Try again later.', ctx).split('\n\n');
    assert.match(md[1] ?? '', /^\[Show Log\]\(command:/);
    assert.match(md[2] ?? '', /^Could not load onboarding events:/);
  });

  it('shows at most maxEvents rows and says how many are hidden', () => {
    const events = Array.from({ length: 8 }, (_, i) => event('STEP', `step ${i}`, i));
    const md = eventsHoverMarkdown(SERIAL, { result: result(events), stale: false }, { ...ctx, maxEvents: 3 });
    assert.equal(tableRows(md).length, 1 + 3);
    assert.match(md, /5 older events not shown/);
  });

  it('says so when the machine has no events, and offers no Show Details', () => {
    const md = eventsHoverMarkdown(SERIAL, { result: result([]), stale: false }, ctx);
    assert.match(md, /No onboarding events recorded/);
    assert.equal(tableRows(md).length, 0);
    assert.ok(!md.includes(COMMANDS.showEventDetails));
    assert.ok(md.includes(COMMANDS.revealMachine));
  });

  it('links Show Details to the latest event by key, and Reveal, Pin, Copy and Copy Link by serial number', () => {
    const latest = event('ONBOARDING_COMPLETED', 'Done', 1);
    const md = eventsHoverMarkdown(SERIAL, { result: result([latest, event('A', 'b', 9)]), stale: false }, ctx);
    const targets = linkTargets(md);
    const decode = (target: string): { command: string; args: unknown } => {
      const [command, query] = target.replace(/^command:/, '').split('?');
      return { command: command ?? '', args: JSON.parse(decodeURIComponent(query ?? '[]')) };
    };
    assert.deepEqual(targets.map(decode), [
      { command: COMMANDS.showEventDetails, args: [{ serialNumber: SERIAL, key: latest.key }] },
      { command: COMMANDS.revealMachine, args: [{ serialNumber: SERIAL }] },
      { command: COMMANDS.pinMachine, args: [{ serialNumber: SERIAL }] },
      { command: COMMANDS.copySerialNumber, args: [{ serialNumber: SERIAL }] },
      { command: COMMANDS.copyLinkToMachine, args: [{ serialNumber: SERIAL }] },
    ]);
  });

  it('offers Watch for a machine not onboarded yet, and not for one that is', () => {
    const watchLinks = (type: string): string[] =>
      linkTargets(eventsHoverMarkdown(SERIAL, { result: result([event(type, 'm', 1)]), stale: false }, ctx)).filter((target) =>
        target.startsWith(`command:${COMMANDS.watchMachine}?`),
      );
    assert.equal(watchLinks('DEVICE_REGISTERED').length, 1);
    assert.equal(watchLinks('ONBOARDING_FAILED').length, 1);
    assert.deepEqual(watchLinks('ONBOARDING_COMPLETED'), []);
  });

  it('marks a stale result with when it was loaded and why the refresh failed', () => {
    const md = eventsHoverMarkdown(SERIAL, { result: result([event('A', 'b', 1)]), stale: true, error: new Error('Server [down]') }, ctx);
    assert.match(md, /Not up to date: last loaded 5 minutes ago\./);
    assert.ok(md.includes('Server \\[down\\]'));
  });

  it("words a stale result's refresh error and the error hover in the hover's language, with the error's own text", () => {
    // A t that marks what it translated: the error's text must come through ctx.t, not its English message.
    const marked: HoverContext = { ...ctx, t: (message, ...args) => `«${plainLocalize(message, ...args)}»` };
    const error = new ApiError(
      'server',
      { kind: 'invalid-input', text: (t) => t('The API had a problem answering (HTTP {0}).', 500) },
      { status: 500 },
    );
    const stale = eventsHoverMarkdown(SERIAL, { result: result([event('A', 'b', 1)]), stale: true, error }, marked);
    assert.ok(stale.includes(String.raw`«The API had a problem answering \(HTTP 500\)\.»`), stale);
    const failed = errorHoverMarkdown(SERIAL, '«Server down.»', marked).split('\n\n');
    assert.equal(failed[2], String.raw`«Could not load onboarding events: «Server down\.»»`);
  });

  it('reports events that could not be read and links to the log', () => {
    const md = eventsHoverMarkdown(
      SERIAL,
      { result: result([event('A', 'b', 1)], { invalid: [{ index: 2, reason: 'type is missing', raw: {} }] }), stale: false },
      ctx,
    );
    assert.match(md, /1 event could not be read/);
    assert.ok(linkTargets(md).some((t) => t.startsWith(`command:${COMMANDS.showLog}`)));
  });
});

describe('hover markdown: hostile server data stays text', () => {
  const hostile: readonly [string, string][] = [
    ['an HTML image with onerror', '<img src=x onerror=alert(1)>'],
    ['a script tag', '<script>alert("x")</script>'],
    ['a command link', '[open terminal](command:workbench.action.terminal.new)'],
    ['a reference-style link', '[x][1]\n\n[1]: command:workbench.action.terminal.new'],
    ['an autolink', '<command:workbench.action.terminal.new>'],
    ['a bare URL', 'see https://evil.example/x and www.evil.example'],
    ['pipes that would split the cell', 'a | b | c'],
    ['backticks', '`code` and ``more``'],
    ['newlines that would end the table', 'line one\n| injected | row | here |\nline three'],
    ['a theme icon', '$(alert) pwned'],
    ['emphasis and headings', '# big **bold** _it_ ~~gone~~'],
    ['an HTML entity', '&lt;b&gt; &#60;script&#62;'],
    ['an image', '![x](https://evil.example/p.png)'],
    ['bidi and zero-width characters', 'ab\u202ecd\u200bef'],
  ];
  for (const [name, message] of hostile) {
    it(`${name}: no link, HTML or extra row`, () => {
      const md = eventsHoverMarkdown(SERIAL, { result: result([event(message, message, 1)]), stale: false }, ctx);
      // Only our own command links.
      for (const target of linkTargets(md)) {
        const command = target.replace(/^command:/, '').split('?')[0] ?? '';
        assert.ok(target.startsWith('command:') && HOVER_ENABLED_COMMANDS.includes(command), `unexpected link ${target}`);
      }
      // One header and one event row, each with exactly three cells.
      const rows = tableRows(md);
      assert.equal(rows.length, 2);
      for (const row of rows) assert.equal(cells(row).length, 3, row);
      const row = rows[1] ?? '';
      assert.ok(!/(?<!\\)[<>`$[\]&*_#!]/.test(row), `unescaped markup in ${row}`);
      assert.ok(!/[\u200b\u202e]/.test(row));
    });
  }

  it('truncates long messages to the cell width with an ellipsis', () => {
    const long = 'x'.repeat(500);
    const md = eventsHoverMarkdown(SERIAL, { result: result([event('A', long, 1)]), stale: false }, ctx);
    const cell = cells(tableRows(md)[1] ?? '')[2] ?? '';
    assert.equal(Array.from(cell).length, MESSAGE_CELL_MAX);
    assert.ok(cell.endsWith('…'));
  });

  it('escapes a serial number that a custom pattern let through', () => {
    const md = signedOutHoverMarkdown('[x](command:evil)', ctx);
    assert.ok(!linkTargets(md).some((t) => t.includes('evil')));
  });
});

describe('hover markdown: signed out and errors', () => {
  it('signed out: offers Sign In and nothing that needs data', () => {
    const md = signedOutHoverMarkdown(SERIAL, ctx);
    assert.match(md, /Sign in to see the onboarding events/);
    assert.deepEqual(linkTargets(md), [`command:${COMMANDS.signIn}?${encodeURIComponent('[]')}`]);
  });

  it('an error without cached data: escaped message, Show Log, and no Show Details', () => {
    const md = errorHoverMarkdown(SERIAL, 'The server answered 500 <b>boom</b>\nsecond line', ctx);
    assert.ok(md.includes('500 \\<b\\>boom\\<\\/b\\> second line'));
    assert.ok(linkTargets(md).some((t) => t.startsWith(`command:${COMMANDS.showLog}`)));
    assert.ok(!md.includes(COMMANDS.showEventDetails));
  });

  it('uses the localizer for every fixed string', () => {
    const shout = (message: string, ...args: (string | number | boolean)[]): string => plainLocalize(message, ...args).toUpperCase();
    const md = eventsHoverMarkdown(SERIAL, { result: result([event('a', 'b', 1)]), stale: false }, { ...ctx, t: shout });
    assert.match(md, /\| TYPE \| WHEN \| MESSAGE \|/);
    assert.match(md, /\[SHOW DETAILS\]/);
  });
});

describe('hover markdown: an error message keeps its advice', () => {
  const unescape = (markdown: string): string => markdown.replace(/\\(.)/g, '$1');

  it('shows the CA setting of the untrusted-certificate message, in a stale hover and in an error hover', () => {
    const message = extensionErrorText(
      errorForTransportFailure(
        new TransportError('untrusted-certificate', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE'),
        'GET',
        'https://api.plant.test:8443/v1/machines/X/events',
        30_000,
      ),
      plainLocalize,
    );
    const stale = eventsHoverMarkdown(SERIAL, { result: result([event('A', 'b', 1)]), stale: true, error: new Error(message) }, ctx);
    const failed = errorHoverMarkdown(SERIAL, message, ctx);
    for (const md of [stale, failed]) {
      assert.ok(unescape(md).includes(`set ${CA_FILE_SETTING} to that file's path`), md);
    }
  });

  it('shows the fix of the 407 message with a proxy named like the README example', () => {
    const message = extensionErrorText(
      errorForTransportFailure(
        new TransportError('proxy-auth-required', 'PROXY_407', {
          proxyHost: 'proxy.plant-north.example-corp.internal:3128',
          proxyCredentialsSent: true,
        }),
        'POST',
        'https://auth.plant.test/oauth/token',
        30_000,
      ),
      plainLocalize,
    );
    assert.ok(unescape(errorHoverMarkdown(SERIAL, message, ctx)).includes('or the http.proxyAuthorization setting.'));
  });

  it('cuts the middle of a message longer than the bound, keeping its start and its end', () => {
    const message = `Could not reach ${'a'.repeat(2000)}.plant.test (ECONNRESET). Check your network connection, the API base URL and proxy settings, then try again.`;
    const shown = shortenErrorText(message);
    assert.equal(Array.from(shown).length, ERROR_TEXT_MAX);
    assert.ok(shown.startsWith('Could not reach aaa'));
    assert.ok(shown.endsWith('then try again.'));
    assert.ok(shown.includes(' … '));
    assert.equal(shortenErrorText('short\nmessage'), 'short message');
  });
});

describe('hover markdown: progress of a machine in progress', () => {
  // The plant's own sequence (the steps setting): 5 min per step, so at a step past max(2 × 5, 10) = 10 min it is stalled.
  const history = new LineHistory(DEFAULT_EVENT_STATE_RULES);
  history.setSetting([
    { type: 'ONBOARDING_STARTED' },
    { type: 'FIRMWARE_CHECKED', expectedMinutes: 5 },
    { type: 'DEVICE_CONFIGURED', expectedMinutes: 5 },
    { type: 'ONBOARDING_COMPLETED', expectedMinutes: 5 },
  ]);
  const withProgress: HoverContext = {
    ...ctx,
    progress: (known) => machineProgress(known.events, history.steps(), NOW, DEFAULT_EVENT_STATE_RULES),
  };
  const paragraphs = (markdown: string): string[] => markdown.split('\n\n');

  it('says the step and the time to go on the first line, and what it rests on and how it was learned on the next', () => {
    const [first, second] = paragraphs(
      eventsHoverMarkdown(
        SERIAL,
        { result: result([event('FIRMWARE_CHECKED', 'ok', 2), event('ONBOARDING_STARTED', 'go', 7)]), stale: false },
        withProgress,
      ),
    );
    assert.equal(first, '**MX\\-4711\\-A0023** · in progress · step 2 of 4 · FIRMWARE\\_CHECKED · likely 10 min more');
    assert.match(second ?? '', /^_from the onboardingEvents\.steps setting\._ The steps are the onboardingEvents\.steps setting/);
  });

  it('says the stall instead of the time to go', () => {
    const [first] = paragraphs(
      eventsHoverMarkdown(
        SERIAL,
        { result: result([event('FIRMWARE_CHECKED', 'ok', 40), event('ONBOARDING_STARTED', 'go', 45)]), stale: false },
        withProgress,
      ),
    );
    assert.equal(
      first,
      '**MX\\-4711\\-A0023** · in progress · step 2 of 4 · FIRMWARE\\_CHECKED · stalled: at it for 40 min, usually under 5 min',
    );
  });

  it('says a machine silent for months is abandoned, in days, with no time to go', () => {
    const months = 150 * 24 * 60;
    const [first] = paragraphs(
      eventsHoverMarkdown(
        SERIAL,
        { result: result([event('FIRMWARE_CHECKED', 'ok', months), event('ONBOARDING_STARTED', 'go', months + 5)]), stale: false },
        withProgress,
      ),
    );
    assert.equal(
      first,
      '**MX\\-4711\\-A0023** · in progress · step 2 of 4 · FIRMWARE\\_CHECKED · abandoned: no event for 150 days, longer than any onboarding took',
    );
  });

  it('says nothing of progress from a stale result, whose time at its step is not known', () => {
    const [first] = paragraphs(
      eventsHoverMarkdown(
        SERIAL,
        { result: result([event('FIRMWARE_CHECKED', 'ok', 40), event('ONBOARDING_STARTED', 'go', 45)]), stale: true },
        withProgress,
      ),
    );
    assert.equal(first, '**MX\\-4711\\-A0023** · in progress · 40 minutes ago');
  });

  it('says "not enough history yet" with the count when the line has too few onboarded machines', () => {
    const learning: HoverContext = {
      ...ctx,
      progress: (known) =>
        machineProgress(known.events, new LineHistory(DEFAULT_EVENT_STATE_RULES).steps(), NOW, DEFAULT_EVENT_STATE_RULES),
    };
    const [first, second] = paragraphs(
      eventsHoverMarkdown(SERIAL, { result: result([event('FIRMWARE_CHECKED', 'ok', 2)]), stale: false }, learning),
    );
    assert.equal(first, '**MX\\-4711\\-A0023** · in progress · 2 minutes ago · not enough history yet (0 onboarded machines)');
    assert.match(second ?? '', /^_Progress is learned from the onboarded machines of this environment once at least 5 have onboarded/);
  });

  it('keeps a hostile step type text on the first line: no link, no HTML, one line', () => {
    const hostile = 'STEP](command:evil) <img src=x>\n# heading';
    const [first] = paragraphs(
      eventsHoverMarkdown(
        SERIAL,
        { result: result([event(hostile, 'x', 2), event('ONBOARDING_STARTED', 'go', 7)]), stale: false },
        withProgress,
      ),
    );
    assert.equal(
      first,
      '**MX\\-4711\\-A0023** · in progress · step 1 of 4 · STEP\\]\\(command\\:evil\\) \\<img src\\=x\\> \\# headi… · likely 15 min more',
    );
    assert.deepEqual(linkTargets(first), []);
  });
});
