import * as assert from 'node:assert/strict';
import { plainLocalize } from '../../../src/core/common/localize';
import {
  inlineStatusText,
  planProblems,
  planStatuses,
  problemMessage,
  stateSummary,
  type SerialStatus,
} from '../../../src/extension/editor/statusText';
import type { LineMatch } from '../../../src/core/domain/serialNumbers/visibleSerials';
import { serverText } from '../../../src/core/common/serverText';

const at = (line: number, serialNumber: string): LineMatch => ({ line, start: 0, end: serialNumber.length, serialNumber });

const DAY = 86_400_000;
const ctx = { now: 10 * DAY, locale: 'en', t: plainLocalize };

describe('status text (inline status, Problems entries, completion details)', () => {
  it('says glyph, state and the age of the latest event', () => {
    assert.equal(inlineStatusText('onboarded', 7 * DAY, ctx), '\u2713 onboarded · 3 days ago');
    assert.equal(inlineStatusText('failed', 9 * DAY, ctx), '\u2717 failed · yesterday');
  });

  it('has no age when there is no event', () => {
    assert.equal(stateSummary('no-events', undefined, ctx), 'no events');
    assert.equal(inlineStatusText('unknown', undefined, ctx), '? unknown');
  });

  it('words each problem', () => {
    assert.equal(
      problemMessage('MX-4711-A0023', 'failed', 'ONBOARDING_FAILED', ctx),
      'Onboarding of MX-4711-A0023 failed: its latest event is ONBOARDING_FAILED.',
    );
    assert.match(problemMessage('MX-4711-A0023', 'no-events', undefined, ctx), /no onboarding events/);
    assert.match(problemMessage('MX-4711-A0023', 'unknown', undefined, ctx), /does not know/);
  });

  it('plans statuses and problems with one state look-up per distinct serial number, skipping unknown ones', () => {
    const states: Record<string, SerialStatus> = {
      A: { state: 'onboarded', latestEpochMs: 9 * DAY, latestType: serverText('DONE'), stale: false },
      B: { state: 'failed', latestEpochMs: 9 * DAY, latestType: serverText('X_FAILED\nsecond line'), stale: false },
      C: { state: 'unknown', latestEpochMs: undefined, latestType: undefined, stale: false },
    };
    const asked: string[] = [];
    const stateOf = (serial: string) => {
      asked.push(serial);
      return states[serial];
    };
    const matches = [at(0, 'A'), at(1, 'B'), at(2, 'A'), at(3, 'D'), at(4, 'B'), at(5, 'C')];
    const statuses = planStatuses(matches, stateOf, ctx);
    assert.deepEqual(
      statuses.map((s) => [s.match.line, s.state]),
      [
        [0, 'onboarded'],
        [1, 'failed'],
        [2, 'onboarded'],
        [4, 'failed'],
        [5, 'unknown'],
      ],
    );
    assert.deepEqual(asked, ['A', 'B', 'D', 'C']);
    asked.length = 0;
    const problems = planProblems(matches, stateOf, ctx);
    assert.deepEqual(
      problems.map((p) => [p.match.line, p.state]),
      [
        [1, 'failed'],
        [4, 'failed'],
        [5, 'unknown'],
      ],
    );
    assert.deepEqual(asked, ['A', 'B', 'D', 'C']);
    assert.equal(problems[0]?.message, 'Onboarding of B failed: its latest event is X_FAILED second line.', 'server text is one line');
  });
});
