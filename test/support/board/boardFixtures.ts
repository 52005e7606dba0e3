// Typed board fixtures: events results built by hand (a line's worth, or
// 1,000 machines × 10 events for the bench), and the rows the host would
// build from them with the default eventStates rules.
import type { EventsResult, OnboardingEvent } from '../../../src/core/client/model';
import { boardRow, rowProgress, usualSteps, type BoardRow } from '../../../src/core/domain/board/boardRows';
import type { UsualSteps } from '../../../src/extension/board/protocol';
import { DEFAULT_EVENT_STATE_RULES } from '../../../src/core/domain/events/eventState';
import { LineHistory, type LearnedSteps } from '../../../src/core/domain/progress/lineHistory';
import { machineProgress, progressWords, restsOnWords } from '../../../src/core/domain/progress/machineProgress';
import { plainLocalize } from '../../../src/core/common/localize';
import { pageText, serverText } from '../../../src/core/common/serverText';

export interface FixtureEvent {
  readonly type: string;
  readonly at: number;
  readonly assetId?: string;
  readonly message?: string;
}

export const BOARD_T0 = Date.UTC(2025, 0, 15, 8, 0, 0);
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

export function fixtureEvent(serialNumber: string, e: FixtureEvent, index: number): OnboardingEvent {
  return {
    serialNumber,
    type: serverText(e.type),
    message: serverText(e.message ?? `${e.type} for ${serialNumber}`),
    time: { raw: e.at, epochMs: e.at, unit: 'milliseconds', detected: true },
    ...(e.assetId === undefined ? {} : { assetId: e.assetId }),
    links: {},
    extra: {},
    raw: { type: e.type, timestamp: e.at },
    key: `${serialNumber}-${index}-${e.at}`,
  };
}

/** A result as the client returns it: newest first. */
export function fixtureResult(serialNumber: string, events: readonly FixtureEvent[]): EventsResult {
  const built = events.map((e, i) => fixtureEvent(serialNumber, e, i)).sort((a, b) => b.time.epochMs - a.time.epochMs);
  return { serialNumber, events: built, invalid: [], fetchedAt: BOARD_T0 + 10 * 24 * 60 * MINUTE, truncated: false };
}

const STEPS = ['MACHINE_REGISTERED', 'CERTIFICATE_ISSUED', 'FIRMWARE_CHECKED', 'NETWORK_CONFIGURED', 'PLC_LINKED'];

/** One machine's onboarding: steps a few minutes apart from `start`, ending as `outcome` says. */
export function onboarding(start: number, steps: number, outcome: 'onboarded' | 'failed' | 'in-progress'): FixtureEvent[] {
  const events: FixtureEvent[] = [];
  for (let i = 0; i < steps; i++) events.push({ type: STEPS[i % STEPS.length] ?? 'STEP', at: start + i * 7 * MINUTE + (i % 3) * MINUTE });
  const end = start + steps * 7 * MINUTE;
  if (outcome === 'onboarded')
    events.push({ type: 'MACHINE_CREATED', at: end, assetId: '5d1c7e0a-2b7f-4c1e-9e0d-8a4f6b2c3d10', message: 'Machine asset created' });
  if (outcome === 'failed') events.push({ type: 'ONBOARDING_FAILED', at: end, message: 'Certificate request rejected' });
  return events;
}

/** A line of machines in every state, with hostile text where a server could put it. */
export function lineRows(): BoardRow[] {
  const rules = DEFAULT_EVENT_STATE_RULES;
  return [
    boardRow('MX-4711-A0023', { result: fixtureResult('MX-4711-A0023', onboarding(BOARD_T0, 4, 'onboarded')) }, rules),
    boardRow('PRS-0900-A0314', { result: fixtureResult('PRS-0900-A0314', onboarding(BOARD_T0 + 30 * MINUTE, 2, 'failed')) }, rules),
    boardRow('LSR-6060-F0042', { result: fixtureResult('LSR-6060-F0042', onboarding(BOARD_T0 + 60 * MINUTE, 3, 'in-progress')) }, rules),
    boardRow('WELD-3100-D0007', { result: fixtureResult('WELD-3100-D0007', []) }, rules),
    boardRow('MX-9999-Z0001', { errorKind: 'not-found', errorMessage: 'The platform does not know this serial number.' }, rules),
    boardRow('KRP-0815-B0042', { errorKind: 'server', errorMessage: 'The API answered 503 Service Unavailable.' }, rules),
    boardRow(
      'TBL-2200-C0666',
      {
        result: fixtureResult('TBL-2200-C0666', [
          { type: '<img src=x onerror=alert(1)>|=HYPERLINK("http://x")', at: BOARD_T0 + 90 * MINUTE },
          { type: 'STEP_FAILED **bold** [link](http://x)', at: BOARD_T0 + 100 * MINUTE },
        ]),
      },
      rules,
    ),
    boardRow('CNC-5200-E0101', {}, rules),
  ];
}

/** `machines` machines × `events` events each, in a mix of states, spread over a day. */
export function manyRows(machines: number, events: number): BoardRow[] {
  const rules = DEFAULT_EVENT_STATE_RULES;
  const rows: BoardRow[] = [];
  for (let m = 0; m < machines; m++) {
    const serial = `MX-${String(1000 + (m % 9000)).padStart(4, '0')}-A${String(m).padStart(4, '0')}`;
    const outcome = m % 10 === 0 ? 'failed' : m % 4 === 0 ? 'in-progress' : 'onboarded';
    const steps = Math.max(1, events - (outcome === 'in-progress' ? 0 : 1));
    rows.push(boardRow(serial, { result: fixtureResult(serial, onboarding(BOARD_T0 + (m % 200) * 5 * MINUTE, steps, outcome)) }, rules));
  }
  return rows;
}

/**
 * manyRows' machines as the host builds them with the line's history: every
 * machine in progress carries its progress, and the board its usual steps (the
 * bench's board, so the figures include the progress columns and the bands).
 */
export function manyRowsWithProgress(machines: number, events: number): { readonly rows: BoardRow[]; readonly usual: UsualSteps } {
  const rules = DEFAULT_EVENT_STATE_RULES;
  const plain = manyRows(machines, events);
  const results = plain.map((row) =>
    fixtureResult(
      row.serialNumber,
      row.points.map((point) => ({
        type: point.type,
        at: point.at,
        ...(point.state === 'onboarded' ? { assetId: '5d1c7e0a-2b7f-4c1e-9e0d-8a4f6b2c3d10' } : {}),
      })),
    ),
  );
  const history = new LineHistory(rules);
  for (const result of results) history.learn(result.serialNumber, result.events);
  const learned = history.steps();
  const now = BOARD_T0 + 17 * 60 * MINUTE; // some machines in progress recent, others stalled
  const rows = results.map((result) => {
    const answer = machineProgress(result.events, learned, now, rules);
    const progress = answer === undefined ? undefined : rowProgress(answer, progressWords(answer, plainLocalize, pageText));
    return boardRow(result.serialNumber, { result, progress }, rules);
  });
  const words = restsOnWords(learned.kind === 'steps' ? learned : { source: 'learned', machines: learned.machines }, plainLocalize);
  return { rows, usual: { steps: usualSteps(learned), ...words } };
}

/**
 * A line whose history teaches progress: six onboarded machines (five steps and
 * the outcome, minutes apart), and three in progress at `now`: LSR-7000-G0101 at
 * step 4 for two hours (stalled), LSR-7000-G0102 at step 2 a minute ago, and
 * LSR-7000-G0103 at step 3 without step 2 (missing); ABANDONED at step 2 for
 * five months. Rows as the host builds
 * them (LineHistory → machineProgress → progressWords → rowProgress).
 */
/** progressLine's machine that has been silent for five months. */
export const ABANDONED = 'LSR-7000-G0104';

export function progressLine(now = BOARD_T0 + 3 * 60 * MINUTE): {
  readonly rows: BoardRow[];
  readonly learned: LearnedSteps;
  readonly now: number;
} {
  const rules = DEFAULT_EVENT_STATE_RULES;
  const { results, learned } = progressResults(now);
  const rows = results.map((result) => {
    const answer = machineProgress(result.events, learned, now, rules);
    const progress = answer === undefined ? undefined : rowProgress(answer, progressWords(answer, plainLocalize, pageText));
    return boardRow(result.serialNumber, { result, progress }, rules);
  });
  return { rows, learned, now };
}

/** The results of progressLine's machines, and what their history teaches. */
export function progressResults(now = BOARD_T0 + 3 * 60 * MINUTE): { readonly results: EventsResult[]; readonly learned: LearnedSteps } {
  const rules = DEFAULT_EVENT_STATE_RULES;
  const history = new LineHistory(rules);
  const results: EventsResult[] = [];
  for (let m = 0; m < 6; m++) results.push(fixtureResult(`MX-4711-A01${m}0`, onboarding(BOARD_T0 + m * 20 * MINUTE, 5, 'onboarded')));
  const steps = (start: number, count: number): FixtureEvent[] => onboarding(start, count, 'in-progress');
  results.push(fixtureResult('LSR-7000-G0101', steps(now - 2 * 60 * MINUTE - 3 * 7 * MINUTE - 2 * MINUTE, 4)));
  results.push(fixtureResult('LSR-7000-G0102', steps(now - 8 * MINUTE, 2)));
  results.push(
    fixtureResult(
      'LSR-7000-G0103',
      steps(now - 20 * MINUTE, 3).filter((_, i) => i !== 1),
    ),
  );
  // Silent for five months: abandoned, not in progress as the others are.
  results.push(fixtureResult(ABANDONED, steps(now - 150 * DAY, 2)));
  for (const result of results) history.learn(result.serialNumber, result.events);
  return { results, learned: history.steps() };
}
