// Credentials never touch the disk: every command run as a process with the
// secrets in the environment or on stdin leaves them in no output and in no
// file under its HOME and working folder.
import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeApi, TEST_CREDENTIALS, TEST_SERIALS, type FakeApi } from '../support/fakeApi';
import { filesBelow, runOe, signedInEnv, tempFolder, type OeRun } from '../support/cli/runOe';

const FLAG_SECRET = 'flag-secret-4711';
const SECRETS = [TEST_CREDENTIALS.password, TEST_CREDENTIALS.clientSecret, FLAG_SECRET];

describe('oe and secrets', function () {
  this.timeout(60_000);
  let api: FakeApi | undefined;
  before(async () => {
    api = await startFakeApi();
  });
  after(async () => {
    await api?.close();
  });

  it('no secret in any output nor in any file under HOME and the working folder, whatever the command', async () => {
    assert.ok(api !== undefined);
    const dir = tempFolder('secrets');
    mkdirSync(join(dir, '.vscode'));
    writeFileSync(join(dir, '.vscode', 'settings.json'), JSON.stringify({ 'onboardingEvents.watch.firstIntervalSeconds': 1 }));
    writeFileSync(join(dir, 'line.yaml'), `- ${TEST_SERIALS.onboarded}\n- ${TEST_SERIALS.started}\n`);
    const env = signedInEnv(api);
    const runs: OeRun[] = [
      await runOe(['events', TEST_SERIALS.onboarded, '--json'], { env, cwd: dir }),
      await runOe(['events', TEST_SERIALS.onboarded, '--password-stdin'], {
        env: { ...env, OE_PASSWORD: undefined },
        cwd: dir,
        stdin: TEST_CREDENTIALS.password,
      }),
      await runOe(['check', '.', '--junit', 'junit.xml', '--json'], { env, cwd: dir }),
      await runOe(['watch', TEST_SERIALS.onboarded, '--timeout', '5s'], { env, cwd: dir }),
      await runOe(['test-connection'], { env, cwd: dir }),
      await runOe(['events', TEST_SERIALS.onboarded], { env: { ...env, OE_PASSWORD: FLAG_SECRET }, cwd: dir }),
      await runOe(['test-connection'], { env: { ...env, OE_PASSWORD: FLAG_SECRET }, cwd: dir }),
    ];
    assert.deepEqual(
      runs.map((run) => run.code),
      [0, 0, 1, 0, 0, 3, 1],
    );
    for (const run of runs)
      for (const secret of SECRETS) assert.ok(!run.stdout.includes(secret) && !run.stderr.includes(secret), `${secret} in the output`);
    const files = filesBelow(dir);
    assert.ok(
      files.some((file) => file.path.endsWith('junit.xml')),
      'the scan sees the files oe wrote',
    );
    for (const file of files) for (const secret of SECRETS) assert.ok(!file.content.includes(secret), `${secret} in ${file.path}`);
  });
});
