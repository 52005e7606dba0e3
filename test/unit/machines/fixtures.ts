// Small typed fixtures for the Machines tree's pure modules: events built
// through the real validator from spec-shaped raw objects.
import assert from 'node:assert/strict';
import type { EventsResult, OnboardingEvent } from '../../../src/core/client/model';
import { validateEvent } from '../../../src/core/client/validateEvents';
import type { KeyValueStore } from '../../../src/extension/machines/machineLists';
import type { MachinesModel } from '../../../src/extension/machines/machinesModel';
import { makeEvent, type MakeEventInput } from '../../support/fakeApi';

export const SERIAL = 'MX-4711-A0023';
export const T0 = Date.UTC(2025, 0, 15, 8, 0, 0);
export const MINUTE = 60_000;

export function event(input: Partial<MakeEventInput> & { readonly minute: number }, serial = SERIAL): OnboardingEvent {
  const raw = makeEvent({
    type: input.type ?? 'STEP',
    message: input.message ?? `step at minute ${input.minute}`,
    timestamp: input.timestamp ?? T0 + input.minute * MINUTE,
    ...(input.assetId !== undefined ? { assetId: input.assetId } : {}),
  });
  const result = validateEvent(raw, serial);
  assert.ok(typeof result !== 'string', result as string);
  return result;
}

export function result(events: readonly OnboardingEvent[], serial = SERIAL, fetchedAt = T0 + 1000 * MINUTE): EventsResult {
  return { serialNumber: serial, events, invalid: [], fetchedAt, truncated: false };
}

/** `count` events, one per minute, newest first. */
export function manyEvents(count: number, serial = SERIAL): OnboardingEvent[] {
  const events: OnboardingEvent[] = [];
  for (let i = count - 1; i >= 0; i--)
    events.push(
      event(
        {
          minute: i,
          type: i % 10 === 0 ? 'MACHINE_CREATED' : `TYPE_${i % 7}`,
          ...(i % 10 === 0 ? { assetId: '3f2b8c1e-7a4d-4e4b-9a6f-1c2d3e4f5a6b' } : {}),
        },
        serial,
      ),
    );
  return events;
}

/** A Memento stand-in. */
export class MemoryStore implements KeyValueStore {
  readonly values = new Map<string, unknown>();
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the shape of vscode.Memento.get
  get<T>(key: string): T | undefined {
    return this.values.get(key) as T | undefined;
  }
  update(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, structuredClone(value));
    return Promise.resolve();
  }
}

/** Resolves once `serial` is not loading, woken by the model's own change event (a load fires one when it ends). */
export async function loaded(model: Pick<MachinesModel, 'summary' | 'onDidChange'>, serial = SERIAL): Promise<void> {
  while (model.summary(serial).loading)
    await new Promise<void>((resolve) => {
      const listener = model.onDidChange(() => {
        listener.dispose();
        resolve();
      });
    });
}
