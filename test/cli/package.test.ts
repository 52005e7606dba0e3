// npm run pack:cli: the tarball holds oe.js, jqWorker.js (for --jq) and a
// package.json only, and `npm install -g` of it into a temporary prefix gives a
// working `oe` on the PATH, with nothing else installed (no dependency to fetch).
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, tempFolder } from '../support/cli/runOe';

describe('oe as an npm package (npm run pack:cli)', function () {
  this.timeout(120_000);

  it('packs oe.js and its jq worker with bin oe; npm install -g of the tarball runs oe --version and --jq', () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const packed = execFileSync(process.execPath, [join(ROOT, 'scripts', 'pack-cli.mjs')], { cwd: ROOT, encoding: 'utf8' }).trim();
    assert.equal(packed, join('dist', `oe-cli-${version}.tgz`));
    const tarball = join(ROOT, packed);
    const listing = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' }).trim().split('\n').sort();
    assert.deepEqual(listing, ['package/jqWorker.js', 'package/oe.js', 'package/package.json']);
    // jq is in its worker's file only: a run without --jq (oe --version among them) reads none of its 1.3 MB.
    assert.ok(readFileSync(join(ROOT, 'dist', 'jqWorker.js'), 'utf8').includes('JqError'));
    assert.ok(!readFileSync(join(ROOT, 'dist', 'oe.js'), 'utf8').includes('JqError'), 'oe.js holds no jq');
    const prefix = tempFolder('prefix');
    execFileSync('npm', ['install', '--global', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', tarball], {
      encoding: 'utf8',
      env: { PATH: process.env['PATH'] ?? '', HOME: prefix },
    });
    const oe = join(prefix, 'bin', 'oe');
    const env = { PATH: `${join(prefix, 'bin')}:${process.env['PATH'] ?? ''}`, HOME: prefix };
    assert.equal(execFileSync(oe, ['--version'], { encoding: 'utf8', env }), `${version}\n`);
    const urls = { OE_API_URL: 'https://api.plant.test', OE_AUTH_URL: 'https://login.plant.test/token' };
    const jq = execFileSync(oe, ['curl', 'MX-4711-A0023', '--jq', '.serialNumber'], { encoding: 'utf8', env: { ...env, ...urls } });
    assert.equal(jq, 'MX-4711-A0023\n', 'jq runs from the installed package');
  });
});
