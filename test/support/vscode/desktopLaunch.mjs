#!/usr/bin/env node
// How a desktop VS Code (downloaded by @vscode/test-electron, or OE_VSCODE_EXECUTABLE) is started
// for the suites that need more than runTests gives (scripts/run-integration.mjs):
//   - Restricted Mode: runTests always passes --disable-workspace-trust, and no setting or later
//     argument turns trust back on. So runTests starts this file instead of VS Code; it drops that
//     one argument and starts the real VS Code (OE_REAL_VSCODE), in a user-data folder of its own
//     whose settings keep the trust dialog from covering the window (the folder opens untrusted).
//   - the pseudo-locale: --locale=qps-ploc, with the extension's pseudo bundles written first.
// The local VS Code (code-server + Chromium) does both itself (scripts/vscode/code-stand-in.mjs).
import { spawn, execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const self = fileURLToPath(import.meta.url);
const root = resolve(self, '../../../..');
const DISABLE_TRUST = '--disable-workspace-trust';

/** What runTests needs to start `executable` with workspace trust on: the executable to give it, launch arguments, and environment. */
export function untrustedLaunch(executable) {
  const userData = mkdtempSync(join(tmpdir(), 'oe-untrusted-'));
  mkdirSync(join(userData, 'User'), { recursive: true });
  writeFileSync(
    join(userData, 'User', 'settings.json'),
    JSON.stringify({ 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never' }),
  );
  let launcher = self;
  if (process.platform === 'win32') {
    // runTests starts its executable through cmd on Windows: a .cmd that hands the arguments to this file.
    launcher = join(userData, 'launch.cmd');
    writeFileSync(launcher, `@"${process.execPath}" "${self}" %*\r\n`);
  } else {
    chmodSync(self, 0o755);
  }
  return { executable: launcher, args: [`--user-data-dir=${userData}`], env: { OE_REAL_VSCODE: executable } };
}

/** Launch arguments for a desktop VS Code in `locale` (the pseudo-locale's bundles are generated, never committed). */
export function localeArgs(locale) {
  if (locale === undefined) return [];
  if (locale === 'qps-ploc')
    execFileSync(process.execPath, [join(root, 'out', 'test', 'support', 'l10n', 'writePseudoLocale.js')], { cwd: root, stdio: 'ignore' });
  return [`--locale=${locale}`];
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === self) {
  const real = process.env.OE_REAL_VSCODE;
  if (!real) {
    console.error('desktopLaunch.mjs: OE_REAL_VSCODE names no VS Code to start');
    process.exit(1);
  }
  const child = spawn(
    real,
    process.argv.slice(2).filter((arg) => arg !== DISABLE_TRUST),
    { stdio: 'inherit' },
  );
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
}
