// The agent tools on a line in progress (issue 38): the summary and the
// machine-events tool say for each machine in progress its step, time at it,
// when it is likely done and whether it is STALLED, with what that rests on;
// the summary lists the stalled first and counts them. English, the step's
// type quoted as data.
import * as assert from 'node:assert/strict';
import { machineEventsText, summaryText, type MachineReport } from '../../../../../src/core/domain/agentTools/toolResults';
import { DEFAULT_EVENT_STATE_RULES } from '../../../../../src/core/domain/events/eventState';
import { progressResults } from '../../../../support/board/boardFixtures';

const now = Date.UTC(2025, 0, 15, 11, 0, 0);
const { results, learned } = progressResults(now);
const reports: MachineReport[] = results.map((result) => ({
  serialNumber: result.serialNumber,
  outcome: { kind: 'events', result, stale: false },
}));
const context = { now, environment: 'Test', rules: DEFAULT_EVENT_STATE_RULES, learned };
const lineOf = (text: string, serial: string): string => text.split('\n').find((line) => line.startsWith(`- "${serial}"`)) ?? '';

describe('agent tool results with progress', () => {
  it('summary: counts the stalled, lists them first among those in progress, and says each one’s step, time to go and what it rests on', () => {
    const text = summaryText([...reports].reverse(), [], context);
    assert.match(text, /: 3 in progress \(1 of them STALLED\), 1 abandoned, 6 onboarded\./);
    const lines = text.split('\n');
    const inProgress = lines.slice(lines.findIndex((line) => line.startsWith('In progress')) + 1).slice(0, 3);
    assert.ok(inProgress[0]?.startsWith('- "LSR-7000-G0101"'), `stalled first: ${inProgress.join(' | ')}`);
    assert.match(
      lineOf(text, 'LSR-7000-G0101'),
      /progress: STALLED \(stalled: at it for 2 h 2 min, usually under 8 min\), step 4 of 6 · "NETWORK_CONFIGURED", at it for 2 h 2 min, time to go unknown \(too few machines of the history were at this step as long\), from 6 onboarded machines/,
    );
    assert.match(lineOf(text, 'LSR-7000-G0102'), /step 2 of 6 · "CERTIFICATE_ISSUED", at it for 0 ms, likely 27 min more/);
    assert.match(lineOf(text, 'LSR-7000-G0103'), /missing: "CERTIFICATE_ISSUED"/);
    assert.doesNotMatch(lineOf(text, 'MX-4711-A0100'), /progress/, 'an onboarded machine has no progress');
    // Silent for five months: listed apart, in days, with no time to go.
    const abandoned = lines.slice(lines.indexOf('Abandoned (1):') + 1)[0] ?? '';
    assert.match(
      abandoned,
      /^- "LSR-7000-G0104": .*; progress: ABANDONED \(abandoned: no event for 150 days, longer than any onboarding took\), step 2 of 6 · "CERTIFICATE_ISSUED", at it for 150 days, from 6 onboarded machines$/,
    );
    assert.ok(lines.indexOf('Abandoned (1):') > lines.indexOf('In progress (3):'), 'after those in progress');
    assert.match(text, /Learned from the 6 onboarded machines whose events are loaded/);
  });

  it('machine events: the header of a machine in progress says where it stands', () => {
    const text = machineEventsText(
      [reports[6], reports[7]].flatMap((r) => r ?? []),
      { maxEvents: 2, refused: [] },
      context,
    );
    assert.match(text, /Machine "LSR-7000-G0101": state in progress \(newest event type "NETWORK_CONFIGURED"\); progress: STALLED/);
    assert.match(text, /Machine "LSR-7000-G0102": state in progress \(newest event type "CERTIFICATE_ISSUED"\); progress: step 2 of 6/);
  });

  it('says when the history is too short, once, instead of guessing', () => {
    const text = summaryText(reports, [], { ...context, learned: { kind: 'not-enough', machines: 3 } });
    assert.match(text, /cannot be estimated yet: not enough history yet \(3 onboarded machines\)/);
    assert.match(lineOf(text, 'LSR-7000-G0101'), /progress: not enough history yet \(3 onboarded machines\)$/);
    assert.doesNotMatch(text, /STALLED/);
    const onboardedOnly = summaryText(reports.slice(0, 6), [], context);
    assert.doesNotMatch(onboardedOnly, /machines in progress/, 'no word on progress where no machine is in progress');
  });
});
