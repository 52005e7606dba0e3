#!/usr/bin/env node
// `npm run pack:cli`: the oe command as an npm package tarball,
// dist/oe-cli-<version>.tgz, holding oe's bundles (esbuild.mjs: oe.js, the
// entry, and the program, MCP and jq worker files it loads, everything inside),
// a package.json whose bin names oe.js `oe`, and an npm-shrinkwrap.json. It
// installs with `npm install -g ./dist/oe-cli-<version>.tgz` or runs with
// `npx --package ./dist/oe-cli-<version>.tgz oe`, on Node 20 or later. Its one
// dependency, the keychain's native module, is pinned by the shrinkwrap taken
// from package-lock.json: npm installs the platform's binary, from its cache
// when `npm ci` of this repository filled it.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const bundles = ['oe.js', 'oeProgram.js', 'oeMcp.js', 'jqWorker.js'];
const missing = bundles.filter((file) => !existsSync(join(root, 'dist', file)));
if (missing.length > 0) {
  console.error(`pack:cli: dist/${missing.join(', dist/')} missing: run node esbuild.mjs first (npm run pack:cli does).`);
  process.exit(1);
}
const KEYCHAIN = '@napi-rs/keyring';
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));

/** The version package-lock.json holds: the one the tests ran. */
function keychainDependency() {
  return { [KEYCHAIN]: lock.packages[`node_modules/${KEYCHAIN}`].version };
}

/** The lock entries of the keychain module and of its per-platform binaries (optional: npm takes the one that fits). */
function keychainShrinkwrap(cli) {
  const packages = { '': { name: cli.name, version: cli.version, license: cli.license, dependencies: cli.dependencies, bin: cli.bin } };
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (!path.startsWith(`node_modules/${KEYCHAIN}`)) continue;
    // Not a development dependency in this package: the one it runs with.
    packages[path] = Object.fromEntries(Object.entries(entry).filter(([key]) => key !== 'dev'));
  }
  return { name: cli.name, version: cli.version, lockfileVersion: 3, requires: true, packages };
}

const staging = mkdtempSync(join(tmpdir(), 'oe-cli-'));
try {
  for (const file of bundles) copyFileSync(join(root, 'dist', file), join(staging, file));
  const cli = {
    name: 'oe-cli',
    version: manifest.version,
    description: 'oe: the Onboarding Events client for scripts, CI gates, test rigs and agents, without VS Code',
    license: manifest.license,
    repository: manifest.repository,
    bin: { oe: 'oe.js' },
    files: [...bundles, 'npm-shrinkwrap.json'],
    engines: { node: '>=20' },
    dependencies: keychainDependency(),
  };
  writeFileSync(join(staging, 'package.json'), `${JSON.stringify(cli, null, 2)}\n`);
  writeFileSync(join(staging, 'npm-shrinkwrap.json'), `${JSON.stringify(keychainShrinkwrap(cli), null, 2)}\n`);
  const out = execFileSync('npm', ['pack', '--silent', '--pack-destination', join(root, 'dist')], {
    cwd: staging,
    encoding: 'utf8',
    shell: process.platform === 'win32',
  });
  console.log(join('dist', out.trim().split('\n').at(-1)));
} finally {
  rmSync(staging, { recursive: true, force: true });
}
