// npm run pack:cli: the tarball holds oe.js, jqWorker.js (for --jq), a
// package.json and the shrinkwrap of its one dependency (the keychain's native
// module), and `npm install -g` of it into a temporary prefix, offline from the
// npm cache `npm ci` filled, gives a working `oe` on the PATH that loads that
// module and runs jq.
import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, tempFolder } from '../support/cli/runOe';

describe('oe as an npm package (npm run pack:cli)', function () {
  this.timeout(120_000);

  it('packs oe.js, its jq worker and its shrinkwrap with bin oe; npm install -g of the tarball, offline, runs oe --version, --jq and loads the keychain module', () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const packed = execFileSync(process.execPath, [join(ROOT, 'scripts', 'pack-cli.mjs')], { cwd: ROOT, encoding: 'utf8' }).trim();
    assert.equal(packed, join('dist', `oe-cli-${version}.tgz`));
    const tarball = join(ROOT, packed);
    const listing = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' }).trim().split('\n').sort();
    assert.deepEqual(listing, ['package/jqWorker.js', 'package/npm-shrinkwrap.json', 'package/oe.js', 'package/package.json']);
    // jq is in its worker's file only: a run without --jq (oe --version among them) reads none of its 1.3 MB.
    assert.ok(readFileSync(join(ROOT, 'dist', 'jqWorker.js'), 'utf8').includes('JqError'));
    assert.ok(!readFileSync(join(ROOT, 'dist', 'oe.js'), 'utf8').includes('JqError'), 'oe.js holds no jq');
    const prefix = tempFolder('prefix');
    // The cache of the user running the tests: what `npm ci` of this repository downloaded, the keychain module among it.
    const cache = execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).trim();
    const install = [
      'install',
      '--global',
      '--prefix',
      prefix,
      '--offline',
      '--cache',
      cache,
      '--no-audit',
      '--no-fund',
      '--no-update-notifier',
    ];
    execFileSync('npm', [...install, tarball], {
      encoding: 'utf8',
      env: { PATH: process.env['PATH'] ?? '', HOME: prefix },
    });
    const oe = join(prefix, 'bin', 'oe');
    const env = { PATH: `${join(prefix, 'bin')}:${process.env['PATH'] ?? ''}`, HOME: prefix };
    assert.equal(execFileSync(oe, ['--version'], { encoding: 'utf8', env }), `${version}\n`);
    const urls = { OE_API_URL: 'https://api.plant.test', OE_AUTH_URL: 'https://login.plant.test/token' };
    const jq = execFileSync(oe, ['curl', 'MX-4711-A0023', '--jq', '.serialNumber'], { encoding: 'utf8', env: { ...env, ...urls } });
    assert.equal(jq, 'MX-4711-A0023\n', 'jq runs from the installed package');
    // An environment to ask the keychain about, where there is no D-Bus session: the module loads, the keychain is absent.
    mkdirSync(join(prefix, '.config', 'oe'), { recursive: true });
    const environment = {
      name: 'Production',
      apiBaseUrl: 'https://api.example.invalid',
      authUrl: 'https://auth.example.invalid',
      clientId: 'c',
      username: 'u',
    };
    writeFileSync(join(prefix, '.config', 'oe', 'config.json'), JSON.stringify({ environments: [environment] }));
    const status = spawnSync(oe, ['auth', 'status'], { encoding: 'utf8', env });
    assert.equal(status.status, 3, status.stderr);
    assert.match(status.stderr, /No keychain is available/, 'the installed oe loads the keychain module');
  });
});
