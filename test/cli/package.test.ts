// npm run pack:cli: the tarball holds oe.js and a package.json only, and
// `npm install -g` of it into a temporary prefix gives a working `oe` on the
// PATH, with nothing else installed (the bundle has no dependency to fetch).
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, tempFolder } from '../support/cli/runOe';

describe('oe as an npm package (npm run pack:cli)', function () {
  this.timeout(120_000);

  it('packs oe.js alone with bin oe; npm install -g of the tarball runs oe --version', () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const packed = execFileSync(process.execPath, [join(ROOT, 'scripts', 'pack-cli.mjs')], { cwd: ROOT, encoding: 'utf8' }).trim();
    assert.equal(packed, join('dist', `oe-cli-${version}.tgz`));
    const tarball = join(ROOT, packed);
    const listing = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' }).trim().split('\n').sort();
    assert.deepEqual(listing, ['package/oe.js', 'package/package.json']);
    const prefix = tempFolder('prefix');
    execFileSync('npm', ['install', '--global', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', tarball], {
      encoding: 'utf8',
      env: { PATH: process.env['PATH'] ?? '', HOME: prefix },
    });
    const oe = join(prefix, 'bin', 'oe');
    const env = { PATH: `${join(prefix, 'bin')}:${process.env['PATH'] ?? ''}`, HOME: prefix };
    assert.equal(execFileSync(oe, ['--version'], { encoding: 'utf8', env }), `${version}\n`);
  });
});
