// npm run pack:cli: the tarball holds oe's bundles and a package.json only, and
// the README's install line, run exactly as written in the repository's folder
// (only the environment points npm's global prefix at a temporary folder), gives
// a working `oe` on the PATH, with nothing else installed (no dependency to
// fetch), with the machine's npm and with npm 10.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { ROOT, tempFolder } from '../support/cli/runOe';
import { skipBecause } from '../support/skipBecause';

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
    assert.deepEqual(listing, ['package/oe.js', 'package/oeMcp.js', 'package/oeProgram.js', 'package/package.json']);
  });

  /** Runs the README's line (with `npmBin`'s npm first on the PATH, if given) into a new global prefix; oe from that PATH. */
  const installAsReadmeSays = (npmBin?: string): void => {
    const line = readmeInstallLine();
    const prefix = tempFolder('prefix');
    const binDir = process.platform === 'win32' ? prefix : join(prefix, 'bin');
    const path = [...(npmBin === undefined ? [] : [npmBin]), binDir, process.env['PATH'] ?? ''].join(delimiter);
    const npmEnv = {
      PATH: path,
      HOME: prefix,
      npm_config_prefix: prefix,
      npm_config_cache: join(prefix, 'cache'),
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
  };

  it("the README's install line, with the machine's npm (11 or later), puts oe on the PATH", () => {
    const npmVersion = execFileSync('npm', ['--version'], { encoding: 'utf8' }).trim();
    assert.ok(Number(npmVersion.split('.')[0]) >= 11, `the machine's npm is ${npmVersion}`);
    installAsReadmeSays();
  });

  it("the README's install line, with npm 10, puts oe on the PATH", function () {
    if (!existsSync(NPM10_CLI))
      skipBecause(this, 'npm 10 is not installed: it needs the devDependency "npm10": "npm:npm@10" (node_modules/npm10), not yet added');
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
