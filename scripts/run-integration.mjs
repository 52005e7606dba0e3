#!/usr/bin/env node
// Runs an extension-host test suite through @vscode/test-electron's runTests.
// Which VS Code: OE_VSCODE_EXECUTABLE (your own VS Code binary) if set; else
// OE_VSCODE=download|local; else automatic: the normal download where the
// VS Code update server resolves, the local VS Code (code-server + Chromium,
// provisioned into .vscode-test/local) where it does not.
import { resolveCliArgsFromVSCodeExecutablePath, runTests, downloadAndUnzipVSCode } from '@vscode/test-electron';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { lookup } from 'node:dns/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { provision } from './vscode/provision.mjs';
import { freePort } from './vscode/workbench.mjs';
import { createRequire } from 'node:module';
import { localeArgs, untrustedLaunch } from '../test/support/vscode/desktopLaunch.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const standIn = resolve(root, 'scripts/vscode/code-stand-in.mjs');

async function updateServerResolves() {
  const timeout = new Promise((r) => setTimeout(() => r(false), 3000).unref());
  const probe = lookup('update.code.visualstudio.com').then(
    () => true,
    () => false,
  );
  return Promise.race([probe, timeout]);
}

export async function chooseVSCode() {
  if (process.env.OE_VSCODE_EXECUTABLE) return { kind: 'yours', executable: process.env.OE_VSCODE_EXECUTABLE };
  const mode = process.env.OE_VSCODE ?? 'auto';
  if (mode === 'download' || (mode === 'auto' && (await updateServerResolves()))) return { kind: 'download' };
  provision();
  return { kind: 'local', executable: standIn };
}

export async function runSuite({ extensionDevelopmentPath, extensionTestsPath, folder, env = {} }) {
  const choice = await chooseVSCode();
  console.log(
    `[integration] VS Code: ${choice.kind === 'local' ? 'local (code-server + Chromium)' : choice.kind === 'yours' ? choice.executable : 'downloaded by @vscode/test-electron'}`,
  );
  try {
    const launchArgs = folder ? [folder] : [];
    let executable = choice.executable;
    if (env.OE_INSTALL_VSIX && choice.kind !== 'local') {
      // A desktop VS Code installs the package through its own CLI into a fresh extensions folder.
      executable ??= await downloadAndUnzipVSCode();
      const [cli, ...cliArgs] = resolveCliArgsFromVSCodeExecutablePath(executable);
      const extensionsDir = mkdtempSync(resolve(tmpdir(), 'oe-vsix-'));
      spawnSync(cli, [...cliArgs, '--extensions-dir', extensionsDir, '--install-extension', env.OE_INSTALL_VSIX], { stdio: 'inherit' });
      launchArgs.push(`--extensions-dir=${extensionsDir}`);
    } else {
      launchArgs.push('--disable-extensions');
    }
    let testsEnv = env;
    if (choice.kind !== 'local') {
      // A desktop VS Code: the suite's locale, and for Restricted Mode trust on (test/support/vscode/desktopLaunch.mjs).
      launchArgs.push(...localeArgs(process.env.OE_LOCALE));
      if (env.OE_WORKSPACE_TRUST === '1') {
        const untrusted = untrustedLaunch(executable ?? (await downloadAndUnzipVSCode()));
        executable = untrusted.executable;
        launchArgs.push(...untrusted.args);
        testsEnv = { ...env, ...untrusted.env };
      } else {
        launchArgs.push(`--user-data-dir=${mkdtempSync(resolve(tmpdir(), 'oe-user-data-'))}`);
      }
      // The tests read the extension's log under this folder's logs (test/support/extensionLog.ts); the local
      // VS Code names its own (scripts/vscode/code-stand-in.mjs).
      const userData = launchArgs.find((arg) => arg.startsWith('--user-data-dir='))?.slice('--user-data-dir='.length);
      testsEnv = { ...testsEnv, OE_TEST_USER_DATA: userData };
    }
    await runTests({
      ...(executable ? { vscodeExecutablePath: executable } : {}),
      extensionDevelopmentPath,
      extensionTestsPath,
      launchArgs,
      extensionTestsEnv: testsEnv,
    });
    return 0;
  } catch (err) {
    console.error(`[integration] ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
}

/** OE_DEMO_SIGN_IN for the package tier: the fake API's future address (a free port) and the test credentials. */
async function packageSignIn() {
  const port = await freePort();
  const { TEST_CREDENTIALS, TEST_SERIALS } = createRequire(import.meta.url)(resolve(root, 'out/test/support/fakeApi/index.js'));
  const base = `http://127.0.0.1:${port}`;
  const signIn = { apiBaseUrl: base, authUrl: `${base}/oauth`, ...TEST_CREDENTIALS, environment: 'Package test' };
  // As the demo does: the machine it pins is granted with the sign-in (another extension's Add Machine asks otherwise).
  return { OE_PACKAGE_FAKE_PORT: String(port), OE_DEMO_SIGN_IN: JSON.stringify({ signIn, pin: [TEST_SERIALS.onboarded] }) };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const suite = process.argv[2] ?? 'integration';
  // 'pseudo': the views in the pseudo-locale (test/integration/pseudo/), which fail on any English left; the local
  // VS Code builds a language pack for it (scripts/vscode/languagePack.mjs), which the stand-in reads from OE_LOCALE.
  if (suite === 'pseudo') process.env.OE_LOCALE ??= 'qps-ploc';
  // The suites talk only to 127.0.0.1 and set http.proxy themselves where they test a proxy: a proxy named in
  // this shell's environment would reach VS Code's network path and make the proxy suites meaningless, so it
  // is cleared for the VS Code they start (said in one line) rather than a reason to skip them.
  const proxyVariables = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'].filter((name) => process.env[name] !== undefined);
  for (const name of proxyVariables) Reflect.deleteProperty(process.env, name);
  if (proxyVariables.length > 0)
    console.log(`[${suite}] cleared ${proxyVariables.join(', ')} for the VS Code under test: its suites set their own proxies`);
  // 'restricted': workspace trust on and a folder the user never trusted (Restricted Mode), see test/integration/restricted/.
  const restricted = suite === 'restricted';
  const code = await runSuite({
    // The installed package runs in production mode, where the argument form of Sign In asks in a modal first;
    // it signs in through the one-step grant the demo uses (src/core/domain/session/argumentSignIn.ts), for a fake API on this port.
    extensionDevelopmentPath: suite === 'package' ? resolve(root, 'test/package/probe') : root,
    // 'windows': the suites that open a second window (test/integration/windows/), in a VS Code of their own.
    extensionTestsPath: resolve(
      root,
      restricted || suite === 'windows' || suite === 'pseudo' ? `out/test/integration/${suite}/index.js` : `out/test/${suite}/index.js`,
    ),
    folder: resolve(root, restricted ? 'test/fixtures/untrusted-workspace' : 'test/fixtures/workspace'),
    env:
      suite === 'package'
        ? { OE_INSTALL_VSIX: resolve(root, 'dist/onboarding-events.vsix'), ...(await packageSignIn()) }
        : restricted
          ? { OE_WORKSPACE_TRUST: '1' }
          : {},
  });
  process.exit(code);
}
