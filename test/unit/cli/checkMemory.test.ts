// oe check of many machines with large histories: the run's memory for events is one budget shared by its
// machines, and a machine over its share is judged by its newest events with a note that says how many
// older ones are not shown (never a silent cut).
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeEvent, startFakeApi, type FakeApi } from '../../support/fakeApi';
import { signedInEnv, tempFolder } from '../../support/cli/runOe';
import { runOeInProcess } from '../../support/cli/testIo';

const MACHINES = 24;
const EVENTS_PER_MACHINE = 8;
/** About 400 KB per event on the wire: 24 machines send 75 MiB, more than the 64 MiB the run holds. */
const FILLER = 'x'.repeat(400 * 1024);
const T0 = Date.UTC(2025, 0, 15, 8, 0, 0);

describe('oe check: many machines with large histories', function () {
  this.timeout(60_000);
  let api: FakeApi | undefined;
  afterEach(async () => {
    await api?.close();
  });

  it('judges each machine by its newest events within its share and says how many older ones are not shown', async () => {
    const serials = Array.from({ length: MACHINES }, (_, index) => `BIG-1000-A${String(index).padStart(4, '0')}`);
    api = await startFakeApi({ order: 'shuffled' });
    for (const serial of serials) {
      const steps = Array.from({ length: EVENTS_PER_MACHINE - 1 }, (_, index) =>
        makeEvent({ type: `STEP_${index}`, message: 'step', timestamp: T0 + index * 60_000, extra: { filler: FILLER } }),
      );
      // The newest says onboarded: a machine cut to its share is still judged by it.
      api.setMachineEvents(serial, [
        ...steps,
        makeEvent({
          type: 'ONBOARDING_COMPLETED',
          message: 'done',
          timestamp: T0 + EVENTS_PER_MACHINE * 60_000,
          extra: { filler: FILLER },
        }),
      ]);
    }
    const dir = tempFolder('large-histories');
    writeFileSync(join(dir, 'plant.yaml'), `machines:\n${serials.map((serial) => `  - ${serial}\n`).join('')}`);
    const run = await runOeInProcess(['check', '.'], { env: signedInEnv(api), cwd: dir });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /24 machines, 0 failing the check, 0 not read\./);
    const note =
      /oe check: 24 machines sent more events than their share of the memory of this run holds: their newest events were checked, (\d+) older ones are not shown \(BIG-1000-A0000, BIG-1000-A0001, BIG-1000-A0002, BIG-1000-A0003, BIG-1000-A0004, …\)\./.exec(
        run.stderr,
      );
    assert.ok(note, `the note of the cut machines:\n${run.stderr}`);
    const notShown = Number(note[1]);
    assert.ok(notShown >= MACHINES && notShown < MACHINES * EVENTS_PER_MACHINE, `${notShown} older events not shown`);
  });
});
