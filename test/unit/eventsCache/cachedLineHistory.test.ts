// The line's history as the extension keeps it: learned from every result the
// cache gets and from the environment's stored copies, before anything is fetched.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventsResult } from '../../../src/core/model';
import { DEFAULT_EVENT_STATE_RULES } from '../../../src/domain/events/eventState';
import { CachedLineHistory } from '../../../src/eventsCache/cachedLineHistory';
import { EventsCache } from '../../../src/eventsCache/eventsCache';
import { FileResultStore } from '../../../src/eventsCache/fileResultStore';
import { machine, MINUTE, onboarded, T0 } from '../domain/progress/fixtures';
import { result } from '../machines/fixtures';

function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
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
      stored: (limit) => new FileResultStore({ directory: dir, scope: () => 'env-1' }).all(limit),
      rules: () => DEFAULT_EVENT_STATE_RULES,
      steps: () => [],
      now: () => T0 + 9 * MINUTE,
    });
    let changes = 0;
    history.onDidChange(() => changes++);
    assert.deepEqual(history.steps(), { kind: 'notEnough', machines: 0 }, 'the first ask starts reading the copies');
    await until(() => changes > 0);
    assert.deepEqual(history.steps(), { kind: 'notEnough', machines: 4 });
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
    assert.deepEqual(history.steps(), { kind: 'notEnough', machines: 0 }, 'another environment starts from its own copies');
    history.dispose();
  });
});
