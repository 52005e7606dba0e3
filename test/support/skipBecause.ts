// A skipped test says why, in the run's output: mocha's reporters print a skipped test's title
// only, and the totals count it. scripts/test.mjs lists these lines again under its totals.
/** The line every skip prints; scripts/test.mjs collects lines that start with it. */
export const SKIP_PREFIX = 'skipped: ';

/** Skips the current test (or, from a hook, its suite), printing the reason first. */
export function skipBecause(context: Mocha.Context, reason: string): never {
  console.log(`  ${SKIP_PREFIX}${reason}`);
  context.skip();
}
