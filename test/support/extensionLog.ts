// The extension's own log (its LogOutputChannel "Onboarding Events") as a test
// reads it: the file VS Code writes under the user-data folder's logs, one per
// extension host (<logs>/<session>/…/onboarding-events.onboarding-events/
// Onboarding Events.log). The runner names that folder in OE_TEST_USER_DATA
// (scripts/run-integration.mjs, scripts/vscode/code-stand-in.mjs).
//
// The gate every extension-host tier runs (installLogGate, from
// runMochaSuite): a test fails when an `[error]` line it did not declare with
// expectLogError appeared in the log while it ran; lines left after the last
// test fail the run. The product knows nothing of it.
import { existsSync, openSync, readSync, closeSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type Mocha from 'mocha';

const EXTENSION_ID = 'onboarding-events.onboarding-events';
const LOG_FILE = 'Onboarding Events.log';
/** How long a test that declared an error waits for its line (the extension host writes its log a little later). */
const EXPECTED_WAIT_MS = 3000;
/** How long the run waits at its end for lines still being written. */
const FINAL_WAIT_MS = 500;

/** The logs folder of the VS Code under test, or undefined when the runner named none. */
function logsFolder(): string | undefined {
  const userData = process.env['OE_TEST_USER_DATA'];
  return userData === undefined || userData === '' ? undefined : join(userData, 'logs');
}

/** Every "Onboarding Events.log" under `dir` (each extension host of the run writes its own). */
function findLogFiles(dir: string, depth = 0): string[] {
  if (depth > 6 || !existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) return findLogFiles(full, depth + 1);
    return entry.name === LOG_FILE && dir.endsWith(EXTENSION_ID) ? [full] : [];
  });
}

/** Reads what the log files gained since the last read: one reader per run, starting at the sizes it first saw. */
export class ExtensionLogReader {
  private readonly offsets = new Map<string, number>();

  constructor(private readonly folder: string) {
    // What earlier runs in the same user data wrote is not this run's.
    for (const file of findLogFiles(folder)) this.offsets.set(file, statSync(file).size);
  }

  /** The complete lines written since the last call (a line still being written waits for the next call). */
  newLines(): string[] {
    const lines: string[] = [];
    for (const file of findLogFiles(this.folder)) {
      const from = this.offsets.get(file) ?? 0;
      const size = statSync(file).size;
      if (size <= from) continue;
      const buffer = Buffer.alloc(size - from);
      const fd = openSync(file, 'r');
      try {
        readSync(fd, buffer, 0, buffer.length, from);
      } finally {
        closeSync(fd);
      }
      const text = buffer.toString('utf8');
      const end = text.lastIndexOf('\n') + 1;
      this.offsets.set(file, from + Buffer.byteLength(text.slice(0, end), 'utf8'));
      lines.push(
        ...text
          .slice(0, end)
          .split('\n')
          .filter((line) => line !== ''),
      );
    }
    return lines;
  }
}

/** An error line of the log: `2026-01-01 10:00:00.000 [error] …`. */
export const isErrorLine = (line: string): boolean => /^\S+ \S+ \[error\] /.test(line);

let reader: ExtensionLogReader | undefined;
let running: Mocha.Runnable | undefined;
const allowed = new WeakMap<Mocha.Runnable | Mocha.Suite, RegExp[]>();

/**
 * Declares that an `[error]` line matching `pattern` is logged on purpose: by the running test, or, given a suite
 * (`this` in a describe callback), by any test or hook of it. A test that declares one waits for it a moment.
 */
export function expectLogError(pattern: RegExp, suite?: Mocha.Suite): void {
  const owner = suite ?? running;
  if (owner === undefined) throw new Error('expectLogError is called inside a test, or with the suite it is for');
  allowed.set(owner, [...(allowed.get(owner) ?? []), pattern]);
}

/** The patterns declared for a test and every suite around it. */
function patternsFor(test: Mocha.Runnable | undefined): RegExp[] {
  const patterns: RegExp[] = [];
  if (test === undefined) return patterns;
  patterns.push(...(allowed.get(test) ?? []));
  for (let suite: Mocha.Suite | undefined = test.parent; suite !== undefined; suite = suite.parent)
    patterns.push(...(allowed.get(suite) ?? []));
  return patterns;
}

/** The error lines among `lines` that none of `patterns` declares. */
export function unexpectedErrors(lines: readonly string[], patterns: readonly RegExp[]): string[] {
  return lines.filter((line) => isErrorLine(line) && !patterns.some((pattern) => pattern.test(line)));
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function failure(lines: readonly string[], where: string): Error {
  return new Error(
    `The extension's log has ${lines.length} [error] line(s) ${where} that no test declared (expectLogError in test/support/extensionLog.ts):\n` +
      lines.map((line) => `      ${line}`).join('\n'),
  );
}

/**
 * Installs the gate on a mocha run: each test is checked right after its body, against its own declarations
 * and those of the test before it (a line its after hooks or the extension host wrote late); the run fails on
 * lines left at its end. Without OE_TEST_USER_DATA it says it checks nothing, once.
 */
export function installLogGate(mocha: Mocha, label: string): void {
  const folder = logsFolder();
  if (folder === undefined) {
    console.log(`[${label}] the extension's log is not checked: OE_TEST_USER_DATA names no user-data folder`);
    return;
  }
  reader = new ExtensionLogReader(folder);
  let previous: Mocha.Runnable | undefined;
  let undeclared = 0;
  const check = async (test: Mocha.Runnable): Promise<void> => {
    const own = patternsFor(test);
    const patterns = [...own, ...patternsFor(previous)];
    let lines = reader?.newLines() ?? [];
    // A declared line may still be on its way to the file: wait for it rather than blame the next test.
    const started = Date.now();
    while (allowed.has(test) && !(allowed.get(test) ?? []).every((p) => lines.some((line) => p.test(line)))) {
      if (Date.now() - started > EXPECTED_WAIT_MS) break;
      await sleep(50);
      lines = [...lines, ...(reader?.newLines() ?? [])];
    }
    previous = test;
    const unexpected = unexpectedErrors(lines, patterns);
    undeclared += unexpected.length;
    if (unexpected.length > 0) throw failure(unexpected, 'during this test or right before it');
  };
  mocha.suite.beforeEach(function () {
    const test = this.currentTest;
    if (test === undefined) return;
    running = test;
    const body = test.fn;
    // A callback-style test (done) keeps its body; its lines are then checked with the next test.
    if (body === undefined || body.length > 0 || (body as { gated?: true }).gated) return;
    const gated = async function (this: Mocha.Context): Promise<void> {
      try {
        await (body as (this: Mocha.Context) => unknown).call(this);
      } catch (error) {
        // The test failed already: its own lines are not the next test's to answer for.
        reader?.newLines();
        previous = test;
        throw error;
      }
      await check(test);
    };
    test.fn = Object.assign(gated, { gated: true as const });
  });
  mocha.suite.afterAll(async function () {
    running = undefined;
    await sleep(FINAL_WAIT_MS);
    const unexpected = unexpectedErrors(reader?.newLines() ?? [], patternsFor(previous));
    if (unexpected.length > 0) throw failure(unexpected, 'after the last test');
    // A gate that found no log checked nothing: the extension writes its log from activation on.
    const files = findLogFiles(folder);
    if (files.length === 0 && previous !== undefined)
      throw new Error(`The extension's log was not found under ${folder}: the log gate checked nothing`);
    console.log(`[${label}] the extension's log (${files.length} file(s)): ${undeclared} [error] line(s) no test declared`);
  });
}

/** A reader of the lines written from now on, for a test that looks at the log itself (the gate reads on its own). */
export function readLogFromNow(): ExtensionLogReader {
  const folder = logsFolder();
  if (folder === undefined) throw new Error("The extension's log is not found: OE_TEST_USER_DATA names no user-data folder");
  return new ExtensionLogReader(folder);
}
