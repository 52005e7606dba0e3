// Starts a real VS Code workbench on this machine: code-server (VS Code for the
// web with a Node extension host) on 127.0.0.1, opened in Debian's Chromium
// through playwright-core. Used by the integration tests (via the executable
// stand-in that @vscode/test-electron's runTests spawns), by the screenshots
// and by the demo. See ../../CONTRIBUTING.md, "How tests find a VS Code".
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { languagePackVsix, registerLanguagePack } from './languagePack.mjs';
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
  // OE_SCRATCH_DIR: a shorter base where the checkout's path is long (Chromium's socket path must stay under 108 bytes).
  const base = process.env.OE_SCRATCH_DIR ?? join(root, '.vscode-test', 'scratch');
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

/** A password for one code-server run: 192 random bits, URL- and YAML-safe. */
export function newPassword() {
  return randomBytes(24).toString('base64url');
}

/**
 * What code-server is started with, apart from starting it so a unit test can
 * read it. Always password auth: code-server's origin check compares Origin
 * with Host, so without a password a web page that rebinds its DNS name to
 * 127.0.0.1 (or any local user) would get a VS Code with a terminal. The
 * password goes in the config file (owner-only), not in PASSWORD: code-server
 * leaves that variable set, and every extension host and terminal would
 * inherit it.
 */
export function codeServerLaunch({ scratch, port, password, workspaceTrust = false, testDriver = true, locale }) {
  const configFile = join(scratch, 'config', 'code-server.yaml');
  const config = `auth: password\npassword: "${password}"\ncert: false\n`;
  const args = [
    codeServerEntry,
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--auth',
    'password',
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
    // A closed test page's extension host ends within seconds, not after the default 3 hours: a
    // second window a test opened and closed must not go on acting under later suites.
    ...(testDriver ? ['--reconnection-grace-time', '5'] : []),
    ...(locale ? ['--locale', locale] : []),
  ];
  return { args, configFile, config };
}

/**
 * Starts code-server in its own process group. Returns { url, port, password, stop }.
 * `env` reaches the extension host (it inherits code-server's environment).
 * `testDriver`: the smoke-test driver, which the tests need (it makes the web
 * workbench load extensionDevelopmentPath/extensionTestsPath and report
 * through codeAutomationLog/Exit) but which also hides every notification
 * toast. A workbench a person looks at (the demo) runs without it and loads
 * the extension from an installed .vsix instead (installVsix).
 *
 * `workspaceTrust: true` leaves workspace trust on (a fresh folder opens in
 * Restricted Mode until the person trusts it): the demo, and the suite that
 * tests Restricted Mode. The tests' throwaway workbenches turn it off.
 * Every browser must log in first (logIn).
 */
export async function startCodeServer({
  scratch,
  userSettings = {},
  env = {},
  log = () => {},
  port: wantedPort,
  workspaceTrust = false,
  testDriver = true,
  // The display language (de, zh-cn, qps-ploc); default English. See languagePack.mjs.
  locale = process.env.OE_LOCALE,
}) {
  provision();
  if (locale && locale !== 'en') {
    installVsix(scratch, [languagePackVsix(scratch, locale)]);
    registerLanguagePack(scratch, locale);
  }
  const port = wantedPort ?? (await freePort());
  const password = newPassword();
  const userDir = join(scratch, 'user-data', 'User');
  mkdirSync(userDir, { recursive: true });
  const trust = workspaceTrust ? { 'security.workspace.trust.enabled': true } : {};
  writeFileSync(join(userDir, 'settings.json'), JSON.stringify({ ...defaultUserSettings, ...trust, ...userSettings }, null, 2));
  const { args, configFile, config } = codeServerLaunch({ scratch, port, password, workspaceTrust, testDriver, locale });
  writeFileSync(configFile, config, { mode: 0o600 });
  // A PASSWORD or HASHED_PASSWORD in the caller's environment would replace ours.
  const inherited = { ...process.env };
  delete inherited.PASSWORD;
  delete inherited.HASHED_PASSWORD;
  const child = spawn(nodeBin, args, {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...inherited,
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
  return { url: `http://127.0.0.1:${port}`, port, password, stop, child };
}

/**
 * Logs a browser context in to code-server, as its login form would: the
 * session cookie then opens every workbench address of this server.
 */
export async function logIn(page, server) {
  const response = await page.request.post(`${server.url}/login`, { form: { password: server.password }, maxRedirects: 0 });
  if (response.status() !== 302) throw new Error(`code-server refused the login (HTTP ${response.status()})`);
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
    // The MCP channel's directory (src/core/agents/channel.ts): this run's windows only, never the user's home.
    ONBOARDING_EVENTS_MCP_DIR: join(scratch, 'mcp'),
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
