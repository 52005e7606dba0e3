#!/usr/bin/env node
// `npm run screenshots`: opens the extension in the local VS Code with
// Chromium, runs the scenarios in test/screenshots (they drive the real
// extension and call snap()), and writes PNGs of the whole workbench to
// media/screenshots/ (or OE_SCREENSHOT_DIR). Look at every picture.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format } from 'node:util';
import { launchChromium, logIn, makeScratch, removeScratch, startCodeServer, workbenchUrl } from './vscode/workbench.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = resolve(process.env.OE_SCREENSHOT_DIR ?? join(root, 'media', 'screenshots'));
const grep = process.argv[2];

if (!process.env.OE_SKIP_BUILD) {
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
  execFileSync('npx', ['tsc', '-p', 'tsconfig.tests.json'], { cwd: root, stdio: 'inherit' });
}
mkdirSync(outDir, { recursive: true });

const scratch = makeScratch('shots');
const server = await startCodeServer({
  scratch,
  userSettings: { 'editor.fontSize': 14, 'window.zoomLevel': 0 },
  env: { OE_SCREENSHOT_DIR: outDir, ...(grep ? { OE_TEST_GREP: grep } : {}) },
});
const { browser, page } = await launchChromium({ scratch });
let exitCode = 1;
try {
  const done = new Promise((resolveDone) => {
    void page.exposeFunction('codeAutomationExit', (code) => resolveDone(Number(code)));
  });
  await page.exposeFunction('codeAutomationLog', async (type, args) => {
    const line = format(...(Array.isArray(args) ? args : [args]));
    const match = /\[\[oe-screenshot:([a-z0-9-]+)\]\]/.exec(line);
    if (match) {
      const file = join(outDir, `${match[1]}.png`);
      rmSync(`${file}.tmp.png`, { force: true });
      await page.screenshot({ path: `${file}.tmp.png` });
      // Rename so the scenario never sees a half-written file.
      execFileSync('mv', [`${file}.tmp.png`, file]);
      console.log(`wrote ${file}`);
      return;
    }
    if (type === 'log' || type === 'info' || process.env.OE_VERBOSE) console.log(line);
  });
  await logIn(page, server);
  await page.goto(
    workbenchUrl(server, {
      folder: join(root, 'test', 'fixtures', 'workspace'),
      extensionDevelopmentPaths: [root],
      extensionTestsPath: join(root, 'out', 'test', 'screenshots', 'index.js'),
    }),
  );
  exitCode = await Promise.race([done, new Promise((r) => setTimeout(() => r(1), 10 * 60_000).unref())]);
} finally {
  await browser.close().catch(() => {});
  server.stop();
  removeScratch(scratch);
}
process.exit(exitCode);
