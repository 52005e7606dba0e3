#!/usr/bin/env node
// `npm run pack:cli`: the oe command as an npm package tarball,
// dist/oe-cli-<version>.tgz, holding only oe's bundles (esbuild.mjs: oe.js, the
// entry, and the program and MCP files it requires, everything inside) and a
// package.json whose bin names oe.js `oe`. It installs with
// `npm install -g ./dist/oe-cli-<version>.tgz` or runs with
// `npx --package ./dist/oe-cli-<version>.tgz oe`, on Node 20 or later, with
// nothing else to fetch (no dependencies).
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const bundles = ['oe.js', 'oeProgram.js', 'oeMcp.js'];
const missing = bundles.filter((file) => !existsSync(join(root, 'dist', file)));
if (missing.length > 0) {
  console.error(`pack:cli: dist/${missing.join(', dist/')} missing: run node esbuild.mjs first (npm run pack:cli does).`);
  process.exit(1);
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
    files: bundles,
    engines: { node: '>=20' },
  };
  writeFileSync(join(staging, 'package.json'), `${JSON.stringify(cli, null, 2)}\n`);
  const out = execFileSync('npm', ['pack', '--silent', '--pack-destination', join(root, 'dist')], {
    cwd: staging,
    encoding: 'utf8',
    shell: process.platform === 'win32',
  });
  console.log(join('dist', out.trim().split('\n').at(-1)));
} finally {
  rmSync(staging, { recursive: true, force: true });
}
