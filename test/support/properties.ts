// Settings shared by every fast-check property of the unit tier. The seed is
// fixed so a run is repeatable; fast-check prints it (with the shrunk
// counterexample and its path) when a property fails, and FC_SEED=<seed>
// replays that run. FC_RUNS raises the number of cases for a longer hunt.
import fc from 'fast-check';

const DEFAULT_SEED = 18;
const DEFAULT_RUNS = 200;

function envInteger(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isSafeInteger(value) ? value : fallback;
}

export const PROPERTY_SEED = envInteger('FC_SEED', DEFAULT_SEED);
export const PROPERTY_RUNS = envInteger('FC_RUNS', DEFAULT_RUNS);

fc.configureGlobal({ seed: PROPERTY_SEED, numRuns: PROPERTY_RUNS, endOnFailure: false, includeErrorInReport: true });

/** fc.assert with the shared seed, and a failure message that says how to replay it. */
export function holds<Ts extends [unknown, ...unknown[]]>(
  property: fc.IProperty<Ts> | fc.IAsyncProperty<Ts>,
  parameters: fc.Parameters<Ts> = {},
): void | Promise<void> {
  const replay = (error: unknown): never => {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(
      `${message}\nReplay with FC_SEED=${parameters.seed ?? PROPERTY_SEED} (npm run test:unit, or npx mocha after compiling).`,
    );
  };
  try {
    const result = fc.assert(property as fc.IRawProperty<Ts>, parameters);
    return result instanceof Promise ? result.catch(replay) : result;
  } catch (error) {
    return replay(error);
  }
}

export { fc };
