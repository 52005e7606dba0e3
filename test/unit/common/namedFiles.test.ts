// The one reader and writer of named files, on real files in a temporary folder: what a planted symlink,
// hard link, FIFO or a file that lies about its size would do to it.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  chownSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NamedFileError, readNamedFile, readNamedFileSync, writeNamedFile } from '../../../src/core/common/namedFiles';

const SECRET = 'the secret of another folder\n';

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof NamedFileError, String(error));
    return error.refusal;
  }
  assert.fail('not refused');
}

function refusalSync(read: () => unknown): string {
  try {
    read();
  } catch (error) {
    assert.ok(error instanceof NamedFileError, String(error));
    return error.refusal;
  }
  assert.fail('not refused');
}

describe('named files (common/namedFiles.ts)', () => {
  let root: string;
  let inside: string;
  let outside: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'named-files-'));
    inside = join(root, 'repo');
    outside = join(root, 'home');
    mkdirSync(inside);
    mkdirSync(outside);
    writeFileSync(join(outside, 'secret'), SECRET);
  });
  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
  });

  describe('the reader', () => {
    it('reads a file below its folder, and refuses a symlink or ".." out of it, by the opened file', async () => {
      writeFileSync(join(inside, 'a.yaml'), 'ok');
      symlinkSync(join(outside, 'secret'), join(inside, 'link.yaml'));
      symlinkSync(outside, join(inside, 'folder'));
      assert.equal((await readNamedFile(join(inside, 'a.yaml'), { maxBytes: 10, within: inside })).toString(), 'ok');
      for (const path of [join(inside, 'link.yaml'), join(inside, 'folder', 'secret'), join(inside, '..', 'home', 'secret')]) {
        assert.equal(await refusal(readNamedFile(path, { maxBytes: 100, within: inside })), 'outside', path);
        assert.equal(
          refusalSync(() => readNamedFileSync(path, { maxBytes: 100, within: inside })),
          'outside',
          path,
        );
      }
      // Without a folder to stay in, a link is followed; with noFinalLink, a link as the last name is refused.
      assert.equal((await readNamedFile(join(inside, 'link.yaml'), { maxBytes: 100 })).toString(), SECRET);
      assert.equal(await refusal(readNamedFile(join(inside, 'link.yaml'), { maxBytes: 100, noFinalLink: true })), 'symlink');
    });

    it('counts the bytes it read, not the size stat reports: a /proc file of size 0 over the limit is refused', async function () {
      if (process.platform !== 'linux') this.skip();
      assert.equal(statSync('/proc/self/status').size, 0, 'stat says nothing is there');
      assert.equal(await refusal(readNamedFile('/proc/self/status', { maxBytes: 16 })), 'too-large');
      assert.equal(
        refusalSync(() => readNamedFileSync('/proc/self/status', { maxBytes: 16 })),
        'too-large',
      );
      writeFileSync(join(inside, 'big'), 'x'.repeat(101));
      assert.equal(await refusal(readNamedFile(join(inside, 'big'), { maxBytes: 100 })), 'too-large');
      assert.equal((await readNamedFile(join(inside, 'big'), { maxBytes: 101 })).length, 101);
    });

    it('refuses a FIFO, a device and a folder at once, without waiting for a writer', async function () {
      if (process.platform === 'win32') this.skip();
      assert.equal(spawnSync('mkfifo', [join(inside, 'pipe')]).status, 0);
      for (const path of [join(inside, 'pipe'), '/dev/zero', inside]) {
        assert.equal(await refusal(readNamedFile(path, { maxBytes: 100 })), 'not-a-file', path);
        assert.equal(
          refusalSync(() => readNamedFileSync(path, { maxBytes: 100 })),
          'not-a-file',
          path,
        );
      }
    });

    it('refuses a file another user owns when asked to', async function () {
      if (process.getuid?.() !== 0) this.skip();
      writeFileSync(join(inside, 'settings.json'), '{}');
      chownSync(join(inside, 'settings.json'), 65534, 65534);
      assert.equal(await refusal(readNamedFile(join(inside, 'settings.json'), { maxBytes: 100, ownedByUs: true })), 'not-ours');
      assert.equal((await readNamedFile(join(inside, 'settings.json'), { maxBytes: 100 })).toString(), '{}');
    });
  });

  describe('the writer', () => {
    it('never writes through a symlink at the name: refused, the target intact', async () => {
      symlinkSync(join(outside, 'secret'), join(inside, 'report.xml'));
      assert.equal(await refusal(writeNamedFile(join(inside, 'report.xml'), 'report')), 'symlink');
      assert.equal(readFileSync(join(outside, 'secret'), 'utf8'), SECRET);
    });

    it('never writes through a hard link: refused, the other name intact', async () => {
      linkSync(join(outside, 'secret'), join(inside, 'report.xml'));
      assert.equal(await refusal(writeNamedFile(join(inside, 'report.xml'), 'report')), 'not-ours');
      assert.equal(readFileSync(join(outside, 'secret'), 'utf8'), SECRET);
    });

    it("refuses another user's file, a folder, and a folder that leads out of the one it must stay in", async function () {
      mkdirSync(join(inside, 'dir'));
      assert.equal(await refusal(writeNamedFile(join(inside, 'dir'), 'report')), 'not-a-file');
      symlinkSync(outside, join(inside, 'reports'));
      assert.equal(await refusal(writeNamedFile(join(inside, 'reports', 'new.xml'), 'report', { within: inside })), 'outside');
      assert.deepEqual(readdirSync(outside), ['secret']);
      if (process.getuid?.() !== 0) this.skip();
      writeFileSync(join(inside, 'theirs.xml'), 'theirs');
      chownSync(join(inside, 'theirs.xml'), 65534, 65534);
      assert.equal(await refusal(writeNamedFile(join(inside, 'theirs.xml'), 'report')), 'not-ours');
      assert.equal(readFileSync(join(inside, 'theirs.xml'), 'utf8'), 'theirs');
    });

    it('creates a new file 0600, keeps the mode of one of ours it replaces, and leaves no temporary file', async function () {
      await writeNamedFile(join(inside, 'new.xml'), 'one');
      assert.equal(readFileSync(join(inside, 'new.xml'), 'utf8'), 'one');
      writeFileSync(join(inside, 'old.xml'), 'old', { mode: 0o640 });
      await writeNamedFile(join(inside, 'old.xml'), 'two');
      assert.equal(readFileSync(join(inside, 'old.xml'), 'utf8'), 'two');
      assert.deepEqual(readdirSync(inside).sort(), ['new.xml', 'old.xml']);
      if (process.platform === 'win32') this.skip();
      assert.equal(statSync(join(inside, 'new.xml')).mode & 0o777, 0o600);
      assert.equal(statSync(join(inside, 'old.xml')).mode & 0o777, 0o640);
    });
  });
});
