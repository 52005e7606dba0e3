// Starts a real VS Code workbench on this machine: code-server (VS Code for the
// web with a Node extension host) on 127.0.0.1, opened in Debian's Chromium
// through playwright-core. Used by the integration tests (via the executable
// stand-in that @vscode/test-electron's runTests spawns), by the screenshots
// and by the demo. See ../../README.md, "How tests find a VS Code".
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromiumPath, codeServerEntry, nodeBin, provision } from './provision.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));

export function freePort() {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolvePort(port));
    });
  });
}

/** A scratch folder that holds everything code-server and Chromium would otherwise write to $HOME and /tmp. */
export function makeScratch(prefix = 'run') {
  const base = join(root, '.vscode-test', 'scratch');
  mkdirSync(base, { recursive: true });
  const dir = mkdtempSync(join(base, `${prefix}-`));
  for (const sub of ['config', 'data', 'cache', 'tmp', 'home', 'user-data', 'extensions', 'chromium']) {
    mkdirSync(join(dir, sub), { recursive: true });
  }
  return dir;
}

export const defaultUserSettings = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'security.workspace.trust.enabled': false,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'update.mode': 'none',
  'telemetry.telemetryLevel': 'off',
  'window.commandCenter': true,
  'chat.disableAIFeatures': true,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  // The theme's id in VS Code 1.139 (its themes' package.json). The older id
  // "Default Dark Modern" is only migrated at start-up (and the setting
  // rewritten), and a reload or a second window painted with other colours.
  'workbench.colorTheme': 'Dark Modern',
  // The demo and test workspaces sit inside this repository's Git checkout.
  'git.openRepositoryInParentFolders': 'never',
  // Nothing leaves the loopback range: no schema, type or package look-ups.
  'json.schemaDownload.enable': false,
  'typescript.disableAutomaticTypeAcquisition': true,
  'npm.fetchOnlinePackageInfo': false,
  'extensions.ignoreRecommendations': true,
  'workbench.settings.enableNaturalLanguageSearch': false,
};

/**
 * What code-server reads instead of its built-in gallery (open-vsx): an empty
 * gallery, which turns the Extensions view's look-ups off. Installing a .vsix
 * from disk still works.
 */
export const offlineGalleryEnv = { EXTENSIONS_GALLERY: '{}' };

/**
 * Starts code-server in its own process group. Returns { url, port, stop }.
 * `env` reaches the extension host (it inherits code-server's environment).
 * `testDriver`: the smoke-test driver, which the tests need (it makes the web
 * workbench load extensionDevelopmentPath/extensionTestsPath and report
 * through codeAutomationLog/Exit) but which also hides every notification
 * toast. A workbench a person looks at (the demo) runs without it and loads
 * the extension from an installed .vsix instead (installVsix).
 *
 * `workspaceTrust: true` leaves workspace trust on (a fresh folder opens in
 * Restricted Mode), for the suite that tests it.
 */
export async function startCodeServer({
  scratch,
  userSettings = {},
  env = {},
  log = () => {},
  port: wantedPort,
  workspaceTrust = false,
  testDriver = true,
}) {
  provision();
  const port = wantedPort ?? (await freePort());
  const userDir = join(scratch, 'user-data', 'User');
  mkdirSync(userDir, { recursive: true });
  writeFileSync(join(userDir, 'settings.json'), JSON.stringify({ ...defaultUserSettings, ...userSettings }, null, 2));
  const configFile = join(scratch, 'config', 'code-server.yaml');
  writeFileSync(configFile, 'auth: none\ncert: false\n');
  const args = [
    codeServerEntry,
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--auth',
    'none',
    '--config',
    configFile,
    '--user-data-dir',
    join(scratch, 'user-data'),
    '--extensions-dir',
    join(scratch, 'extensions'),
    '--disable-telemetry',
    '--disable-update-check',
    ...(workspaceTrust ? [] : ['--disable-workspace-trust']),
    '--ignore-last-opened',
    '--disable-getting-started-override',
    // Without this a built web workbench ignores extensionDevelopmentPath/extensionTestsPath.
    ...(testDriver ? ['--vscode-option', 'enable-smoke-test-driver'] : []),
  ];
  const child = spawn(nodeBin, args, {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      ...scratchEnv(scratch),
      ...offlineGalleryEnv,
      ...env,
    },
  });
  const ready = new Promise((resolveReady, reject) => {
    const onData = (buf) => {
      const text = buf.toString();
      log(text);
      if (/HTTP server listening on/i.test(text)) resolveReady();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`code-server exited early with code ${code}`)));
    setTimeout(() => reject(new Error('code-server did not start within 60 s')), 60_000).unref();
  });
  const stop = () => {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  };
  try {
    await ready;
  } catch (err) {
    stop();
    throw err;
  }
  return { url: `http://127.0.0.1:${port}`, port, stop, child };
}

/** Installs .vsix files into the scratch's extensions dir, offline, as a user's `code --install-extension` would. */
export function installVsix(scratch, vsixFiles) {
  provision();
  const args = [codeServerEntry, '--extensions-dir', join(scratch, 'extensions'), '--user-data-dir', join(scratch, 'user-data'), '--force'];
  for (const file of vsixFiles) args.push('--install-extension', file);
  execFileSync(nodeBin, args, { stdio: 'ignore', env: { ...process.env, ...scratchEnv(scratch), ...offlineGalleryEnv } });
}

export function scratchEnv(scratch) {
  return {
    XDG_CONFIG_HOME: join(scratch, 'config'),
    XDG_DATA_HOME: join(scratch, 'data'),
    XDG_CACHE_HOME: join(scratch, 'cache'),
    TMPDIR: join(scratch, 'tmp'),
  };
}

/** Builds the workbench URL that loads extensions under development (and tests), as VS Code's own browser integration tests do. */
export function workbenchUrl(server, { folder, extensionDevelopmentPaths = [], extensionTestsPath }) {
  const authority = `127.0.0.1:${server.port}`;
  const payload = extensionDevelopmentPaths.map((p) => ['extensionDevelopmentPath', `vscode-remote://${authority}${resolve(p)}`]);
  if (extensionTestsPath) payload.push(['extensionTestsPath', `vscode-remote://${authority}${resolve(extensionTestsPath)}`]);
  payload.push(['skipWelcome', 'true']);
  const params = new URLSearchParams();
  if (folder) params.set('folder', resolve(folder));
  params.set('payload', JSON.stringify(payload));
  return `${server.url}/?${params.toString()}`;
}

export async function launchChromium({ scratch, viewport = { width: 1400, height: 860 }, colorScheme = 'dark', headless = true }) {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless,
    env: { ...process.env, HOME: join(scratch, 'home'), ...scratchEnv(scratch) },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
      `--user-data-dir=${join(scratch, 'chromium')}`,
    ].filter((a) => !a.startsWith('--user-data-dir')),
  });
  const context = await browser.newContext({ viewport, colorScheme, deviceScaleFactor: 1 });
  const page = await context.newPage();
  return { browser, context, page };
}

export function removeScratch(scratch) {
  if (process.env.OE_KEEP_SCRATCH) return;
  rmSync(scratch, { recursive: true, force: true, maxRetries: 3 });
}
