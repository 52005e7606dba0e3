#!/usr/bin/env node
// Runs an extension-host test suite through @vscode/test-electron's runTests.
// Which VS Code: OE_VSCODE_EXECUTABLE (your own VS Code binary) if set; else
// OE_VSCODE=download|local; else automatic: the normal download where the
// VS Code update server resolves, the local VS Code (code-server + Chromium,
// provisioned into .vscode-test/local) where it does not.
import { runTests } from '@vscode/test-electron';
import { lookup } from 'node:dns/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { provision } from './vscode/provision.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const standIn = resolve(root, 'scripts/vscode/code-stand-in.mjs');

async function updateServerResolves() {
  const timeout = new Promise((r) => setTimeout(() => r(false), 3000).unref());
  const probe = lookup('update.code.visualstudio.com').then(() => true, () => false);
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
  console.log(`[integration] VS Code: ${choice.kind === 'local' ? 'local (code-server + Chromium)' : choice.kind === 'yours' ? choice.executable : 'downloaded by @vscode/test-electron'}`);
  try {
    await runTests({
      ...(choice.executable ? { vscodeExecutablePath: choice.executable } : {}),
      extensionDevelopmentPath,
      extensionTestsPath,
      launchArgs: folder ? [folder, '--disable-extensions'] : ['--disable-extensions'],
      extensionTestsEnv: env,
    });
    return 0;
  } catch (err) {
    console.error(`[integration] ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const suite = process.argv[2] ?? 'integration';
  const code = await runSuite({
    extensionDevelopmentPath: suite === 'package' ? resolve(root, 'test/package/probe') : root,
    extensionTestsPath: resolve(root, `out/test/${suite}/index.js`),
    folder: resolve(root, 'test/fixtures/workspace'),
    env: suite === 'package' ? { OE_INSTALL_VSIX: resolve(root, 'dist-vsix/onboarding-events.vsix') } : {},
  });
  process.exit(code);
}
