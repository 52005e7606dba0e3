// oe on a terminal (a pseudo-terminal from util-linux's `script`): the
// password asked with a hidden prompt and never echoed, colour unless
// NO_COLOR, and watch's progress on stderr.
import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeEvent, startFakeApi, TEST_CREDENTIALS, TEST_SERIALS, type FakeApi } from '../support/fakeApi';
import { runOeInTerminal, signedInEnv, tempFolder } from '../support/cli/runOe';

describe('oe on a terminal', function () {
  this.timeout(60_000);
  let api: FakeApi | undefined;
  before(async () => {
    api = await startFakeApi();
  });
  after(async () => {
    await api?.close();
  });
  const env = (): Record<string, string> => {
    assert.ok(api !== undefined);
    return signedInEnv(api);
  };

  it('asks for the password with a hidden prompt: what is typed is not echoed, and the events come', async () => {
    const run = await runOeInTerminal(['events', TEST_SERIALS.onboarded], {
      env: { ...env(), OE_PASSWORD: undefined },
      type: { prompt: 'Password: ', input: TEST_CREDENTIALS.password },
    });
    assert.equal(run.code, 0, run.stdout);
    assert.match(run.stdout, /^Password: \r?\n/);
    assert.match(run.stdout, /ONBOARDING_COMPLETED/);
    assert.ok(!run.stdout.includes(TEST_CREDENTIALS.password), 'the password is not echoed');
  });

  it('colour on a terminal, none with NO_COLOR', async () => {
    const coloured = await runOeInTerminal(['events', TEST_SERIALS.onboarded], { env: env() });
    assert.equal(coloured.code, 0);
    assert.ok(coloured.stdout.includes('\u001b[32mONBOARDING_COMPLETED\u001b[0m'), 'an onboarded type in green');
    const plain = await runOeInTerminal(['events', TEST_SERIALS.onboarded], { env: { ...env(), NO_COLOR: '1' } });
    assert.equal(plain.code, 0);
    assert.ok(!plain.stdout.includes('\u001b['), 'NO_COLOR: no escape sequence');
  });

  it("oe watch shows each new step on a terminal's stderr", async () => {
    const dir = tempFolder('tty-rig');
    mkdirSync(join(dir, '.vscode'));
    writeFileSync(join(dir, '.vscode', 'settings.json'), JSON.stringify({ 'onboardingEvents.watch.firstIntervalSeconds': 1 }));
    const running = runOeInTerminal(['watch', TEST_SERIALS.started, '--timeout', '30s'], { env: env(), cwd: dir });
    setTimeout(
      () => api?.addEvent(TEST_SERIALS.started, makeEvent({ type: 'DEVICE_REGISTERED', message: 'step', timestamp: Date.now() })),
      1200,
    );
    setTimeout(
      () => api?.addEvent(TEST_SERIALS.started, makeEvent({ type: 'ONBOARDING_COMPLETED', message: 'done', timestamp: Date.now() + 1 })),
      5000,
    );
    const run = await running;
    assert.equal(run.code, 0, run.stdout);
    assert.match(run.stdout, /^KRP-0815-B0001: ONBOARDING_STARTED 2025-01-15T09:00:00\.000Z\r?\n/);
    assert.match(run.stdout, /\nKRP-0815-B0001: DEVICE_REGISTERED /);
    assert.match(run.stdout, /\nKRP-0815-B0001 {2}onboarded {2}ONBOARDING_COMPLETED /);
  });
});
