import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Mocha from 'mocha';
import { installLogGate } from './extensionLog';

function findTests(dir: string, suffix: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return findTests(full, suffix);
    return name.endsWith(suffix) ? [full] : [];
  });
}

/** Runs the mocha tests under `dir` inside the extension host and rejects when any failed, or logged an error it did not declare. */
export function runMochaSuite(dir: string, label: string, suffix = '.test.js', timeout = 20_000): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout, reporter: 'spec' });
  const grep = process.env['OE_TEST_GREP'];
  if (grep) mocha.grep(grep);
  installLogGate(mocha, label);
  for (const file of findTests(dir, suffix).sort()) mocha.addFile(file);
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      const { passes = 0, failures: failed = 0, pending = 0 } = runner.stats ?? {};
      console.log(`[${label}] ${passes} passed, ${failed} failed, ${pending} skipped`);
      if (failures > 0) reject(new Error(`${failures} ${label} test(s) failed`));
      else resolve();
    });
  });
}
