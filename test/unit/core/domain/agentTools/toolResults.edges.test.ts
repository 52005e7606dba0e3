// The less common shapes of agent-tool results, each in its exact words: the
// model reads them, so a changed word is a changed answer. Links with titles
// and deprecations, stale results with their reason, unreadable events and
// truncated histories, the singular, the size limit's counts (what is shown
// plus what is counted is everything), and the texts that carry no data.
import * as assert from 'node:assert/strict';
import type { EventsResult, OnboardingEvent } from '../../../../../src/core/client/model';
import {
  invalidInputText,
  machineEventsText,
  scopeText,
  signInNeededText,
  summaryText,
  turnedOffText,
  type MachineReport,
  type ScopeEntry,
} from '../../../../../src/core/domain/agentTools/toolResults';
import { TOOL_LIMITS } from '../../../../../src/core/domain/agentTools/toolInput';
import { beginLine, dataNotice, endLine, type DataSource } from '../../../../../src/core/domain/agentTools/untrustedText';
import { event, MINUTE, NOW, result } from './fixtures';
import { DEFAULT_EVENT_STATE_RULES } from '../../../../../src/core/domain/events/eventState';

const API: DataSource = 'the Onboarding Events API';
const FILES: DataSource = 'workspace files and the Onboarding Events API';
const context = { now: NOW, environment: 'Test', rules: DEFAULT_EVENT_STATE_RULES };
const tools = { events: 'events_tool', summary: 'summary_tool' };
const FETCHED = 'fetched 2025-01-18T07:58:00.000Z (2 minutes ago)';

const report = (r: EventsResult, stale = false, refreshError?: string): MachineReport => ({
  serialNumber: r.serialNumber,
  outcome: { kind: 'events', result: r, stale, ...(refreshError === undefined ? {} : { refreshError }) },
});

function block(text: string, source: DataSource = API): string[] {
  const lines = text.split('\n');
  const begin = lines.indexOf(beginLine(source));
  const end = lines.indexOf(endLine(source));
  assert.ok(begin >= 0 && end > begin, text);
  return lines.slice(begin + 1, end);
}

function withLinks(base: OnboardingEvent, links: OnboardingEvent['links']): OnboardingEvent {
  return { ...base, links };
}

describe('agent tools: result text, edge cases', () => {
  describe('machine events', () => {
    it('names links by relation with their title or deprecation, at most five, and counts the rest', () => {
      const linked = withLinks(event({ minute: 1, type: 'STEP', message: 'm' }), {
        docs: [{ href: 'https://x', deprecation: 'https://d' }],
        help: [{ href: 'https://y', title: 'Help', deprecation: 'https://d' }],
        c: [{}],
        d: [{}],
        e: [{}, {}],
        f: [{}],
      });
      const lines = block(machineEventsText([report(result('MX-1', [linked]))], { maxEvents: 5, refused: [] }, context));
      assert.equal(
        lines[1],
        '  - 2025-01-15T08:01:00.000Z (3 days ago): type "STEP"; message "m"; links "docs" (deprecated), "help" (title "Help", deprecated), "c", "d", "e" and 2 more',
      );
    });

    it('shows exactly five links without counting more', () => {
      const linked = withLinks(event({ minute: 1, type: 'STEP', message: 'm' }), { a: [{}], b: [{}], c: [{}], d: [{}], e: [{}] });
      const lines = block(machineEventsText([report(result('MX-1', [linked]))], { maxEvents: 5, refused: [] }, context));
      assert.equal(lines[1]?.endsWith('; links "a", "b", "c", "d", "e"'), true, lines[1]);
    });

    it('a stale result says the refresh failed, and why when known', () => {
      const r = result('MX-1', [event({ minute: 1, type: 'STEP', message: 'm' })]);
      const header = (text: string): string => block(text)[0] ?? '';
      assert.equal(
        header(machineEventsText([report(r, true, 'HTTP 500\nretry')], { maxEvents: 1, refused: [] }, context)),
        `Machine "MX-1": state in progress (newest event type "STEP"); 1 events, all shown; ${FETCHED}, NOT UP TO DATE: the last refresh failed: "HTTP 500 retry".`,
      );
      assert.equal(
        header(machineEventsText([report(r, true)], { maxEvents: 1, refused: [] }, context)),
        `Machine "MX-1": state in progress (newest event type "STEP"); 1 events, all shown; ${FETCHED}, NOT UP TO DATE: the last refresh failed.`,
      );
    });

    it('lists a result read back out of order newest first, and keeps the newest when fewer are asked for', () => {
      const read: EventsResult = {
        ...result('MX-1', []),
        events: [2, 7, 4].map((minute) => event({ minute, message: `at ${minute}` })),
      };
      const messages = (maxEvents: number): string[] =>
        block(machineEventsText([report(read)], { maxEvents, refused: [] }, context))
          .slice(1)
          .map((line) => /message "([^"]*)"/.exec(line)?.[1] ?? line);
      assert.deepEqual(messages(3), ['at 7', 'at 4', 'at 2']);
      assert.deepEqual(messages(1), ['at 7']);
    });

    it('separates the notes of a machine with events by semicolons: fetched, stale, unreadable, truncated', () => {
      const r: EventsResult = {
        ...result('MX-1', [event({ minute: 1, type: 'STEP', message: 'm' })]),
        invalid: [{ index: 1, reason: 'no type', raw: {} }],
        truncated: true,
      };
      assert.equal(
        block(machineEventsText([report(r, true)], { maxEvents: 1, refused: [] }, context))[0],
        `Machine "MX-1": state in progress (newest event type "STEP"); 1 events, all shown; ${FETCHED}, NOT UP TO DATE: the last refresh failed; 1 events the API sent could not be read and are left out; the API had more pages than the extension reads, so older events may be missing.`,
      );
    });

    it('words a time that is no date, and leaves out the age when "now" is unknown', () => {
      const r = result('MX-1', [event({ minute: 1, type: 'STEP', message: 'm' })], Number.NaN);
      const lines = block(machineEventsText([report(r)], { maxEvents: 1, refused: [] }, { ...context, now: Number.NaN }));
      assert.deepEqual(lines, [
        'Machine "MX-1": state in progress (newest event type "STEP"); 1 events, all shown; fetched an impossible date.',
        '  - 2025-01-15T08:01:00.000Z: type "STEP"; message "m"',
      ]);
    });

    it('says how many events could not be read and that older pages may be missing', () => {
      const r: EventsResult = {
        ...result('MX-1', []),
        invalid: [
          { index: 0, reason: 'no type', raw: {} },
          { index: 3, reason: 'no time', raw: {} },
        ],
        truncated: true,
      };
      assert.deepEqual(block(machineEventsText([report(r)], { maxEvents: 1, refused: [] }, context)), [
        `Machine "MX-1": no events recorded; ${FETCHED}; 2 events the API sent could not be read and are left out; the API had more pages than the extension reads, so older events may be missing.`,
      ]);
    });

    it('opens with what it lists, in the singular or plural, then the notice and the block', () => {
      const one = machineEventsText([report(result('MX-1', []))], { maxEvents: 3, refused: [] }, context).split('\n');
      assert.deepEqual(one.slice(0, 3), [
        'Onboarding events of 1 machine from the Onboarding Events API (environment "Test"), newest first, at most 3 per machine. Times are UTC (ISO 8601) with their age. A machine\'s state is read from the type of its newest event.',
        dataNotice(API),
        beginLine(API),
      ]);
      const two = machineEventsText([report(result('MX-1', [])), report(result('MX-2', []))], { maxEvents: 3, refused: [] }, context);
      assert.match(two, /^Onboarding events of 2 machines from/);
      assert.equal(two.split('\n').at(-1), endLine(API), 'nothing after the block when nothing was refused or cut');
    });

    it('lists at most ten refused inputs, and says there were more', () => {
      const refused = Array.from({ length: 12 }, (_, i) => ({ input: `bad-${i}`, reason: 'not a serial number' }));
      const last = machineEventsText([], { maxEvents: 1, refused }, context).split('\n').at(-1) ?? '';
      assert.match(last, /^Ignored 12 entries that are not serial numbers: "bad-0" \(not a serial number\), /);
      assert.match(last, /"bad-9" \(not a serial number\), …\.$/);
      assert.ok(!last.includes('bad-10'));
      const ten =
        machineEventsText([], { maxEvents: 1, refused: refused.slice(0, 10) }, context)
          .split('\n')
          .at(-1) ?? '';
      assert.match(ten, /"bad-9" \(not a serial number\)\.$/);
    });

    it('at the size limit, what is shown plus what is counted is every machine and every event asked for', () => {
      const machines = 30;
      const perMachine = 40;
      const reports = Array.from({ length: machines }, (_, m) =>
        report(
          result(
            `MX-${m}`,
            Array.from({ length: perMachine }, (_, i) => event({ minute: i, message: `${m}:${i}:${'y'.repeat(300)}` })),
          ),
        ),
      );
      const text = machineEventsText(reports, { maxEvents: 25, refused: [] }, context);
      const lines = block(text);
      const shownMachines = lines.filter((line) => line.startsWith('Machine ')).length;
      const shownEvents = lines.filter((line) => line.startsWith('  - ')).length;
      const cut = /: (\d+) machines and (\d+) more events not shown\./.exec(text);
      assert.ok(cut, text.slice(-400));
      assert.equal(shownMachines + Number(cut[1]), machines);
      assert.equal(shownEvents + Number(cut[2]), machines * 25);
      assert.ok(shownMachines > 0 && shownMachines < machines);
    });
  });

  describe('summary', () => {
    it('of nothing says there is nothing to count', () => {
      const text = summaryText([], [], context);
      assert.match(text, /^Onboarding summary of 0 machines from the Onboarding Events API \(environment "Test"\): nothing to count\./);
      assert.deepEqual(block(text), ['']);
    });

    it('of one machine in progress, not up to date, in the singular', () => {
      const r = result('MX-1', [event({ minute: 1, type: 'DEVICE_REGISTERED', message: 'registered' })]);
      const text = summaryText([report(r, true)], [], context);
      assert.match(text, /^Onboarding summary of 1 machine from the Onboarding Events API \(environment "Test"\): 1 in progress\./);
      assert.deepEqual(block(text), [
        'In progress (1):',
        '- "MX-1": newest event 2025-01-15T08:01:00.000Z (3 days ago): type "DEVICE_REGISTERED"; message "registered"; in progress since 2025-01-15T08:01:00.000Z (3 days ago) (NOT UP TO DATE: the last refresh failed)',
      ]);
    });

    it('marks a stale machine without events too', () => {
      assert.deepEqual(block(summaryText([report(result('MX-1', []), true)], [], context)), [
        'No events (1):',
        '- "MX-1": no events recorded (NOT UP TO DATE: the last refresh failed)',
      ]);
    });

    it('lists refused inputs after the block', () => {
      const text = summaryText([], [{ input: 'x', reason: 'too short' }], context);
      assert.equal(text.split('\n').at(-1), 'Ignored 1 entries that are not serial numbers: "x" (too short).');
    });

    it('at the size limit, the machines listed plus those counted are all of them', () => {
      const machines = 120;
      const reports = Array.from({ length: machines }, (_, m) =>
        report(result(`MX-${m}`, [event({ minute: 1, type: m % 2 === 0 ? 'ONBOARDING_FAILED' : 'STEP', message: 'z'.repeat(400) })])),
      );
      const text = summaryText(reports, [], context);
      const lines = block(text);
      const listed = lines.filter((line) => line.startsWith('- ')).length;
      const cut = /: (\d+) machines not shown\./.exec(text);
      assert.ok(cut, text.slice(-300));
      assert.equal(listed + Number(cut[1]), machines);
      assert.ok(text.length <= 24_000);
    });
  });

  describe('serial numbers in scope', () => {
    const entry = (serialNumber: string, extra: Partial<ScopeEntry> = {}): ScopeEntry => ({
      serialNumber,
      locations: [{ file: 'a.yaml', line: 0 }],
      occurrences: 1,
      pinned: false,
      recent: false,
      ...extra,
    });

    it('with nothing found, says so in the singular or plural, and shows no block', () => {
      const text = scopeText(
        [],
        {
          where: 'the active editor',
          capped: false,
          signedIn: true,
          knownFrom: 'this window already knew (pinned machines, recent look-ups, events fetched before)',
        },
        { now: NOW, rules: DEFAULT_EVENT_STATE_RULES },
        tools,
      );
      assert.equal(
        text,
        '0 serial numbers found in the active editor.\nNo request was sent: each state is what this window already knew (pinned machines, recent look-ups, events fetched before). For current events call events_tool, or summary_tool for counts by state, with these serial numbers.',
      );
    });

    it('notes a serial-number pattern that is not used, and an out-of-date known result without events', () => {
      const known = { result: result('MX-1', [], NOW - 5 * MINUTE), stale: true };
      const text = scopeText(
        [entry('MX-1', { known })],
        {
          where: 'the file',
          file: 'a.yaml',
          capped: false,
          signedIn: true,
          knownFrom: 'this window already knew (pinned machines, recent look-ups, events fetched before)',
          patternProblem: 'unterminated group',
        },
        { now: NOW, rules: DEFAULT_EVENT_STATE_RULES },
        tools,
      );
      const lines = text.split('\n');
      assert.equal(lines[0], '1 serial number found in the file "a.yaml".');
      assert.equal(lines[2], 'Note, the serial-number pattern setting is not used: "unterminated group"');
      assert.deepEqual(block(text, FILES), [
        '- "MX-1": line 1; state no events, as fetched 2025-01-18T07:55:00.000Z (5 minutes ago) (may be out of date)',
      ]);
      assert.equal(lines.at(-1), endLine(FILES), 'nothing after the block when every serial number is listed');
    });

    it('in the workspace, names up to three files and counts the others', () => {
      const text = scopeText(
        [
          entry('MX-1', {
            locations: [
              { file: 'a', line: 0 },
              { file: 'b', line: 1 },
              { file: 'c', line: 2 },
            ],
            occurrences: 3,
          }),
        ],
        {
          where: 'the workspace',
          filesScanned: 3,
          capped: false,
          signedIn: true,
          knownFrom: 'this window already knew (pinned machines, recent look-ups, events fetched before)',
        },
        { now: NOW, rules: DEFAULT_EVENT_STATE_RULES },
        tools,
      );
      assert.deepEqual(block(text, FILES), ['- "MX-1": in "a" line 1, "b" line 2, "c" line 3; state not known yet (no events fetched)']);
      assert.match(text, /^1 serial number found in the workspace \(3 files scanned\)\.\n/);
    });

    it('lists at most 200 serial numbers and counts the rest', () => {
      const entries = Array.from({ length: 205 }, (_, i) => entry(`MX-${i}`));
      const text = scopeText(
        entries,
        {
          where: 'the workspace',
          capped: true,
          signedIn: true,
          knownFrom: 'this window already knew (pinned machines, recent look-ups, events fetched before)',
        },
        { now: NOW, rules: DEFAULT_EVENT_STATE_RULES },
        tools,
      );
      assert.equal(block(text, FILES).length, 200);
      assert.equal(text.split('\n').at(-1), '5 more serial numbers not shown.');
    });

    it('at the size limit, the serial numbers listed plus those counted are all of them', () => {
      const locations = Array.from({ length: 3 }, (_, i) => ({ file: `${'d/'.repeat(90)}${i}`, line: i }));
      const entries = Array.from({ length: 150 }, (_, i) => entry(`MX-${i}`, { locations, occurrences: 3 }));
      const text = scopeText(
        entries,
        {
          where: 'the workspace',
          capped: false,
          signedIn: true,
          knownFrom: 'this window already knew (pinned machines, recent look-ups, events fetched before)',
        },
        { now: NOW, rules: DEFAULT_EVENT_STATE_RULES },
        tools,
      );
      const listed = block(text, FILES).length;
      const more = /^(\d+) more serial numbers not shown\.$/.exec(text.split('\n').at(-1) ?? '');
      assert.ok(more, text.slice(-200));
      assert.equal(listed + Number(more[1]), 150);
      assert.ok(text.length <= TOOL_LIMITS.maxResultChars, `${text.length} characters`);
    });
  });

  describe('texts without data', () => {
    it('signed out and rejected credentials, in full', () => {
      const ask =
        'Ask the user to sign in: run the command "Onboarding Events: Sign In" (command id oe.signIn) from the Command Palette, then call this tool again. Do not ask the user for a password or secret in the chat.';
      assert.equal(
        signInNeededText('signed-out', 'oe.signIn'),
        `The user is not signed in to the Onboarding Events API, so no request was sent. ${ask}`,
      );
      assert.equal(
        signInNeededText('credentials-rejected', 'oe.signIn'),
        `The Onboarding Events API rejected the stored credentials (they may have been changed or revoked), so no request was sent. ${ask}`,
      );
    });

    it('turned off and refused input, in full', () => {
      assert.equal(
        turnedOffText('oe.agentTools.enabled'),
        'The Onboarding Events tools are turned off by the setting oe.agentTools.enabled, so nothing was read. Tell the user they can turn them on in the settings.',
      );
      assert.equal(invalidInputText('Give "source".'), 'Nothing was read: Give "source".');
    });
  });
});
