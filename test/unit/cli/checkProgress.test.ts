// Progress without VS Code: `oe check --json` gives each machine in progress
// its step, stall, abandonment and time to go, learned from the machines of
// the files it checks. The line the fake API serves: twelve machines that
// onboarded days ago, one on time, one stalled for hours, one silent for months.
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultData, startFakeApi, type FakeApi } from '../../support/fakeApi';
import { signedInEnv, tempFolder } from '../../support/cli/runOe';
import { runOeInProcess } from '../../support/cli/testIo';
import { MINUTE, ONBOARDED, ON_TIME, STALLED, ABANDONED, ALL, serveTheLine } from '../../support/cli/progressLine';

interface Checked {
  readonly serialNumber: string;
  readonly state: string;
  readonly progress?: {
    readonly step: number;
    readonly of: number;
    readonly stalled: boolean;
    readonly abandoned: boolean;
    readonly atStepMs: number;
    readonly timeToGo: { readonly ms: number; readonly lowMs: number; readonly highMs: number } | null;
  } | null;
}

describe('progress without VS Code: oe check --json', function () {
  this.timeout(60_000);
  let api: FakeApi;
  let dir: string;

  beforeEach(async () => {
    api = await startFakeApi({ data: { ...defaultData(), machines: {} } });
    serveTheLine(api);
    dir = tempFolder('progress');
    writeFileSync(join(dir, 'line.yaml'), `machines:\n${ALL.map((serial) => `  - ${serial}\n`).join('')}`);
  });
  afterEach(async () => {
    await api.close();
  });

  it('oe check --json gives each machine in progress its step, stall, abandonment and time to go with its 80 % range', async () => {
    const started = Date.now();
    const run = await runOeInProcess(['check', '--json', '--fail-on', 'failed', 'line.yaml'], { env: signedInEnv(api), cwd: dir });
    assert.equal(run.code, 0, run.stderr);
    const checked = JSON.parse(run.stdout) as Checked[];
    const of = (serial: string): Checked => {
      const machine = checked.find((m) => m.serialNumber === serial);
      assert.ok(machine, `${serial} is in the JSON`);
      return machine;
    };
    for (const serial of ONBOARDED) assert.equal(of(serial).progress, undefined, `${serial} onboarded: no progress field`);

    const onTime = of(ON_TIME).progress;
    assert.ok(onTime, `on time: ${JSON.stringify(of(ON_TIME))}`);
    assert.deepEqual([onTime.step, onTime.of, onTime.stalled, onTime.abandoned], [2, 4, false, false]);
    const took = Date.now() - started;
    assert.ok(onTime.atStepMs >= 2 * MINUTE - 1000 && onTime.atStepMs <= 2 * MINUTE + took, `${onTime.atStepMs}`);
    const toGo = onTime.timeToGo;
    assert.ok(toGo, 'a time to go');
    assert.ok(toGo.lowMs <= toGo.ms && toGo.ms <= toGo.highMs, `the point inside its range: ${JSON.stringify(toGo)}`);
    assert.ok(toGo.highMs > 0 && toGo.highMs < 60 * MINUTE, `minutes, as the line takes: ${JSON.stringify(toGo)}`);

    const stalled = of(STALLED).progress;
    assert.deepEqual([stalled?.step, stalled?.stalled, stalled?.abandoned], [2, true, false]);
    assert.ok((stalled?.atStepMs ?? 0) >= 180 * MINUTE - 1000);

    const abandoned = of(ABANDONED).progress;
    assert.equal(abandoned?.abandoned, true, JSON.stringify(abandoned));
    assert.equal(abandoned.timeToGo, null, 'an abandoned machine is not "likely done" in minutes');
  });

  it('oe check --json says null where the history is too thin, and learns only from the machines it checks', async () => {
    writeFileSync(join(dir, 'few.yaml'), `- ${ONBOARDED[0]}\n- ${ONBOARDED[1]}\n- ${ON_TIME}\n`);
    const run = await runOeInProcess(['check', '--json', '--fail-on', 'failed', 'few.yaml'], { env: signedInEnv(api), cwd: dir });
    assert.equal(run.code, 0, run.stderr);
    const checked = JSON.parse(run.stdout) as Checked[];
    assert.equal(checked.find((m) => m.serialNumber === ON_TIME)?.progress, null);
  });
});
