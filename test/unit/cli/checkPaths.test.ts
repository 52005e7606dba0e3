// The files a repository names, tried as an attacker who wrote the repository
// would: symlinks and hard links planted at the JUnit report's name, a link
// out of the working folder to a file holding a token, a file over the limit,
// settings above the repository, file names with escape sequences and
// controls. Real files in a temporary folder, oe run in this process.
import * as assert from 'node:assert/strict';
import { chownSync, linkSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeEvent, startFakeApi, TEST_SERIALS, type FakeApi } from '../../support/fakeApi';
import { signedInEnv, tempFolder } from '../../support/cli/runOe';
import { runOeInProcess } from '../../support/cli/testIo';
import { skipBecause } from '../../support/skipBecause';

const FAILED = 'FLR-2000-D0001';
/** What an npm token file holds, shaped like a serial number so a leak would reach the API as one. */
const TOKEN = 'NPM-7777-T0KEN';
const TOKEN_FILE_TEXT = `//registry.example/:_authToken=${TOKEN}\n`;
/** Control (but tab and line feed), C1 and bidi override characters: none may reach a terminal, the JSON or XML. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const UNCLEAN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/;
/** The same, the line feed included (a location is one line). */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const UNCLEAN_OR_BREAK = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/;
/** Two lines of an authorized_keys file a planted link would have oe overwrite. */
const KEYS = 'ssh-ed25519 AAAAC3Nza the-owner\nssh-ed25519 AAAAC3Nzb the-deploy-key\n';

/** A repository with one file naming a failed machine, beside a home folder (outside it) holding secrets. */
function repositoryAndHome(): { repo: string; home: string } {
  const home = tempFolder('home');
  const repo = tempFolder('repo');
  mkdirSync(join(repo, '.git'));
  writeFileSync(join(repo, 'line.yaml'), `machine: ${FAILED}\n`);
  writeFileSync(join(home, '.npmrc'), TOKEN_FILE_TEXT);
  writeFileSync(join(home, 'authorized_keys'), KEYS);
  return { repo, home };
}

describe('oe check and the files a repository names', function () {
  this.timeout(60_000);
  let api: FakeApi | undefined;
  beforeEach(async () => {
    api = await startFakeApi();
    api.setMachineEvents(FAILED, [makeEvent({ type: 'CERTIFICATE_REJECTED', message: 'rejected', timestamp: Date.UTC(2025, 0, 3) })]);
  });
  afterEach(async () => {
    await api?.close();
  });
  const env = (): Record<string, string> => {
    assert.ok(api !== undefined);
    return signedInEnv(api);
  };

  it('--junit: a symlink planted at the report name is not written through; its target stays as it was', async () => {
    const { repo, home } = repositoryAndHome();
    symlinkSync(join(home, 'authorized_keys'), join(repo, 'oe-check.xml'));
    const run = await runOeInProcess(['check', '.', '--junit', 'oe-check.xml'], { env: env(), cwd: repo });
    assert.equal(readFileSync(join(home, 'authorized_keys'), 'utf8'), KEYS, 'the file the link points to is intact');
    assert.equal(run.code, 64, run.stderr);
    assert.match(run.stderr, /oe-check\.xml is a symbolic link; it is not followed\./);
  });

  it('--junit: a hard link to a file outside is not written through, nor is a planted folder link followed out', async () => {
    const { repo, home } = repositoryAndHome();
    linkSync(join(home, 'authorized_keys'), join(repo, 'report.xml'));
    const hard = await runOeInProcess(['check', '.', '--junit', 'report.xml'], { env: env(), cwd: repo });
    assert.equal(readFileSync(join(home, 'authorized_keys'), 'utf8'), KEYS, 'the hard-linked file is intact');
    assert.equal(hard.code, 64, hard.stderr);
    assert.match(hard.stderr, /report\.xml belongs to another user or has another name \(a hard link\)/);

    symlinkSync(home, join(repo, 'reports'));
    const before = readdirSync(home).sort();
    const folder = await runOeInProcess(['check', '.', '--junit', 'reports/authorized_keys'], { env: env(), cwd: repo });
    assert.equal(folder.code, 64, folder.stderr);
    assert.deepEqual(readdirSync(home).sort(), before, 'nothing new in the folder the link leads to');
    assert.equal(readFileSync(join(home, 'authorized_keys'), 'utf8'), KEYS);
  });

  it('--junit: a report of our own is replaced, not appended to, and keeps its mode', async () => {
    const { repo } = repositoryAndHome();
    writeFileSync(join(repo, 'out.xml'), 'old report', { mode: 0o644 });
    const run = await runOeInProcess(['check', '.', '--junit', 'out.xml'], { env: env(), cwd: repo });
    assert.equal(run.code, 1, run.stderr);
    const xml = readFileSync(join(repo, 'out.xml'), 'utf8');
    assert.match(xml, /^<\?xml/);
    assert.ok(!xml.includes('old report'));
    assert.deepEqual(
      readdirSync(repo).filter((name) => name.endsWith('.tmp')),
      [],
      'no temporary file left',
    );
  });

  it('a named path that is a symlink out of the working folder is refused: the token is not printed, reported nor sent', async () => {
    const { repo, home } = repositoryAndHome();
    symlinkSync(join(home, '.npmrc'), join(repo, 'machines.yaml'));
    symlinkSync(home, join(repo, 'more'));
    for (const path of ['machines.yaml', 'more']) {
      const run = await runOeInProcess(['check', path, 'line.yaml', '--junit', 'out.xml', '--json'], { env: env(), cwd: repo });
      assert.equal(run.code, 64, run.stderr);
      assert.match(run.stderr, new RegExp(`${path} leads out of the folder it is in \\(a symbolic link\\); it is not followed\\.`));
      assert.ok(!`${run.stdout}${run.stderr}`.includes(TOKEN), 'the token is not printed');
      assert.ok(!readdirSync(repo).includes('out.xml') || !readFileSync(join(repo, 'out.xml'), 'utf8').includes(TOKEN));
      assert.equal(api?.eventRequests(TOKEN).length, 0, 'the token is not sent to the API');
    }
    // Followed when the pipeline says so.
    const followed = await runOeInProcess(['check', 'machines.yaml', '--follow-symlinks', '--fail-on', 'failed'], {
      env: env(),
      cwd: repo,
    });
    assert.equal(api?.eventRequests(TOKEN).length, 1, followed.stderr);
  });

  it('settings are looked up up to the repository root only, and never in a folder of another user', async function () {
    const outer = tempFolder('outer');
    mkdirSync(join(outer, '.vscode'));
    writeFileSync(join(outer, '.vscode', 'settings.json'), JSON.stringify({ 'onboardingEvents.serialNumber.denyList': [FAILED] }));
    const repo = join(outer, 'repo');
    mkdirSync(join(repo, '.git'), { recursive: true });
    writeFileSync(join(repo, 'line.yaml'), `machine: ${FAILED}\n`);
    const inRepo = await runOeInProcess(['check', 'line.yaml'], { env: env(), cwd: repo });
    assert.equal(inRepo.code, 1, `the settings above the repository would deny ${FAILED}: ${inRepo.stderr}`);

    if (process.getuid?.() !== 0) skipBecause(this, 'handing a folder to another user needs root');
    const shared = tempFolder('shared');
    mkdirSync(join(shared, '.vscode'));
    writeFileSync(join(shared, '.vscode', 'settings.json'), JSON.stringify({ 'onboardingEvents.serialNumber.denyList': [FAILED] }));
    writeFileSync(join(shared, 'line.yaml'), `machine: ${FAILED}\n`);
    for (const path of [shared, join(shared, '.vscode'), join(shared, '.vscode', 'settings.json')]) chownSync(path, 65534, 65534);
    const elsewhere = await runOeInProcess(['check', join(shared, 'line.yaml')], { env: env(), cwd: tempFolder('cwd') });
    assert.equal(elsewhere.code, 1, `the settings of another user's folder would deny ${FAILED}: ${elsewhere.stderr}`);
  });

  it('a file over the limit in a scanned folder fails the check as not checked, naming the file (exit 3)', async () => {
    const { repo } = repositoryAndHome();
    writeFileSync(join(repo, 'huge.txt'), `${TEST_SERIALS.onboarded}\n`.repeat(80_000));
    const run = await runOeInProcess(['check', '.', '--fail-on', 'unknown'], { env: env(), cwd: repo });
    assert.equal(run.code, 3, run.stderr);
    assert.match(run.stderr, /huge\.txt is larger than 1 MB and was not checked\./);
  });

  it('the include glob reads VS Code glob syntax: ** folders, {a,b}, [0-9], and dot files as the editor finds them', async () => {
    const { repo } = repositoryAndHome();
    mkdirSync(join(repo, '.vscode'));
    mkdirSync(join(repo, 'a', 'b'), { recursive: true });
    writeFileSync(
      join(repo, '.vscode', 'settings.json'),
      JSON.stringify({ 'onboardingEvents.workspaceScan.include': '**/{cell,.line}[0-9].{yaml,ini}' }),
    );
    writeFileSync(join(repo, 'a', 'b', 'cell1.yaml'), `${TEST_SERIALS.onboarded}\n`);
    writeFileSync(join(repo, '.line2.ini'), `${TEST_SERIALS.started}\n`);
    writeFileSync(join(repo, 'a', 'cellX.yaml'), `${TEST_SERIALS.empty}\n`);
    const run = await runOeInProcess(['check', '.', '--json', '--fail-on', 'failed'], { env: env(), cwd: repo });
    assert.equal(run.code, 0, run.stderr);
    const serials = (JSON.parse(run.stdout) as { serialNumber: string }[]).map((machine) => machine.serialNumber);
    assert.deepEqual(serials, [TEST_SERIALS.started, TEST_SERIALS.onboarded]);
  });

  it('file names reach the terminal, the JSON and the JUnit file cleaned: no escape sequence, no line break, no control', async () => {
    const { repo } = repositoryAndHome();
    const name = 'x\u001b]0;pwned\u0007\u001b]52;c;ZWNobyBoaQ==\u0007\r\u001b[32monboarded\u001b[0m\u0001\u202e.yaml';
    writeFileSync(join(repo, name), `machine: ${FAILED}\n`);
    const run = await runOeInProcess(['check', name, '--junit', 'out.xml'], { env: env(), cwd: repo });
    assert.equal(run.code, 1, run.stderr);
    for (const [where, text] of [
      ['stdout', run.stdout],
      ['stderr', run.stderr],
      ['the JUnit file', readFileSync(join(repo, 'out.xml'), 'utf8')],
    ] as const)
      assert.doesNotMatch(text, UNCLEAN, `no control or bidi character in ${where}`);
    assert.match(run.stdout, /^failed +FLR-2000-D0001 +x\]0;pwned\]52;c;ZWNobyBoaQ== \[32monboarded\[0m\.yaml:1 /m);
    const json = await runOeInProcess(['check', name, '--json'], { env: env(), cwd: repo });
    assert.doesNotMatch(json.stdout, UNCLEAN_OR_BREAK);
  });

  it('--json and --ndjson write bidi and C1 controls of server text as \\u escapes', async () => {
    assert.ok(api !== undefined);
    const message = 'ok\u202e\u0085\u009b31m\u2066done';
    api.setMachineEvents(FAILED, [makeEvent({ type: 'CERTIFICATE_REJECTED', message, timestamp: Date.UTC(2025, 0, 3) })]);
    const { repo } = repositoryAndHome();
    const check = await runOeInProcess(['check', 'line.yaml', '--json'], { env: env(), cwd: repo });
    const events = await runOeInProcess(['events', FAILED, '--ndjson'], { env: env(), cwd: repo });
    const eventsJson = await runOeInProcess(['events', FAILED, '--json'], { env: env(), cwd: repo });
    for (const run of [check, events, eventsJson]) {
      assert.doesNotMatch(run.stdout, /[\u0080-\u009f\u202e\u2066]/, run.stdout);
      assert.ok(run.stdout.includes('ok\\u202e\\u0085\\u009b31m\\u2066done'), run.stdout);
    }
    const parsed = JSON.parse(check.stdout) as { newestEvent: { message: string } }[];
    assert.equal(parsed[0]?.newestEvent.message, message, 'the data is unchanged');
  });
});
