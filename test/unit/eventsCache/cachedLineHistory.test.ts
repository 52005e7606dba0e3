// The line's history as the extension keeps it: learned from every result the
// cache gets and from the environment's stored copies, before anything is fetched.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventsResult } from '../../../src/core/client/model';
import { DEFAULT_EVENT_STATE_RULES, type EventStateRules } from '../../../src/core/domain/events/eventState';
import { LineHistory, type LearnedSteps, type StepSetting } from '../../../src/core/domain/progress/lineHistory';
import { machineProgress } from '../../../src/core/domain/progress/machineProgress';
import { CachedLineHistory } from '../../../src/core/eventsCache/cachedLineHistory';
import { EventsCache } from '../../../src/core/eventsCache/eventsCache';
import { FileResultStore } from '../../../src/core/eventsCache/fileResultStore';
import { MAX_STORED_EVENT_BYTES } from '../../../src/core/eventsCache/storedCopyStream';
import { machine, MINUTE, onboarded, T0 } from '../core/domain/progress/fixtures';
import { event, result } from '../machines/fixtures';

function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

async function until(check: () => boolean, withinMs = 2000): Promise<void> {
  for (let i = 0; i < withinMs / 10 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('CachedLineHistory: the line learned from the cache and the stored copies', () => {
  it('learns from stored copies before anything is fetched, and from each result that arrives', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'oe-line-'));
    const store = new FileResultStore({ directory: dir, scope: () => 'env-1' });
    for (let i = 0; i < 4; i++) store.save(result(onboarded(`M-${i}`, [5, 10, 2, 3, 1]), `M-${i}`));
    await store.flush();
    const results = new Map<string, EventsResult>([['M-4', result(onboarded('M-4', [5, 10, 2, 3, 1]), 'M-4')]]);
    const cache = new EventsCache({
      source: () => ({
        getEvents: (serial) => Promise.resolve(results.get(serial) ?? result(machine(serial, [['ONBOARDING_STARTED', 0]]), serial)),
      }),
      freshForMs: () => 60_000,
    });
    const history = new CachedLineHistory({
      cache,
      stored: () => new FileResultStore({ directory: dir, scope: () => 'env-1' }).copies(),
      rules: () => DEFAULT_EVENT_STATE_RULES,
      steps: () => [],
      now: () => T0 + 9 * MINUTE,
    });
    let changes = 0;
    history.onDidChange(() => changes++);
    assert.deepEqual(history.steps(), { kind: 'not-enough', machines: 0 }, 'the first ask starts reading the copies');
    await until(() => changes > 0);
    assert.deepEqual(history.steps(), { kind: 'not-enough', machines: 4 });
    await cache.get('M-4');
    await settle();
    assert.equal(history.steps().kind, 'steps');
    assert.ok(changes >= 2, `told the views: ${changes}`);
    results.set(
      'LSR-1',
      result(
        machine('LSR-1', [
          ['ONBOARDING_STARTED', 0],
          ['CONFIG_APPLIED', 5],
        ]),
        'LSR-1',
      ),
    );
    await cache.get('LSR-1');
    const progress = history.progressOf('LSR-1');
    assert.ok(progress?.kind === 'progress');
    assert.deepEqual({ step: progress.step, of: progress.of, machines: progress.machines }, { step: 2, of: 6, machines: 5 });
    history.reset();
    assert.deepEqual(history.steps(), { kind: 'not-enough', machines: 0 }, 'another environment starts from its own copies');
    history.dispose();
  });

  /** Four machines stored on disk, a cache whose source answers from `fetched`, and the history over both. */
  async function line(options: {
    readonly stored: readonly EventsResult[];
    readonly fetched?: ReadonlyMap<string, EventsResult>;
    readonly steps?: () => readonly StepSetting[];
    readonly rules?: () => EventStateRules;
  }): Promise<{ history: CachedLineHistory; cache: EventsCache; changes: () => number; dir: string }> {
    const dir = mkdtempSync(join(tmpdir(), 'oe-line-'));
    const store = new FileResultStore({ directory: dir, scope: () => 'env-1' });
    for (const stored of options.stored) store.save(stored);
    await store.flush();
    const cache = new EventsCache({
      source: () => ({
        getEvents: (serial) =>
          Promise.resolve(options.fetched?.get(serial) ?? result(machine(serial, [['ONBOARDING_STARTED', 0]]), serial)),
      }),
      freshForMs: () => 60_000,
    });
    const history = new CachedLineHistory({
      cache,
      stored: () => new FileResultStore({ directory: dir, scope: () => 'env-1' }).copies(),
      rules: options.rules ?? (() => DEFAULT_EVENT_STATE_RULES),
      steps: options.steps ?? (() => []),
      now: () => T0 + 9 * MINUTE,
    });
    let changes = 0;
    history.onDidChange(() => changes++);
    return { history, cache, changes: () => changes, dir };
  }

  /** How long CONFIG_APPLIED usually took (FIRMWARE_CHECKED's time from it). */
  const configMinutes = (learned: LearnedSteps): number | undefined =>
    learned.kind === 'steps' ? (learned.steps[2]?.medianMs ?? 0) / MINUTE : undefined;

  it('takes a change of the onboardingEvents.steps setting at run time, and learns again when it is emptied', async () => {
    let setting: readonly StepSetting[] = [];
    const stored = Array.from({ length: 5 }, (_, i) => result(onboarded(`M-${i}`, [5, 10, 2, 3, 1]), `M-${i}`));
    const { history, changes } = await line({ stored, steps: () => setting });
    history.steps();
    await until(() => changes() > 0);
    const learned = history.steps();
    assert.equal(learned.kind === 'steps' && learned.source, 'learned');
    setting = [{ type: 'CONFIG_APPLIED', expectedMinutes: 3 }, { type: 'ONBOARDING_COMPLETED' }];
    const before = changes();
    history.settingChanged();
    await settle();
    assert.ok(changes() > before, 'the views are told');
    const bySetting = history.steps();
    assert.deepEqual(
      bySetting.kind === 'steps' && {
        source: bySetting.source,
        types: bySetting.steps.map((step) => step.type),
        machines: bySetting.machines,
      },
      { source: 'setting', types: ['CONFIG_APPLIED', 'ONBOARDING_COMPLETED'], machines: 5 },
      'the setting’s steps, the stored machines still behind them',
    );
    setting = [];
    history.settingChanged();
    assert.equal(history.steps().kind === 'steps' && (history.steps() as { source: string }).source, 'learned');
    history.dispose();
  });

  it('keeps a fresher result in memory over the stored copy of the same machine, whenever the copies are read', async () => {
    // On disk the configuration took 40 minutes on every machine; the cache has fetched M-0 since: 10 minutes.
    const stored = Array.from({ length: 5 }, (_, i) => result(onboarded(`M-${i}`, [5, 40, 2, 3, 1]), `M-${i}`));
    const fresh = result(onboarded('M-0', [5, 10, 2, 3, 1]), 'M-0');
    const { history, cache, changes } = await line({ stored, fetched: new Map([['M-0', fresh]]) });
    await cache.get('M-0');
    history.steps();
    await until(() => changes() > 1);
    await settle();
    const learned = history.steps();
    assert.equal(learned.kind === 'steps' && learned.machines, 5, 'M-0 once');
    // Medians of 10, 40, 40, 40, 40: 40; the 10th percentile shows whether M-0 is the fresh one.
    const progress = history.progressFor(
      result(
        machine('LSR-1', [
          ['ONBOARDING_STARTED', 0],
          ['CONFIG_APPLIED', 8],
        ]),
        'LSR-1',
      ),
    );
    assert.ok(progress?.kind === 'progress');
    assert.deepEqual(
      progress.timeToGo && progress.timeToGo.lowMs / MINUTE,
      10 + 6 - 1,
      'the fresh M-0 took 10 minutes from CONFIG_APPLIED, plus 6 to the end',
    );
    assert.equal(configMinutes(learned), 40);
    history.dispose();
  });

  it('reads the stored copies again when the eventStates rules change: what is an outcome changed for them too', async () => {
    const stored = Array.from({ length: 5 }, (_, i) => result(onboarded(`M-${i}`, [5, 10, 2, 3, 1]), `M-${i}`));
    let rules: EventStateRules = DEFAULT_EVENT_STATE_RULES;
    const { history, changes } = await line({ stored, rules: () => rules });
    history.steps();
    await until(() => changes() > 0);
    assert.equal(history.steps().kind === 'steps' && history.steps().machines, 5);
    // "REGISTERED" now also means onboarded: each stored machine onboarded one step earlier.
    rules = { ...DEFAULT_EVENT_STATE_RULES, onboarded: [...DEFAULT_EVENT_STATE_RULES.onboarded, 'REGISTERED'] };
    history.rulesChanged();
    const seen = changes();
    history.steps();
    await until(() => changes() > seen + 1);
    const relearned = history.steps();
    assert.deepEqual(
      relearned.kind === 'steps' && { machines: relearned.machines, last: relearned.steps.at(-1)?.type },
      { machines: 5, last: 'MACHINE_REGISTERED' },
      'the stored machines learned again under the new rules',
    );
    history.dispose();
  });

  /** Stored copies whose events carry `padding` characters in a field of their own, as a server may send. */
  function padded(stored: EventsResult, padding: number): EventsResult {
    return { ...stored, events: stored.events.map((e) => ({ ...e, raw: { ...(e.raw as object), padding: 'x'.repeat(padding) } })) };
  }

  it('learns from a stored copy of any size, read in a stream', async () => {
    const stored = Array.from({ length: 5 }, (_, i) => result(onboarded(`M-${i}`, [5, 10, 2, 3, 1]), `M-${i}`));
    // M-4's copy is 6 MB: six events of a megabyte less a little.
    stored[4] = padded(stored[4] as EventsResult, MAX_STORED_EVENT_BYTES - 1024);
    const { history, changes, dir } = await line({ stored });
    const [environment] = readdirSync(dir);
    assert.ok(environment !== undefined);
    const sizes = readdirSync(join(dir, environment)).map((name) => statSync(join(dir, environment, name)).size);
    assert.ok(Math.max(...sizes) > 5 * 1024 * 1024, `the largest copy: ${Math.max(...sizes)} bytes`);
    history.steps();
    await until(() => changes() > 0);
    const learned = history.steps();
    assert.deepEqual(learned.kind === 'steps' && learned.machines, 5);
    history.dispose();
  });

  it(`learns from no stored copy holding an event over ${MAX_STORED_EVENT_BYTES / (1024 * 1024)} MB, says so, and learns from every other one`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'oe-line-'));
    const said: string[] = [];
    const store = new FileResultStore({ directory: dir, scope: () => 'env-1', onError: (message) => said.push(message) });
    for (let i = 0; i < 4; i++) store.save(result(onboarded(`M-${i}`, [5, 10, 2, 3, 1]), `M-${i}`));
    store.save(padded(result(onboarded('M-4', [5, 10, 2, 3, 1]), 'M-4'), MAX_STORED_EVENT_BYTES));
    await store.flush();
    let changes = 0;
    const history = new CachedLineHistory({
      cache: new EventsCache({ source: () => undefined, freshForMs: () => 60_000 }),
      stored: () => new FileResultStore({ directory: dir, scope: () => 'env-1', onError: (message) => said.push(message) }).copies(),
      rules: () => DEFAULT_EVENT_STATE_RULES,
      steps: () => [],
    });
    history.onDidChange(() => changes++);
    history.steps();
    await until(() => changes > 0);
    assert.deepEqual(history.steps(), { kind: 'not-enough', machines: 4 });
    assert.deepEqual(said, ["The cached events of M-4 are not learned from by the line's history: it holds an event larger than 1 MB."]);
    history.dispose();
  });

  it('answers as a history taught every stored copy read whole, newest first or in any order', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'oe-line-'));
    const store = new FileResultStore({ directory: dir, scope: () => 'env-1' });
    const serials: string[] = [];
    for (let m = 0; m < 40; m++) {
      const serial = `LSR-7000-${m}`;
      serials.push(serial);
      // Long runs with retries, some onboarded twice, some still going; every third copy in another order than newest first.
      const events = Array.from({ length: 20 + ((m * 37) % 150) }, (_, i) =>
        event(
          {
            type: ['CONFIG_APPLIED', 'CONFIG_FAILED', 'FIRMWARE_CHECKED', 'ONBOARDING_STARTED'][(i * m) % 4] as string,
            minute: i * 3 + (m % 7),
          },
          serial,
        ),
      );
      if (m % 4 !== 3) events.push(event({ type: 'ONBOARDING_COMPLETED', minute: 200 + m }, serial));
      if (m % 5 === 0) events.push(event({ type: 'ONBOARDING_COMPLETED', minute: 100 + m }, serial));
      const ordered = m % 3 === 0 ? events : [...events].reverse();
      store.save(result(ordered, serial, T0 + 300 * MINUTE));
    }
    await store.flush();
    const whole = new LineHistory(DEFAULT_EVENT_STATE_RULES);
    const reader = new FileResultStore({ directory: dir, scope: () => 'env-1' });
    // In the order the folder lists them, as the store reads them: what a machine in progress teaches depends on the steps known before it.
    const [environment] = readdirSync(dir);
    assert.ok(environment !== undefined);
    const listed = readdirSync(join(dir, environment)).map(
      (name) => (JSON.parse(readFileSync(join(dir, environment, name), 'utf8')) as { serialNumber: string }).serialNumber,
    );
    assert.deepEqual([...listed].sort(), [...serials].sort());
    for (const serial of listed) {
      const loaded = await reader.load(serial);
      assert.ok(loaded !== undefined);
      whole.learn(serial, loaded.events, { observedAt: loaded.fetchedAt });
    }
    const history = new CachedLineHistory({
      cache: new EventsCache({ source: () => undefined, freshForMs: () => 60_000 }),
      stored: () => new FileResultStore({ directory: dir, scope: () => 'env-1' }).copies(),
      rules: () => DEFAULT_EVENT_STATE_RULES,
      steps: () => [],
      now: () => T0 + 9 * MINUTE,
    });
    let changes = 0;
    history.onDidChange(() => changes++);
    history.steps();
    await until(() => changes > 0);
    const figures = (steps: LearnedSteps): unknown =>
      steps.kind === 'steps' ? { ...steps, times: steps.times.longestOnboardingMs } : steps;
    assert.ok(whole.machines >= 20, `${whole.machines} onboarded`);
    assert.deepEqual(figures(history.steps()), figures(whole.steps()));
    const probe = machine('LSR-7000-99', [
      ['ONBOARDING_STARTED', 0],
      ['CONFIG_APPLIED', 12],
    ]);
    assert.deepEqual(
      history.progressFor(result(probe, 'LSR-7000-99')),
      machineProgress(probe, whole.steps(), T0 + 9 * MINUTE, DEFAULT_EVENT_STATE_RULES),
      'the same time to go',
    );
    history.dispose();
  });

  it('learns from every stored copy, past five thousand', async () => {
    const done = event({ type: 'ONBOARDING_COMPLETED', minute: 0 });
    const stored = Array.from({ length: 5001 }, (_, i) => result([{ ...done, serialNumber: `M-${i}` }], `M-${i}`));
    const { history, changes } = await line({ stored });
    history.steps();
    await until(() => changes() > 0, 30_000);
    const learned = history.steps();
    assert.equal(learned.kind === 'steps' && learned.machines, 5001);
    history.dispose();
  }).timeout(60_000);
});
