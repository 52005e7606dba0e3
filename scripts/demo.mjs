#!/usr/bin/env node
// `npm run demo`: the whole extension working within a minute, with no
// account anywhere. Builds the extension, starts the fake API with the demo
// data on 127.0.0.1, and opens a VS Code with the extension on a sample
// workspace, signed in to a "Demo" environment (fake credentials) once the
// sample folder is trusted: your own `code` when it is on PATH, else the local
// VS Code in the browser at a printed localhost address, behind a password
// printed beside it. Ctrl-C stops everything it started.
//   --local            use the local VS Code even when `code` is on PATH
//   --port N           port of the local VS Code (default: a free one)
//   --screenshot FILE  once up, save a screenshot of the workbench (headless
//                      Chromium) and stop
//   --try NAME         with --screenshot: first do one of the steps in
//                      scripts/demo/scenarios.mjs (e.g. wrong-password)
// The local VS Code runs without the smoke-test driver the tests use, so its
// notifications show on screen as they would for a user; without that driver
// the web workbench loads no extension under development, so the extension is
// packaged (`vsce package`) and installed into a scratch extensions folder.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { clearInterval, setInterval } from 'node:timers';
import { parseArgs } from 'node:util';
import { demoAddressLines, demoCodeServerOptions, trustSampleFolder, typePassword } from './demo/launch.mjs';
import { scenarios } from './demo/scenarios.mjs';
import { provision } from './vscode/provision.mjs';
import { installVsix, launchChromium, makeScratch, removeScratch, startCodeServer } from './vscode/workbench.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
const { values: opts } = parseArgs({
  options: { local: { type: 'boolean' }, port: { type: 'string' }, screenshot: { type: 'string' }, try: { type: 'string' } },
  strict: true,
});

if (opts.try && !(opts.try in scenarios)) {
  console.error(`--try: one of ${Object.keys(scenarios).join(', ')}`);
  process.exit(2);
}

const say = (msg) => console.log(`[demo] ${msg}`);
const workspace = join(root, 'test', 'fixtures', 'demo-workspace');
const bootstrap = join(root, 'scripts', 'demo', 'bootstrap');

say('building the extension and the fake API…');
execFileSync('node', ['esbuild.mjs'], { cwd: root, stdio: 'inherit' });
// The fake API is TypeScript under test/support; compile it (type errors elsewhere must not stop a demo).
spawnSync('npx', ['tsc', '-p', 'tsconfig.tests.json'], { cwd: root, stdio: 'ignore' });
const fake = require(join(root, 'out', 'test', 'support', 'fakeApi', 'index.js'));

// Unknown serial numbers get a 404, so the demo file shows "unknown" apart from "no events".
const api = await fake.startFakeApi({ data: fake.demoData(), ...fake.DEMO_FAKE_CONFIG });
const demo = {
  signIn: { apiBaseUrl: api.baseUrl, authUrl: api.authUrl, ...fake.DEMO_CREDENTIALS, environment: 'Demo' },
  // Pinned newest-first in the tree: the failing machine last, so the complete one leads.
  pin: [fake.DEMO_FAILING_SERIAL, fake.DEMO_SERIALS.templatedLinks, fake.DEMO_SERIALS.failed, fake.DEMO_SERIALS.completed],
  // Two machines being commissioned while you watch: one onboards, one fails, within a few minutes.
  watch: [fake.DEMO_WATCHED_SERIALS.completes, fake.DEMO_WATCHED_SERIALS.fails],
  // A file full of serial numbers, so hovers and links are one mouse move away.
  open: 'config/line3.yaml',
};
// Each onboarding plays from the first request for the machine on (the watch's first read), so
// however long the sign-in takes, the demo sees every step: one onboarded 46 min after it started
// (44 of them before the demo), one failing at the certificate step.
const plays = [
  [fake.DEMO_WATCHED_SERIALS.completes, fake.onboardingScript('completed', 30_000, 44 * 60_000)],
  [fake.DEMO_WATCHED_SERIALS.fails, fake.onboardingScript('failed', 25_000, 6 * 60_000)],
];
for (const [serial, steps] of plays) {
  // Known to the platform with no events yet (the demo answers 404 for unknown machines).
  api.setMachineEvents(serial, []);
  const waiting = setInterval(() => {
    if (api.eventRequests(serial).length === 0) return;
    clearInterval(waiting);
    fake.playOnboarding(api, serial, steps);
  }, 250);
  waiting.unref();
}
say('fake API (demo data, fake credentials, loopback only). To sign in again after signing out, use:');
// The same values `npm run fake-api` prints: clearly fake, for the local fake only.
console.log(
  [
    `  API base URL:      ${api.baseUrl}`,
    `  authorization URL: ${api.authUrl}`,
    `  client id:         ${fake.DEMO_CREDENTIALS.clientId}`,
    `  client secret:     ${fake.DEMO_CREDENTIALS.clientSecret}`,
    `  username:          ${fake.DEMO_CREDENTIALS.username}`,
    `  password:          ${fake.DEMO_CREDENTIALS.password}`,
  ].join('\n'),
);

const cleanups = [() => api.close()];
let stopping = false;
async function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  say('stopping…');
  for (const fn of cleanups.reverse()) await Promise.resolve(fn()).catch(() => {});
  process.exit(code);
}
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));
// A failure half-way must not leave a code-server or the fake API running.
process.on('uncaughtException', (error) => {
  console.error(error);
  void stop(1);
});

const env = { OE_DEMO_SIGN_IN: JSON.stringify(demo) };
const hasCode = !opts.local && spawnSync('sh', ['-c', 'command -v code'], { stdio: 'ignore' }).status === 0;

if (hasCode) {
  say('opening your VS Code (`code`) with the extension under development…');
  const child = spawn(
    'code',
    ['--new-window', `--extensionDevelopmentPath=${root}`, `--extensionDevelopmentPath=${bootstrap}`, workspace],
    {
      stdio: 'inherit',
      env: { ...process.env, ...env },
    },
  );
  child.on('exit', () => say('VS Code started; the demo API keeps running until Ctrl-C.'));
} else {
  provision();
  const scratch = makeScratch('demo');
  cleanups.push(() => removeScratch(scratch));
  // Packaged like a release (`vscode:prepublish` builds the production bundle),
  // installed with the demo's sign-in helper into the scratch extensions folder.
  say('packaging the extension (vsce package)…');
  const vsix = join(scratch, 'onboarding-events.vsix');
  const bootstrapVsix = join(scratch, 'demo-bootstrap.vsix');
  execFileSync('npx', ['vsce', 'package', '--no-dependencies', '--out', vsix], { cwd: root, stdio: 'ignore' });
  execFileSync('npx', ['vsce', 'package', '--no-dependencies', '--skip-license', '--allow-missing-repository', '--out', bootstrapVsix], {
    cwd: bootstrap,
    stdio: 'ignore',
  });
  installVsix(scratch, [vsix, bootstrapVsix]);
  const server = await startCodeServer({
    scratch,
    env,
    port: opts.port ? Number(opts.port) : undefined,
    ...demoCodeServerOptions,
  });
  cleanups.push(() => server.stop());
  const { url, text } = demoAddressLines(server, workspace);
  say('VS Code (local, in the browser) is ready. Open this address in a browser on this machine and enter the');
  say('VS Code password; the demo signs in once you trust the sample folder (Restricted Mode banner: Manage, Trust):');
  console.log(text);
  if (opts.screenshot) {
    const shotScratch = makeScratch('demo-shot');
    cleanups.push(() => removeScratch(shotScratch));
    const { browser, page } = await launchChromium({ scratch: shotScratch });
    // Anything the page asks of a host outside the loopback range is a bug of the demo set-up.
    const outside = new Set();
    const check = (request) => {
      const { protocol, hostname } = new URL(request.url());
      if (/^(https?|wss?):$/.test(protocol) && !/^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/.test(hostname)) outside.add(hostname);
    };
    // A webview's resources (*.vscode-resource.vscode-cdn.net) are answered by the
    // webview's service worker from the local server: only what reached the network counts.
    page.on('response', (response) => {
      if (!response.fromServiceWorker()) check(response.request());
    });
    page.on('requestfailed', check);
    try {
      await page.goto(url);
      await typePassword(page, server.password);
      await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
      await trustSampleFolder(page);
      // The sign-in helper starts only once the folder is trusted; its last steps open the demo's file and the view.
      await page
        .locator('.tab', { hasText: basename(demo.open) })
        .first()
        .waitFor({ state: 'visible', timeout: 60_000 });
      await page.waitForTimeout(Number(process.env.OE_DEMO_SETTLE_MS ?? 12_000));
      if (opts.try) await scenarios[opts.try](page, { api, credentials: fake.DEMO_CREDENTIALS });
    } catch (error) {
      // The picture of where it stuck is the best error report.
      await page.screenshot({ path: opts.screenshot }).catch(() => {});
      console.error(`[demo] ${error instanceof Error ? error.message : String(error)} (screenshot of that moment: ${opts.screenshot})`);
      await browser.close().catch(() => {});
      await stop(1);
    }
    await page.screenshot({ path: opts.screenshot });
    await browser.close();
    say(`screenshot saved to ${opts.screenshot}`);
    say(`requests to hosts outside the loopback range: ${outside.size === 0 ? 'none' : [...outside].join(', ')}`);
    await stop(outside.size === 0 ? 0 : 1);
  }
}
say('press Ctrl-C to stop the demo.');
