// Asks the Chromium driver (scripts/screenshots.mjs) for a screenshot of the
// whole workbench: the request travels as a console line through the
// smoke-test driver's log hook, and the PNG appearing on disk is the answer.
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function screenshotDir(): string {
  const dir = process.env['OE_SCREENSHOT_DIR'];
  if (!dir) throw new Error('OE_SCREENSHOT_DIR is not set: run scenarios through `npm run screenshots`.');
  return dir;
}

/** Waits for the UI to settle, then has the driver capture `<name>.png`. */
export async function snap(name: string, settleMs = 1200): Promise<string> {
  if (!/^[a-z0-9-]+$/.test(name)) throw new Error(`screenshot names are kebab-case: ${name}`);
  const file = join(screenshotDir(), `${name}.png`);
  // A PNG from an earlier run must not count as this run's answer.
  rmSync(file, { force: true });
  await sleep(settleMs);
  console.log(`[[oe-screenshot:${name}]]`);
  for (let waited = 0; waited < 20_000; waited += 100) {
    if (existsSync(file)) return file;
    await sleep(100);
  }
  throw new Error(`the driver did not write ${file}`);
}
