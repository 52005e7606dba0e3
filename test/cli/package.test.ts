// npm run pack:cli: the tarball holds oe's bundles (the jq worker among them),
// a package.json and the shrinkwrap of its one dependency (the keychain's
// native module), and the README's install line, run exactly as written in the
// repository's folder (only the environment points npm's global prefix at a
// temporary folder, offline from the npm cache `npm ci` filled), gives a working
// `oe` on the PATH that runs jq and loads that module, with the machine's npm
// and with npm 10.
import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { ROOT, tempFolder } from '../support/cli/runOe';

/** The README's install command: the one `npm install -g` line of its fenced blocks. */
function readmeInstallLine(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const lines = [...readme.matchAll(/^```sh\n([\s\S]*?)^```$/gm)]
    .flatMap((block) => (block[1] ?? '').split('\n'))
    .filter((line) => /^npm (?:install|i) (?:-g|--global)\b/.test(line));
  assert.equal(lines.length, 1, `one npm install -g line in README.md's sh blocks, found: ${JSON.stringify(lines)}`);
  return lines[0] ?? '';
}

/** npm 10 as a devDependency alias (npm10: npm:npm@10), when the project has it. */
// The PATH without node_modules/.bin: the npm10 devDependency links its bin there as `npm`, and npm scripts put
// that folder first, so the machine's npm is the one found without it.
const MACHINE_PATH = (process.env['PATH'] ?? '')
  .split(delimiter)
  .filter((dir) => !/node_modules[\\/]\.bin$/.test(dir))
  .join(delimiter);
const NPM10_CLI = join(ROOT, 'node_modules', 'npm10', 'bin', 'npm-cli.js');

describe('oe as an npm package (npm run pack:cli)', function () {
  this.timeout(180_000);
  let version = '';
  before(function () {
    version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    const packed = execFileSync(process.execPath, [join(ROOT, 'scripts', 'pack-cli.mjs')], { cwd: ROOT, encoding: 'utf8' }).trim();
    assert.equal(packed, join('dist', `oe-cli-${version}.tgz`));
  });

  it("packs oe's bundles alone, oe.js as bin oe", () => {
    const listing = execFileSync('tar', ['tzf', join(ROOT, 'dist', `oe-cli-${version}.tgz`)], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .sort();
    assert.deepEqual(listing, [
      'package/jqWorker.js',
      'package/npm-shrinkwrap.json',
      'package/oe.js',
      'package/oeMcp.js',
      'package/oeProgram.js',
      'package/package.json',
    ]);
    // jq is in its worker's file only: a run without --jq (oe --version among them) reads none of its 1.3 MB.
    assert.ok(readFileSync(join(ROOT, 'dist', 'jqWorker.js'), 'utf8').includes('JqError'));
    for (const file of ['oe.js', 'oeProgram.js'])
      assert.ok(!readFileSync(join(ROOT, 'dist', file), 'utf8').includes('JqError'), `${file} holds no jq`);
  });

  /** Runs the README's line (with `npmBin`'s npm first on the PATH, if given) into a new global prefix; oe from that PATH. */
  const installAsReadmeSays = (npmBin?: string): void => {
    const line = readmeInstallLine();
    const prefix = tempFolder('prefix');
    const binDir = process.platform === 'win32' ? prefix : join(prefix, 'bin');
    const path = [...(npmBin === undefined ? [] : [npmBin]), binDir, MACHINE_PATH].join(delimiter);
    const npmEnv = {
      PATH: path,
      HOME: prefix,
      npm_config_prefix: prefix,
      // The cache of the user running the tests: what `npm ci` of this repository downloaded, the keychain module among it.
      npm_config_cache: execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).trim(),
      npm_config_offline: 'true',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
    };
    execFileSync('sh', ['-c', line], { cwd: ROOT, encoding: 'utf8', env: npmEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    const env = { PATH: `${binDir}${delimiter}${process.env['PATH'] ?? ''}`, HOME: prefix };
    // As a user types it: `oe` found on the PATH, the prepared answer and the program both there.
    assert.equal(execFileSync('sh', ['-c', 'oe --version'], { encoding: 'utf8', env }), `${version}\n`);
    assert.match(execFileSync('sh', ['-c', 'oe events --help'], { encoding: 'utf8', env }), /^Usage: oe events /);
    const urls = { OE_API_URL: 'https://api.plant.test', OE_AUTH_URL: 'https://login.plant.test/token' };
    const jq = execFileSync('sh', ['-c', 'oe curl MX-4711-A0023 --jq .serialNumber'], { encoding: 'utf8', env: { ...env, ...urls } });
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
    const status = spawnSync('sh', ['-c', 'oe auth status'], { encoding: 'utf8', env });
    assert.equal(status.status, 3, status.stderr);
    assert.match(status.stderr, /No keychain is available/, 'the installed oe loads the keychain module');
  };

  it("the README's install line, with the machine's npm (11 or later), puts oe on the PATH", () => {
    const npmVersion = execFileSync('npm', ['--version'], { encoding: 'utf8', env: { ...process.env, PATH: MACHINE_PATH } }).trim();
    assert.ok(Number(npmVersion.split('.')[0]) >= 11, `the machine's npm is ${npmVersion}`);
    installAsReadmeSays();
  });

  it("the README's install line, with npm 10, puts oe on the PATH", function () {
    assert.ok(existsSync(NPM10_CLI), 'npm 10 is the devDependency "npm10" (npm ci installs it)');
    const shim = tempFolder('npm10');
    execFileSync('sh', [
      '-c',
      `printf '#!/bin/sh\\nexec "%s" "%s" "$@"\\n' "$0" "$1" > "$2/npm" && chmod +x "$2/npm"`,
      process.execPath,
      NPM10_CLI,
      shim,
    ]);
    assert.match(execFileSync(join(shim, 'npm'), ['--version'], { encoding: 'utf8' }), /^10\./);
    installAsReadmeSays(shim);
  });
});
