#!/usr/bin/env node
// An executable that accepts the VS Code command line @vscode/test-electron's
// runTests passes (--extensionDevelopmentPath=…, --extensionTestsPath=…, a
// folder) and runs those tests in the local VS Code (code-server + Chromium).
// The test runner's mocha report arrives through the workbench's smoke-test
// driver hooks (codeAutomationLog/codeAutomationExit) and is printed here; the
// exit code is the tests' exit code. So runTests works unchanged on machines
// that cannot download VS Code.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setInterval } from 'node:timers';
import { format } from 'node:util';
import { codeServerEntry, nodeBin } from './provision.mjs';
import { launchChromium, logIn, makeScratch, removeScratch, scratchEnv, startCodeServer, workbenchUrl } from './workbench.mjs';

const argv = process.argv.slice(2);
const devPaths = [];
let testsPath;
let folder;
for (let i = 0; i < argv.length; i++) {
  const arg = argv[i];
  const [flag, inline] = arg.split(/=(.*)/s, 2);
  const value = () => (inline !== undefined ? inline : argv[++i]);
  if (flag === '--extensionDevelopmentPath') devPaths.push(value());
  else if (flag === '--extensionTestsPath') testsPath = value();
  else if (flag === '--user-data-dir' || flag === '--extensions-dir') value();
  else if (!arg.startsWith('-') && existsSync(arg)) folder = arg;
}

const timeoutMs = Number(process.env.OE_INTEGRATION_TIMEOUT_MS ?? 15 * 60_000);
const verbose = Boolean(process.env.OE_VERBOSE);
const scratch = makeScratch('test');
let server;
let browser;
let exitCode = 1;

async function cleanup() {
  await browser?.close().catch(() => {});
  server?.stop();
  removeScratch(scratch);
}

process.on('SIGINT', () => void cleanup().then(() => process.exit(130)));
process.on('SIGTERM', () => void cleanup().then(() => process.exit(143)));

try {
  // The package tier installs the real .vsix first, exactly as a user would.
  const vsix = process.env.OE_INSTALL_VSIX;
  if (vsix) {
    execFileSync(
      nodeBin,
      [
        codeServerEntry,
        '--install-extension',
        vsix,
        '--extensions-dir',
        join(scratch, 'extensions'),
        '--user-data-dir',
        join(scratch, 'user-data'),
      ],
      {
        stdio: verbose ? 'inherit' : 'ignore',
        env: { ...process.env, ...scratchEnv(scratch) },
      },
    );
  }
  // OE_WORKSPACE_TRUST=1 (scripts/run-integration.mjs restricted): trust on, the folder opens untrusted.
  const trust =
    process.env.OE_WORKSPACE_TRUST === '1'
      ? {
          workspaceTrust: true,
          userSettings: { 'security.workspace.trust.startupPrompt': 'never' },
        }
      : {};
  // Every window's extension host records itself here (src/testHooks.ts, recordWindow); a test
  // that writes SECOND_WINDOW into it gets a second window of this workbench: another page, so
  // another extension host, over the same user data (global state and storage), as a user's
  // second window. It loads the extension under development without the tests.
  const windowRecords = join(scratch, 'windows');
  mkdirSync(windowRecords, { recursive: true });
  server = await startCodeServer({
    scratch,
    log: (t) => verbose && process.stderr.write(t),
    ...trust,
    // The tests read the extension's log under this folder's logs (test/support/extensionLog.ts).
    env: { OE_TEST_WINDOW_RECORDS: windowRecords, OE_TEST_USER_DATA: join(scratch, 'user-data') },
  });
  const launched = await launchChromium({ scratch });
  browser = launched.browser;
  const { page } = launched;
  const done = new Promise((resolveDone) => {
    void page.exposeFunction('codeAutomationLog', (type, args) => {
      const line = format(...(Array.isArray(args) ? args : [args]));
      // The workbench's own warnings and errors (gallery look-ups that fail
      // offline, etc.) are noise here; mocha reports through console.log.
      if (type === 'log' || type === 'info') process.stdout.write(`${line}\n`);
      else if (verbose) process.stderr.write(`[${type}] ${line}\n`);
    });
    void page.exposeFunction('codeAutomationExit', (code) => resolveDone(Number(code)));
  });
  if (verbose) page.on('console', (m) => process.stderr.write(`[page] ${m.text()}\n`));
  await logIn(page, server);
  await page.goto(workbenchUrl(server, { folder, extensionDevelopmentPaths: devPaths, extensionTestsPath: testsPath }));
  // While SECOND_WINDOW exists a second window is open; when the test removes it, the window
  // closes (its extension host ends) and SECOND_WINDOW_CLOSED says so, so later suites run alone.
  let second;
  let busy = false;
  const secondWindow = setInterval(() => {
    if (busy) return;
    const wanted = existsSync(join(windowRecords, 'SECOND_WINDOW'));
    if (wanted === (second !== undefined)) return;
    busy = true;
    const change = wanted
      ? launched.context.newPage().then(async (opened) => {
          second = opened;
          await opened.goto(workbenchUrl(server, { folder, extensionDevelopmentPaths: devPaths }));
        })
      : second.close().then(() => {
          second = undefined;
          writeFileSync(join(windowRecords, 'SECOND_WINDOW_CLOSED'), '');
        });
    void change
      .catch((err) => process.stderr.write(`The second window: ${err instanceof Error ? err.message : String(err)}\n`))
      .finally(() => {
        busy = false;
      });
  }, 250);
  secondWindow.unref();
  const timer = new Promise((resolveTimeout) =>
    setTimeout(() => {
      process.stderr.write(`Integration tests did not finish within ${timeoutMs / 1000} s\n`);
      resolveTimeout(1);
    }, timeoutMs).unref(),
  );
  exitCode = await Promise.race([done, timer]);
} catch (err) {
  process.stderr.write(`Local VS Code failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  exitCode = 1;
} finally {
  await cleanup();
}
process.exit(exitCode);
