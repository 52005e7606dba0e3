// The words a watch shows in Watched Machines and on its Machines row, with
// the server's hostile step types of issue 34 (item 2): `$(…)` would be drawn
// as an icon in the quick pick, and a right-to-left override made
// "STEP ‮DELIAF‬" read as "STEP FAILED".
import * as assert from 'node:assert/strict';
import { plainLocalize } from '../../../src/core/common/localize';
import { serverText } from '../../../src/core/common/serverText';
import type { WatchInfo } from '../../../src/extension/watch/watchList';
import { progressDetail, rowDescription, watchDescription, type WatchTextContext } from '../../../src/extension/watch/watchText';
import type { MachineProgress } from '../../../src/core/domain/progress/machineProgress';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const ctx: WatchTextContext = { t: plainLocalize, locale: 'en', now: NOW };
const ICONS_AND_OVERRIDE = 'FAILED $(pass-filled) $(loading~spin) all checks \u202egnissap\u202c';
const REVERSED_STEP = 'STEP \u202eDELIAF\u202c';

const watching: WatchInfo = {
  serialNumber: 'MX-4711-W0005',
  environmentId: 'env',
  startedAt: NOW - 60_000,
  step: { type: serverText(REVERSED_STEP), at: NOW - 30_000 },
  status: 'watching',
};
const failed: WatchInfo = {
  ...watching,
  status: 'failed',
  outcome: { state: 'failed', type: serverText(ICONS_AND_OVERRIDE), at: NOW - 1_000, message: serverText('m'), tookMs: 1_000 },
};

/** What no surface may show of server text: an icon VS Code would draw, a bidi control, a line break. */
function assertInert(shown: string): void {
  assert.doesNotMatch(shown, /\$\(/, `no $( for VS Code to draw as an icon: ${JSON.stringify(shown)}`);
  assert.doesNotMatch(shown, /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/, `no bidi control: ${JSON.stringify(shown)}`);
  assert.doesNotMatch(shown, /[\r\n]/);
}

describe('watch text', () => {
  it("a watched machine's row reads its step as sent: no bidi override reverses it, no $(…) becomes an icon", () => {
    const shown = rowDescription(watching, ctx) ?? '';
    assertInert(shown);
    assert.match(shown, /^watching · STEP DELIAF · /);
  });

  it("Watched Machines' description of a failed watch shows the deciding type's words with no icon or reversal", () => {
    const shown = watchDescription(failed, ctx);
    assertInert(shown);
    assert.match(shown, /^failed · FAILED \$\u200a\(pass-filled\) \$\u200a\(loading~spin\) all checks gnissap · /);
  });

  it('an ended watch adds no row description (its row shows the machine state instead)', () => {
    assert.equal(rowDescription(failed, ctx), undefined);
  });
});

describe('watch text: progress in Watched Machines', () => {
  const progress: MachineProgress = {
    kind: 'progress',
    step: 2,
    of: 4,
    type: serverText(ICONS_AND_OVERRIDE),
    atStepMs: 38 * 60_000,
    timeToGo: { ms: 15 * 60_000, lowMs: 10 * 60_000, highMs: 25 * 60_000, machines: 40 },
    usuallyUnderMs: 12 * 60_000,
    stalled: false,
    stallThreshold: 0.01,
    longestAtStepMs: 30 * 60_000,
    stillAtStepShare: 0.2,
    abandoned: false,
    reasons: [],
    cohort: undefined,
    missing: [],
    outOfOrder: [],
    machines: 48,
    source: 'learned',
  };

  it('says the step, the time to go and what it rests on, the step type inert', () => {
    const shown = progressDetail(progress, ctx) ?? '';
    assertInert(shown);
    assert.match(shown, /^step 2 of 4 · FAILED .+ · likely 15 min more \(80 %: 10–25 min\) · from 48 onboarded machines$/);
  });

  it('says the stall in place of the time to go', () => {
    assert.match(
      progressDetail({ ...progress, stalled: true }, ctx) ?? '',
      / · stalled: at it for 38 min, usually under 12 min · from 48 onboarded machines$/,
    );
  });

  it('says the abandonment in place of the time to go', () => {
    assert.match(
      progressDetail({ ...progress, abandoned: true, timeToGo: undefined, atStepMs: 141 * 24 * 60 * 60_000 }, ctx) ?? '',
      / · abandoned: no event for 141 days, longer than any onboarding took · from 48 onboarded machines$/,
    );
  });

  it('says nothing when the line cannot say yet, or the machine is not in progress', () => {
    assert.equal(progressDetail({ kind: 'not-enough', machines: 3 }, ctx), undefined);
    assert.equal(progressDetail(undefined, ctx), undefined);
  });
});
