/**
 * Resolves once 10 timers in a row fire within 4 ms of when they were due (at
 * most 15 s): on two cores the workbench's start-up competes with the
 * extension host, so timings taken before that settle measure the machine.
 */
export async function settled(): Promise<void> {
  const deadline = Date.now() + 15_000;
  let calm = 0;
  while (calm < 10 && Date.now() < deadline) {
    const due = performance.now() + 20;
    await new Promise((resolve) => setTimeout(resolve, 20));
    calm = performance.now() - due < 4 ? calm + 1 : 0;
  }
}
