#!/usr/bin/env node
// `npm test`: builds, type-checks and lints, then runs both tiers —
// unit tests under plain mocha, and integration tests inside a real VS Code
// extension host (plus the packaged .vsix installed into that VS Code) — and
// ends with the totals. Any failure makes the exit code non-zero. Before the
// first tier it installs what the tests need and this machine lacks (Debian
// packages, then the local VS Code before the extension-host tiers), or stops
// at once with the one command to run: on Linux a test never skips for a
// missing part. Off Linux it installs nothing: the unit tests that need a tool
// the machine lacks are left out, each named with the reason.
//   --unit          only the unit tier
//   --integration   only the extension-host tiers
//   --cli           only the tier of the built oe command (dist/oe.js)
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { ensureDebianPackages, testPackages } from './vscode/provision.mjs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const only = process.argv.includes('--unit')
  ? 'unit'
  : process.argv.includes('--integration')
    ? 'integration'
    : process.argv.includes('--cli')
      ? 'cli'
      : 'all';

/** Runs a command, echoing its output, and returns { code, output }. */
function run(cmd, args, env = {}) {
  return new Promise((resolve) => {
    // npm and npx are .cmd files on Windows, which only a shell runs.
    const child = spawn(cmd, args, {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      shell: process.platform === 'win32',
    });
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
      process.stdout.write(d);
    });
    child.stderr.on('data', (d) => {
      output += d;
      process.stderr.write(d);
    });
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

function step(title) {
  console.log(`\n━━ ${title}`);
}

const results = [];
const startedAt = Date.now();

/** Mocha's spec reporter ends with "N passing" / "N failing" / "N pending". */
function mochaCounts(output) {
  const num = (re) => Number(re.exec(output)?.[1] ?? 0);
  return { passed: num(/(\d+) passing/), failed: num(/(\d+) failing/), skipped: num(/(\d+) pending/) };
}

/** Why tests were skipped: each skip prints "skipped: <reason>" (test/support/skipBecause.ts), listed again with the totals. */
const skipReasons = (output) => [...new Set([...output.matchAll(/^\s*(?:\[\w+\] )?skipped: (.+)$/gm)].map((m) => m[1].trim()))];

/** The extension-host suites print "[label] N passed, N failed, N skipped". */
function hostCounts(output, label) {
  const m = new RegExp(`\\[${label}\\] (\\d+) passed, (\\d+) failed, (\\d+) skipped`).exec(output);
  return m ? { passed: Number(m[1]), failed: Number(m[2]), skipped: Number(m[3]) } : undefined;
}

async function gate(title, cmd, args) {
  step(title);
  const { code } = await run(cmd, args);
  if (code !== 0) {
    results.push({ tier: title, passed: 0, failed: 1, skipped: 0, note: 'did not pass' });
    return false;
  }
  return true;
}

// The Debian packages first, all in one apt-get: the unit tier already needs
// Chromium (the board's axe-core audit), openssl, Squid and mitmproxy; the
// extension-host tiers need libkrb5-dev to build the local VS Code, which
// scripts/run-integration.mjs provisions when no VS Code is downloaded or given.
// Off Linux there is no apt-get: what the machine has (its own package manager
// installed it, see .github/workflows/ci.yml) is used, and the unit tests that
// need what it lacks are left out, each named with the reason.
const leftOut = [];
try {
  const localVSCode =
    (only === 'integration' || only === 'all') && !process.env.OE_VSCODE_EXECUTABLE && process.env.OE_VSCODE !== 'download';
  if (process.platform === 'linux') ensureDebianPackages(testPackages({ localVSCode }));
  else
    for (const missing of testPackages({ localVSCode: false }).filter((p) => !p.present())) {
      const reason = `on ${process.platform}, no ${missing.name} (${missing.why}): ${missing.tests.join(', ')} run in the Linux job only`;
      console.log(`skipped: ${reason}`);
      leftOut.push({ reason, tests: missing.tests });
    }
} catch (err) {
  console.error(`npm test: ${err instanceof Error ? err.message : String(err)}`);
  console.log('0 passed, 1 failed, 0 skipped');
  process.exit(1);
}

let ok = true;
ok = (await gate('build (esbuild)', 'node', ['esbuild.mjs'])) && ok;
// A compiled test whose source was deleted would still run from out/: start clean.
rmSync(new URL('../out', import.meta.url), { recursive: true, force: true });
ok = (await gate('type check and compile tests (tsc)', 'npx', ['tsc', '-p', 'tsconfig.tests.json'])) && ok;
ok = (await gate('lint (eslint)', 'npx', ['eslint', '.'])) && ok;
ok = (await gate('format (prettier --check)', 'npx', ['prettier', '--check', '.'])) && ok;

if (only === 'unit' || only === 'all') {
  step('unit tests (mocha)');
  const ignored = [...new Set(leftOut.flatMap((left) => left.tests))];
  const { code, output } = await run('npx', ['mocha', ...ignored.flatMap((test) => ['--ignore', test])]);
  const counts = mochaCounts(output);
  if (code !== 0 && counts.failed === 0) counts.failed = 1;
  results.push({ tier: 'unit', ...counts, reasons: [...leftOut.map((left) => left.reason), ...skipReasons(output)] });
}

if (only === 'cli' || only === 'all') {
  step('cli (the built oe against the fake API)');
  // Its own spec, not .mocharc.json's (the unit tier): the tests run dist/oe.js as a child process.
  const { code, output } = await run('npx', ['mocha', '--no-config', '--timeout', '60000', '--exit', 'out/test/cli/**/*.test.js']);
  const counts = mochaCounts(output);
  if (code !== 0 && counts.failed === 0) counts.failed = 1;
  results.push({ tier: 'cli', ...counts, reasons: skipReasons(output) });
}

/** Runs one extension-host suite (scripts/run-integration.mjs <suite>) and records its counts. */
async function hostTier(suite, env = {}) {
  const { code, output } = await run('node', ['scripts/run-integration.mjs', suite], env);
  const counts = hostCounts(output, suite) ?? { passed: 0, failed: 1, skipped: 0, note: 'the extension host reported no result' };
  if (code !== 0 && counts.failed === 0) counts.failed = 1;
  results.push({ tier: suite, ...counts, reasons: skipReasons(output) });
}

if (only === 'integration' || only === 'all') {
  step('integration tests (extension host)');
  await hostTier('integration');

  step('Restricted Mode (extension host, workspace trust on, untrusted folder)');
  await hostTier('restricted');

  step('two windows of one VS Code (extension hosts sharing global state)');
  await hostTier('windows');

  step('pseudo-locale (extension host in qps-ploc: no English left in the views)');
  await hostTier('pseudo', { OE_LOCALE: 'qps-ploc' });

  step('package (.vsix) and test the installed package (extension host)');
  const pack = await run('npm', ['run', '--silent', 'package']);
  if (pack.code !== 0) results.push({ tier: 'package', passed: 0, failed: 1, skipped: 0, note: 'vsce package failed' });
  else await hostTier('package');
}

console.log(`\n━━ totals (npm test took ${Math.round((Date.now() - startedAt) / 1000)} s)`);
for (const r of results) {
  console.log(`${r.tier}: ${r.passed} passed, ${r.failed} failed, ${r.skipped} skipped${r.note ? ` (${r.note})` : ''}`);
  for (const reason of r.reasons ?? []) console.log(`  skipped: ${reason}`);
  if (r.skipped > 0 && !(r.reasons?.length > 0)) console.log('  skipped without a reason printed: see the tier output above');
}
const total = results.reduce((a, r) => ({ passed: a.passed + r.passed, failed: a.failed + r.failed, skipped: a.skipped + r.skipped }), {
  passed: 0,
  failed: 0,
  skipped: 0,
});
console.log(`${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(total.failed > 0 || !ok ? 1 : 0);
