// The paths oe's gate reads, as Windows names them, on any machine: the path
// rules take a path module, and node:path's win32 is Windows' (drive letters
// compared case-insensitively, \ and / alike, UNC shares). What must hold:
// nothing outside the working folder counts as inside it, the settings are
// looked for no higher than the working folder however its name is spelt,
// and the include glob sees the same names on every platform. Files with
// CRLF line ends (as Windows editors save them) read as any other.
import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, posix, win32 } from 'node:path';
import { foldersUpTo, globPathOf, isInsideFolder } from '../../../src/core/common/folderPaths';
import { plainLocalize } from '../../../src/core/common/localize';
import { compileIncludeGlob, type IncludeGlob } from '../../../src/core/domain/workspaceScan/includeGlob';
import { makeEvent, startFakeApi, TEST_SERIALS, type FakeApi } from '../../support/fakeApi';
import { signedInEnv, tempFolder } from '../../support/cli/runOe';
import { runOeInProcess } from '../../support/cli/testIo';

function glob(pattern: string): IncludeGlob {
  const compiled = compileIncludeGlob(pattern, plainLocalize);
  assert.ok(!('problem' in compiled), pattern);
  return compiled;
}

describe('oe and Windows paths', () => {
  describe('inside the working folder (the "within" of every file oe reads or writes)', () => {
    const inside: readonly (readonly [string, string])[] = [
      ['C:\\Repo', 'C:\\Repo'],
      ['C:\\Repo', 'C:\\Repo\\line.yaml'],
      ['C:\\Repo', 'c:\\repo\\CONFIG\\line.yaml'],
      ['C:\\Repo\\', 'C:/Repo/config/line.yaml'],
      ['C:\\Repo', 'C:\\Repo\\..hidden\\line.yaml'],
      ['\\\\plant-nas\\lines\\Repo', '\\\\PLANT-NAS\\Lines\\repo\\line.yaml'],
    ];
    const outside: readonly (readonly [string, string])[] = [
      ['C:\\Repo', 'C:\\'],
      ['C:\\Repo', 'C:\\Repo2\\line.yaml'],
      ['C:\\Repo', 'C:\\Repo\\..\\Users\\me\\.npmrc'],
      ['C:\\Repo', 'D:\\Repo\\line.yaml'],
      ['C:\\Repo', '\\\\plant-nas\\lines\\Repo\\line.yaml'],
      ['\\\\plant-nas\\lines\\Repo', '\\\\plant-nas\\other\\Repo\\line.yaml'],
      ['\\\\plant-nas\\lines\\Repo', 'C:\\Repo\\line.yaml'],
    ];
    for (const [folder, path] of inside)
      it(`${path} is inside ${folder}`, () => {
        assert.equal(isInsideFolder(folder, path, win32), true);
      });
    for (const [folder, path] of outside)
      it(`${path} is outside ${folder}`, () => {
        assert.equal(isInsideFolder(folder, path, win32), false);
      });
    it('on POSIX, names differ by case and a backslash is part of a name', () => {
      assert.equal(isInsideFolder('/work/Repo', '/work/repo/line.yaml', posix), false);
      assert.equal(isInsideFolder('/work/Repo', '/work/Repo/..\\x', posix), true);
    });
  });

  describe('the folders searched for .vscode\\settings.json: up to the working folder, however it is spelt', () => {
    it('stops at the working folder when the path names it in other letters', () => {
      assert.deepEqual(foldersUpTo('c:\\repo\\lines\\a', 'C:\\Repo', win32), ['c:\\repo\\lines\\a', 'c:\\repo\\lines', 'c:\\repo']);
    });
    it('stops at the working folder on a UNC share, and at the share for a path outside it', () => {
      assert.deepEqual(foldersUpTo('\\\\NAS\\Lines\\repo\\a', '\\\\nas\\lines\\Repo', win32), [
        '\\\\NAS\\Lines\\repo\\a',
        '\\\\NAS\\Lines\\repo',
      ]);
      assert.deepEqual(foldersUpTo('\\\\nas\\lines\\other', '\\\\nas\\lines\\Repo', win32), ['\\\\nas\\lines\\other', '\\\\nas\\lines\\']);
    });
    it('climbs to the drive root for a path on another drive, and no further', () => {
      assert.deepEqual(foldersUpTo('D:\\lines\\a', 'C:\\Repo', win32), ['D:\\lines\\a', 'D:\\lines', 'D:\\']);
    });
    it('on POSIX, a folder in other letters is another folder', () => {
      assert.deepEqual(foldersUpTo('/work/repo/a', '/work/Repo', posix), ['/work/repo/a', '/work/repo', '/work', '/']);
    });
  });

  describe('the include glob sees / between names on every platform', () => {
    it('a Windows path below the folder matches as its / form does', () => {
      const path = globPathOf('C:\\Repo', 'C:\\Repo\\configs\\line 7\\station.yaml', win32);
      assert.equal(path, 'configs/line 7/station.yaml');
      assert.ok(glob('**/*.yaml').matches(path));
      assert.ok(glob('configs/**/station.yaml').matches(path));
      assert.ok(!glob('*.yaml').matches(path));
      assert.equal(globPathOf('\\\\nas\\lines\\Repo', '\\\\nas\\lines\\Repo\\a\\b.json', win32), 'a/b.json');
    });
    it('on POSIX a backslash in a file name is no separator: x\\y.yaml at the top is matched by *.yaml', () => {
      const path = globPathOf('/work/repo', '/work/repo/x\\y.yaml', posix);
      assert.equal(path, 'x\\y.yaml');
      assert.ok(glob('*.yaml').matches(path), `${path} is one file at the top`);
    });
  });

  describe('files saved with CRLF line ends', function () {
    this.timeout(30_000);
    let api: FakeApi | undefined;
    before(async () => {
      api = await startFakeApi();
      api.setMachineEvents('FLR-2000-D0001', [
        makeEvent({ type: 'CERTIFICATE_REJECTED', message: 'rejected', timestamp: Date.UTC(2025, 0, 3) }),
      ]);
    });
    after(async () => {
      await api?.close();
    });

    it("oe check reads the settings and the files as any other: each serial number whole, on its line, the settings' include honoured", async () => {
      assert.ok(api !== undefined);
      const repo = tempFolder('crlf');
      mkdirSync(join(repo, '.git'));
      mkdirSync(join(repo, '.vscode'));
      writeFileSync(join(repo, '.vscode', 'settings.json'), '{\r\n  "onboardingEvents.workspaceScan.include": "**/*.cfg"\r\n}\r\n');
      writeFileSync(join(repo, 'line.cfg'), `[line 7]\r\nstation_a = ${TEST_SERIALS.onboarded}\r\nstation_b = FLR-2000-D0001\r\n`);
      writeFileSync(join(repo, 'ignored.yaml'), `x: ${TEST_SERIALS.started}\r\n`);
      const run = await runOeInProcess(['check', '.', '--json'], { env: signedInEnv(api), cwd: repo });
      assert.equal(run.code, 1, run.stderr);
      const machines = JSON.parse(run.stdout) as { serialNumber: string; state: string; locations: string[] }[];
      assert.deepEqual(
        machines.map(({ serialNumber, state, locations }) => ({ serialNumber, state, locations })),
        [
          { serialNumber: 'FLR-2000-D0001', state: 'failed', locations: ['line.cfg:3'] },
          { serialNumber: TEST_SERIALS.onboarded, state: 'onboarded', locations: ['line.cfg:2'] },
        ],
      );
    });
  });
});
